//===- CooperativeGroupsTest.cpp - cooperative_groups on the prelude ------===//
//
// The group model (interp/models/CooperativeGroups.cpp) on the built-in
// prelude's <cooperative_groups.h> (runOnCode parses without a toolkit;
// fixtures/analyzer/cooperative_groups.cu runs the same kernels on the
// toolkit's headers): one fact per test.
//
//===----------------------------------------------------------------------===//

#include "RunOnCode.h"

#include <gtest/gtest.h>

using namespace cal;
using namespace cal::test;

namespace {

/// \p Kernels after the include, launched by \p Launch (host statements).
std::string code(const std::string &Kernels, const std::string &Launch) {
  return "#include <cooperative_groups.h>\n"
         "namespace cg = cooperative_groups;\n" +
         Kernels + "\nvoid launch(float *out, const float *in, int n) {\n" +
         Launch + "\n}\n";
}

std::array<int64_t, WarpSize> relative(const SnippetAccess &A) {
  std::array<int64_t, WarpSize> R{};
  if (A.LaneOffsets)
    for (unsigned L = 0; L < WarpSize; ++L)
      R[L] = (*A.LaneOffsets)[L] - (*A.LaneOffsets)[0];
  return R;
}

// `for (i = warp.thread_rank(); i < cols; i += warp.size())`: a loop whose
// counter steps by 32 for every lane, lanes one float apart.
TEST(CooperativeGroups, WarpStrideLoopOverATile) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void rows(const float *in, float *out, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  float acc = 0.f;
  for (int i = warp.thread_rank(); i < cols; i += warp.size())
    acc += in[row * cols + i];
  out[row] = acc;
})cu",
                                   "  rows<<<n / 8, 256>>>(in, out, 4096);"));
  ASSERT_TRUE(R.Parsed) << R.Log;
  SnippetAccess In = R.one("in");
  ASSERT_TRUE(In.AddressKnown) << In.UnknownReason;
  EXPECT_EQ(In.LaneStrideBytes, std::optional<int64_t>(4));
  EXPECT_EQ(In.SectorsPerRequest, std::optional<double>(4));
  ASSERT_EQ(In.Loops.size(), 1u);
  EXPECT_EQ(In.Loops[0].Trip, std::optional<int64_t>(128));
  EXPECT_EQ(In.Loops[0].StrideBytes, std::optional<int64_t>(128));
  // The row is the tile's index: the same for a warp's lanes.
  EXPECT_EQ(R.one("out").LaneStrideBytes, std::optional<int64_t>(0));
}

// tiled_partition(block, 16) returns a thread_group: its size, 16, goes
// with the value.
TEST(CooperativeGroups, RuntimePartitionSizeTravelsWithTheGroup) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void rows_dyn(const float *in, float *out, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 16);
  int r = blockIdx.x * (block.size() / tile.size()) +
          block.thread_rank() / tile.size();
  out[r * 64 + tile.thread_rank()] = 1.f;
})cu",
                                   "  rows_dyn<<<n, 256>>>(in, out, 64);"));
  SnippetAccess Out = R.one("out");
  ASSERT_TRUE(Out.AddressKnown) << Out.UnknownReason;
  std::array<int64_t, WarpSize> Rel = relative(Out);
  for (unsigned L = 0; L < WarpSize; ++L)
    EXPECT_EQ(Rel[L], 4 * int64_t(L / 16 * 64 + L % 16)) << "lane " << L;
}

TEST(CooperativeGroups, ATileSizeCudaRejectsIsUnknown) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void odd(float *out, int n) {
  cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 24);
  out[g.thread_rank()] = 1.f;
})cu",
                                   "  odd<<<n, 256>>>(out, n);"));
  EXPECT_EQ(R.one("out").UnknownReason,
            "`cg::tiled_partition(cg::this_thread_block(), 24)`: a tile of "
            "24 threads (CUDA takes a power of two up to 32)");
}

// coalesced_threads() with every lane active: the lane's index; under a
// branch the lanes decide: the count of active lanes below this one.
TEST(CooperativeGroups, CoalescedRankIsTheCountOfActiveLanesBelow) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void co(float *out) {
  cg::coalesced_group all = cg::coalesced_threads();
  out[all.thread_rank()] = 1.f;
  if (threadIdx.x % 4 == 1) {
    cg::coalesced_group some = cg::coalesced_threads();
    out[512 + some.thread_rank() * 32 + some.size()] = 2.f;
  }
})cu",
                                   "  co<<<n, 256>>>(out);"));
  std::vector<SnippetAccess> Out = R.of("out");
  ASSERT_EQ(Out.size(), 2u) << R.Log;
  EXPECT_EQ(Out[0].LaneStrideBytes, std::optional<int64_t>(4));
  ASSERT_TRUE(Out[1].LaneOffsets) << Out[1].UnknownReason;
  EXPECT_EQ(Out[1].ActiveLanes, 8u);
  // Ranks 0..7 on lanes 1, 5, ... 29 (the offsets are the lanes' own,
  // less the first active lane's).
  for (unsigned L = 1; L < WarpSize; L += 4)
    EXPECT_EQ((*Out[1].LaneOffsets)[L] - (*Out[1].LaneOffsets)[1],
              4 * int64_t(L / 4 * 32))
        << "lane " << L;
  EXPECT_EQ(Out[1].Symbolic,
            "4*((some.size()) + 32*(some.thread_rank()) + 512)");
}

// A branch on a loaded value: which lanes run is not known.
TEST(CooperativeGroups, CoalescedUnderADataDependentBranchIsUnknown) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void co(float *out, const float *in) {
  if (in[threadIdx.x] > 0.f) {
    cg::coalesced_group g = cg::coalesced_threads();
    out[g.thread_rank()] = 1.f;
  }
})cu",
                                   "  co<<<n, 256>>>(out, in);"));
  EXPECT_EQ(R.one("out").UnknownReason,
            "the lanes active at `cg::coalesced_threads()` are not known: a "
            "branch around it is not decided per lane");
}

// A tile's thread_rank() and meta_group_rank() through a nested partition
// and a group passed by reference.
TEST(CooperativeGroups, NestedTilesAndGroupsPassedToFunctions) {
  SnippetResult R = runOnCode(code(R"cu(
__device__ void put(const cg::thread_block_tile<16> &h, float *out) {
  out[h.meta_group_rank() * 64 + h.thread_rank()] = 1.f;
}
__global__ void nest(float *out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  put(cg::tiled_partition<16>(warp), out);
})cu",
                                   "  nest<<<n, 256>>>(out);"));
  SnippetAccess Out = R.one("out");
  ASSERT_TRUE(Out.AddressKnown) << Out.UnknownReason;
  std::array<int64_t, WarpSize> Rel = relative(Out);
  for (unsigned L = 0; L < WarpSize; ++L)
    EXPECT_EQ(Rel[L], 4 * int64_t(L / 16 * 64 + L % 16)) << "lane " << L;
}

// A tile whose value was not followed (default-constructed here): its
// static type gives its rank and size, not its place in its parent.
TEST(CooperativeGroups, ATileOfUnknownOriginKnowsOnlyItsRank) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void t(float *out) {
  cg::thread_block_tile<8> q;
  out[q.thread_rank()] = 1.f;
  out[256 + q.meta_group_rank()] = 2.f;
})cu",
                                   "  t<<<n, 256>>>(out);"));
  std::vector<SnippetAccess> Out = R.of("out");
  ASSERT_EQ(Out.size(), 2u) << R.Log;
  ASSERT_TRUE(Out[0].AddressKnown) << Out[0].UnknownReason;
  EXPECT_EQ(relative(Out[0])[9], 4);
  EXPECT_FALSE(Out[1].AddressKnown);
  EXPECT_EQ(Out[1].UnknownReason,
            "the place of a `cg::thread_block_tile<8>` in its parent is not "
            "known");
}

// thread_block's dim3 members and the grid's ranks.
TEST(CooperativeGroups, BlockIndicesAndGridRank) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void g(float *out) {
  cg::thread_block b = cg::this_thread_block();
  out[b.group_index().x * b.group_dim().x + b.thread_index().x] = 1.f;
  out[cg::this_grid().thread_rank() + 7] = 2.f;
})cu",
                                   "  g<<<n, 128>>>(out);"));
  std::vector<SnippetAccess> Out = R.of("out");
  ASSERT_EQ(Out.size(), 2u) << R.Log;
  EXPECT_EQ(Out[0].Symbolic, "4*(128*blockIdx.x + threadIdx.x)");
  EXPECT_EQ(Out[0].SectorsPerRequest, std::optional<double>(4));
  EXPECT_EQ(Out[1].LaneStrideBytes, std::optional<int64_t>(4));
  EXPECT_EQ(Out[1].SectorsPerRequest, std::optional<double>(5));
}

// meta_group_size() of 32-thread tiles in a block of 256 threads: 8, the
// same for every lane; meta_group_rank(): the warp's index, tid / 32.
TEST(CooperativeGroups, MetaGroupSizeOfWarpTilesIsTheBlocksWarps) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void m(float *out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  out[warp.meta_group_size()] = 1.f;
})cu",
                                   "  m<<<n, 256>>>(out);"));
  SnippetAccess Out = R.one("out");
  ASSERT_TRUE(Out.AddressKnown) << Out.UnknownReason;
  EXPECT_EQ(Out.Symbolic, "32");
  EXPECT_EQ(Out.LaneStrideBytes, std::optional<int64_t>(0));
}

// In a 32 x 8 block, the linear rank is threadIdx.x + 32 * threadIdx.y (+
// 256 * threadIdx.z, 0 here): a warp tile's meta_group_rank() is
// threadIdx.y, its thread_rank() threadIdx.x.
TEST(CooperativeGroups, MetaGroupRankInATwoDimensionalBlock) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void m(float *out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  out[warp.meta_group_rank() * 1000 + warp.thread_rank()] = 1.f;
})cu",
                                   "  m<<<n, dim3(32, 8)>>>(out);"));
  SnippetAccess Out = R.one("out");
  ASSERT_TRUE(Out.AddressKnown) << Out.UnknownReason;
  EXPECT_EQ(Out.Symbolic,
            "4*(threadIdx.x + 1000*threadIdx.y + 8000*threadIdx.z)");
  EXPECT_EQ(Out.LaneStrideBytes, std::optional<int64_t>(4));
}

// A block of 48 threads holds two 32-thread tiles, the second one partial:
// meta_group_size() rounds up (the toolkit's (size + N - 1) / N).
TEST(CooperativeGroups, MetaGroupSizeRoundsUpAPartialTile) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void m(float *out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  out[warp.meta_group_size()] = 1.f;
})cu",
                                   "  m<<<n, 48>>>(out);"));
  EXPECT_EQ(R.one("out").Symbolic, "8");
}

// Tiles of more than one warp (64 .. 512: static sizes only) partition the
// block the same way: a 128-thread tile of 256 threads.
TEST(CooperativeGroups, MultiWarpTile) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void m(float *out) {
  auto t = cg::tiled_partition<128>(cg::this_thread_block());
  out[t.meta_group_rank() * 4096 + t.thread_rank() + t.meta_group_size()] = 1.f;
})cu",
                                   "  m<<<n, 256>>>(out);"));
  SnippetAccess Out = R.one("out");
  ASSERT_TRUE(Out.AddressKnown) << Out.UnknownReason;
  EXPECT_EQ(Out.LaneStrideBytes, std::optional<int64_t>(4));
  EXPECT_EQ(Out.Symbolic,
            "4*(4096*(t.meta_group_rank()) + (t.thread_rank()) + 2)");
}

// With no launch and no --block-dim the block's size is not known: the
// tiles' number rests on the stated assumption that blockDim.x is a
// multiple of 32 (blockDim.x/32 * blockDim.y * blockDim.z), never on a
// guessed shape.
TEST(CooperativeGroups, MetaGroupSizeInABlockOfUnknownShapeIsAnAssumption) {
  SnippetResult R = runOnCode(code(R"cu(
__global__ void m(float *out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  out[blockIdx.x * warp.meta_group_size() + warp.meta_group_rank()] = 1.f;
})cu",
                                   ""));
  SnippetAccess Out = R.one("out");
  ASSERT_TRUE(Out.AddressKnown) << Out.UnknownReason;
  EXPECT_EQ(Out.LaneStrideBytes, std::optional<int64_t>(0));
  ASSERT_FALSE(Out.Assumptions.empty());
  EXPECT_EQ(Out.Assumptions[0].K, Assumption::Kind::BlockShapeUnknown);
  EXPECT_EQ(Out.Assumptions[0].Message,
            "block shape unknown: blockDim.x assumed a multiple of 32 (give "
            "it with --block-dim or a launch in this file)");
}

} // namespace

//===- CostModelTest.cpp - Totals over a launch, excess cost --------------===//

#include "RunOnCode.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace cal;
using namespace cal::test;

namespace {

const char *Copy =
    "__global__ void copy(float *out, const float *in) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  out[i] = in[i];\n}\n"
    "void host(float *o, const float *i) { copy<<<Blocks, 256>>>(o, i); }\n";

std::string copyWith(long Blocks) {
  std::string S = Copy;
  S.replace(S.find("Blocks"), 6, std::to_string(Blocks));
  return S;
}

TEST(CostModel, TotalsOfACoalescedCopy) {
  SnippetResult R = runOnCode(copyWith(65536));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  EXPECT_TRUE(P.Complete);
  EXPECT_TRUE(P.Missing.empty());
  EXPECT_EQ(P.Blocks, 65536);
  EXPECT_EQ(P.WarpsPerBlock, 8);
  // One load and one store per warp, 4 sectors, 1 line each.
  double Warps = 65536.0 * 8;
  EXPECT_EQ(P.GlobalRequests, 2 * Warps);
  EXPECT_EQ(P.GlobalSectors, 2 * 4 * Warps);
  EXPECT_EQ(P.GlobalLines, 2 * Warps);
  EXPECT_EQ(P.PartialStoreSectors, 0);
  EXPECT_EQ(P.SharedRequests, 0);
  EXPECT_EQ(P.DramBytes, 2 * 4 * 256 * 65536.0);
  EXPECT_EQ(P.Regime, "bandwidth-saturated"); // 128 MB, 65536 blocks
  // The DRAM budget at the H200's bandwidth.
  EXPECT_DOUBLE_EQ(P.DramTime, P.DramBytes / H200::DramBytesPerSecond);
  // One 4-byte load per lane in flight (128 bytes a warp), 64 warps an SM:
  // Little's law over the latency.
  EXPECT_EQ(P.BytesInFlightPerWarp, 128);
  EXPECT_EQ(P.ResidentWarpsPerSM, 64);
  EXPECT_NEAR(P.LatencyTime,
              4 * 256 * 65536.0 * H200::LoadLatency / (64 * 132 * 128.0),
              1e-12);
  // Each warp reads 128 bytes in its life: the resident warps' range,
  // 64 x 132 x 128 bytes, is within copy_float4's; the DRAM rate is whole.
  EXPECT_EQ(P.ResidentRangeBytes, 64 * 132 * 128.0);
  EXPECT_EQ(P.DramRangeFactor, 1);
  // As much read as written: a copy's rate, 4.25 TB/s.
  EXPECT_EQ(P.ReadWriteMix, 1);
  // No floating-point arithmetic; 65536 blocks to start.
  EXPECT_EQ(P.ComputeTime, 0);
  EXPECT_EQ(P.TotalFlops, 0);
  EXPECT_DOUBLE_EQ(P.BlockTime, 65536 / H200::BlocksPerSecond);
  // The soft maximum of the budgets (the latency folded into DRAM's), plus
  // the launch overhead.
  double Mem = std::hypot(P.DramTime, P.LatencyTime);
  double Max = std::max({Mem, P.L1Time, P.L2Time, P.IssueTime, P.BlockTime});
  EXPECT_GE(P.Time, Max + H200::LaunchOverhead);
  double E = H200::Overlap;
  EXPECT_NEAR(P.Time,
              std::pow(std::pow(Mem, E) + std::pow(P.L1Time, E) +
                           std::pow(P.L2Time, E) + std::pow(P.IssueTime, E) +
                           std::pow(P.BlockTime, E),
                       1.0 / E) +
                  H200::LaunchOverhead,
              1e-12);
  // Every request misses (nothing is read twice); the store writes one line
  // a warp, whole sectors.
  EXPECT_EQ(P.MissRequests, 2 * Warps);
  EXPECT_EQ(P.StoreLines, Warps);
  EXPECT_DOUBLE_EQ(P.L2Time,
                   H200::StoreLineWeight * Warps / H200::L2StoreUnitsPerSecond);
  // 65536 blocks of one load and one store: starting them (40 us) takes
  // longer than the 128 MB (32 us).
  EXPECT_EQ(P.Bound, "blocks");
}

TEST(CostModel, SmallDataIsNotTheBandwidthRegime) {
  SnippetResult R = runOnCode(copyWith(16)); // 32 KB, 16 blocks
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_TRUE(R.Kernels[0].Prediction.Complete);
  EXPECT_NE(R.Kernels[0].Prediction.Regime, "bandwidth-saturated");
}

TEST(CostModel, UnknownGridIsIncomplete) {
  SnippetResult R =
      runOnCode("__global__ void copy(float *out, const float *in) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  out[i] = in[i];\n}\n"
                "void host(float *o, const float *i, int g) { copy<<<g, "
                "256>>>(o, i); }\n");
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_FALSE(R.Kernels[0].Prediction.Complete);
  EXPECT_FALSE(R.Kernels[0].Prediction.Missing.empty());
}

TEST(CostModel, ExcessCostIsZeroCoalescedAndPositiveStrided) {
  SnippetResult R = runOnCode(
      "__global__ void k(float *out, const float *in, const int *idx) {\n"
      "  out[threadIdx.x] = in[threadIdx.x * 32] + in[idx[threadIdx.x]];\n}\n"
      "void host(float *o, const float *i, const int *x) {\n"
      "  k<<<1, 32>>>(o, i, x);\n}\n");
  EXPECT_EQ(R.one("out").ExcessCost, 0);
  std::vector<SnippetAccess> In = R.of("in");
  ASSERT_EQ(In.size(), 2u);
  // 32 lines for 128 bytes: the excess over 1 line, in L1 units (sectors
  // cost nothing beyond their line).
  EXPECT_NEAR(In[0].ExcessCost, 32 - 1, 1e-9);
  EXPECT_EQ(In[1].ExcessCost, 0); // unknown address: nothing said
}

// C = A * B as sgemm_coalesced of validate/ writes it: 32 x 32 blocks, a
// k-loop of 4096 trips, \p Extra one more statement in its body.
std::string matmulWith(const std::string &Extra) {
  std::string S =
      "constexpr int K = 4096;\n"
      "__global__ void mm(const float *__restrict__ A,\n"
      "                   const float *__restrict__ B, float *C) {\n"
      "  int row = blockIdx.y * 32 + threadIdx.y;\n"
      "  int col = blockIdx.x * 32 + threadIdx.x;\n"
      "  float acc = 0.0f;\n"
      "  for (int k = 0; k < K; ++k) {\n"
      "    acc += A[row * K + k] * B[k * 4096 + col];\n"
      "    EXTRA\n"
      "  }\n"
      "  C[row * 4096 + col] = acc;\n}\n"
      "void host(const float *a, const float *b, float *c) {\n"
      "  mm<<<dim3(128, 128), dim3(32, 32)>>>(a, b, c);\n}\n";
  S.replace(S.find("EXTRA"), 5, Extra);
  return S;
}

TEST(CostModel, WarpsReadingTheSameAddressShareTheFetch) {
  SnippetResult R = runOnCode(matmulWith(""));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  // B[k * 4096 + col] names no warp position: the block's 32 warps read the
  // same 128 bytes. A[row * K + k] is each warp's own row (a broadcast).
  EXPECT_EQ(R.one("B").SameAddressWarps, 32);
  EXPECT_EQ(R.one("A").SameAddressWarps, 1);
  const KernelPrediction &P = R.Kernels[0].Prediction;
  double Warps = 128.0 * 128 * 32, Requests = Warps * 4096;
  // DRAM (L2) bytes: A's 4 bytes a request, B's 128 once per block, C.
  EXPECT_EQ(P.DramBytes, Requests * 4 + Requests * 128 / 32 + Warps * 128);
  // Misses: A's sector serves 8 iterations, B's line the block's 32 warps;
  // every store.
  EXPECT_EQ(P.MissRequests, Requests / 8 + Requests / 32 + Warps);
  // ptxas unrolls the 4096-trip loop by 16: 16 x (4 + 128 / 32) bytes in
  // flight per warp.
  EXPECT_EQ(P.BytesInFlightPerWarp, 16 * (4 + 4));
  // Every request still looks up its line in the L1: that is the bound.
  EXPECT_EQ(P.GlobalLines, 2 * Requests + Warps);
  EXPECT_EQ(P.Bound, "l1");
}

// A row staged through shared memory by blocks of 512 threads: 4 blocks an
// SM (2048 threads), 64 warps.
std::string stagedRows(const std::string &Barrier, long Blocks = 65536,
                       int Threads = 512, int Row = 5, int Reads = 1) {
  std::string T = std::to_string(Threads);
  return "__device__ void wait() { " + Barrier +
         " }\n"
         "__global__ void staged(const float *in, float *out) {\n"
         "  __shared__ float sh[" +
         T + "][" + std::to_string(Row) +
         "];\n"
         "  int t = threadIdx.x;\n"
         "  for (int c = 0; c < 4; ++c)\n"
         "    sh[t][c] = in[blockIdx.x * 4 * " +
         T + " + c * " + T +
         " + t];\n"
         "  wait();\n"
         "  float s = 0.f;\n"
         "  for (int r = 0; r < " +
         std::to_string(Reads) +
         "; ++r)\n"
         "    for (int c = 0; c < 4; ++c) s += sh[t][c];\n"
         "  out[blockIdx.x * " +
         T +
         " + t] = s;\n}\n"
         "void host(const float *i, float *o) { staged<<<" +
         std::to_string(Blocks) + ", " + T + ">>>(i, o); }\n";
}

double overlapAt(double Share) {
  return H200::OverlapFloor +
         (H200::Overlap - H200::OverlapFloor) * Share * Share * Share;
}

TEST(CostModel, SharedWorkBehindABarrierOverlapsByBlocks) {
  // The barrier is in a function the kernel calls.
  SnippetResult R = runOnCode(stagedRows("__syncthreads();"));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  ASSERT_TRUE(P.Complete);
  EXPECT_TRUE(P.BlockBarrier);
  EXPECT_EQ(P.ResidentWarpsPerSM, 64);
  ASSERT_GT(P.SharedTime, 0);
  ASSERT_LT(P.SharedTime, P.L1Time);
  // The global lines at 64 warps: Overlap; the shared wavefronts at 4 of
  // OverlapBlocks blocks; weighted by their time in the L1.
  double Shared = P.SharedTime / P.L1Time;
  EXPECT_NEAR(P.MemCoreOverlap,
              (1 - Shared) * H200::Overlap +
                  Shared * overlapAt(4 / H200::OverlapBlocks),
              1e-12);
  EXPECT_LT(P.MemCoreOverlap, H200::Overlap);
  // The time: memory and the SM's work at that exponent, then the other
  // budgets at Overlap.
  double Mem = std::hypot(P.DramTime, P.LatencyTime);
  double Core = std::hypot(P.L1Time, P.ComputeTime);
  double M = P.MemCoreOverlap, E = H200::Overlap;
  double MemCore = std::pow(std::pow(Mem, M) + std::pow(Core, M), 1.0 / M);
  EXPECT_NEAR(P.Time,
              std::pow(std::pow(MemCore, E) + std::pow(P.L2Time, E) +
                           std::pow(P.IssueTime, E) + std::pow(P.BlockTime, E),
                       1.0 / E) +
                  H200::LaunchOverhead,
              1e-12);
}

TEST(CostModel, MemoryBoundSharedWorkHidesFurtherBeyondEightBlocks) {
  // 128 threads: 16 blocks of 4 warps an SM, all 64 warps resident.
  SnippetResult R =
      runOnCode(stagedRows("__syncthreads();", 65536 * 4, /*Threads=*/128));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  ASSERT_TRUE(P.Complete);
  EXPECT_EQ(P.ResidentWarpsPerSM, 64);
  EXPECT_EQ(P.WarpsPerBlock, 4);
  double Mem = std::hypot(P.DramTime, P.LatencyTime);
  double Core = std::hypot(P.L1Time, P.ComputeTime);
  ASSERT_GT(Mem, Core);
  // 16 blocks: OverlapBlocks more than OverlapBlocks, so the shared
  // wavefronts' exponent is Overlap * (1 + OverlapPerBlocks).
  double Shared = P.SharedTime / P.L1Time;
  EXPECT_NEAR(P.MemCoreOverlap,
              (1 - Shared) * H200::Overlap +
                  Shared * H200::Overlap * (1 + H200::OverlapPerBlocks),
              1e-12);
  EXPECT_GT(P.MemCoreOverlap, H200::Overlap);
}

TEST(CostModel, SharedWorkThatOutlastsMemoryDoesNotHideFurther) {
  // The same 16 blocks, with rows 16 floats apart (every shared access a
  // 16-way conflict) read four times: the SM's work outlasts the memory's.
  SnippetResult R = runOnCode(stagedRows("__syncthreads();", 65536 * 4,
                                         /*Threads=*/128, /*Row=*/16,
                                         /*Reads=*/4));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  ASSERT_TRUE(P.Complete);
  EXPECT_EQ(P.ResidentWarpsPerSM, 64);
  double Mem = std::hypot(P.DramTime, P.LatencyTime);
  double Core = std::hypot(P.L1Time, P.ComputeTime);
  ASSERT_LT(Mem, Core);
  EXPECT_NEAR(P.MemCoreOverlap, H200::Overlap, 1e-12);
}

TEST(CostModel, WithoutABarrierWarpsOverlapAtFullOccupancy) {
  SnippetResult R = runOnCode(stagedRows(""));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  EXPECT_FALSE(P.BlockBarrier);
  EXPECT_EQ(P.ResidentWarpsPerSM, 64);
  EXPECT_EQ(P.MemCoreOverlap, H200::Overlap);
}

TEST(CostModel, ASmallLaunchHoldsFewerWarpsThanTheSMCould) {
  // 1056 blocks of 8 warps over 132 SMs: 64 warps an SM.
  SnippetResult Full = runOnCode(copyWith(1056));
  ASSERT_EQ(Full.Kernels.size(), 1u) << Full.Log;
  EXPECT_EQ(Full.Kernels[0].Prediction.MemCoreOverlap, H200::Overlap);
  // 264 blocks: 16 warps an SM, a quarter of OverlapWarps.
  SnippetResult Small = runOnCode(copyWith(264));
  ASSERT_EQ(Small.Kernels.size(), 1u) << Small.Log;
  const KernelPrediction &P = Small.Kernels[0].Prediction;
  EXPECT_EQ(P.ResidentWarpsPerSM, 64);
  EXPECT_NEAR(P.MemCoreOverlap, overlapAt(16 / H200::OverlapWarps), 1e-12);
}

TEST(CostModel, ABarrierInTheLoopKeepsOneIterationInFlight) {
  SnippetResult R = runOnCode(matmulWith("__syncthreads();"));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  EXPECT_EQ(R.Kernels[0].Prediction.BytesInFlightPerWarp, 4 + 4);
}

// A loop's trip count as nvcc sees it, not as the launch gives it to the
// analyzer (the SASS of validate/kernels/copy.cu, nvcc 13 -O3 sm_90).
std::string stridedCopy(const std::string &Header,
                        const std::string &Index = "i") {
  return "__global__ void copy(const float *__restrict__ in,\n"
         "                     float *__restrict__ out) {\n"
         "  const int lane = threadIdx.x % 32;\n"
         "  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
         "  " + Header + "\n"
         "    out[" + Index + "] = in[" + Index + "];\n}\n"
         "void host(const float *i, float *o) { copy<<<1024, 256>>>(i, o); }\n";
}

TEST(CostModel, AGridStrideLoopIsNotUnrolled) {
  // 8 trips under this launch; nvcc cannot count them (the step is
  // blockDim.x * gridDim.x): copy_gridstride's one LDG per iteration.
  SnippetResult R = runOnCode(stridedCopy(
      "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (1 << 21);"
      " i += blockDim.x * gridDim.x)"));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  ASSERT_EQ(R.one("in").Loops.size(), 1u);
  EXPECT_EQ(R.one("in").Loops[0].Trip, 8);
  EXPECT_EQ(R.Kernels[0].Prediction.BytesInFlightPerWarp, 128);
}

TEST(CostModel, ALoopCountedAtRunTimeIsNotUnrolledWhole) {
  // A constant step from a lane-dependent start: 32 trips for every lane,
  // counted by nvcc at run time and unrolled with a remainder, never whole:
  // PartialUnroll (16) iterations in flight, not 32.
  SnippetResult R = runOnCode(stridedCopy(
      "for (int i = warp * 1024 + lane; i < warp * 1024 + 1024; i += 32)"));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  EXPECT_EQ(R.one("in").Loops[0].Trip, 32);
  EXPECT_EQ(R.Kernels[0].Prediction.BytesInFlightPerWarp,
            H200::PartialUnroll * 128);
}

TEST(CostModel, AConstantLoopIsUnrolledWhole) {
  // The same 32 trips from constants: unrolled whole, 32 loads in flight.
  SnippetResult R = runOnCode(stridedCopy(
      "for (int c = 0; c < 1024; c += 32)", "warp * 1024 + c + lane"));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  EXPECT_EQ(R.one("in").Loops[0].Trip, 32);
  EXPECT_EQ(R.Kernels[0].Prediction.BytesInFlightPerWarp, 32 * 128);
}

TEST(CostModel, ResidentWarpsReadingAWiderRangeCostTheDramMore) {
  // A grid-stride copy of 2^24 floats by 1024 blocks of 256 threads: 64
  // trips, 8 KB read by each warp over its life, all 8192 warps resident at
  // once: they read through the whole 64 MB, 2^24 / 8448 times copy_float4's
  // range (RangeBase).
  SnippetResult R = runOnCode(stridedCopy(
      "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (1 << 24);"
      " i += blockDim.x * gridDim.x)"));
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  ASSERT_TRUE(P.Complete);
  EXPECT_EQ(P.ResidentRangeBytes, 4.0 * (1 << 24));
  double Factor =
      1 + H200::RangeSlope * std::log2(4.0 * (1 << 24) / H200::RangeBase);
  EXPECT_DOUBLE_EQ(P.DramRangeFactor, Factor);
  EXPECT_GT(P.DramRangeFactor, 1);
  EXPECT_DOUBLE_EQ(P.DramTime,
                   P.DramBytes / H200::DramBytesPerSecond * Factor);
  // The same bytes, one element a thread: every warp reads 128 bytes and
  // is gone; the resident warps' range stays under RangeBase.
  SnippetResult One = runOnCode(copyWith(65536));
  ASSERT_EQ(One.Kernels.size(), 1u) << One.Log;
  EXPECT_EQ(One.Kernels[0].Prediction.DramRangeFactor, 1);
  EXPECT_LT(One.Kernels[0].Prediction.DramTime, P.DramTime);
}

TEST(CostModel, AReadStreamBarelyPaysTheRange) {
  // The grid-stride loop of the test above summing what it reads: 64 MB
  // read through the same 64 MB range, 1 MB written (a float a thread).
  SnippetResult R = runOnCode(
      "__global__ void sum(const float *__restrict__ in, float *__restrict__ out) {\n"
      "  float s = 0.f;\n"
      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (1 << 24);\n"
      "       i += blockDim.x * gridDim.x)\n"
      "    s += in[i];\n"
      "  out[blockIdx.x * blockDim.x + threadIdx.x] = s;\n}\n"
      "void host(const float *i, float *o) { sum<<<1024, 256>>>(i, o); }\n");
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  ASSERT_TRUE(P.Complete);
  double Read = 4.0 * (1 << 24), Written = 4.0 * 1024 * 256;
  EXPECT_EQ(P.DramReadBytes, Read);
  EXPECT_EQ(P.DramBytes, Read + Written);
  EXPECT_DOUBLE_EQ(P.ReadWriteMix, 2 * Written / (Read + Written));
  EXPECT_EQ(P.ResidentRangeBytes, Read);
  // The range costs it in the measure it also writes: a 30th of a copy's.
  double Factor = 1 + H200::RangeSlope * P.ReadWriteMix *
                          std::log2(Read / H200::RangeBase);
  EXPECT_DOUBLE_EQ(P.DramRangeFactor, Factor);
  EXPECT_LT(P.DramRangeFactor, 1.002);
  EXPECT_DOUBLE_EQ(P.DramTime,
                   P.DramBytes / H200::DramBytesPerSecond * Factor);
}

TEST(CostModel, AWarpsLoadsInFlightInPlacesApartWidenItsRange) {
  // Four float4 runs a block's width (4 KB) apart: 3.5 KB no lane touches
  // between a warp's runs, so its four loads in flight lie in 4 places,
  // and the resident warps' 17.3 MB range (64 warps an SM x 132 x 2 KB)
  // costs as 4 times that would (copy_stripe4_float4 of validate/).
  SnippetResult R = runOnCode(
      "__global__ void stripe(const float4 *__restrict__ in, float4 *__restrict__ out) {\n"
      "  const int base = blockIdx.x * 1024 + threadIdx.x;\n"
      "  for (int c = 0; c < 4; ++c) out[base + c * 256] = in[base + c * 256];\n}\n"
      "void host(const float4 *i, float4 *o) { stripe<<<(1 << 26) / 1024, 256>>>(i, o); }\n");
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  ASSERT_TRUE(P.Complete);
  EXPECT_EQ(P.RegionsInFlight, 4);
  EXPECT_EQ(P.ResidentRangeBytes, 4 * (64.0 * 132 * 2048));
  EXPECT_DOUBLE_EQ(P.DramRangeFactor,
                   1 + H200::RangeSlope *
                           std::log2(P.ResidentRangeBytes / H200::RangeBase));
  // Float runs 1 KB apart (copy_stripe4): 896 bytes between them, one place;
  // its range is copy_float4's and costs nothing.
  SnippetResult Near = runOnCode(
      "__global__ void stripe(const float *__restrict__ in, float *__restrict__ out) {\n"
      "  const int base = blockIdx.x * 1024 + threadIdx.x;\n"
      "  for (int c = 0; c < 4; ++c) out[base + c * 256] = in[base + c * 256];\n}\n"
      "void host(const float *i, float *o) { stripe<<<(1 << 28) / 1024, 256>>>(i, o); }\n");
  ASSERT_EQ(Near.Kernels.size(), 1u) << Near.Log;
  EXPECT_EQ(Near.Kernels[0].Prediction.RegionsInFlight, 1);
  EXPECT_EQ(Near.Kernels[0].Prediction.DramRangeFactor, 1);
}

TEST(CostModel, RowsFarApartInOneRequestArePlacesApart) {
  // copy2d_float4 of validate/: eight lanes a row, a warp's one request
  // takes four rows 64 KB apart.
  SnippetResult R = runOnCode(
      "__global__ void tile(const float4 *__restrict__ in, float4 *__restrict__ out) {\n"
      "  const int t = threadIdx.y * 32 + threadIdx.x;\n"
      "  const int row = blockIdx.y * 32 + t / 8;\n"
      "  const int col = blockIdx.x * 8 + t % 8;\n"
      "  out[row * 4096 + col] = in[row * 4096 + col];\n}\n"
      "void host(const float4 *i, float4 *o) {\n"
      "  tile<<<dim3(512, 512), dim3(32, 8)>>>(i, o);\n}\n");
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  ASSERT_TRUE(P.Complete);
  EXPECT_EQ(P.RegionsInFlight, 4);
  EXPECT_EQ(P.ResidentRangeBytes, 4 * (64.0 * 132 * 512));
}

TEST(CostModel, BlockedLoadsMissOnceInTheIterationsThatShareASector) {
  // 2-byte loads 32 bytes apart (V = 16): the first of 16 iterations
  // fetches every lane's sector, the other 15 hit (ncu: 93.75% hits).
  SnippetResult R = runOnCode(
      "__global__ void blocked(const unsigned short *X, float *out) {\n"
      "  float acc = 1.0f;\n"
      "  for (int c = 0; c < 16; ++c)\n"
      "    acc *= X[blockIdx.x * 4096 + threadIdx.x * 16 + c];\n"
      "  out[blockIdx.x * 256 + threadIdx.x] = acc;\n}\n"
      "void host(const unsigned short *x, float *o) {\n"
      "  blocked<<<65536, 256>>>(x, o);\n}\n");
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  double Warps = 65536.0 * 8;
  EXPECT_EQ(P.GlobalRequests, 17 * Warps);
  EXPECT_EQ(P.MissRequests, Warps + Warps); // one load, one store a warp
  EXPECT_EQ(P.GlobalLines, 16 * 8 * Warps + Warps);
  EXPECT_DOUBLE_EQ(P.L1Time, P.GlobalLines / H200::L1UnitsPerSecond);
}

TEST(CostModel, ArithmeticCountedPerThreadByType) {
  SnippetResult R = runOnCode(
      "constexpr int K = 64;\n"
      "__global__ void mm(const float *A, const float *B, float *C) {\n"
      "  float acc[4] = {};\n"
      "  for (int k = 0; k < K; ++k) {\n"
      "    float a = A[k * 256 + threadIdx.x];\n"
      "    for (int j = 0; j < 4; ++j) acc[j] += a * B[k * 4 + j];\n"
      "  }\n"
      "  float s = 0;\n"
      "  for (int j = 0; j < 4; ++j) s = s + acc[j] * 2.0f;\n"
      "  double d = A[1];\n"
      "  d = d * d - 1.0;\n"
      "  C[threadIdx.x] = s * 0.5f + float(d / 3.0);\n}\n"
      "void host(const float *a, const float *b, float *c) {\n"
      "  mm<<<1024, 256>>>(a, b, c);\n}\n");
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  EXPECT_TRUE(P.Flops.Complete);
  // 64 x 4 `acc[j] += a * B[...]` and 4 `s + acc[j] * 2` are fused
  // multiply-adds; `s * 0.5f + ...` is one more.
  EXPECT_EQ(P.Flops.Fma32, 64 * 4 + 4 + 1);
  EXPECT_EQ(P.Flops.Mul32, 0);
  EXPECT_EQ(P.Flops.Add32, 0);
  // `d * d - 1.0` fuses; `d / 3.0` divides.
  EXPECT_EQ(P.Flops.Fma64, 1);
  EXPECT_EQ(P.Flops.Div64, 1);
  double Threads = 1024.0 * 256;
  EXPECT_EQ(P.TotalFlops, Threads * (2 * (261 + 1) + 1));
  EXPECT_DOUBLE_EQ(P.ComputeTime, Threads * (261 / H200::Fp32LaneOpsPerSecond +
                                             2 / H200::Fp64LaneOpsPerSecond));
}

TEST(CostModel, ComputeBoundKernel) {
  // 4096 dependent FMAs per element read and written: 1024 FLOP per byte.
  SnippetResult R = runOnCode(
      "__global__ void poly(const float *in, float *out) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  float x = in[i];\n"
      "  for (int k = 0; k < 4096; ++k) x = x * 1.0001f + 0.5f;\n"
      "  out[i] = x;\n}\n"
      "void host(const float *i, float *o) { poly<<<65536, 256>>>(i, o); }\n");
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  EXPECT_TRUE(P.Complete);
  EXPECT_EQ(P.Flops.Fma32, 4096);
  double Threads = 65536.0 * 256;
  EXPECT_DOUBLE_EQ(P.ComputeTime, Threads * 4096 / H200::Fp32LaneOpsPerSecond);
  EXPECT_DOUBLE_EQ(P.ArithmeticIntensity, 2 * 4096 / 8.0);
  EXPECT_EQ(P.Bound, "fp32");
  EXPECT_GE(P.Time, P.ComputeTime);
}

TEST(CostModel, ArithmeticInALoopOfUnknownTripIsALowerBound) {
  // The body of a loop of runtime trip count counts once: the count says it
  // is incomplete, the prediction (memory-bound here) still stands. A
  // geometric loop with constant bounds is run on its constants.
  SnippetResult R =
      runOnCode("__global__ void pw(float *out, int n) {\n"
                "  float x = 1.5f;\n"
                "  for (int i = 0; i < n; ++i) x *= 1.5f;\n"
                "  for (int off = 1; off < 256; off *= 2) x = x + 1.0f;\n"
                "  out[blockIdx.x * blockDim.x + threadIdx.x] = x;\n}\n"
                "void host(float *o, int n) { pw<<<4096, 256>>>(o, n); }\n");
  ASSERT_EQ(R.Kernels.size(), 1u) << R.Log;
  const KernelPrediction &P = R.Kernels[0].Prediction;
  EXPECT_FALSE(P.Flops.Complete);
  ASSERT_EQ(P.Flops.Unknown.size(), 1u);
  EXPECT_EQ(P.Flops.Unknown[0], "for i");
  EXPECT_EQ(P.Flops.Mul32, 1);
  EXPECT_EQ(P.Flops.Add32, 8);
  EXPECT_TRUE(P.Complete);
  EXPECT_EQ(P.Bound, "blocks"); // 4096 blocks of one 4-byte store each
}

TEST(CostModel, PartialStoreSectorsNothingFillsAreReadFromDram) {
  // One float per 32-byte sector: the L2 reads each sector before writing it
  // back whole. 16 bytes per lane 32 bytes apart with the loop writing the
  // other half: the L2 merges the halves, DRAM sees each byte once.
  SnippetResult R =
      runOnCode("__global__ void strided(float *out) {\n"
                "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  out[k * 8] = 1.0f;\n}\n"
                "__global__ void halves(float4 *out) {\n"
                "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  for (int c = 0; c < 2; ++c) out[2 * t + c] = make_float4(1, "
                "2, 3, 4);\n}\n"
                "void host(float *o) {\n"
                "  strided<<<65536, 256>>>(o);\n"
                "  halves<<<65536, 256>>>((float4 *)o);\n}\n");
  ASSERT_EQ(R.Kernels.size(), 2u) << R.Log;
  const KernelPrediction &S = R.Kernels[0].Prediction;
  double Sectors = 65536.0 * 256;
  EXPECT_EQ(S.StoreFillBytes, 32 * Sectors);
  EXPECT_EQ(S.DramBytes, 2 * 32 * Sectors);
  const KernelPrediction &H = R.Kernels[1].Prediction;
  EXPECT_EQ(H.StoreFillBytes, 0);
  EXPECT_EQ(H.DramBytes, 65536.0 * 256 * 32);
  // Each request writes half of 32 sectors in 8 lines: the L2 merges them.
  double Requests = 65536.0 * 8 * 2;
  EXPECT_EQ(H.PartialStoreSectors, 32 * Requests);
  EXPECT_EQ(H.StoreLines, 8 * Requests);
  EXPECT_DOUBLE_EQ(H.L2Time, (H200::StoreLineWeight * 8 + 32) * Requests /
                                 H200::L2StoreUnitsPerSecond);
  // Nothing read: the writes stream; the fill reads make the other kernel
  // a mix of reads and writes.
  EXPECT_DOUBLE_EQ(H.DramTime, H.DramBytes / H200::DramWriteBytesPerSecond);
  EXPECT_DOUBLE_EQ(S.DramTime, S.DramBytes / H200::DramBytesPerSecond);
}

} // namespace

//===- LoopModelTest.cpp - Loops: counters, trip counts, iteration --------===//
//
// The interpreter's loop model (analyzer/interp/LoopShape.cpp, Loops.cpp) on
// small kernels, one fact each: the counter a loop is known by, its trip
// count (exact, a range over the lanes, a bound when it may be left early),
// counters advanced in the body of a while or do loop, pointer counters,
// and the loops run iteration by iteration.
//
//===----------------------------------------------------------------------===//

#include "RunOnCode.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace cal;
using namespace cal::test;

namespace {

/// A kernel `k(float *out, const float *in, int n)` whose body is \p Body,
/// launched as k<<<1024, Block>>>.
std::string kernel(const std::string &Body, const std::string &Block = "256") {
  return "__global__ void k(float *out, const float *in, int n) {\n" + Body +
         "\n}\n"
         "void host(float *o, const float *i, int n) {\n"
         "  k<<<1024, " +
         Block + ">>>(o, i, n);\n}\n";
}

/// An assumption of kind \p K whose sentence says \p Text.
bool mentions(const SnippetAccess &A, Assumption::Kind K,
              const std::string &Text) {
  return std::any_of(A.Assumptions.begin(), A.Assumptions.end(),
                     [&](const Assumption &S) {
                       return S.K == K &&
                              S.Message.find(Text) != std::string::npos;
                     });
}

TEST(LoopModel, DoLoopCountsTheFirstPassBeforeItsCondition) {
  // c is 1, 2, 3, 4 when the condition is tested: 4 passes.
  SnippetResult R = runOnCode(kernel("  int c = 0;\n"
                                     "  do {\n"
                                     "    out[c * 256 + threadIdx.x] = 0.f;\n"
                                     "    ++c;\n"
                                     "  } while (c < 4);"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_EQ(Out.Loops[0].VarName, "c");
  EXPECT_EQ(Out.Loops[0].Trip, std::optional<int64_t>(4));
  EXPECT_EQ(Out.Loops[0].StrideBytes, std::optional<int64_t>(1024));
}

TEST(LoopModel, CounterPlusAnOffsetAgainstALimit) {
  // offset + 16 <= 64: offset = 0, 16, 32, 48.
  SnippetResult R = runOnCode(
      kernel("  for (unsigned offset = 0; offset + 16 <= 64; offset += 16)\n"
             "    out[offset * 256 + threadIdx.x] = 0.f;"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_EQ(Out.Loops[0].Trip, std::optional<int64_t>(4));
}

TEST(LoopModel, OffsetDependingOnTheCounterGivesNoTripCount) {
  SnippetResult R = runOnCode(kernel("  for (int i = 1; i + i < n; ++i)\n"
                                     "    out[i * 256 + threadIdx.x] = 0.f;"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_EQ(Out.Loops[0].Trip, std::nullopt);
}

TEST(LoopModel, WhileLoopCounterAdvancedInTheBody) {
  // c = 0, 2, 4: 3 iterations.
  SnippetResult R = runOnCode(kernel("  int c = 0;\n"
                                     "  while (c < 5) {\n"
                                     "    out[c * 256 + threadIdx.x] = 0.f;\n"
                                     "    c += 2;\n"
                                     "  }"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_EQ(Out.Loops[0].VarName, "c");
  EXPECT_EQ(Out.Loops[0].Trip, std::optional<int64_t>(3));
  EXPECT_EQ(Out.Loops[0].StrideBytes, std::optional<int64_t>(2048));
}

TEST(LoopModel, TripCountThatDiffersBetweenLanesIsARange) {
  // Lanes 0-7 run j = L, L + 32 (2 iterations), lanes 8-31 run once.
  SnippetResult R =
      runOnCode(kernel("  for (int j = threadIdx.x; j < 40; j += 32)\n"
                       "    out[j] = 0.f;",
                       "32"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_FALSE(Out.Loops[0].Trip);
  EXPECT_EQ(Out.Loops[0].TripMin, std::optional<int64_t>(1));
  EXPECT_EQ(Out.Loops[0].TripMax, std::optional<int64_t>(2));
}

TEST(LoopModel, ABreakMakesTheHeaderCountAnUpperBound) {
  SnippetResult R = runOnCode(kernel("  for (int j = 0; j < 8; ++j) {\n"
                                     "    if (in[j] > 0.f) break;\n"
                                     "    out[j * 256 + threadIdx.x] = 0.f;\n"
                                     "  }"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_FALSE(Out.Loops[0].Trip);
  EXPECT_FALSE(Out.Loops[0].TripMin);
  EXPECT_EQ(Out.Loops[0].TripMax, std::optional<int64_t>(8));
}

TEST(LoopModel, PointerCounter) {
  // p walks in + tx to in + 1024 by 256 floats: 4 iterations for every
  // lane (offsets 4*tx to 4096 bytes, 1024 bytes a step).
  SnippetResult R = runOnCode(
      kernel("  for (const float *p = in + threadIdx.x; p < in + 1024; "
             "p += 256)\n"
             "    out[threadIdx.x] += *p;"));
  // (The access is named by the pointer it is made through.)
  std::vector<SnippetAccess> In = R.of("p");
  ASSERT_EQ(In.size(), 1u);
  ASSERT_EQ(In[0].Loops.size(), 1u);
  EXPECT_EQ(In[0].Loops[0].VarName, "p");
  EXPECT_EQ(In[0].Loops[0].Trip, std::optional<int64_t>(4));
  EXPECT_EQ(In[0].Loops[0].StrideBytes, std::optional<int64_t>(1024));
}

TEST(LoopModel, DoublingCounterIsRunIterationByIteration) {
  // s = 1, 2, 4, ..., 128: the condition is a constant at every test, so
  // the loop runs as the hardware does, 8 times, and says so.
  SnippetResult R = runOnCode(kernel("  __shared__ float sh[8192];\n"
                                     "  for (int s = 1; s < 256; s *= 2)\n"
                                     "    sh[2 * s * threadIdx.x] = 0.f;"));
  std::vector<SnippetAccess> Sh = R.of("sh");
  ASSERT_FALSE(Sh.empty());
  for (const SnippetAccess &A : Sh) {
    EXPECT_TRUE(A.Loops.empty());
    EXPECT_TRUE(mentions(A, Assumption::Kind::LoopIterations,
                         "evaluated iteration by iteration (8 iterations)"));
  }
}

TEST(LoopModel, DoublingCounterWithARuntimeBoundKeepsItsFirstIteration) {
  // s < n: no iteration is certain whatever n is, the first (s = 1) runs
  // whenever the loop does: lanes 2 words apart, 2-way; the loop stands
  // around the access with no trip count, so no execution count.
  SnippetResult R = runOnCode(kernel("  __shared__ float sh[8192];\n"
                                     "  for (int s = 1; s < n; s *= 2)\n"
                                     "    sh[2 * s * threadIdx.x] = 0.f;"));
  SnippetAccess Sh = R.one("sh");
  EXPECT_EQ(Sh.BankConflictWays, std::optional<double>(2));
  ASSERT_EQ(Sh.Loops.size(), 1u);
  EXPECT_EQ(Sh.Loops[0].VarName, "s");
  EXPECT_FALSE(Sh.Loops[0].Trip);
  EXPECT_FALSE(Sh.Loops[0].StrideBytes);
  EXPECT_FALSE(Sh.ExecutionsPerWarp);
  EXPECT_TRUE(mentions(Sh, Assumption::Kind::LoopPrefix,
                       "analyzed for its first iteration (s = 1), which "
                       "runs whenever the loop runs at all"));
}

TEST(LoopModel, DoublingCounterBoundedByAnUnknownBlockKeepsTheCertainOnes) {
  // A block of an unknown multiple of 32 threads: s < blockDim.x holds for
  // s = 1 .. 16 whatever the block; s = 32 depends on it. Lanes 2, 4, 8,
  // 16, 32 words apart: 62 / 5 = 12.4 wavefronts on average.
  SnippetResult R = runOnCode("__global__ void k() {\n"
                              "  __shared__ float sh[1024];\n"
                              "  for (unsigned s = 1; s < blockDim.x; s *= 2)\n"
                              "    sh[2 * s * threadIdx.x] = 0.f;\n"
                              "}\n");
  SnippetAccess Sh = R.one("sh");
  EXPECT_EQ(Sh.WavefrontsPerRequest, std::optional<double>(12.4));
  ASSERT_EQ(Sh.Loops.size(), 1u);
  EXPECT_EQ(Sh.Loops[0].TripMin, std::optional<int64_t>(5));
  EXPECT_TRUE(mentions(Sh, Assumption::Kind::LoopPrefix,
                       "its first 5 iterations (s = 1, 2, 4, 8, 16), "
                       "which run whatever its bound is"));
}

TEST(LoopModel, DoublingCounterFromAnUnknownStartHasNoCertainIteration) {
  // s = n: the counter's values are not known: walked once with s a value
  // the same for every lane, its conflicts unknown.
  SnippetResult R = runOnCode(kernel("  __shared__ float sh[8192];\n"
                                     "  for (int s = n; s < 16; s *= 2)\n"
                                     "    sh[2 * s * threadIdx.x] = 0.f;"));
  SnippetAccess Sh = R.one("sh");
  EXPECT_FALSE(Sh.BankConflictWays);
  EXPECT_FALSE(hasAssumption(Sh.Assumptions, Assumption::Kind::LoopPrefix));
}

TEST(LoopModel, BranchOnTheCounterRunsTheLoopIterationByIteration) {
  // `threadIdx.x <= m` splits the lanes differently in every iteration:
  // with 4 iterations the loop is run one at a time, each with its lanes.
  SnippetResult R =
      runOnCode(kernel("  for (int m = 0; m < 4; ++m)\n"
                       "    if (threadIdx.x <= m)\n"
                       "      out[m * 256 + threadIdx.x] = 0.f;"));
  std::vector<SnippetAccess> Out = R.of("out");
  ASSERT_FALSE(Out.empty());
  for (const SnippetAccess &A : Out)
    EXPECT_TRUE(mentions(A, Assumption::Kind::LoopIterations,
                         "evaluated iteration by iteration (4 iterations)"));
}

TEST(LoopModel, RuntimeBoundOfUniformValuesAdvancesTheCounterAfterTheLoop) {
  // After `for (j = 0; j < n; ++j)`, j is the loop's trip count, the same
  // for every lane: out[j * 256 + tx] is still contiguous.
  SnippetResult R = runOnCode(kernel("  int j = 0;\n"
                                     "  for (; j < n; ++j)\n"
                                     "    ;\n"
                                     "  out[j * 256 + threadIdx.x] = 0.f;"));
  SnippetAccess Out = R.one("out");
  EXPECT_TRUE(Out.AddressKnown) << Out.UnknownReason;
  EXPECT_EQ(Out.LaneStrideBytes, std::optional<int64_t>(4));
  EXPECT_TRUE(Out.Loops.empty());
}

} // namespace

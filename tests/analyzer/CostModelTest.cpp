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
              4 * 256 * 65536.0 * H200::LoadLatency / (64 * 132 * 128.0), 1e-12);
  // No floating-point arithmetic; 65536 blocks to start.
  EXPECT_EQ(P.ComputeTime, 0);
  EXPECT_EQ(P.TotalFlops, 0);
  EXPECT_DOUBLE_EQ(P.BlockTime, 65536 / H200::BlocksPerSecond);
  // The soft maximum of the budgets (the latency folded into DRAM's), plus
  // the launch overhead.
  double Mem = std::hypot(P.DramTime, P.LatencyTime);
  double Max = std::max({Mem, P.L1Time, P.IssueTime, P.BlockTime});
  EXPECT_GE(P.Time, Max + H200::LaunchOverhead);
  EXPECT_NEAR(P.Time,
              std::pow(std::pow(Mem, 5) + std::pow(P.L1Time, 5) +
                           std::pow(P.IssueTime, 5) + std::pow(P.BlockTime, 5),
                       1.0 / 5) +
                  H200::LaunchOverhead,
              1e-12);
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
  SnippetResult R = runOnCode(
      "__global__ void copy(float *out, const float *in) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i];\n}\n"
      "void host(float *o, const float *i, int g) { copy<<<g, 256>>>(o, i); }\n");
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
  // 32 lines and 32 sectors for 128 bytes: the excess over 1 line and 4
  // sectors, in L1 units.
  EXPECT_NEAR(In[0].ExcessCost, (32 - 1) + H200::SectorWeight * (32 - 4),
              1e-9);
  EXPECT_EQ(In[1].ExcessCost, 0); // unknown address: nothing said
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
  SnippetResult R = runOnCode(
      "__global__ void pw(float *out, int n) {\n"
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
  SnippetResult R = runOnCode(
      "__global__ void strided(float *out) {\n"
      "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[k * 8] = 1.0f;\n}\n"
      "__global__ void halves(float4 *out) {\n"
      "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  for (int c = 0; c < 2; ++c) out[2 * t + c] = make_float4(1, 2, 3, 4);\n}\n"
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
  EXPECT_GT(H.PartialStoreSectors, 0);
}

} // namespace

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
  // The soft maximum of the budgets (the latency folded into DRAM's).
  double Mem = std::hypot(P.DramTime, P.LatencyTime);
  double Max = std::max({Mem, P.L1Time, P.IssueTime});
  EXPECT_GE(P.Time, Max);
  EXPECT_NEAR(P.Time,
              std::pow(std::pow(Mem, 5) + std::pow(P.L1Time, 5) +
                           std::pow(P.IssueTime, 5),
                       1.0 / 5),
              1e-12);
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

} // namespace

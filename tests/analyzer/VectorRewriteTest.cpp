//===- VectorRewriteTest.cpp - Accesses priced with 16-byte accesses ------===//
//
// analyzer/VectorRewrite.h: which rewrite an access admits, which accesses
// it changes together, and what the cost model predicts of the kernel with
// it; no gain where the model cannot predict the kernel.
//
//===----------------------------------------------------------------------===//

#include "RunOnCode.h"

#include <gtest/gtest.h>

using namespace cal;
using namespace cal::test;

namespace {

const VectorizedFacts &vectorized(const SnippetResult &R,
                                  const std::string &Kernel,
                                  const std::string &Array, AccessKind Kind) {
  for (const SnippetAccess &A : R.Accesses)
    if (A.Kernel == Kernel && A.Array == Array && A.Kind == Kind &&
        A.Vectorized)
      return *A.Vectorized;
  ADD_FAILURE() << "no vectorized record for " << Kernel << " " << Array;
  static VectorizedFacts None;
  return None;
}

bool hasVectorized(const SnippetResult &R, const std::string &Kernel) {
  for (const SnippetAccess &A : R.Accesses)
    if (A.Kernel == Kernel && A.Vectorized)
      return true;
  return false;
}

const KernelPrediction &prediction(const SnippetResult &R,
                                   const std::string &Kernel) {
  for (const SnippetKernel &K : R.Kernels)
    if (K.Name == Kernel)
      return K.Prediction;
  ADD_FAILURE() << "no kernel " << Kernel;
  static KernelPrediction None;
  return None;
}

TEST(VectorRewrite, OneElementPerThreadIsPricedAsTheFloat4Kernel) {
  // The rewrite of copy (4x fewer threads, float4) is copy4: the time the
  // rewrite predicts is copy4's own prediction.
  SnippetResult R = runOnCode(
      "__global__ void copy(const float *in, float *out) {\n"
      "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[k] = in[k];\n}\n"
      "__global__ void copy4(const float4 *in, float4 *out) {\n"
      "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[k] = in[k];\n}\n"
      "void host(float *i, float *o) {\n"
      "  copy<<<1048576, 256>>>(i, o);\n"
      "  copy4<<<262144, 256>>>((const float4 *)i, (float4 *)o);\n}\n");
  ASSERT_TRUE(R.Parsed) << R.Log;
  const VectorizedFacts &V = vectorized(R, "copy", "in", AccessKind::Load);
  EXPECT_EQ(V.Form, VectorForm::OnePerThread);
  EXPECT_EQ(V.BytesPerLane, 16u);
  EXPECT_EQ(V.Group.size(), 2u); // the load and the store, together
  ASSERT_TRUE(V.BlocksAfter);
  EXPECT_EQ(*V.BlocksAfter, 262144);
  ASSERT_TRUE(V.TimeBefore && V.TimeAfter) << R.Log;
  EXPECT_DOUBLE_EQ(*V.TimeBefore, prediction(R, "copy").Time);
  EXPECT_NEAR(*V.TimeAfter / prediction(R, "copy4").Time, 1, 1e-9);
  EXPECT_NEAR(*V.gain(), 1.525, 0.001);
  EXPECT_EQ(V.SectorsAfter, 16);
  EXPECT_EQ(V.LinesAfter, 4);
  EXPECT_FALSE(hasVectorized(R, "copy4")); // 16 bytes a lane already
}

TEST(VectorRewrite, NoGainWithoutAPrediction) {
  SnippetResult R =
      runOnCode("__global__ void copy(const float *in, float *out) {\n"
                "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  out[k] = in[k];\n}\n"
                "void host(float *i, float *o, int n) { copy<<<n / 256, "
                "256>>>(i, o); }\n");
  ASSERT_TRUE(R.Parsed) << R.Log;
  const VectorizedFacts &V = vectorized(R, "copy", "out", AccessKind::Store);
  EXPECT_EQ(V.Form, VectorForm::OnePerThread);
  EXPECT_FALSE(V.gain());
  EXPECT_FALSE(V.TimeBefore);
  EXPECT_EQ(V.Missing, std::vector<std::string>{"grid size"});
}

TEST(VectorRewrite, AStripedLoopTakesAnEighthOfTheTrips) {
  // 2-byte elements, 256 threads, 16 trips: 16 requests of 64 bytes per
  // warp become 2 of 512 bytes (4 lines, 16 sectors).
  SnippetResult R = runOnCode(
      "__global__ void rows(const short *x, float *out) {\n"
      "  float s = 0.f;\n"
      "  for (int c = threadIdx.x; c < 4096; c += 256)\n"
      "    s += x[blockIdx.x * 4096 + c];\n"
      "  out[blockIdx.x * 256 + threadIdx.x] = s;\n}\n"
      "void host(const short *x, float *o) { rows<<<65536, 256>>>(x, o); }\n");
  ASSERT_TRUE(R.Parsed) << R.Log;
  const VectorizedFacts &V = vectorized(R, "rows", "x", AccessKind::Load);
  EXPECT_EQ(V.Form, VectorForm::Striped);
  EXPECT_TRUE(V.ExecutionsKnown);
  EXPECT_EQ(V.RequestsBefore, 16);
  EXPECT_EQ(V.RequestsAfter, 2);
  EXPECT_EQ(V.LinesAfter, 4);
  EXPECT_EQ(V.SectorsAfter, 16);
  ASSERT_TRUE(V.gain());
  EXPECT_GT(*V.gain(), 1.10);
  // The store after the loop is one element per thread, but the threads
  // walk the data in a loop: no one-element rewrite of the kernel.
  for (const SnippetAccess &A : R.Accesses)
    if (A.Array == "out")
      EXPECT_FALSE(A.Vectorized);
}

TEST(VectorRewrite, AWarpStrideLoopStepsByTheWarpsRun) {
  SnippetResult R = runOnCode(
      "__global__ void rows(const float *x, float *out) {\n"
      "  int lane = threadIdx.x % 32, row = blockIdx.x * 8 + threadIdx.x / "
      "32;\n"
      "  float s = 0.f;\n"
      "  for (int c = lane; c < 1024; c += 32)\n"
      "    s += x[row * 1024 + c];\n"
      "  out[row * 32 + lane] = s;\n}\n"
      "void host(const float *x, float *o) { rows<<<32768, 256>>>(x, o); }\n");
  ASSERT_TRUE(R.Parsed) << R.Log;
  const VectorizedFacts &V = vectorized(R, "rows", "x", AccessKind::Load);
  EXPECT_EQ(V.Form, VectorForm::WarpStride);
  EXPECT_EQ(V.RequestsBefore, 32);
  EXPECT_EQ(V.RequestsAfter, 8);
}

const char *Tiles =
    "__global__ void tile(const short *in, short *out) {\n"
    "  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 64 + "
    "threadIdx.y;\n"
    "  for (int j = 0; j < 64; j += 8)\n"
    "    out[(y + j) * 16384 + x] = in[(y + j) * 16384 + x];\n}\n"
    "__global__ void sums(const short *in, float *out) {\n"
    "  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 64 + "
    "threadIdx.y;\n"
    "  float s = 0.f;\n"
    "  for (int j = 0; j < 64; j += 8)\n"
    "    s += in[(y + j) * 16384 + x];\n"
    "  out[(blockIdx.y * 8 + threadIdx.y) * 16384 + x] = s;\n}\n"
    "__global__ void short_tile(const short *in, short *out) {\n"
    "  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + "
    "threadIdx.y;\n"
    "  for (int j = 0; j < 32; j += 8)\n"
    "    out[(y + j) * 16384 + x] = in[(y + j) * 16384 + x];\n}\n"
    "void host(const short *i, short *o, float *f) {\n"
    "  tile<<<dim3(512, 256), dim3(32, 8)>>>(i, o);\n"
    "  sums<<<dim3(512, 256), dim3(32, 8)>>>(i, f);\n"
    "  short_tile<<<dim3(512, 512), dim3(32, 8)>>>(i, o);\n}\n";

TEST(VectorRewrite, ATileCopyTakesKTripsRowsInOneAccess) {
  SnippetResult R = runOnCode(Tiles);
  ASSERT_TRUE(R.Parsed) << R.Log;
  // 8 trips of 64 bytes a warp, rows 8 apart: one 16-byte access a lane
  // takes the 8 rows, 4 lanes a row: 8 lines, 16 sectors, 1 request.
  const VectorizedFacts &V = vectorized(R, "tile", "in", AccessKind::Load);
  EXPECT_EQ(V.Form, VectorForm::Tile);
  EXPECT_EQ(V.Group.size(), 2u);
  EXPECT_EQ(V.RequestsBefore, 8);
  EXPECT_EQ(V.RequestsAfter, 1);
  EXPECT_EQ(V.LinesAfter, 8);
  EXPECT_EQ(V.SectorsAfter, 16);
  EXPECT_FALSE(V.Why.empty());
  // Not a copy: each thread needs its own column.
  EXPECT_FALSE(hasVectorized(R, "sums"));
  // 4 trips, where a 16-byte access of 2-byte elements takes 8.
  EXPECT_FALSE(hasVectorized(R, "short_tile"));
}

TEST(VectorRewrite, RunsOfLoadsAndOfStoresArePricedApart) {
  SnippetResult R = runOnCode(
      "__global__ void scale4(const float *in, float *out) {\n"
      "  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);\n"
      "  float a = in[i], b = in[i + 1], c = in[i + 2], d = in[i + 3];\n"
      "  out[i] = 2 * a; out[i + 1] = 2 * b; out[i + 2] = 2 * c;\n"
      "  out[i + 3] = 2 * d;\n}\n"
      "void host(float *i, float *o) { scale4<<<262144, 256>>>(i, o); }\n");
  ASSERT_TRUE(R.Parsed) << R.Log;
  const VectorizedFacts &L = vectorized(R, "scale4", "in", AccessKind::Load);
  const VectorizedFacts &S = vectorized(R, "scale4", "out", AccessKind::Store);
  EXPECT_EQ(L.Form, VectorForm::Run);
  EXPECT_EQ(L.Group.size(), 4u);
  EXPECT_EQ(S.Group.size(), 4u);
  EXPECT_NE(L.Lead, S.Lead);
  EXPECT_EQ(L.RequestsBefore, 4);
  EXPECT_EQ(L.RequestsAfter, 1);
  ASSERT_TRUE(L.gain() && S.gain());
  // The stores write a quarter of each sector they touch (the L2 merges
  // them); the loads' sectors stay in the L1: the stores are what costs.
  EXPECT_GT(*S.gain(), 2);
  EXPECT_LT(*L.gain(), 1.01);
}

TEST(VectorRewrite, OneElementPerThreadOfTwoWidthsTakesTheWidestsK) {
  // float in, 2-byte out: K = 4, set by the float: 16-byte loads, 8-byte
  // stores.
  SnippetResult R = runOnCode(
      "__global__ void narrow(const float *in, short *out) {\n"
      "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[k] = (short)in[k];\n}\n"
      "void host(float *i, short *o) { narrow<<<1048576, 256>>>(i, o); }\n");
  ASSERT_TRUE(R.Parsed) << R.Log;
  EXPECT_EQ(vectorized(R, "narrow", "in", AccessKind::Load).BytesPerLane, 16u);
  EXPECT_EQ(vectorized(R, "narrow", "out", AccessKind::Store).BytesPerLane, 8u);
  EXPECT_EQ(*vectorized(R, "narrow", "out", AccessKind::Store).BlocksAfter,
            262144);
}

} // namespace

//===- AnalysisScaleTest.cpp - Shapes of real code that once exploded -----===//
//
// Kernels whose analysis grew with the square of their accesses (Rodinia's
// dwt2d: a member function called on an 8 KB __shared__ object recorded the
// object as 2,182 loads per call, and linking 6,620 accesses pairwise took
// minutes and gigabytes). Each test checks the access records: what the
// analysis says, not how long it took (ctest's timeout is the guard).
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#ifndef CAL_TOOL_PATH
#error "CAL_TOOL_PATH must name the built cuda-access-lint"
#endif

namespace cal::test {
namespace {

std::string toolPath() {
  if (const char *Tool = std::getenv("CAL_TOOL"))
    return Tool;
  return CAL_TOOL_PATH;
}

nlohmann::json accessRecords(const std::string &Source) {
  TempDir Dir("cal-scale");
  std::string File = Dir / "k.cu";
  EXPECT_TRUE(writeFile(File, Source));
  ProcessResult R = runProcess({toolPath(), "--format=json", "--accesses",
                                File, "--", "-std=c++17"});
  EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1))
      << R.describe() << "\n" << R.Stderr;
  nlohmann::json Doc = nlohmann::json::parse(R.Stdout, nullptr, false);
  EXPECT_TRUE(Doc.is_object()) << R.Stdout;
  return Doc.is_object() ? Doc["accesses"] : nlohmann::json::array();
}

unsigned countAt(const nlohmann::json &Records, int Line,
                 const std::string &Array = "") {
  unsigned N = 0;
  for (const nlohmann::json &A : Records)
    if (A["line"] == Line && (Array.empty() || A["array"] == Array))
      ++N;
  return N;
}

TEST(AnalysisScale, AMemberCallDoesNotLoadItsObject) {
  nlohmann::json Records = accessRecords(R"cu(
template <int N> struct Buffer {
  float data[N];
  __device__ void clear() { data[threadIdx.x] = 0; }
};
__global__ void k(const float *in, float *out) {
  __shared__ Buffer<2048> buf;
  buf.clear();
  __syncthreads();
  out[threadIdx.x] = buf.data[threadIdx.x * 2] + in[threadIdx.x];
}
void launch(float *a, float *b) { k<<<1, 256>>>(a, b); }
)cu");
  // The call `buf.clear()` (line 8) is no load of `buf`; line 10 reads one
  // element per lane of buf.data and one of `in`, and writes `out`.
  EXPECT_EQ(countAt(Records, 8), 0u) << Records.dump(1);
  EXPECT_EQ(countAt(Records, 10, "buf.data"), 1u) << Records.dump(1);
  EXPECT_EQ(countAt(Records, 10), 3u) << Records.dump(1);
}

TEST(AnalysisScale, ALargeStructCopyIsOneAccessPerPiece) {
  // A 16 KB struct of floats copied out of shared memory: 4,096 loads of 4
  // bytes, each linked to its neighbours without comparing every pair.
  nlohmann::json Records = accessRecords(R"cu(
struct Big { float v[4096]; };
__device__ float use(Big b) { return b.v[threadIdx.x]; }
__global__ void k(float *out) {
  __shared__ Big sh;
  Big local = sh;
  out[threadIdx.x] = use(local);
}
void launch(float *o) { k<<<1, 256>>>(o); }
)cu");
  EXPECT_EQ(countAt(Records, 6, "sh"), 4096u);
}

} // namespace
} // namespace cal::test

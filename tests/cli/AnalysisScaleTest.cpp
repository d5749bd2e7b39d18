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

//===----------------------------------------------------------------------===//
// The per-kernel budget: a kernel over it is reported as stopped, its
// accesses as unknown, and the other kernels of the file as usual.
//===----------------------------------------------------------------------===//

/// Ten nested loops run iteration by iteration (5^10 bodies): far past any
/// budget given here. `light` beside it has a blocked-stride finding.
const char *const OverBudget = R"cu(
__global__ void heavy(float *out) {
  __shared__ float s[32][33];
  float acc = 0;
  for (int a = 1; a < 32; a *= 2)
  for (int b = 1; b < 32; b *= 2)
  for (int c = 1; c < 32; c *= 2)
  for (int d = 1; d < 32; d *= 2)
  for (int e = 1; e < 32; e *= 2)
  for (int f = 1; f < 32; f *= 2)
  for (int g = 1; g < 32; g *= 2)
  for (int h = 1; h < 32; h *= 2)
  for (int i = 1; i < 32; i *= 2)
  for (int j = 1; j < 32; j *= 2)
    acc += s[(threadIdx.x * a + b * c + d + i) % 32][(e * f + g * h + j + threadIdx.x) % 33];
  out[threadIdx.x] = acc;
}
__global__ void light(float *out, const float *in) {
  out[threadIdx.x * 2] = in[threadIdx.x];
}
)cu";

struct BudgetRun {
  ProcessResult Text, Json;
  nlohmann::json Doc;
};

BudgetRun runWithBudget(const std::vector<std::string> &Limits,
                        const std::string &Config = "") {
  TempDir Dir("cal-budget");
  std::string File = Dir / "k.cu";
  EXPECT_TRUE(writeFile(File, OverBudget));
  if (!Config.empty())
    EXPECT_TRUE(writeFile(Dir / ".cuda-access-lint.yaml", Config));
  auto Argv = [&](std::vector<std::string> Format) {
    std::vector<std::string> A = {toolPath()};
    A.insert(A.end(), Format.begin(), Format.end());
    A.insert(A.end(), Limits.begin(), Limits.end());
    A.insert(A.end(), {File, "--", "-std=c++17"});
    return A;
  };
  BudgetRun R;
  R.Text = runProcess(Argv({}));
  R.Json = runProcess(Argv({"--format=json", "--accesses"}));
  R.Doc = nlohmann::json::parse(R.Json.Stdout, nullptr, false);
  return R;
}

const nlohmann::json *kernelNamed(const nlohmann::json &Doc,
                                  const std::string &Name) {
  if (!Doc.is_object())
    return nullptr;
  for (const nlohmann::json &K : Doc["kernels"])
    if (K["name"] == Name)
      return &K;
  return nullptr;
}

TEST(AnalysisBudget, AKernelOverTheTimeLimitStopsAndTheOthersAreAnalyzed) {
  BudgetRun R = runWithBudget({"--analysis-time-limit=0.5"});
  // light's finding makes the status 1; the stop does not change it.
  EXPECT_TRUE(R.Text.exitedWith(1)) << R.Text.describe() << R.Text.Stderr;
  EXPECT_THAT(R.Text.Stderr,
              ::testing::HasSubstr(
                  "k.cu:2:17: warning: analysis of kernel 'heavy' stopped: "
                  "budget exceeded (time: 0.5 s)"));
  EXPECT_THAT(R.Text.Stderr, ::testing::HasSubstr("[--analysis-time-limit]"));
  EXPECT_THAT(R.Text.Stderr,
              ::testing::HasSubstr("1 kernel configuration over the analysis budget"));
  EXPECT_THAT(R.Text.Stdout, ::testing::HasSubstr("k.cu:19:3: warning:"));
  EXPECT_THAT(R.Text.Stdout, ::testing::HasSubstr("[blocked-stride]"));

  ASSERT_TRUE(R.Doc.is_object()) << R.Json.Stdout;
  const nlohmann::json *Heavy = kernelNamed(R.Doc, "heavy");
  const nlohmann::json *Light = kernelNamed(R.Doc, "light");
  ASSERT_TRUE(Heavy && Light) << R.Doc.dump(1);
  EXPECT_EQ((*Heavy)["analysis_stopped"], "budget exceeded (time: 0.5 s)");
  EXPECT_FALSE(Light->contains("analysis_stopped"));
  // Every access of heavy that the analysis saw is unknown, with the reason;
  // light's are measured.
  unsigned HeavyAccesses = 0, LightMeasured = 0;
  for (const nlohmann::json &A : R.Doc["accesses"]) {
    if (A["kernel"] == "heavy") {
      ++HeavyAccesses;
      EXPECT_TRUE(A["sectors_per_request"].is_null() &&
                  A["bank_conflict_ways"].is_null())
          << A.dump();
      EXPECT_EQ(A["unknown_reason"],
                "analysis stopped: budget exceeded (time: 0.5 s)");
    } else if (A["kernel"] == "light" && A["sectors_per_request"].is_number()) {
      ++LightMeasured;
    }
  }
  EXPECT_EQ(LightMeasured, 2u) << R.Doc["accesses"].dump(1);
  for (const nlohmann::json &F : R.Doc["findings"])
    EXPECT_EQ(F["kernel"], "light") << F.dump();
  EXPECT_EQ(R.Doc["findings"].size(), 1u);
}

TEST(AnalysisBudget, TheMemoryLimitStopsAKernelToo) {
  // The time limit only as a backstop.
  BudgetRun R = runWithBudget(
      {"--analysis-memory-limit=1", "--analysis-time-limit=120"});
  ASSERT_TRUE(R.Doc.is_object()) << R.Json.Stdout << R.Json.Stderr;
  const nlohmann::json *Heavy = kernelNamed(R.Doc, "heavy");
  ASSERT_TRUE(Heavy) << R.Doc.dump(1);
  EXPECT_EQ((*Heavy)["analysis_stopped"], "budget exceeded (memory: 1 MB)");
  EXPECT_THAT(R.Text.Stderr, ::testing::HasSubstr("[--analysis-memory-limit]"));
}

TEST(AnalysisBudget, TheConfigurationFileSetsTheLimit) {
  BudgetRun R = runWithBudget({}, "AnalysisTimeLimit: 0.25\n");
  const nlohmann::json *Heavy = kernelNamed(R.Doc, "heavy");
  ASSERT_TRUE(Heavy) << R.Json.Stdout << R.Json.Stderr;
  EXPECT_EQ((*Heavy)["analysis_stopped"], "budget exceeded (time: 0.25 s)");
}

TEST(AnalysisBudget, AKernelWithinTheBudgetIsNotMarked) {
  nlohmann::json Records = accessRecords(R"cu(
__global__ void k(float *out, const float *in) { out[threadIdx.x] = in[threadIdx.x]; }
)cu");
  ASSERT_EQ(Records.size(), 2u);
  for (const nlohmann::json &A : Records)
    EXPECT_TRUE(A["unknown_reason"].is_null()) << A.dump();
}

TEST(AnalysisBudget, ANegativeLimitIsAnInvalidInvocation) {
  ProcessResult R = runProcess({toolPath(), "--analysis-time-limit=-1", "x.cu"});
  EXPECT_TRUE(R.exitedWith(3)) << R.describe();
  EXPECT_EQ(nonEmptyLines(R.Stderr).size(), 1u) << R.Stderr;
  EXPECT_THAT(R.Stderr, ::testing::HasSubstr("--analysis-time-limit"));
}

} // namespace
} // namespace cal::test

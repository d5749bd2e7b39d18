//===- HostLaunchTest.cpp - Launch shapes from host code, --assume --------===//
//
// What kernels[] says about a launch's configuration (block, grid, where
// they came from) when host code computes it, and runtime sizes the user
// assumes: --assume on the command line and Assume in the configuration
// file, global and per kernel; the cost model's prediction is complete once
// the grid and trip counts are known; bad --assume syntax is one line and
// exit status 3.
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

#ifndef CAL_TOOL_PATH
#error "CAL_TOOL_PATH must name the built cuda-access-lint"
#endif

namespace cal::test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using nlohmann::json;

std::string toolPath() {
  if (const char *Tool = std::getenv("CAL_TOOL"))
    return Tool;
  return CAL_TOOL_PATH;
}

std::string fixturesDir() {
  if (const char *D = std::getenv("CAL_FIXTURES_DIR"))
    return D;
  return CAL_FIXTURES_DIR;
}

ProcessResult lint(std::vector<std::string> Args,
                   const ProcessOptions &Options = {}) {
  Args.insert(Args.begin(), toolPath());
  return runProcess(Args, Options);
}

std::string show(const ProcessResult &R) {
  return "result: " + R.describe() + "\nstdout:\n" + R.Stdout +
         "\nstderr:\n" + R.Stderr;
}

/// The kernels[] records named \p Name.
std::vector<json> kernelsNamed(const json &Doc, const std::string &Name) {
  std::vector<json> Out;
  for (const json &K : Doc["kernels"])
    if (K["name"] == Name)
      Out.push_back(K);
  return Out;
}

// An SGEMM series with runtime sizes, launched from a runner whose sizes
// are its parameters (no caller in the file).
const char *Sgemm = R"cu(
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
__global__ void sgemm_naive(int M, int N, int K, const float *A,
                            const float *B, float *C) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float acc = 0.f;
    for (int i = 0; i < K; ++i)
      acc += A[x * K + i] * B[i * N + y];
    C[x * N + y] = acc;
  }
}
__global__ void sgemm_coalesced(int M, int N, int K, const float *A,
                                const float *B, float *C) {
  int x = blockIdx.x * 32 + threadIdx.x / 32;
  int y = blockIdx.y * 32 + threadIdx.x % 32;
  if (x < M && y < N) {
    float acc = 0.f;
    for (int i = 0; i < K; ++i)
      acc += A[x * K + i] * B[i * N + y];
    C[x * N + y] = acc;
  }
}
void run(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 grid(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
  sgemm_naive<<<grid, dim3(32, 32)>>>(M, N, K, A, B, C);
  sgemm_coalesced<<<grid, 1024>>>(M, N, K, A, B, C);
}
)cu";

TEST(HostLaunch, WithoutSizesThePredictionIsIncomplete) {
  TempDir Dir("cal-host");
  ASSERT_TRUE(writeFile(Dir / "sgemm.cu", Sgemm));
  ProcessResult R =
      lint({"--format=json", Dir / "sgemm.cu", "--", "-std=c++17"});
  ASSERT_TRUE(R.Exited && R.ExitCode <= 1) << show(R);
  json Doc = json::parse(R.Stdout);
  ASSERT_EQ(Doc["kernels"].size(), 2u);
  for (const json &K : Doc["kernels"]) {
    EXPECT_EQ(K["prediction"]["complete"], false) << K.dump();
    EXPECT_EQ(K["grid_dim"], nullptr) << K.dump();
    EXPECT_FALSE(K.contains("assumed_values")) << K.dump();
  }
}

TEST(HostLaunch, AssumedSizesCompleteThePrediction) {
  TempDir Dir("cal-host");
  ASSERT_TRUE(writeFile(Dir / "sgemm.cu", Sgemm));
  ProcessResult R = lint({"--format=json", "--assume", "M=4096,N=4096,K=4096",
                          Dir / "sgemm.cu", "--", "-std=c++17"});
  ASSERT_TRUE(R.Exited && R.ExitCode <= 1) << show(R);
  json Doc = json::parse(R.Stdout);
  ASSERT_EQ(Doc["kernels"].size(), 2u);
  for (const json &K : Doc["kernels"]) {
    EXPECT_EQ(K["prediction"]["complete"], true) << K.dump();
    EXPECT_EQ(K["grid_dim"], json({128, 128, 1})) << K.dump();
    EXPECT_EQ(K["prediction"]["blocks"], 128 * 128) << K.dump();
    // M, N and K, read by the host code of the launch (the grid and the
    // arguments): the kernel's parameters follow from the arguments.
    std::set<std::string> Names;
    for (const json &A : K["assumed_values"]) {
      EXPECT_EQ(A["value"], 4096) << A.dump();
      EXPECT_EQ(A["source"], "--assume") << A.dump();
      EXPECT_THAT(A["used_for"].get<std::string>(),
                  StartsWith("host code at sgemm.cu:2"));
      Names.insert(A["name"]);
    }
    EXPECT_EQ(Names, (std::set<std::string>{"M", "N", "K"})) << K.dump();
    std::string All = K["assumptions"].dump();
    EXPECT_THAT(All, HasSubstr("`M` = 4096 in host code at sgemm.cu:2"));
    EXPECT_THAT(All, HasSubstr(": assumed (--assume)"));
  }
  // The trip count of the k loop is K.
  bool SawLoop = false;
  for (const json &F : Doc["findings"])
    for (const std::string &N : F["notes"])
      SawLoop = SawLoop || N.find("assumed (--assume)") != std::string::npos;
  EXPECT_TRUE(SawLoop) << "no finding states the assumed values";
}

TEST(HostLaunch, PerKernelAssumptionsWinOverGlobalOnes) {
  TempDir Dir("cal-host");
  ASSERT_TRUE(writeFile(Dir / "sgemm.cu", Sgemm));
  ProcessResult R =
      lint({"--format=json", "--accesses", "--assume=M=4096,N=4096,K=4096",
            "--assume=sgemm_naive:K=512", Dir / "sgemm.cu", "--",
            "-std=c++17"});
  ASSERT_TRUE(R.Exited && R.ExitCode <= 1) << show(R);
  json Doc = json::parse(R.Stdout);
  std::map<std::string, int64_t> TripOfA;
  for (const json &A : Doc["accesses"])
    if (A["array"] == "A" && !A["loops"].empty())
      TripOfA[A["kernel"]] = A["loops"][0]["trip_count"].get<int64_t>();
  EXPECT_EQ(TripOfA["sgemm_naive"], 512);
  EXPECT_EQ(TripOfA["sgemm_coalesced"], 4096);
}

TEST(HostLaunch, AssumeInTheConfigFileSaysWhichFile) {
  TempDir Dir("cal-host");
  ASSERT_TRUE(writeFile(Dir / "sgemm.cu", Sgemm));
  ASSERT_TRUE(writeFile(Dir / ".cuda-access-lint.yaml",
                        "Assume:\n  M: 4096\n  N: 4096\n  K: 4096\n"));
  ProcessResult R =
      lint({"--format=json", Dir / "sgemm.cu", "--", "-std=c++17"});
  ASSERT_TRUE(R.Exited && R.ExitCode <= 1) << show(R);
  json Doc = json::parse(R.Stdout);
  for (const json &K : Doc["kernels"]) {
    EXPECT_EQ(K["prediction"]["complete"], true) << K.dump();
    ASSERT_FALSE(K["assumed_values"].empty()) << K.dump();
    EXPECT_EQ(K["assumed_values"][0]["source"],
              "Assume in " + Dir / ".cuda-access-lint.yaml");
  }
  // The command line refines the file.
  ProcessResult C = lint({"--format=json", "--accesses", "--assume=K=64",
                          Dir / "sgemm.cu", "--", "-std=c++17"});
  json CDoc = json::parse(C.Stdout);
  for (const json &A : CDoc["accesses"])
    if (A["array"] == "A" && !A["loops"].empty())
      EXPECT_EQ(A["loops"][0]["trip_count"], 64) << A.dump();
}

TEST(HostLaunch, ConstantArgumentsAtHostCallsAreFollowed) {
  // The runner's sizes from its one call: grid, trip count and the kernel's
  // parameter are known without --assume.
  TempDir Dir("cal-host");
  ASSERT_TRUE(writeFile(Dir / "sgemm.cu",
                        std::string(Sgemm) +
                            "void bench(const float *A, const float *B, "
                            "float *C) { run(2048, 1024, 512, A, B, C); }\n"));
  ProcessResult R =
      lint({"--format=json", Dir / "sgemm.cu", "--", "-std=c++17"});
  ASSERT_TRUE(R.Exited && R.ExitCode <= 1) << show(R);
  json Doc = json::parse(R.Stdout);
  ASSERT_EQ(Doc["kernels"].size(), 2u);
  for (const json &K : Doc["kernels"]) {
    EXPECT_EQ(K["prediction"]["complete"], true) << K.dump();
    EXPECT_EQ(K["grid_dim"], json({64, 32, 1})) << K.dump();
    EXPECT_THAT(K["block_dim_source"].get<std::string>(),
                HasSubstr("M = 2048 (bench calls run at sgemm.cu:30)"));
    EXPECT_THAT(K["assumptions"].dump(),
                HasSubstr("`K` = 512: the launch at sgemm.cu:2"));
  }
}

TEST(HostLaunch, BadAssumeSyntaxIsOneLineAndExitThree) {
  TempDir Dir("cal-host");
  ASSERT_TRUE(writeFile(Dir / "sgemm.cu", Sgemm));
  struct Case {
    const char *Arg, *Says;
  } Cases[] = {
      {"M4096", "'M4096' is not NAME=VALUE"},
      {"M=lots", "'lots' is not an integer"},
      {"=3", "'' is not a variable name"},
      {"M=1,,N=2", "empty item"},
      {":M=3", "empty kernel name"},
      {"2M=3", "'2M' is not a variable name"},
  };
  for (const Case &C : Cases) {
    ProcessResult R = lint({std::string("--assume=") + C.Arg, Dir / "sgemm.cu",
                            "--", "-std=c++17"});
    EXPECT_TRUE(R.exitedWith(3)) << C.Arg << show(R);
    std::vector<std::string> Lines = nonEmptyLines(R.Stderr);
    ASSERT_EQ(Lines.size(), 1u) << R.Stderr;
    EXPECT_THAT(Lines[0], StartsWith(std::string("cuda-access-lint: error: "
                                                 "--assume=") +
                                     C.Arg + ": "));
    EXPECT_THAT(Lines[0], HasSubstr(C.Says));
    EXPECT_EQ(R.Stdout, "");
  }
}

// The finite-difference form: shapes in global arrays a setup function
// fills, a runner called per axis, a table of kernels picked in a switch,
// a loop over the variants.
TEST(HostLaunch, SetupArraysGiveEachKernelItsEntry) {
  ProcessResult R =
      lint({"--format=json", fixturesDir() + "/analyzer/launch_shape_setup_arrays.cu",
            "--", "-std=c++17"});
  ASSERT_TRUE(R.Exited && R.ExitCode <= 1) << show(R);
  json Doc = json::parse(R.Stdout);
  struct Want {
    const char *Kernel;
    json Block, Grid;
    const char *Scenario;
  } Wants[] = {
      {"grad_x", {64, 4, 1}, {16, 64, 1}, "axis = 0"},
      {"grad_x_wide", {64, 4, 1}, {2, 64, 1}, "axis = 0"},
      {"grad_y", {4, 64, 1}, {16, 64, 1}, "axis = 1"},
      {"grad_y_wide", {32, 8, 1}, {2, 64, 1}, "axis = 1"},
      {"grad_z", {4, 64, 1}, {16, 64, 1}, "axis = 2"},
      {"grad_z_wide", {32, 8, 1}, {2, 64, 1}, "axis = 2"},
  };
  for (const Want &W : Wants) {
    std::vector<json> Ks = kernelsNamed(Doc, W.Kernel);
    ASSERT_EQ(Ks.size(), 1u) << W.Kernel << "\n" << Doc["kernels"].dump(1);
    EXPECT_EQ(Ks[0]["block_dim"], W.Block) << Ks[0].dump();
    EXPECT_EQ(Ks[0]["grid_dim"], W.Grid) << Ks[0].dump();
    std::string Source = Ks[0]["block_dim_source"];
    EXPECT_THAT(Source, StartsWith("launch at launch_shape_setup_arrays.cu:"));
    EXPECT_THAT(Source, HasSubstr(std::string(W.Scenario) +
                                  " (main calls run_axis at "
                                  "launch_shape_setup_arrays.cu:"));
  }
}

// A helper called with two shapes: two configurations of one kernel.
TEST(HostLaunch, EachShapeAHelperIsCalledWithIsAConfiguration) {
  ProcessResult R =
      lint({"--format=json", fixturesDir() + "/analyzer/launch_shape_host_values.cu",
            "--", "-std=c++17"});
  ASSERT_TRUE(R.Exited && R.ExitCode <= 1) << show(R);
  json Doc = json::parse(R.Stdout);
  std::vector<json> Ks = kernelsNamed(Doc, "from_helper");
  ASSERT_EQ(Ks.size(), 2u) << Doc["kernels"].dump(1);
  std::set<std::string> Shapes;
  for (const json &K : Ks) {
    Shapes.insert(K["block_dim"].dump());
    EXPECT_EQ(K["grid_dim"], json({16, 1, 1})) << K.dump();
    EXPECT_THAT(K["block_dim_source"].get<std::string>(),
                HasSubstr("two_shapes calls launch_with at "
                          "launch_shape_host_values.cu:"));
  }
  EXPECT_EQ(Shapes, (std::set<std::string>{"[32,8,1]", "[4,64,1]"}));
  std::vector<json> S = kernelsNamed(Doc, "from_struct");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S[0]["block_dim"], json({32, 8, 1}));
  EXPECT_EQ(S[0]["grid_dim"], json({128, 1, 1}));
}

} // namespace
} // namespace cal::test

//===- LauncherTest.cpp - --launcher inside a CMake + nvcc build ----------===//
//
// A generated CMake project whose CUDA compiles go through
//   CMAKE_CUDA_COMPILER_LAUNCHER = cuda-access-lint;--launcher;ccache
// is built with Ninja and nvcc: each .cu is linted with its exact nvcc
// command, the findings appear in the build's output like a compiler's
// warnings, the object files are built (by ccache and nvcc, so a rebuild
// from a clean tree is a cache hit that still lints), and the build fails
// only under the gate (--warnings-as-errors before --launcher).
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#ifndef CAL_TOOL_PATH
#error "CAL_TOOL_PATH must name the built cuda-access-lint"
#endif
#ifndef CAL_CMAKE_COMMAND
#error "CAL_CMAKE_COMMAND must name cmake"
#endif

namespace cal::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string nvccPath() {
  if (const char *Nvcc = std::getenv("CAL_NVCC"))
    return Nvcc;
  return "/usr/local/cuda/bin/nvcc";
}

const char Kernels[] = R"cu(#define TILE 32
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
void launch(const float *in, float *out, int n) {
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, 8)>>>(in, out, n);
}
)cu";

class Launcher : public ::testing::Test {
protected:
  void SetUp() override {
    if (access(nvccPath().c_str(), X_OK) != 0)
      GTEST_SKIP() << "nvcc not installed at " << nvccPath();
    if (access("/usr/bin/ccache", X_OK) != 0 || access("/usr/bin/ninja", X_OK) != 0)
      GTEST_SKIP() << "ccache or ninja not installed";
    ASSERT_TRUE(writeFile(Dir / "src/transpose.cu", Kernels));
    ASSERT_TRUE(writeFile(Dir / "src/clean.cu",
                          "__global__ void copy(const float *in, float *out) {\n"
                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "  out[i] = in[i];\n}\n"));
  }

  ProcessResult configure(const std::string &Launch) {
    std::string CMake = "cmake_minimum_required(VERSION 3.20)\n"
                        "project(x LANGUAGES CXX CUDA)\n"
                        "set(CMAKE_CUDA_ARCHITECTURES 90)\n"
                        "set(CMAKE_CUDA_COMPILER_LAUNCHER " + Launch + ")\n"
                        "add_library(k STATIC src/transpose.cu src/clean.cu)\n";
    EXPECT_TRUE(writeFile(Dir / "CMakeLists.txt", CMake));
    return runProcess({CAL_CMAKE_COMMAND, "-S", Dir.path(), "-B", Dir / "build",
                       "-G", "Ninja", "-DCMAKE_CUDA_COMPILER=" + nvccPath()},
                      Env);
  }
  ProcessResult build() {
    return runProcess({CAL_CMAKE_COMMAND, "--build", Dir / "build"}, Env);
  }

  TempDir Dir{"cal-launcher"};
  ProcessOptions Env{"", 600, {{"CCACHE_DIR", Dir / "ccache"}}, {}};
};

std::string show(const ProcessResult &R) {
  return R.describe() + "\n" + R.Stdout + R.Stderr;
}

TEST_F(Launcher, LintsEachCompileAndChainsWithCcache) {
  std::string Tool = CAL_TOOL_PATH;
  ProcessResult C = configure("\"" + Tool + ";--launcher;ccache\"");
  ASSERT_TRUE(C.exitedWith(0)) << show(C);
  ProcessResult B = build();
  ASSERT_TRUE(B.exitedWith(0)) << "no gate: findings do not fail the build\n"
                               << show(B);
  std::string Out = B.Stdout + B.Stderr;
  EXPECT_THAT(Out, HasSubstr("transpose.cu:12:28: warning: `tile`: 32-way bank conflict"));
  EXPECT_THAT(Out, Not(HasSubstr("clean.cu:")));
  EXPECT_EQ(access((Dir / "build/libk.a").c_str(), R_OK), 0) << "the library was built";

  // From a clean tree: ccache serves the objects, the lint still runs.
  ProcessResult Clean = runProcess({CAL_CMAKE_COMMAND, "--build", Dir / "build",
                                    "--target", "clean"}, Env);
  ASSERT_TRUE(Clean.exitedWith(0)) << show(Clean);
  ProcessResult Again = build();
  ASSERT_TRUE(Again.exitedWith(0)) << show(Again);
  EXPECT_THAT(Again.Stdout + Again.Stderr, HasSubstr("32-way bank conflict"));
  ProcessResult Stats = runProcess({"/usr/bin/ccache", "--print-stats"}, Env);
  EXPECT_THAT(Stats.Stdout, HasSubstr("direct_cache_hit\t2")) << Stats.Stdout;
}

TEST_F(Launcher, FailsTheBuildOnlyUnderTheGate) {
  std::string Tool = CAL_TOOL_PATH;
  ProcessResult C = configure("\"" + Tool +
                              ";--warnings-as-errors=shared-bank-conflict;--launcher\"");
  ASSERT_TRUE(C.exitedWith(0)) << show(C);
  ProcessResult B = build();
  EXPECT_FALSE(B.exitedWith(0)) << show(B);
  EXPECT_THAT(B.Stdout + B.Stderr,
              HasSubstr("transpose.cu:12:28: error: `tile`: 32-way bank conflict"));
}

} // namespace
} // namespace cal::test

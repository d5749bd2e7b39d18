//===- NvccProjectTest.cpp - A real CMake + nvcc project ------------------===//
//
// Writes a small CUDA project (two targets, an include directory, nvcc-only
// options, separable compilation), configures it with this machine's cmake
// and nvcc (configure only: compile_commands.json is written then), and runs
// `cuda-access-lint -p <build>` on the database, as a CI job would.
//
// What CMake 3.25 writes (checked here, so a change shows up):
//  - Ninja: -I flags inline, --generate-code=arch=compute_XX,code=[compute_XX,sm_XX],
//    -forward-unknown-to-host-compiler, -x cu, -rdc=true for separable code;
//  - Unix Makefiles: the include directories in a response file,
//    `--options-file CMakeFiles/<target>.dir/includes_CUDA.rsp`, relative to
//    the entry's directory.
// Both generators run, so both spellings are covered.
//
//===----------------------------------------------------------------------===//

#include "frontend/CompilerFlags.h"
#include "support/TestSupport.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

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

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

std::string toolPath() {
  if (const char *Tool = std::getenv("CAL_TOOL"))
    return Tool;
  return CAL_TOOL_PATH;
}

std::string nvccPath() {
  if (const char *Nvcc = std::getenv("CAL_NVCC"))
    return Nvcc;
  return "/usr/local/cuda/bin/nvcc";
}

bool isExecutable(const std::string &Path) {
  return access(Path.c_str(), X_OK) == 0;
}

const char ProjectCMake[] = R"(cmake_minimum_required(VERSION 3.20)
project(x LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80 90)
set(CMAKE_CUDA_STANDARD 17)

add_library(transpose src/transpose.cu)
target_include_directories(transpose PUBLIC include)
target_compile_options(transpose PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall>)

add_library(scale src/scale.cu)
set_target_properties(scale PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
target_compile_options(scale PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall>)
)";

const char TileHeader[] = R"(#pragma once
constexpr int kTile = 32;
__device__ inline float twice(float v) { return 2.0f * v; }
)";

// Each file says it was parsed: `#warning` shows with --compiler-warnings.
const char TransposeCu[] = R"(#include "tile.cuh"
#warning "cal-parsed: transpose.cu"

__global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = twice(tile[threadIdx.x][threadIdx.y]);
}
)";

const char ScaleCu[] = R"(#warning "cal-parsed: scale.cu"
extern __device__ float factor;
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= factor;
}
)";

struct Generator {
  std::string Name;
  bool UsesOptionsFile; ///< what CMake 3.25 writes for it
};

void PrintTo(const Generator &G, std::ostream *OS) { *OS << G.Name; }

class NvccProject : public ::testing::TestWithParam<Generator> {
protected:
  void SetUp() override {
    if (!isExecutable(nvccPath()))
      GTEST_SKIP() << "nvcc not installed at " << nvccPath()
                   << " (set CAL_NVCC to use another)";
    if (GetParam().Name == "Ninja" && !isExecutable("/usr/bin/ninja") &&
        !isExecutable("/usr/local/bin/ninja"))
      GTEST_SKIP() << "ninja not installed";
    ASSERT_FALSE(Dir.path().empty());
    ASSERT_TRUE(writeFile(Dir / "CMakeLists.txt", ProjectCMake));
    ASSERT_TRUE(writeFile(Dir / "include/tile.cuh", TileHeader));
    ASSERT_TRUE(writeFile(Dir / "src/transpose.cu", TransposeCu));
    ASSERT_TRUE(writeFile(Dir / "src/scale.cu", ScaleCu));

    std::vector<std::string> Configure = {
        CAL_CMAKE_COMMAND, "-S", Dir.path(), "-B", Build(), "-G",
        GetParam().Name, "-DCMAKE_CUDA_COMPILER=" + nvccPath(),
        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"};
    ProcessResult R = runProcess(Configure);
    ASSERT_TRUE(R.exitedWith(0))
        << "configuring the project failed\ncommand: " << shellLine(Configure)
        << "\n" << R.describe() << "\n" << R.Stdout << R.Stderr;
    std::optional<std::string> Db = readFile(Build() + "/compile_commands.json");
    ASSERT_TRUE(Db) << "cmake wrote no compile_commands.json";
    Database = *Db;
  }

  std::string Build() const { return Dir / "build"; }

  TempDir Dir{"cal-nvcc-project"};
  std::string Database;
};

TEST_P(NvccProject, DatabaseIsWhatCMakeWritesForNvcc) {
  EXPECT_THAT(Database, HasSubstr("nvcc"));
  EXPECT_THAT(Database,
              HasSubstr("--generate-code=arch=compute_80,code=[compute_80,sm_80]"));
  EXPECT_THAT(Database, HasSubstr("--expt-relaxed-constexpr"));
  EXPECT_THAT(Database, HasSubstr("-Xcompiler=-Wall"));
  EXPECT_THAT(Database, HasSubstr("-rdc=true"));
  if (GetParam().UsesOptionsFile)
    EXPECT_THAT(Database, HasSubstr("--options-file "))
        << "CMake no longer writes the include directories to a response "
           "file for this generator; the options-file case is still covered "
           "by CompilerFlagsTest";
}

TEST_P(NvccProject, EveryCommandTranslatesCleanly) {
  std::string Error;
  auto DB = clang::tooling::JSONCompilationDatabase::loadFromFile(
      Build() + "/compile_commands.json", Error,
      clang::tooling::JSONCommandLineSyntax::AutoDetect);
  ASSERT_TRUE(DB) << Error;
  std::vector<clang::tooling::CompileCommand> Cmds = DB->getAllCompileCommands();
  ASSERT_EQ(Cmds.size(), 2u);
  for (const clang::tooling::CompileCommand &Cmd : Cmds) {
    SCOPED_TRACE(Cmd.Filename);
    llvm::Expected<TranslatedFlags> T =
        translateCompilerFlags(Cmd.CommandLine, Cmd.Directory);
    ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
    EXPECT_TRUE(T->IsNvcc);
    EXPECT_THAT(T->Archs, ElementsAre("sm_80", "sm_90"));
    EXPECT_THAT(T->Unknown, IsEmpty());
    EXPECT_THAT(T->Flags, Contains("-std=c++17"));
    EXPECT_THAT(T->Flags, Contains("-Wall"));
    EXPECT_THAT(T->Inputs, ElementsAre(Cmd.Filename));
    bool IsScale = Cmd.Filename.find("scale.cu") != std::string::npos;
    if (IsScale) {
      EXPECT_THAT(T->Flags, Contains("-fgpu-rdc"));
    } else {
      // The include directory, inline or from the options file.
      EXPECT_THAT(T->Flags, Contains("-I" + (Dir / "include")));
      EXPECT_THAT(T->Flags, Not(Contains("-fgpu-rdc")));
    }
  }
}

TEST_P(NvccProject, LintsTheWholeDatabase) {
  std::vector<std::string> Argv = {toolPath(), "-p", Build(),
                                   "--compiler-warnings"};
  ProcessResult R = runProcess(Argv);
  std::string Show = "command: " + shellLine(Argv) + "\nresult: " +
                     R.describe() + "\nstderr:\n" + R.Stderr;
  EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1)) << Show;
  EXPECT_THAT(R.Stderr, Not(HasSubstr("unknown argument"))) << Show;
  EXPECT_THAT(R.Stderr, Not(HasSubstr("error:"))) << Show;
  EXPECT_THAT(R.Stderr, Not(HasSubstr("ignoring compiler flag"))) << Show;
  // Both files were parsed (each one's #warning was seen).
  EXPECT_THAT(R.Stderr, HasSubstr("cal-parsed: transpose.cu")) << Show;
  EXPECT_THAT(R.Stderr, HasSubstr("cal-parsed: scale.cu")) << Show;
}

INSTANTIATE_TEST_SUITE_P(, NvccProject,
                         ::testing::Values(Generator{"Ninja", false},
                                           Generator{"Unix Makefiles", true}),
                         [](const ::testing::TestParamInfo<Generator> &I) {
                           return I.param.UsesOptionsFile ? "Makefiles"
                                                          : "Ninja";
                         });

} // namespace
} // namespace cal::test

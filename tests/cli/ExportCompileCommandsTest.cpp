//===- ExportCompileCommandsTest.cpp - A database clangd can read ---------===//
//
// --export-compile-commands on a database as CMake writes it for nvcc: the
// CUDA entry's command is translated to clang's flags, the C++ entry is
// kept, and clangd (where clangd-22 is installed) parses the CUDA file on
// the exported database without an unknown-argument error.
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

namespace cal::test {
namespace {

using nlohmann::json;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

const char Kernel[] = R"cu(#include <cuda_runtime.h>
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}
)cu";

struct Project {
  Project() : Dir("cal-export") {
    writeFile(Dir / "src/scale.cu", Kernel);
    writeFile(Dir / "src/main.cpp", "int main() { return 0; }\n");
    json DB = json::array();
    DB.push_back({{"directory", Dir / "build"},
                  {"file", Dir / "src/scale.cu"},
                  {"command",
                   "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler "
                   "-I" + (Dir / "src") + " --generate-code=arch=compute_80,code=[compute_80,sm_80] "
                   "-Xcompiler=-Wall --expt-relaxed-constexpr -x cu -c " +
                       (Dir / "src/scale.cu") + " -o scale.o"}});
    DB.push_back({{"directory", Dir / "build"},
                  {"file", Dir / "src/main.cpp"},
                  {"command", "/usr/bin/c++ -O2 -c " + (Dir / "src/main.cpp") +
                                  " -o main.o"}});
    writeFile(Dir / "build/compile_commands.json", DB.dump(2));
  }
  TempDir Dir;
};

TEST(ExportCompileCommands, TranslatesTheCudaEntriesAndKeepsTheOthers) {
  Project P;
  ProcessResult R = runProcess({CAL_TOOL_PATH, "-p", P.Dir / "build",
                                "--export-compile-commands=" + (P.Dir / "clangd")});
  ASSERT_TRUE(R.exitedWith(0)) << R.describe() << R.Stderr;
  std::optional<std::string> Out = readFile(P.Dir / "clangd/compile_commands.json");
  ASSERT_TRUE(Out);
  json DB = json::parse(*Out);
  ASSERT_EQ(DB.size(), 2u) << DB.dump(1);
  const json &Cu = DB[0];
  EXPECT_EQ(Cu["file"], P.Dir / "src/scale.cu");
  EXPECT_EQ(Cu["directory"], P.Dir / "build");
  std::vector<std::string> Args = Cu["arguments"];
  EXPECT_THAT(Args, Contains("--offload-arch=sm_80"));
  EXPECT_THAT(Args, Contains("-Wall"));
  EXPECT_THAT(Args, Contains("-I" + (P.Dir / "src")));
  for (const std::string &A : Args) {
    EXPECT_THAT(A, Not(HasSubstr("generate-code")));
    EXPECT_THAT(A, Not(HasSubstr("expt-")));
    EXPECT_THAT(A, Not(HasSubstr("__cuda_access_lint__"))) << "the tool's own headers";
    EXPECT_NE(A, "--cuda-device-only");
    EXPECT_NE(A, "-fsyntax-only");
  }
  EXPECT_EQ(DB[1]["file"], P.Dir / "src/main.cpp");
  EXPECT_THAT(DB[1]["command"].get<std::string>(), HasSubstr("/usr/bin/c++ -O2"));
}

TEST(ExportCompileCommands, RefusesToOverwriteTheDatabaseItReads) {
  Project P;
  ProcessResult R = runProcess({CAL_TOOL_PATH, "-p", P.Dir / "build",
                                "--export-compile-commands=" + (P.Dir / "build")});
  EXPECT_TRUE(R.exitedWith(3)) << R.describe();
  EXPECT_EQ(nonEmptyLines(R.Stderr).size(), 1u) << R.Stderr;
}

TEST(ExportCompileCommands, ClangdParsesTheNvccProjectOnTheExportedDatabase) {
  const std::string Clangd = "/usr/bin/clangd-22";
  if (access(Clangd.c_str(), X_OK) != 0 ||
      access("/usr/local/cuda/include/cuda_runtime.h", R_OK) != 0)
    GTEST_SKIP() << "needs clangd-22 and a CUDA toolkit in /usr/local/cuda";
  Project P;
  // On nvcc's database itself, clangd stops at nvcc's flags.
  ProcessResult Raw = runProcess({Clangd, "--compile-commands-dir=" + (P.Dir / "build"),
                                  "--check=" + (P.Dir / "src/scale.cu")});
  EXPECT_THAT(Raw.Stderr, HasSubstr("unknown argument")) << Raw.Stderr;

  ASSERT_TRUE(runProcess({CAL_TOOL_PATH, "-p", P.Dir / "build",
                          "--export-compile-commands=" + (P.Dir / "clangd")})
                  .exitedWith(0));
  ProcessResult R = runProcess({Clangd, "--compile-commands-dir=" + (P.Dir / "clangd"),
                                "--check=" + (P.Dir / "src/scale.cu")});
  EXPECT_TRUE(R.exitedWith(0)) << R.describe() << R.Stderr;
  EXPECT_THAT(R.Stderr, Not(HasSubstr("unknown argument"))) << R.Stderr;
  EXPECT_THAT(R.Stderr, Not(HasSubstr("error:"))) << R.Stderr;
}

} // namespace
} // namespace cal::test

//===- CliTest.cpp - The command line, as a user or CI sees it ------------===//
//
// Runs the built binary and checks exit status, stdout and stderr: the
// contract of tool/Driver.h (0 clean, 1 findings, 2 parse errors, 3 usage)
// and one-line errors that say what is wrong.
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include <unistd.h>

#ifndef CAL_TOOL_PATH
#error "CAL_TOOL_PATH must name the built cuda-access-lint"
#endif

namespace cal::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string toolPath() {
  if (const char *Tool = std::getenv("CAL_TOOL"))
    return Tool;
  return CAL_TOOL_PATH;
}

ProcessResult lint(std::vector<std::string> Args,
                   const ProcessOptions &Options = {}) {
  Args.insert(Args.begin(), toolPath());
  return runProcess(Args, Options);
}

/// What the run did, for failure messages.
std::string show(const ProcessResult &R) {
  return "result: " + R.describe() + "\nstdout:\n" + R.Stdout +
         "\nstderr:\n" + R.Stderr;
}

/// Signs that the process crashed rather than failed (LLVM's crash handler).
void expectNoCrash(const ProcessResult &R) {
  EXPECT_TRUE(R.Exited) << show(R);
  EXPECT_THAT(R.Stderr, Not(HasSubstr("Stack dump")));
  EXPECT_THAT(R.Stderr, Not(HasSubstr("PLEASE submit a bug report")));
}

/// A usage error: exit status 3 and exactly one line on stderr, which starts
/// with "cuda-access-lint: error: ".
void expectOneLineUsageError(const ProcessResult &R) {
  expectNoCrash(R);
  EXPECT_TRUE(R.exitedWith(3)) << show(R);
  std::vector<std::string> Lines = nonEmptyLines(R.Stderr);
  EXPECT_EQ(Lines.size(), 1u) << "expected one line on stderr:\n" << R.Stderr;
  if (!Lines.empty())
    EXPECT_THAT(Lines[0], StartsWith("cuda-access-lint: error: "));
  EXPECT_EQ(R.Stdout, "");
}

TEST(Cli, HelpLooksLikeAClangTool) {
  ProcessResult R = lint({"--help"});
  EXPECT_TRUE(R.exitedWith(0)) << show(R);
  EXPECT_THAT(R.Stdout, StartsWith("OVERVIEW: "));
  EXPECT_THAT(R.Stdout, HasSubstr("\nUSAGE: cuda-access-lint [options] "));
  EXPECT_THAT(R.Stdout, HasSubstr("\nOPTIONS:\n"));
  EXPECT_THAT(R.Stdout, HasSubstr("-p <build-path>"));
  EXPECT_THAT(R.Stdout, HasSubstr("--help"));
  EXPECT_THAT(R.Stdout, HasSubstr("--version"));
  // Only the tool's options, not every LLVM library's.
  EXPECT_THAT(R.Stdout, Not(HasSubstr("--print-all-options")));
  EXPECT_EQ(R.Stderr, "");
}

TEST(Cli, VersionLooksLikeAClangTool) {
  ProcessResult R = lint({"--version"});
  EXPECT_TRUE(R.exitedWith(0)) << show(R);
  EXPECT_TRUE(std::regex_search(
      R.Stdout, std::regex("^cuda-access-lint version [0-9]+\\.[0-9]+\\.[0-9]+")))
      << R.Stdout;
  EXPECT_THAT(R.Stdout, HasSubstr("LLVM 22"));
  EXPECT_EQ(R.Stderr, "");
}

TEST(Cli, UnknownOptionIsOneLineAndExitThree) {
  ProcessResult R = lint({"--no-such-option", "a.cu"});
  expectOneLineUsageError(R);
  EXPECT_THAT(R.Stderr, HasSubstr("--no-such-option"));
}

TEST(Cli, MissingFileIsOneLineAndExitThree) {
  TempDir Dir("cal-cli");
  std::string Missing = Dir / "missing.cu";
  ProcessResult R = lint({Missing, "--", "-std=c++17"});
  expectOneLineUsageError(R);
  EXPECT_EQ(R.Stderr,
            "cuda-access-lint: error: no such file: '" + Missing + "'\n");
}

TEST(Cli, NoInputIsOneLineAndExitThree) {
  ProcessResult R = lint({});
  expectOneLineUsageError(R);
}

TEST(Cli, MissingBuildDirectoryIsOneLineAndExitThree) {
  TempDir Dir("cal-cli");
  ProcessResult R = lint({"-p", Dir / "no-such-build"});
  expectOneLineUsageError(R);
  EXPECT_THAT(R.Stderr, HasSubstr("no-such-build"));
}

TEST(Cli, BuildDirectoryWithoutDatabaseIsOneLineAndExitThree) {
  TempDir Dir("cal-cli");
  ProcessResult R = lint({"-p", Dir.path()});
  expectOneLineUsageError(R);
  EXPECT_THAT(R.Stderr, HasSubstr("compile_commands.json"));
}

TEST(Cli, MalformedCompilationDatabaseIsOneLineAndExitThree) {
  TempDir Dir("cal-cli");
  ASSERT_TRUE(writeFile(Dir / "build/compile_commands.json",
                        "[{\"directory\": \"/tmp\", \"file\": \"a.cu\",\n"));
  ProcessResult R = lint({"-p", Dir / "build"});
  expectOneLineUsageError(R);
  EXPECT_THAT(R.Stderr, HasSubstr("compile_commands.json"));
}

TEST(Cli, CompilationDatabaseOfWrongShapeIsOneLineAndExitThree) {
  TempDir Dir("cal-cli");
  ASSERT_TRUE(writeFile(Dir / "build/compile_commands.json",
                        "{\"not\": \"an array\"}\n"));
  ProcessResult R = lint({"-p", Dir / "build"});
  expectOneLineUsageError(R);
}

TEST(Cli, InvalidCudaPathIsOneLineAndExitThree) {
  TempDir Dir("cal-cli");
  ASSERT_TRUE(writeFile(Dir / "a.cu", "__global__ void k() {}\n"));
  ProcessResult R = lint({"--cuda-path=" + (Dir / "no-cuda"), Dir / "a.cu",
                          "--", "-std=c++17"});
  expectOneLineUsageError(R);
  EXPECT_THAT(R.Stderr, HasSubstr("--cuda-path"));
}

TEST(Cli, FileNotInTheDatabaseGetsAnInferredCommand) {
  // clang's interpolation gives b.cu a.cu's command, written "... -- b.cu".
  TempDir Dir("cal-cli");
  std::string A = Dir / "a.cu", B = Dir / "b.cu";
  ASSERT_TRUE(writeFile(A, "__global__ void ka(float *x) { x[0] = 1; }\n"));
  ASSERT_TRUE(writeFile(B, "__global__ void kb(float *x) { x[0] = 2; }\n"));
  ASSERT_TRUE(writeFile(
      Dir / "compile_commands.json",
      "[{\"directory\": \"" + Dir.path() +
          "\", \"command\": \"/usr/local/cuda/bin/nvcc -std=c++17 "
          "-arch=sm_80 -c " + A + " -o a.o\", \"file\": \"" + A + "\"}]\n"));
  ProcessResult R = lint({"-p", Dir.path(), B});
  expectNoCrash(R);
  EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1)) << show(R);
  EXPECT_THAT(R.Stderr, Not(HasSubstr("error"))) << show(R);
}

/// Files at paths of many lengths, in one run: each must parse cleanly.
/// (The paths of the built-in headers must outlive the parse; a dangling
/// one shows up as a file read with another file's contents, depending on
/// how long the paths are.)
void expectPathsOfAnyLengthParse(const std::vector<std::string> &Extra,
                                 int Step) {
  TempDir Dir("cal-cli");
  std::vector<std::string> Args = Extra;
  for (int N = 1; N <= 64; N += Step) {
    std::string File = Dir / (std::string(N, 'd') + "/k.cu");
    ASSERT_TRUE(writeFile(File, "__global__ void k(float *x) {\n"
                                "  x[threadIdx.x] = 1.0f;\n"
                                "}\n"));
    Args.push_back(File);
  }
  Args.insert(Args.end(), {"--", "-std=c++17"});
  ProcessResult R = lint(Args);
  expectNoCrash(R);
  EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1)) << show(R);
  EXPECT_THAT(R.Stderr, Not(HasSubstr("error"))) << show(R);
}

TEST(Cli, PathsOfAnyLengthParseWithTheToolkit) {
  expectPathsOfAnyLengthParse({}, 3);
}

TEST(Cli, PathsOfAnyLengthParseOnTheBuiltinPrelude) {
  expectPathsOfAnyLengthParse({"--no-cuda-toolkit"}, 1);
}

const char SyntaxError[] = "__global__ void k(float *x) {\n"
                           "  x[threadIdx.x] = 1.0f\n" // no ';'
                           "}\n";

void expectSyntaxErrorReported(const std::vector<std::string> &Extra) {
  TempDir Dir("cal-cli");
  std::string File = Dir / "broken.cu";
  ASSERT_TRUE(writeFile(File, SyntaxError));
  std::vector<std::string> Args = Extra;
  Args.insert(Args.end(), {"--quiet", File, "--", "-std=c++17"});
  ProcessResult R = lint(Args);
  expectNoCrash(R);
  EXPECT_TRUE(R.exitedWith(2)) << show(R);
  // Clang's own diagnostic, at the line of the mistake.
  EXPECT_THAT(R.Stderr, HasSubstr(File + ":2:"));
  EXPECT_THAT(R.Stderr, HasSubstr("error: expected ';'"));
  // Nothing else went wrong first (a header that was not found, ...).
  EXPECT_THAT(R.Stderr, Not(HasSubstr("fatal error")));
}

TEST(Cli, SyntaxErrorIsClangsDiagnosticAndExitTwo) {
  expectSyntaxErrorReported({});
}

TEST(Cli, SyntaxErrorOnTheBuiltinPreludeIsClangsDiagnosticAndExitTwo) {
  expectSyntaxErrorReported({"--no-cuda-toolkit"});
}

// The headers a CUDA file includes and the intrinsics nvcc provides; the
// built-in prelude must cover them too (frontend/cuda_prelude/).
const char Headers[] = R"cu(#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void stream_copy(const float *__restrict__ in, float *out,
                            __half *h, __nv_bfloat16 *b, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __ldcs(in + i);
    __stcs(out + i, v);
    float4 q = __ldcs(reinterpret_cast<const float4 *>(in) + i / 4);
    __stcs(reinterpret_cast<float4 *>(out) + i / 4, q);
    h[i] = __float2half(v);
    b[i] = __float2bfloat16(v);
  }
  block.sync();
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  stream_copy<<<4, 256>>>(in, out, nullptr, nullptr, 1024);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
)cu";

/// Parses Headers with \p Extra options: no errors, nothing on stderr beyond
/// at most one note about the built-in prelude.
void expectHeadersParse(const std::vector<std::string> &Extra,
                        bool PreludeNoteAllowed) {
  TempDir Dir("cal-cli");
  std::string File = Dir / "headers.cu";
  ASSERT_TRUE(writeFile(File, Headers));
  std::vector<std::string> Args = Extra;
  Args.insert(Args.end(), {"--quiet", File, "--", "-std=c++17"});
  ProcessResult R = lint(Args);
  expectNoCrash(R);
  EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1)) << show(R);
  std::vector<std::string> Lines = nonEmptyLines(R.Stderr);
  if (PreludeNoteAllowed && !Lines.empty() &&
      Lines[0].rfind("cuda-access-lint: note: ", 0) == 0 &&
      Lines[0].find("prelude") != std::string::npos)
    Lines.erase(Lines.begin());
  EXPECT_TRUE(Lines.empty()) << "unexpected output on stderr:\n" << R.Stderr;
}

TEST(Cli, CudaHeadersParseWithTheToolkit) {
  if (access("/usr/local/cuda/include/cuda_runtime.h", R_OK) != 0 &&
      !std::getenv("CUDA_PATH") && !std::getenv("CUDA_HOME"))
    GTEST_SKIP() << "no CUDA toolkit on this machine";
  expectHeadersParse({}, /*PreludeNoteAllowed=*/false);
}

TEST(Cli, CudaHeadersParseOnTheBuiltinPrelude) {
  expectHeadersParse({"--no-cuda-toolkit"}, /*PreludeNoteAllowed=*/true);
}

TEST(Cli, NoToolkitAnywhereFallsBackToThePrelude) {
  // No CUDA_PATH/CUDA_HOME, no nvcc on PATH, and a --cuda-path-free run
  // where /usr/local/cuda may exist: force the prelude through the option
  // and check the note is said once for several files.
  TempDir Dir("cal-cli");
  ASSERT_TRUE(writeFile(Dir / "a.cu", Headers));
  ASSERT_TRUE(writeFile(Dir / "b.cu", Headers));
  ProcessOptions Env;
  Env.UnsetEnv = {"CUDA_PATH", "CUDA_HOME"};
  ProcessResult R = lint({"--quiet", "--no-cuda-toolkit", Dir / "a.cu", Dir / "b.cu",
                          "--", "-std=c++17"},
                         Env);
  expectNoCrash(R);
  EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1)) << show(R);
  std::vector<std::string> Lines = nonEmptyLines(R.Stderr);
  ASSERT_EQ(Lines.size(), 1u) << R.Stderr;
  EXPECT_THAT(Lines[0], StartsWith("cuda-access-lint: note: "));
  EXPECT_THAT(Lines[0], HasSubstr("prelude"));
}

} // namespace
} // namespace cal::test

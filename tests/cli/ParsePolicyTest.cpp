//===- ParsePolicyTest.cpp - Which clang errors fail the lint -------------===//
//
// The exit-status policy for code that does not parse cleanly (README,
// "Exit status"): an error in a kernel or in what a kernel uses is shown as
// clang shows it and exits 2; an error only in host code (a host function, a
// header only the host side needs) is summed up in one warning per file, the
// kernels are analyzed, and the exit status is that of the findings;
// --strict-parse makes every error exit 2.
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>

#include <unistd.h>

#ifndef CAL_TOOL_PATH
#error "CAL_TOOL_PATH must name the built cuda-access-lint"
#endif

namespace cal::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string toolPath() {
  if (const char *Tool = std::getenv("CAL_TOOL"))
    return Tool;
  return CAL_TOOL_PATH;
}

std::string show(const ProcessResult &R) {
  return "result: " + R.describe() + "\nstdout:\n" + R.Stdout +
         "\nstderr:\n" + R.Stderr;
}

/// A kernel with a blocked-stride finding (lanes 16 floats apart), so that
/// "the kernels were analyzed" shows as exit 1 and a finding.
const char Kernel[] = R"cu(
__global__ void blocked(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int c = 0; c < 16; ++c)
    s += in[t * 16 + c];
  out[t] = s;
}
)cu";

struct LintRun {
  ProcessResult R;
  nlohmann::json Doc;
};

/// Lints \p Source (written to a file of its own) with \p Extra options;
/// with --format=json when \p Json.
LintRun lintSource(const std::string &Source, std::vector<std::string> Extra = {},
                   bool Json = false, const std::string &Name = "file.cu") {
  TempDir Dir("cal-parse");
  std::string File = Dir / Name;
  EXPECT_TRUE(writeFile(File, Source));
  // --quiet: stderr holds only what the parse policy says, not the run's
  // closing summary line.
  std::vector<std::string> Args = {toolPath(), "--quiet"};
  if (Json)
    Args.push_back("--format=json");
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  Args.insert(Args.end(), {File, "--", "-std=c++17"});
  LintRun Out{runProcess(Args), nullptr};
  EXPECT_TRUE(Out.R.Exited) << show(Out.R);
  EXPECT_THAT(Out.R.Stderr, Not(HasSubstr("Stack dump")));
  if (Json)
    Out.Doc = nlohmann::json::parse(Out.R.Stdout, nullptr, false);
  return Out;
}

// ---- Host code only: the kernels are analyzed, one warning ----------------

const std::string HostError = std::string(Kernel) + R"cu(
void host_setup(float *p) {
  undeclared_host_helper(p);   // not declared anywhere
  p[0] = also_missing;
}
)cu";

TEST(ParsePolicy, HostOnlyErrorIsOneWarningAndKernelsAreAnalyzed) {
  LintRun X = lintSource(HostError);
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  // The kernel's finding is reported.
  EXPECT_THAT(X.R.Stdout, HasSubstr("[blocked-stride]"));
  // One line about the host code, not clang's errors one by one.
  EXPECT_THAT(X.R.Stderr,
              HasSubstr("warning: host code did not parse (2 errors; first: "
                        "file.cu:11:3: use of undeclared identifier "
                        "'undeclared_host_helper'); every kernel parsed"));
  EXPECT_THAT(X.R.Stderr, Not(HasSubstr("error:")));
  EXPECT_EQ(nonEmptyLines(X.R.Stderr).size(), 1u) << X.R.Stderr;
}

TEST(ParsePolicy, HostOnlyErrorIsInTheJsonReport) {
  LintRun X = lintSource(HostError, {}, /*Json=*/true);
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  ASSERT_TRUE(X.Doc.is_object()) << X.R.Stdout;
  const nlohmann::json &F = X.Doc["files"][0];
  EXPECT_EQ(F["parse_errors"], 0);
  EXPECT_EQ(F["host_parse_errors"]["count"], 2);
  EXPECT_THAT(F["host_parse_errors"]["first"].get<std::string>(),
              HasSubstr("undeclared_host_helper"));
  EXPECT_EQ(X.Doc["findings"].size(), 1u);
}

TEST(ParsePolicy, StrictParseFailsOnHostErrors) {
  LintRun X = lintSource(HostError, {"--strict-parse"});
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  EXPECT_THAT(X.R.Stderr, HasSubstr("error: use of undeclared identifier "
                                    "'undeclared_host_helper'"));
  EXPECT_THAT(X.R.Stderr, Not(HasSubstr("host code did not parse")));
}

TEST(ParsePolicy, MissingHostHeaderIsNamedAndParsingGoesOn) {
  // Two headers the machine lacks; the host code that needs them fails, the
  // kernel after them parses.
  LintRun X = lintSource(std::string("#include <GL/not_a_real_glut.h>\n"
                                 "#include \"project_missing.h\"\n") +
                     Kernel +
                     "void draw() { glutSwapBuffers(); }\n");
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  EXPECT_THAT(X.R.Stdout, HasSubstr("[blocked-stride]"));
  EXPECT_THAT(X.R.Stderr,
              HasSubstr("not found: 'GL/not_a_real_glut.h', "
                        "'project_missing.h'"));
  EXPECT_THAT(X.R.Stderr, HasSubstr("(3 errors;"));
  EXPECT_THAT(X.R.Stderr, Not(HasSubstr("fatal error")));
}

TEST(ParsePolicy, ManyHostErrorsDoNotStopTheParseBeforeTheKernel) {
  // More errors than clang's default limit of 20, all before the kernel.
  std::string Source = "void host() {\n";
  for (int I = 0; I < 30; ++I)
    Source += "  missing_" + std::to_string(I) + "();\n";
  Source += "}\n";
  Source += Kernel;
  LintRun X = lintSource(Source);
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  EXPECT_THAT(X.R.Stdout, HasSubstr("[blocked-stride]"));
  EXPECT_THAT(X.R.Stderr, HasSubstr("(30 errors;"));
}

// ---- The kernels or what they use: clang's errors, exit 2 ------------------

TEST(ParsePolicy, ErrorInAKernelIsShownAndExitsTwo) {
  LintRun X = lintSource(R"cu(
__global__ void k(float *x) {
  x[threadIdx.x] = not_declared_in_kernel;
}
)cu");
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  EXPECT_THAT(X.R.Stderr, HasSubstr("error: use of undeclared identifier "
                                    "'not_declared_in_kernel'"));
  EXPECT_THAT(X.R.Stderr, Not(HasSubstr("host code did not parse")));
}

// What a kernel computes from code that does not compile is unknown, with
// that reason (issue 13): a header that is missing leaves `x128`
// undeclared; clang drops the initializer of `local_oc` and the whole
// statement that assigns `j` (interp/CompileErrors.cpp).
TEST(ParsePolicy, CodeThatDoesNotCompileIsUnknownWithThatReason) {
  LintRun X = lintSource(R"cu(#include "missing_llmc_header.cuh"
__global__ void reorder(float *dst, const float *src, int C) {
  extern __shared__ float shared[];
  int local_oc = threadIdx.x * x128::size;
  float tmp = src[blockIdx.x * C + threadIdx.x];
  shared[local_oc + threadIdx.y] = tmp;
  int j = threadIdx.x;
  j = j * x128::size;
  dst[blockIdx.x * C + j] = shared[threadIdx.x];
}
void launch(float *d, const float *s, int C, int n) { reorder<<<n, dim3(32, 4), 4096>>>(d, s, C); }
)cu",
                         {"--accesses"}, /*Json=*/true);
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  ASSERT_TRUE(X.Doc.is_object()) << X.R.Stdout;
  std::map<std::string, nlohmann::json> At; // "line array kind"
  for (const nlohmann::json &A : X.Doc["accesses"])
    At[std::to_string(A["line"].get<int>()) + " " +
       A["array"].get<std::string>() + " " + A["kind"].get<std::string>()] =
        A["unknown_reason"];
  EXPECT_EQ(At["6 shared store"],
            "the initializer of `local_oc` does not compile");
  EXPECT_EQ(
      At["9 dst store"],
      "`j` may be assigned at line 8 by a statement that does not compile");
  EXPECT_TRUE(At["5 src load"].is_null()) << At["5 src load"];
  EXPECT_TRUE(At["9 shared load"].is_null()) << At["9 shared load"];
}

TEST(ParsePolicy, ErrorInADeviceFunctionAKernelCallsExitsTwo) {
  LintRun X = lintSource(R"cu(
__device__ float helper(float v) { return v * missing_scale; }
__global__ void k(float *x) { x[threadIdx.x] = helper(x[threadIdx.x]); }
void host() { also_missing(); }
)cu");
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  EXPECT_THAT(X.R.Stderr, HasSubstr("'missing_scale'"));
  // All the errors are shown once the kernels are hit.
  EXPECT_THAT(X.R.Stderr, HasSubstr("'also_missing'"));
}

TEST(ParsePolicy, ErrorInATypeAKernelUsesExitsTwo) {
  LintRun X = lintSource(R"cu(
struct Params {
  int n;
  undeclared_type_t scale;
};
__global__ void k(Params p, float *x) { x[threadIdx.x] = p.n; }
)cu");
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  EXPECT_THAT(X.R.Stderr, HasSubstr("undeclared_type_t"));
}

TEST(ParsePolicy, ErrorInADeviceTemplateAKernelInstantiatesExitsTwo) {
  LintRun X = lintSource(R"cu(
template <typename T> __device__ T twice(T v) { return v.nothing_here(); }
__global__ void k(float *x) { x[threadIdx.x] = twice(x[threadIdx.x]); }
)cu");
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  EXPECT_THAT(X.R.Stderr, HasSubstr("error:"));
}

TEST(ParsePolicy, AKernelSwallowedByAHostErrorExitsTwo) {
  // The host function's missing '}' makes the kernel a nested function
  // definition, which clang drops: a kernel the preprocessor saw is not in
  // the AST, so the errors count.
  LintRun X = lintSource(std::string("void host(int n) {\n  if (n) {\n  }\n") +
                     Kernel);
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  EXPECT_THAT(X.R.Stderr, HasSubstr("error:"));
  EXPECT_THAT(X.R.Stderr, Not(HasSubstr("host code did not parse")));
}

TEST(ParsePolicy, CleanFileSaysNothingAboutHostCode) {
  LintRun X = lintSource(std::string(Kernel) + "void host() {}\n");
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  EXPECT_EQ(X.R.Stderr, "");
}

// ---- What nvcc accepts and clang rejects: read as nvcc reads it -----------

TEST(ParsePolicy, SharedObjectsWithConstructorsAreAnalyzed) {
  if (access("/usr/local/cuda/include/cccl/cuda/barrier", R_OK) != 0)
    GTEST_SKIP() << "no CUDA toolkit (cuda/barrier) on this machine";
  // nvcc ignores a __shared__ object's dynamic initialization (a warning);
  // clang rejects it and would drop every statement naming the object.
  LintRun X = lintSource(R"cu(#include <cuda/barrier>
struct Acc { float v; __device__ Acc() : v(0) {} };
__global__ void k(float *x) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ Acc acc[32][32];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  acc[threadIdx.x][0].v = x[threadIdx.x];
  bar.arrive_and_wait();
  x[threadIdx.x] = acc[0][threadIdx.x].v;
}
void launch(float *x) { k<<<1, 32>>>(x); }
)cu",
                         {}, false, "nv.cu");
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  EXPECT_EQ(X.R.Stderr, "");
  // The column of the array of objects is read by adjacent lanes 32 words
  // apart: the access after the declaration is analyzed.
  EXPECT_THAT(X.R.Stdout, HasSubstr("nv.cu:8:3: warning: `acc`: 32-way bank "
                                    "conflict"));
}

TEST(ParsePolicy, SharedObjectsWithConstructorsInTemplatesAreAnalyzed) {
  if (access("/usr/local/cuda/include/cccl/cuda/barrier", R_OK) != 0)
    GTEST_SKIP() << "no CUDA toolkit (cuda/barrier) on this machine";
  // In a template, clang checks the initializer again when it instantiates
  // the declaration (SharedInTemplates.h): the template kernels, one in a
  // header that the precompiled preamble holds and one in the file, read as
  // nvcc reads them, with and without the cache, the same findings.
  TempDir Dir("cal-parse");
  ASSERT_TRUE(writeFile(Dir / "staged.cuh", R"cu(#pragma once
#include <cuda/barrier>
template <int TILE>
__global__ void staged(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0 && threadIdx.y == 0) init(&bar, blockDim.x * blockDim.y);
  __syncthreads();
  int x = blockIdx.x * TILE + threadIdx.x;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(blockIdx.y * TILE + threadIdx.y + j) * n + x];
  bar.arrive_and_wait();
  for (int j = 0; j < TILE; j += 8)
    out[(blockIdx.y * TILE + threadIdx.y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
)cu"));
  std::string File = Dir / "nv.cu";
  ASSERT_TRUE(writeFile(File, R"cu(#include "staged.cuh"
struct Acc { float v; __device__ Acc() : v(0) {} };
template <class T>
__global__ void acc(float *x) {
  __shared__ T a[32][32];
  a[threadIdx.x][0].v = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = a[0][threadIdx.x].v;
}
void launch(const float *in, float *out, int n) {
  staged<32><<<dim3(n / 32, n / 32), dim3(32, 8)>>>(in, out, n);
  acc<Acc><<<1, 32>>>(out);
}
)cu"));
  std::string Cache = Dir / "cache";
  auto Run = [&](std::vector<std::string> Extra) {
    std::vector<std::string> Args = {toolPath(), "--quiet",
                                     "--header-filter=.*"};
    Args.insert(Args.end(), Extra.begin(), Extra.end());
    Args.insert(Args.end(), {File, "--", "-std=c++17"});
    return runProcess(Args);
  };
  ProcessResult NoCache = Run({"--no-preamble-cache"});
  EXPECT_TRUE(NoCache.exitedWith(1)) << show(NoCache);
  EXPECT_EQ(NoCache.Stderr, "");
  // The column of the tile (header, line 14) and of the array of objects
  // (file, line 6), written by adjacent lanes 32 words apart.
  EXPECT_THAT(NoCache.Stdout,
              HasSubstr("staged.cuh:14:58: warning: `tile`: 32-way bank"));
  EXPECT_THAT(NoCache.Stdout, HasSubstr("nv.cu:6:3: warning: `a`: 32-way bank"));
  for (int I = 0; I < 2; ++I) { // built, then reused
    ProcessResult Cached = Run({"--preamble-cache-dir=" + Cache,
                                "--preamble-build=first"});
    EXPECT_EQ(Cached.Stdout, NoCache.Stdout) << "run " << I;
    EXPECT_EQ(Cached.Stderr, "") << "run " << I;
  }
}

TEST(ParsePolicy, InlineAsmNvccAcceptsIsNotAnError) {
  // PTX registers with one '%' and operands without a comma: nvcc hands the
  // text to ptxas; clang checks it as GCC would. The lint never reads asm.
  LintRun X = lintSource(std::string(R"cu(
__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}
__device__ void flag(unsigned char *p, unsigned v) {
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(v) "l"(p) : "memory");
}
)cu") + Kernel);
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  EXPECT_EQ(X.R.Stderr, "");
}

TEST(ParsePolicy, AnAsmErrorOutsideTheAsmStillCounts) {
  // The asm statement closed before the error: not an asm difference.
  LintRun X = lintSource(R"cu(
__global__ void k(unsigned *x) {
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(x[0])); x[1] = missing_after_asm;
}
)cu");
  EXPECT_TRUE(X.R.exitedWith(2)) << show(X.R);
  EXPECT_THAT(X.R.Stderr, HasSubstr("'missing_after_asm'"));
}

TEST(ParsePolicy, RegisterAndNarrowingAreWarningsAsUnderNvcc) {
  LintRun X = lintSource(std::string(R"cu(
__global__ void k2(float *x) {
  register int r = 3;
  int n[2] = {2.5, 1};
  x[threadIdx.x] = r + n[0];
}
)cu") + Kernel);
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  EXPECT_EQ(X.R.Stderr, "");
}


// ---- Typo correction: off in host-only bodies, kept in device code --------

/// Names one letter off from a declared one, in a host function, a kernel
/// and a host-device function.
const std::string TypoPrelude = std::string(Kernel) + R"cu(
void host_scale_values(float *p, int n);
__device__ float device_scale_value(float v) { return 2 * v; }
)cu";

TEST(ParsePolicy, HostBodiesGetNoTypoCorrection) {
  const std::string Host = TypoPrelude + R"cu(
void host_driver(float *p) {
  host_scale_valuez(p, 4);
}
void host_other(float *p) { host_scale_valuex(p, 8); }
)cu";
  LintRun X = lintSource(Host);
  EXPECT_TRUE(X.R.exitedWith(1)) << show(X.R);
  EXPECT_THAT(X.R.Stdout, HasSubstr("[blocked-stride]"));
  // Both errors counted, the first named as clang names it, without the
  // search for a correction.
  EXPECT_THAT(X.R.Stderr,
              HasSubstr("host code did not parse (2 errors; first: "
                        "file.cu:14:3: use of undeclared identifier "
                        "'host_scale_valuez'); every kernel parsed"));
  EXPECT_THAT(X.R.Stderr, Not(HasSubstr("did you mean")));
  // --strict-parse shows each error: no correction either.
  LintRun S = lintSource(Host, {"--strict-parse"});
  EXPECT_TRUE(S.R.exitedWith(2)) << show(S.R);
  EXPECT_THAT(S.R.Stderr, HasSubstr("use of undeclared identifier "
                                    "'host_scale_valuex'"));
  EXPECT_THAT(S.R.Stderr, Not(HasSubstr("did you mean")));
}

TEST(ParsePolicy, DeviceCodeKeepsClangsTypoCorrection) {
  // In a kernel: the error counts and is shown with clang's correction.
  LintRun K = lintSource(TypoPrelude + R"cu(
__global__ void uses_typo(float *p) {
  p[threadIdx.x] = device_scale_valeu(p[threadIdx.x]);
}
)cu");
  EXPECT_TRUE(K.R.exitedWith(2)) << show(K.R);
  EXPECT_THAT(K.R.Stderr,
              HasSubstr("use of undeclared identifier 'device_scale_valeu'; "
                        "did you mean 'device_scale_value'?"));
  // In a host-device function, too.
  LintRun HD = lintSource(TypoPrelude + R"cu(
__host__ __device__ float both(float v) { return device_scale_valeu(v); }
)cu", {"--strict-parse"});
  EXPECT_TRUE(HD.R.exitedWith(2)) << show(HD.R);
  EXPECT_THAT(HD.R.Stderr, HasSubstr("did you mean 'device_scale_value'?"));
}

} // namespace
} // namespace cal::test

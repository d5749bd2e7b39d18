//===- PreambleCacheTest.cpp - The preamble cache, end to end -------------===//
//
// frontend/PreambleCache.h: a file's leading includes are precompiled once
// and reused; an entry is used only when every file it read is unchanged;
// a corrupt entry is rebuilt; concurrent runs share the directory; the
// findings and facts are the same, byte for byte, with and without it.
// Each test has a cache directory of its own. What the cache did is read
// from --time-phases ("parse N ms (preamble hit)"). Most tests build on
// first sight (--preamble-build=first); SecondSightIsTheDefault tests the
// default, and TheSizeLimitRemovesTheLeastRecentlyUsed the limit.
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <filesystem>
#include <regex>
#include <thread>

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

/// A project header with the stride, and a file that starts with the CUDA
/// headers and it: the stride is a fact of the finding.
const char Header[] = "#pragma once\n#define STRIDE 16\n";
const char Source[] = R"cu(#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include "stride.h"

__global__ void strided(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * STRIDE];
}
)cu";

struct Project {
  TempDir Dir{"cal-preamble"};
  std::string Cache = Dir / "cache";
  std::string File = Dir / "kernel.cu";
  Project() {
    EXPECT_TRUE(writeFile(Dir / "stride.h", Header));
    EXPECT_TRUE(writeFile(File, Source));
  }
};

ProcessResult lint(const std::vector<std::string> &Files,
                   const std::vector<std::string> &Options,
                   const std::vector<std::string> &Flags = {}) {
  std::vector<std::string> Args = {toolPath(), "--format=json", "--accesses",
                                   "--time-phases"};
  Args.insert(Args.end(), Options.begin(), Options.end());
  Args.insert(Args.end(), Files.begin(), Files.end());
  Args.push_back("--");
  Args.push_back("-std=c++17");
  Args.insert(Args.end(), Flags.begin(), Flags.end());
  ProcessResult R = runProcess(Args);
  EXPECT_TRUE(R.Exited) << show(R);
  EXPECT_THAT(R.Stderr, Not(HasSubstr("Stack dump")));
  return R;
}

/// What --time-phases says the preamble cache did for each file, in order.
std::vector<std::string> preambleOutcomes(const std::string &Stderr) {
  std::vector<std::string> Out;
  std::regex Re(R"(: parse [0-9]+ ms \(preamble ([a-z]+))");
  for (std::sregex_iterator It(Stderr.begin(), Stderr.end(), Re), End;
       It != End; ++It)
    Out.push_back((*It)[1]);
  return Out;
}

/// The report without the run's times (the only thing a cache may change).
std::string withoutTimes(const std::string &Json) {
  return std::regex_replace(Json, std::regex(R"("[a-z_]*_ms": [0-9.e+-]+)"),
                            "\"ms\": 0");
}

TEST(PreambleCache, SecondRunHitsAndReportsTheSame) {
  Project P;
  ProcessResult Off = lint({P.File}, {"--no-preamble-cache"});
  ProcessResult Cold = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  ProcessResult Warm = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  ASSERT_TRUE(Off.exitedWith(1)) << show(Off);
  EXPECT_THAT(Off.Stdout, HasSubstr("(16 elements)"));
  EXPECT_EQ(preambleOutcomes(Off.Stderr), std::vector<std::string>{});
  EXPECT_EQ(preambleOutcomes(Cold.Stderr), std::vector<std::string>{"built"})
      << Cold.Stderr;
  EXPECT_EQ(preambleOutcomes(Warm.Stderr), std::vector<std::string>{"hit"})
      << Warm.Stderr;
  EXPECT_EQ(withoutTimes(Cold.Stdout), withoutTimes(Off.Stdout));
  EXPECT_EQ(withoutTimes(Warm.Stdout), withoutTimes(Off.Stdout));
  EXPECT_EQ(Warm.ExitCode, Off.ExitCode);
  // --no-preamble-cache neither reads nor writes one.
  EXPECT_FALSE(std::filesystem::exists(P.Dir / "unused"));
  lint({P.File}, {"--no-preamble-cache", "--preamble-cache-dir=" +
                                             (P.Dir / "unused")});
  EXPECT_FALSE(std::filesystem::exists(P.Dir / "unused"));
}

TEST(PreambleCache, APchThatCannotBeWrittenIsNotRecorded) {
  // Files of the run may not exceed 1 MB (RLIMIT_FSIZE; SIGXFSZ ignored, so
  // the write fails with EFBIG): the PCH cannot be written. The file is
  // linted as without the cache, and nothing is recorded against the
  // preamble: the next run, without the limit, builds it.
  Project P;
  ProcessResult Off = lint({P.File}, {"--no-preamble-cache"});
  std::string Cmd = "trap '' XFSZ; ulimit -f 1024; exec \"$0\" \"$@\"";
  std::vector<std::string> Args = {"/bin/sh",
                                   "-c",
                                   Cmd,
                                   toolPath(),
                                   "--format=json",
                                   "--accesses",
                                   "--time-phases",
                                   "--preamble-cache-dir=" + P.Cache,
                                   "--preamble-build=first",
                                   P.File,
                                   "--",
                                   "-std=c++17"};
  ProcessResult Full = runProcess(Args);
  ASSERT_TRUE(Full.exitedWith(1)) << show(Full);
  EXPECT_THAT(Full.Stderr, HasSubstr("(preamble unusable (cannot write"))
      << Full.Stderr;
  EXPECT_EQ(withoutTimes(Full.Stdout), withoutTimes(Off.Stdout));
  for (const auto &E : std::filesystem::directory_iterator(P.Cache))
    EXPECT_EQ(E.path().extension(), ".seen") << E.path();
  ProcessResult Next = lint(
      {P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(Next.Stderr), std::vector<std::string>{"built"})
      << Next.Stderr;
}

TEST(PreambleCache, AChangedHeaderIsReadAgain) {
  Project P;
  lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  // The same size, another stride: only the contents tell.
  ASSERT_TRUE(writeFile(P.Dir / "stride.h", "#pragma once\n#define STRIDE 32\n"));
  ProcessResult R = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(R.Stderr), std::vector<std::string>{"built"})
      << R.Stderr;
  EXPECT_THAT(R.Stdout, HasSubstr("(32 elements)"));
  EXPECT_THAT(R.Stdout, Not(HasSubstr("(16 elements)")));
  // Touched, not changed: still used.
  std::filesystem::last_write_time(
      P.Dir / "stride.h", std::filesystem::file_time_type::clock::now());
  ProcessResult T = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(T.Stderr), std::vector<std::string>{"hit"})
      << T.Stderr;
  EXPECT_EQ(withoutTimes(T.Stdout), withoutTimes(R.Stdout));
}

TEST(PreambleCache, AnotherFlagIsAnotherEntry) {
  Project P;
  ASSERT_TRUE(writeFile(P.Dir / "stride.h",
                        "#pragma once\n#ifndef STRIDE\n#define STRIDE 16\n"
                        "#endif\n"));
  lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  ProcessResult R =
      lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"}, {"-DSTRIDE=8"});
  EXPECT_EQ(preambleOutcomes(R.Stderr), std::vector<std::string>{"built"})
      << R.Stderr;
  EXPECT_THAT(R.Stdout, HasSubstr("(8 elements)"));
  ProcessResult Back = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(Back.Stderr), std::vector<std::string>{"hit"});
  EXPECT_THAT(Back.Stdout, HasSubstr("(16 elements)"));
}

TEST(PreambleCache, EditingTheBodyKeepsThePreamble) {
  Project P;
  lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  std::string Edited = std::regex_replace(std::string(Source),
                                          std::regex("in\\[t \\* STRIDE\\]"),
                                          "in[t * STRIDE * 2]");
  ASSERT_TRUE(writeFile(P.File, Edited));
  ProcessResult R = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(R.Stderr), std::vector<std::string>{"hit"});
  EXPECT_THAT(R.Stdout, HasSubstr("(32 elements)"));
}

TEST(PreambleCache, KernelsOfSystemHeadersAreStillAnalyzed) {
  // On a preamble, the walks over the translation unit leave out the
  // system headers' declarations that hold no kernel and no launch
  // (frontend/TraversalScope.h): a library's kernel that the project
  // launches is still found, and analyzed as without the cache.
  Project P;
  std::filesystem::create_directories(P.Dir / "sys");
  ASSERT_TRUE(writeFile(P.Dir / "sys/lib.h", R"cu(#pragma once
inline int lib_plain(int x) { return x + 1; }
template <int N> __global__ void lib_scale(float *p) { p[threadIdx.x * N] *= 2.0f; }
struct lib_pair { int a, b; };
)cu"));
  ASSERT_TRUE(writeFile(P.File, R"cu(#include <cuda_runtime.h>
#include <lib.h>
#include "stride.h"

__global__ void mine(float *p) { p[threadIdx.x * STRIDE] = 0.0f; }

void host(float *p) {
  lib_scale<2><<<1, 128>>>(p);
  mine<<<1, 64>>>(p);
}
)cu"));
  std::vector<std::string> Flags = {"-isystem", P.Dir / "sys"};
  std::vector<std::string> Cached = {"--preamble-cache-dir=" + P.Cache,
                                     "--preamble-build=first"};
  ProcessResult Off = lint({P.File}, {"--no-preamble-cache"}, Flags);
  ProcessResult Cold = lint({P.File}, Cached, Flags);
  ProcessResult Warm = lint({P.File}, Cached, Flags);
  ASSERT_TRUE(Off.exitedWith(1)) << show(Off);
  EXPECT_THAT(Off.Stdout, HasSubstr("lib_scale<2>"));
  EXPECT_THAT(Off.Stdout, HasSubstr("(2 elements)"));
  EXPECT_THAT(Off.Stdout, HasSubstr("(16 elements)"));
  EXPECT_EQ(preambleOutcomes(Warm.Stderr), std::vector<std::string>{"hit"})
      << Warm.Stderr;
  EXPECT_EQ(withoutTimes(Cold.Stdout), withoutTimes(Off.Stdout));
  EXPECT_EQ(withoutTimes(Warm.Stdout), withoutTimes(Off.Stdout));
}

TEST(PreambleCache, DeferredErrorsReachedFromThePreambleAreShown) {
  // An error in a __host__ __device__ function is deferred, and shown at
  // the end of the parse when a function emitted for the device reaches it
  // (frontend/PreambleReads.h). Here only the header's kernel does:
  // `helper` is inline (emitted only if used) and defined in the file. On a
  // preamble the walk must start from the roots it carries, which the parse
  // reads only when an error was deferred.
  Project P;
  ASSERT_TRUE(writeFile(P.Dir / "dev.h", R"cu(#pragma once
inline __host__ __device__ int helper(int x);
__global__ void from_header(int *p) { p[threadIdx.x] = helper(threadIdx.x); }
)cu"));
  ASSERT_TRUE(writeFile(P.File, R"cu(#include <cuda_runtime.h>
#include "dev.h"
#include "stride.h"

int host_only(int x);
inline __host__ __device__ int helper(int x) { return host_only(x); }

__global__ void mine(float *p) { p[threadIdx.x * STRIDE] = 0.0f; }
)cu"));
  std::vector<std::string> Cached = {"--preamble-cache-dir=" + P.Cache,
                                     "--preamble-build=first"};
  ProcessResult Off = lint({P.File}, {"--no-preamble-cache"});
  ProcessResult Cold = lint({P.File}, Cached);
  ProcessResult Warm = lint({P.File}, Cached);
  ASSERT_THAT(Off.Stderr, HasSubstr("reference to __host__ function "
                                    "'host_only' in __host__ __device__ "
                                    "function"))
      << show(Off);
  EXPECT_EQ(preambleOutcomes(Warm.Stderr), std::vector<std::string>{"hit"})
      << Warm.Stderr;
  for (const ProcessResult *R : {&Cold, &Warm}) {
    EXPECT_EQ(R->describe(), Off.describe());
    EXPECT_EQ(withoutTimes(R->Stdout), withoutTimes(Off.Stdout));
    EXPECT_EQ(std::regex_replace(R->Stderr, std::regex(".*: parse .*\\n"), ""),
              std::regex_replace(Off.Stderr, std::regex(".*: parse .*\\n"), ""))
        << R->Stderr;
  }
}

TEST(PreambleCache, ACorruptEntryIsRebuiltNotTrusted) {
  Project P;
  ProcessResult Off = lint({P.File}, {"--no-preamble-cache"});
  lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  unsigned Pchs = 0;
  for (const auto &E : std::filesystem::directory_iterator(P.Cache)) {
    if (E.path().extension() != ".pch")
      continue;
    ++Pchs;
    // Flip bytes in the middle, keep the size.
    std::string Bytes = *readFile(E.path().string());
    for (size_t I = Bytes.size() / 2; I < Bytes.size() / 2 + 64; ++I)
      Bytes[I] = char(~Bytes[I]);
    ASSERT_TRUE(writeFile(E.path().string(), Bytes));
  }
  ASSERT_EQ(Pchs, 1u);
  ProcessResult R = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(R.Stderr), std::vector<std::string>{"built"})
      << R.Stderr;
  EXPECT_EQ(withoutTimes(R.Stdout), withoutTimes(Off.Stdout));
  // A record cut short: rebuilt as well.
  for (const auto &E : std::filesystem::directory_iterator(P.Cache))
    if (E.path().extension() == ".json")
      ASSERT_TRUE(writeFile(E.path().string(), "{\"format\": 1, \"fi"));
  ProcessResult J = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(J.Stderr), std::vector<std::string>{"built"});
  EXPECT_EQ(withoutTimes(J.Stdout), withoutTimes(Off.Stdout));
  ProcessResult H = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(H.Stderr), std::vector<std::string>{"hit"});
}

TEST(PreambleCache, APreambleWithErrorsIsNotUsed) {
  // A header that is not found: the file is parsed without a preamble, so
  // the host-code warning names it as always, on every run.
  Project P;
  std::string Src = "#include \"not_here.h\"\n" + std::string(Source) +
                    "void host() { from_not_here(); }\n";
  ASSERT_TRUE(writeFile(P.File, Src));
  ProcessResult Off = lint({P.File}, {"--no-preamble-cache"});
  ProcessResult A = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  ProcessResult B = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_THAT(Off.Stderr, HasSubstr("not found: 'not_here.h'"));
  EXPECT_EQ(preambleOutcomes(A.Stderr), std::vector<std::string>{"unusable"});
  EXPECT_EQ(preambleOutcomes(B.Stderr), std::vector<std::string>{"unusable"});
  EXPECT_THAT(B.Stderr, HasSubstr("not found: 'not_here.h'"));
  EXPECT_EQ(withoutTimes(A.Stdout), withoutTimes(Off.Stdout));
  EXPECT_EQ(withoutTimes(B.Stdout), withoutTimes(Off.Stdout));
  // The header appears: the entry is stale, the preamble is built and used.
  ASSERT_TRUE(writeFile(P.Dir / "not_here.h", "void from_not_here();\n"));
  ProcessResult C = lint({P.File}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(C.Stderr), std::vector<std::string>{"built"})
      << C.Stderr;
  EXPECT_THAT(C.Stderr, Not(HasSubstr("host code did not parse")));
}

TEST(PreambleCache, ConcurrentRunsShareTheDirectory) {
  Project P;
  std::vector<std::string> Files;
  for (int I = 0; I < 4; ++I) {
    std::string F = P.Dir / ("k" + std::to_string(I) + ".cu");
    ASSERT_TRUE(writeFile(F, Source));
    Files.push_back(F);
  }
  ProcessResult Off = lint(Files, {"--no-preamble-cache", "-j2"});
  ProcessResult R[3];
  {
    std::vector<std::thread> Runs;
    for (int I = 0; I < 3; ++I)
      Runs.emplace_back([&, I] {
        R[I] = lint(Files, {"-j2", "--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
      });
    for (std::thread &T : Runs)
      T.join();
  }
  for (const ProcessResult &X : R) {
    EXPECT_EQ(withoutTimes(X.Stdout), withoutTimes(Off.Stdout));
    EXPECT_EQ(preambleOutcomes(X.Stderr).size(), 4u) << X.Stderr;
  }
  // Nothing half-written is left, and every entry is whole.
  unsigned Entries = 0;
  for (const auto &E : std::filesystem::directory_iterator(P.Cache)) {
    EXPECT_NE(E.path().extension(), ".tmp") << E.path();
    Entries += E.path().extension() == ".json";
  }
  EXPECT_EQ(Entries, 4u);
  ProcessResult After = lint(Files, {"-j2", "--preamble-cache-dir=" + P.Cache, "--preamble-build=first"});
  EXPECT_EQ(preambleOutcomes(After.Stderr),
            std::vector<std::string>(4, "hit"));
  EXPECT_EQ(withoutTimes(After.Stdout), withoutTimes(Off.Stdout));
}

TEST(PreambleCache, ConfigurationKeys) {
  Project P;
  ASSERT_TRUE(writeFile(P.Dir / ".cuda-access-lint.yaml",
                        "PreambleCacheDir: from-config\n"
                        "PreambleBuild: first\n"));
  std::vector<std::string> Args = {toolPath(), "--time-phases", "kernel.cu",
                                   "--", "-std=c++17"};
  ProcessOptions O;
  O.WorkingDirectory = P.Dir.path();
  ProcessResult R = runProcess(Args, O);
  EXPECT_EQ(preambleOutcomes(R.Stderr), std::vector<std::string>{"built"})
      << show(R);
  EXPECT_TRUE(std::filesystem::exists(P.Dir / "from-config"));
  ASSERT_TRUE(writeFile(P.Dir / ".cuda-access-lint.yaml",
                        "PreambleCache: false\n"));
  ProcessResult Off = runProcess(Args, O);
  EXPECT_EQ(preambleOutcomes(Off.Stderr), std::vector<std::string>{})
      << show(Off);
  // The command line wins.
  Args.insert(Args.begin() + 1, "--preamble-cache");
  Args.insert(Args.begin() + 1, "--preamble-cache-dir=" + P.Cache);
  Args.insert(Args.begin() + 1, "--preamble-build=first");
  ProcessResult On = runProcess(Args, O);
  EXPECT_EQ(preambleOutcomes(On.Stderr), std::vector<std::string>{"built"})
      << show(On);
  // A bad value is one line naming the key's place, exit 3.
  ASSERT_TRUE(writeFile(P.Dir / ".cuda-access-lint.yaml",
                        "PreambleBuild: sometimes\n"));
  ProcessResult Bad = runProcess(
      {toolPath(), "kernel.cu", "--", "-std=c++17"}, O);
  EXPECT_TRUE(Bad.exitedWith(3)) << show(Bad);
  EXPECT_THAT(Bad.Stderr, HasSubstr(".cuda-access-lint.yaml:1:"));
}

TEST(PreambleCache, SecondSightIsTheDefault) {
  // A one-off run only records the preamble (no PCH is written) and parses
  // without it; the second run builds it; the third uses it. The findings
  // are the same each time.
  Project P;
  ProcessResult Off = lint({P.File}, {"--no-preamble-cache"});
  std::vector<std::string> Opts = {"--preamble-cache-dir=" + P.Cache};
  ProcessResult First = lint({P.File}, Opts);
  EXPECT_EQ(preambleOutcomes(First.Stderr),
            std::vector<std::string>{"deferred"})
      << First.Stderr;
  unsigned Pchs = 0, Seen = 0;
  for (const auto &E : std::filesystem::directory_iterator(P.Cache)) {
    Pchs += E.path().extension() == ".pch";
    Seen += E.path().extension() == ".seen";
  }
  EXPECT_EQ(Pchs, 0u);
  EXPECT_EQ(Seen, 1u);
  ProcessResult Second = lint({P.File}, Opts);
  EXPECT_EQ(preambleOutcomes(Second.Stderr), std::vector<std::string>{"built"})
      << Second.Stderr;
  ProcessResult Third = lint({P.File}, Opts);
  EXPECT_EQ(preambleOutcomes(Third.Stderr), std::vector<std::string>{"hit"})
      << Third.Stderr;
  for (const auto &E : std::filesystem::directory_iterator(P.Cache))
    EXPECT_NE(E.path().extension(), ".seen") << E.path();
  for (const ProcessResult *R : {&First, &Second, &Third}) {
    EXPECT_EQ(withoutTimes(R->Stdout), withoutTimes(Off.Stdout));
    EXPECT_EQ(R->ExitCode, Off.ExitCode);
  }
}

TEST(PreambleCache, TheSizeLimitRemovesTheLeastRecentlyUsed) {
  // Entries A (the file), B (another file, with one more header) and C (the
  // file under another flag: as large as A). A limit that holds two of A's
  // size: after A, B, a hit on A and then C, the least recently used, B,
  // goes, though A was built first.
  Project P;
  std::string Other = P.Dir / "other.cu";
  ASSERT_TRUE(writeFile(Other, "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n" +
                                   std::string(Source)));
  auto Pchs = [&] {
    std::map<std::string, uintmax_t> Out;
    for (const auto &E : std::filesystem::directory_iterator(P.Cache))
      if (E.path().extension() == ".pch")
        Out[E.path().stem().string()] = E.file_size();
    return Out;
  };
  std::vector<std::string> Unlimited = {"--preamble-cache-dir=" + P.Cache,
                                        "--preamble-build=first",
                                        "--preamble-cache-size=0"};
  lint({P.File}, Unlimited);
  std::map<std::string, uintmax_t> A = Pchs();
  ASSERT_EQ(A.size(), 1u);
  lint({Other}, Unlimited);
  std::map<std::string, uintmax_t> AB = Pchs();
  ASSERT_EQ(AB.size(), 2u);
  std::string KeyA = A.begin()->first, KeyB;
  for (const auto &[K, Size] : AB)
    if (K != KeyA)
      KeyB = K;
  ASSERT_GE(AB[KeyB], A[KeyA]);
  ProcessResult Hit = lint({P.File}, Unlimited);
  ASSERT_EQ(preambleOutcomes(Hit.Stderr), std::vector<std::string>{"hit"});
  uintmax_t LimitMiB = 2 * A[KeyA] / (1 << 20) + 1;
  ProcessResult C = lint({P.File},
                         {"--preamble-cache-dir=" + P.Cache,
                          "--preamble-build=first",
                          "--preamble-cache-size=" + std::to_string(LimitMiB)},
                         {"-DVARIANT=1"});
  EXPECT_EQ(preambleOutcomes(C.Stderr), std::vector<std::string>{"built"});
  std::map<std::string, uintmax_t> After = Pchs();
  EXPECT_EQ(After.size(), 2u);
  EXPECT_TRUE(After.count(KeyA)) << "the entry used last was removed";
  EXPECT_FALSE(After.count(KeyB)) << "the least recently used entry stayed";
  for (const auto &E : std::filesystem::directory_iterator(P.Cache)) {
    EXPECT_NE(E.path().extension(), ".tmp") << E.path();
    if (E.path().extension() == ".json")
      EXPECT_TRUE(After.count(E.path().stem().string())) << E.path();
  }
  // A limit below any entry keeps the one just stored.
  lint({Other}, {"--preamble-cache-dir=" + P.Cache, "--preamble-build=first",
                 "--preamble-cache-size=1"});
  std::map<std::string, uintmax_t> Last = Pchs();
  ASSERT_EQ(Last.size(), 1u);
  EXPECT_EQ(Last.begin()->first, KeyB);
}

} // namespace
} // namespace cal::test

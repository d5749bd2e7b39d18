//===- OutputFormatsTest.cpp - What CI and review tools read --------------===//
//
// The same findings as --format=json, in SARIF, GitHub annotations,
// reviewdog's JSON lines and clang-tidy's export-fixes YAML; and --fix
// rewriting a file so that it lints clean of what was fixed.
//
//===----------------------------------------------------------------------===//

#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>


namespace cal {
namespace {

using nlohmann::json;
using test::runProcess;
using test::TempDir;

const char Transpose[] = R"cu(#define TILE 32
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

struct LintRun {
  TempDir Dir{"cal-formats"};
  std::string File = Dir / "t.cu";
  LintRun() { EXPECT_TRUE(test::writeFile(File, Transpose)); }
  test::ProcessResult lint(std::vector<std::string> Args) {
    std::vector<std::string> Argv = {CAL_TOOL_PATH};
    Argv.insert(Argv.end(), Args.begin(), Args.end());
    Argv.push_back(File);
    Argv.push_back("--");
    Argv.push_back("-std=c++17");
    return runProcess(Argv);
  }
};

TEST(OutputFormats, SarifHasRulesResultsAndFixes) {
  LintRun R;
  test::ProcessResult P = R.lint({"--format=sarif"});
  ASSERT_TRUE(P.exitedWith(1)) << P.describe() << P.Stderr;
  json Doc = json::parse(P.Stdout);
  EXPECT_EQ(Doc["version"], "2.1.0");
  const json &Run0 = Doc["runs"][0];
  EXPECT_EQ(Run0["tool"]["driver"]["rules"].size(), 4u);
  ASSERT_EQ(Run0["results"].size(), 1u);
  const json &Res = Run0["results"][0];
  EXPECT_EQ(Res["ruleId"], "shared-bank-conflict");
  EXPECT_EQ(Res["level"], "warning");
  EXPECT_EQ(Res["locations"][0]["physicalLocation"]["region"]["startLine"], 12);
  const json &Rep = Res["fixes"][0]["artifactChanges"][0]["replacements"][0];
  EXPECT_EQ(Rep["insertedContent"]["text"], "TILE + 1");
  EXPECT_EQ(Rep["deletedRegion"]["charLength"], 4);
}

// SARIF counts columns and offsets in UTF-16 code units (the run's
// columnKind); clang and --format=json count bytes. "×" is two bytes and one
// UTF-16 unit: one before the finding on its line, two before the fix's
// replacement in the file.
TEST(OutputFormats, SarifCountsUtf16CodeUnits) {
  std::string Text = Transpose;
  auto Insert = [&](const std::string &Before, const std::string &What) {
    size_t At = Text.find(Before);
    ASSERT_NE(At, std::string::npos) << Before;
    Text.insert(At, What);
  };
  Insert("\n__global__", " /* 32×32 */");
  Insert("__shared__", "/* 32×32 */ ");
  Insert("out[(y + j)", "/* 32×32 */ ");
  LintRun R;
  ASSERT_TRUE(test::writeFile(R.File, Text));
  test::ProcessResult J = R.lint({"--format=json"});
  test::ProcessResult S = R.lint({"--format=sarif"});
  ASSERT_TRUE(J.exitedWith(1)) << J.describe() << J.Stderr;
  ASSERT_TRUE(S.exitedWith(1)) << S.describe() << S.Stderr;
  const json Finding = json::parse(J.Stdout)["findings"][0];
  const json Run0 = json::parse(S.Stdout)["runs"][0];
  EXPECT_EQ(Run0["columnKind"], "utf16CodeUnits");
  ASSERT_EQ(Run0["results"].size(), 1u);
  const json &Res = Run0["results"][0];
  const json &Region = Res["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(Region["startLine"], Finding["line"]);
  EXPECT_EQ(Region["startColumn"], Finding["column"].get<int>() - 1);
  // One past the last character (JSON: the last character's byte column).
  EXPECT_EQ(Region["endColumn"], Finding["end_column"].get<int>() + 1 - 1);

  // The replacement: the array's inner extent, `TILE` in `[TILE];`.
  size_t Byte = Text.find("[TILE];") + 1;
  EXPECT_EQ(Finding["fixes"][0]["replacements"][0]["offset"], Byte);
  const json &Rep = Res["fixes"][0]["artifactChanges"][0]["replacements"][0];
  EXPECT_EQ(Rep["deletedRegion"]["charOffset"], Byte - 2);
  EXPECT_EQ(Rep["deletedRegion"]["charLength"], 4);
  EXPECT_EQ(Rep["insertedContent"]["text"], "TILE + 1");
}

TEST(OutputFormats, GithubAnnotationsOneLineEach) {
  LintRun R;
  test::ProcessResult P = R.lint({"--format=github"});
  ASSERT_TRUE(P.exitedWith(1)) << P.describe();
  auto Lines = test::nonEmptyLines(P.Stdout);
  ASSERT_EQ(Lines.size(), 2u) << P.Stdout;
  EXPECT_EQ(Lines[0].rfind("::warning file=", 0), 0u) << Lines[0];
  EXPECT_EQ(Lines[1], "::notice title=cuda-access-lint summary::cuda-access-lint: "
                      "1 finding (1 warning), most costly first; all shown as "
                      "annotations");
  EXPECT_NE(Lines[0].find(",line=12,col=28,"), std::string::npos) << Lines[0];
  EXPECT_NE(Lines[0].find("title=shared-bank-conflict::"), std::string::npos);
  EXPECT_NE(Lines[0].find("32-way bank conflict"), std::string::npos);
}

TEST(OutputFormats, ReviewdogJsonLinesCarryTheSuggestion) {
  LintRun R;
  test::ProcessResult P = R.lint({"--format=rdjsonl"});
  ASSERT_TRUE(P.exitedWith(1)) << P.describe();
  auto Lines = test::nonEmptyLines(P.Stdout);
  ASSERT_EQ(Lines.size(), 1u);
  json D = json::parse(Lines[0]);
  EXPECT_EQ(D["severity"], "WARNING");
  EXPECT_EQ(D["code"]["value"], "shared-bank-conflict");
  EXPECT_EQ(D["suggestions"][0]["text"], "TILE + 1");
  EXPECT_EQ(D["suggestions"][0]["range"]["start"]["line"], 3);
}

TEST(OutputFormats, ExportFixesIsClangTidyYaml) {
  LintRun R;
  std::string Yaml = R.Dir / "fixes.yaml";
  test::ProcessResult P = R.lint({"--export-fixes=" + Yaml});
  ASSERT_TRUE(P.exitedWith(1)) << P.describe() << P.Stderr;
  std::optional<std::string> Y = test::readFile(Yaml);
  ASSERT_TRUE(Y);
  EXPECT_NE(Y->find("DiagnosticName:  shared-bank-conflict"), std::string::npos) << *Y;
  EXPECT_NE(Y->find("ReplacementText: 'TILE + 1'"), std::string::npos) << *Y;
}

TEST(OutputFormats, FixPadsAndTheResultLintsClean) {
  LintRun R;
  test::ProcessResult P = R.lint({"--fix"});
  ASSERT_TRUE(P.exitedWith(1)) << P.describe() << P.Stderr;
  std::optional<std::string> Fixed = test::readFile(R.File);
  ASSERT_TRUE(Fixed);
  EXPECT_NE(Fixed->find("__shared__ float tile[TILE][TILE + 1];"), std::string::npos)
      << *Fixed;
  // Only that line changed.
  std::string Expected = Transpose;
  Expected.replace(Expected.find("tile[TILE][TILE]"), 16, "tile[TILE][TILE + 1]");
  EXPECT_EQ(*Fixed, Expected);
  test::ProcessResult Again = R.lint({"--format=json"});
  ASSERT_TRUE(Again.exitedWith(0)) << Again.describe() << Again.Stdout;
  EXPECT_TRUE(json::parse(Again.Stdout)["findings"].empty());
}

/// `--explain` (no colour) on \p Code, written to \p Name in \p Dir.
test::ProcessResult explainCode(const TempDir &Dir, const std::string &Name,
                                const std::string &Code) {
  std::string File = Dir / Name;
  EXPECT_TRUE(test::writeFile(File, Code)) << File;
  return runProcess({CAL_TOOL_PATH, "--explain", "--use-color=false", File, "--", "-std=c++17"});
}

TEST(OutputFormats, ExplainPrintsTheFactsAtEveryAccess) {
  LintRun R;
  test::ProcessResult P = R.lint({"--explain", "--use-color=false"});
  ASSERT_TRUE(P.exitedWith(1)) << P.describe() << P.Stderr;
  // The column read of the tile: 32 wavefronts; the coalesced global load: 4
  // sectors; each with its symbolic offset.
  EXPECT_NE(P.Stdout.find("remark: load of `tile` (shared, 4 bytes per lane) in `transpose`"),
            std::string::npos) << P.Stdout;
  EXPECT_NE(P.Stdout.find("note: 32 wavefronts per request: 32-way bank conflict"),
            std::string::npos) << P.Stdout;
  EXPECT_NE(P.Stdout.find("note: 4 sectors per request, 100% sector utilization"),
            std::string::npos) << P.Stdout;
  EXPECT_NE(P.Stdout.find("note: byte offset: 4*(32*threadIdx.x + threadIdx.y + j)"),
            std::string::npos) << P.Stdout;
}

TEST(OutputFormats, ExplainSaysWhatTheVectorRewriteGives) {
  // An elementwise copy: its one-element-per-thread rewrite priced, with a
  // grid (1 GiB of float) and without one.
  TempDir Dir{"cal-explain"};
  test::ProcessResult P = explainCode(
      Dir, "copy.cu",
      "__global__ void copy(const float *in, float *out) {\n"
      "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[k] = in[k];\n}\n"
      "__global__ void copy_n(const float *in, float *out) {\n"
      "  int k = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[k] = in[k];\n}\n"
      "void launch(const float *in, float *out, int n) {\n"
      "  copy<<<1048576, 256>>>(in, out);\n"
      "  copy_n<<<n / 256, 256>>>(in, out);\n}\n");
  ASSERT_TRUE(P.exitedWith(1)) << P.describe() << P.Stderr;
  EXPECT_NE(P.Stdout.find("note: with 16-byte accesses (one-per-thread, 2 "
                          "accesses): the kernel 795.64 -> 521.73 us "
                          "predicted, 1.53x"),
            std::string::npos)
      << P.Stdout;
  EXPECT_NE(P.Stdout.find("note: with 16-byte accesses (one-per-thread, 2 "
                          "accesses): no time predicted (unknown: grid size)"),
            std::string::npos)
      << P.Stdout;
}

TEST(OutputFormats, ExplainPrintsTheKernelsPrediction) {
  // A kernel without a constant grid: what is missing. A compute-bound one
  // (4096 FMAs per 8 bytes): its bound, FLOP and arithmetic intensity, also
  // in the JSON.
  LintRun R;
  test::ProcessResult P = R.lint({"--explain", "--use-color=false"});
  ASSERT_TRUE(P.exitedWith(1)) << P.describe() << P.Stderr;
  EXPECT_NE(P.Stdout.find("remark: kernel 'transpose' <32x8x1>: no time predicted "
                          "(unknown: grid size)"),
            std::string::npos)
      << P.Stdout;
  TempDir Dir{"cal-explain"};
  test::ProcessResult E = explainCode(
      Dir, "poly.cu",
      "__global__ void poly(const float *in, float *out) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  float x = in[i];\n"
      "  for (int k = 0; k < 4096; ++k) x = x * 1.0001f + 0.5f;\n"
      "  out[i] = x;\n}\n"
      "void host(const float *i, float *o) { poly<<<65536, 256>>>(i, o); }\n");
  ASSERT_TRUE(E.exitedWith(0)) << E.describe() << E.Stderr;
  EXPECT_NE(E.Stdout.find("remark: kernel 'poly' <256x1x1>: predicted 2."), std::string::npos)
      << E.Stdout;
  EXPECT_NE(E.Stdout.find(" ms on the H200 model, bound by fp32 ("), std::string::npos)
      << E.Stdout;
  EXPECT_NE(E.Stdout.find("; 137 GFLOP, 1.02e+03 FLOP per DRAM byte"), std::string::npos)
      << E.Stdout;
  test::ProcessResult J =
      runProcess({CAL_TOOL_PATH, "--format=json", Dir / "poly.cu", "--", "-std=c++17"});
  ASSERT_TRUE(J.exitedWith(0)) << J.describe() << J.Stderr;
  json Doc = json::parse(J.Stdout);
  const json &Pred = Doc["kernels"][0]["prediction"];
  EXPECT_EQ(Pred["bound"], "fp32");
  EXPECT_EQ(Pred["arithmetic_intensity"], 1024);
  EXPECT_EQ(Pred["arithmetic_per_thread"]["fp32"]["fma"], 4096);
  EXPECT_EQ(Pred["flops"], 2.0 * 4096 * 65536 * 256);
}

TEST(OutputFormats, ExplainSaysWhatTheResidentWarpsRangeCosts) {
  // A grid-stride copy of 2^24 floats by 1024 blocks: all 8192 warps
  // resident, each reading 8 KB: the whole 67.1 MB, 15.5x copy_float4's
  // range: the DRAM budget at 1 + 0.012 x log2(15.5).
  TempDir Dir{"cal-explain-range"};
  test::ProcessResult E = explainCode(
      Dir, "gridstride.cu",
      "__global__ void copy(const float *__restrict__ in, float *__restrict__ out) {\n"
      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (1 << 24);\n"
      "       i += blockDim.x * gridDim.x)\n"
      "    out[i] = in[i];\n}\n"
      "void host(const float *i, float *o) { copy<<<1024, 256>>>(i, o); }\n");
  ASSERT_TRUE(E.exitedWith(0)) << E.describe() << E.Stderr; // a note only
  EXPECT_NE(E.Stdout.find(" at 1.05x for the 67.1 MB its resident warps read through, "),
            std::string::npos)
      << E.Stdout;
  EXPECT_EQ(E.Stdout.find("places apart"), std::string::npos) << E.Stdout;
  // Four float4 runs a thread, a block's width (4 KB) apart: each warp's
  // four loads in flight lie in 4 places, its 17.3 MB range counts 4 times.
  test::ProcessResult S = explainCode(
      Dir, "stripe.cu",
      "__global__ void stripe(const float4 *__restrict__ in, float4 *__restrict__ out) {\n"
      "  const int base = blockIdx.x * 1024 + threadIdx.x;\n"
      "  for (int c = 0; c < 4; ++c) out[base + c * 256] = in[base + c * 256];\n}\n"
      "void host(const float4 *i, float4 *o) { stripe<<<65536, 256>>>(i, o); }\n");
  ASSERT_TRUE(S.exitedWith(0)) << S.describe() << S.Stderr;
  EXPECT_NE(S.Stdout.find(" at 1.05x for the 69.2 MB its resident warps read through, counting "
                          "each warp's loads in flight in 4 places apart"),
            std::string::npos)
      << S.Stdout;
}

TEST(OutputFormats, ChecksSelectRules) {
  LintRun R;
  test::ProcessResult Off = R.lint({"--format=json", "--checks=-shared-bank-conflict"});
  ASSERT_TRUE(Off.exitedWith(0)) << Off.describe() << Off.Stdout;
  EXPECT_TRUE(json::parse(Off.Stdout)["findings"].empty());
  test::ProcessResult Bad = R.lint({"--checks=no-such-rule"});
  EXPECT_TRUE(Bad.exitedWith(3)) << Bad.describe();
  EXPECT_EQ(test::nonEmptyLines(Bad.Stderr).size(), 1u) << Bad.Stderr;
}

TEST(OutputFormats, BlockDimIsValidated) {
  LintRun R;
  test::ProcessResult P = R.lint({"--block-dim=transpose=2000"});
  EXPECT_TRUE(P.exitedWith(3)) << P.describe();
  EXPECT_NE(P.Stderr.find("--block-dim=transpose=2000"), std::string::npos) << P.Stderr;
  EXPECT_EQ(test::nonEmptyLines(P.Stderr).size(), 1u) << P.Stderr;
}

TEST(OutputFormats, RuleOptionsAreValidated) {
  LintRun R;
  struct Case {
    const char *Setting, *Says;
  } Cases[] = {
      {"missing-vectorization.MinGain=lots",
       "takes a positive number, not 'lots'"},
      {"missing-vectorization.WarningGain=0",
       "takes a positive number, not '0'"},
      {"missing-vectorization.NoSuchOption=true",
       "has no option 'NoSuchOption' (its options: MinGain, WarningGain)"},
      {"no-such-rule.X=1", "no rule 'no-such-rule'"},
      {"missing-vectorization", "expected <rule>.<option>=<value>"},
  };
  for (const Case &C : Cases) {
    std::string Arg = std::string("--rule-option=") + C.Setting;
    test::ProcessResult P = R.lint({Arg});
    EXPECT_TRUE(P.exitedWith(3)) << Arg << ": " << P.describe();
    EXPECT_EQ(test::nonEmptyLines(P.Stderr).size(), 1u) << P.Stderr;
    EXPECT_EQ(P.Stderr.rfind("cuda-access-lint: error: " + Arg + ": ", 0), 0u)
        << P.Stderr;
    EXPECT_NE(P.Stderr.find(C.Says), std::string::npos) << P.Stderr;
  }
  // A valid setting is accepted (the module prefix too).
  test::ProcessResult Ok =
      R.lint({"--format=json",
              "--rule-option=cuda-missing-vectorization.MinGain=1.2"});
  EXPECT_TRUE(Ok.exitedWith(1)) << Ok.describe() << Ok.Stderr;
  EXPECT_EQ(Ok.Stderr, "");
}

TEST(OutputFormats, ARetiredRuleOptionIsAWarningNotAnError) {
  // missing-vectorization.OneElementPerThread: the cost model decides those
  // kernels now. Accepted with one line on stderr, whatever its value, and
  // without effect.
  LintRun R;
  for (const char *Value : {"true", "false", "yes"}) {
    std::string Arg =
        std::string(
            "--rule-option=missing-vectorization.OneElementPerThread=") +
        Value;
    test::ProcessResult P = R.lint({"--format=json", Arg});
    EXPECT_TRUE(P.exitedWith(1)) << Arg << ": " << P.describe();
    std::vector<std::string> Lines = test::nonEmptyLines(P.Stderr);
    ASSERT_EQ(Lines.size(), 1u) << P.Stderr;
    EXPECT_EQ(Lines[0].rfind("cuda-access-lint: warning: " + Arg + ": ", 0), 0u)
        << Lines[0];
    EXPECT_NE(Lines[0].find("is retired and has no effect: the cost model "
                            "decides one-element-per-thread kernels"),
              std::string::npos)
        << Lines[0];
  }
}

} // namespace
} // namespace cal

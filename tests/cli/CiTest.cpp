//===- CiTest.cpp - What a CI job relies on -------------------------------===//
//
// The binary as CI runs it: -j output identical to a serial run's, the
// closing summary line, one finding per place across instantiations in
// every format, the project's headers analyzed once across translation
// units, the configuration file, the gate, baselines that survive lines
// moving, changed-line filters, SARIF fingerprints and source roots,
// shards.
//
//===----------------------------------------------------------------------===//

#include "cli/LspClient.h"
#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#ifndef CAL_TOOL_PATH
#error "CAL_TOOL_PATH must name the built cuda-access-lint"
#endif

namespace cal::test {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string toolPath() {
  if (const char *Tool = std::getenv("CAL_TOOL"))
    return Tool;
  return CAL_TOOL_PATH;
}

ProcessResult lint(std::vector<std::string> Args, const std::string &Cwd = "") {
  Args.insert(Args.begin(), toolPath());
  ProcessOptions O;
  O.WorkingDirectory = Cwd;
  return runProcess(Args, O);
}

std::string show(const ProcessResult &R) {
  return "result: " + R.describe() + "\nstdout:\n" + R.Stdout +
         "\nstderr:\n" + R.Stderr;
}

size_t count(const std::string &Text, const std::string &What) {
  size_t N = 0;
  for (size_t P = Text.find(What); P != std::string::npos;
       P = Text.find(What, P + 1))
    ++N;
  return N;
}

/// One line, 15 instantiations: 2 to 16 elements between adjacent lanes.
std::string fifteenInstantiations() {
  std::string S = "template <int S>\n"
                  "__global__ void strided(const float *in, float *out) {\n"
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "  out[i] = in[i * S];\n"
                  "}\n"
                  "void launch(const float *in, float *out) {\n";
  for (int K = 2; K <= 16; ++K)
    S += "  strided<" + std::to_string(K) + "><<<64, 256>>>(in, out);\n";
  return S + "}\n";
}

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

const char Strided[] = R"cu(__global__ void copy2(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];
}
void launch(const float *in, float *out) { copy2<<<64, 256>>>(in, out); }
)cu";

TEST(Ci, ParallelOutputIsTheSerialOutput) {
  TempDir Dir("cal-ci");
  std::vector<std::string> Files;
  for (int I = 0; I < 4; ++I) {
    Files.push_back(Dir / ("f" + std::to_string(I) + ".cu"));
    ASSERT_TRUE(writeFile(Files.back(), I % 2 ? Transpose : Strided));
  }
  ASSERT_TRUE(writeFile(Dir / "bad.cu", "__global__ void k() { int x = }\n"));
  Files.insert(Files.begin() + 2, Dir / "bad.cu");
  for (const char *Format : {"text", "json", "sarif", "github", "rdjsonl"}) {
    std::vector<std::string> Args = {std::string("--format=") + Format,
                                     "--use-color=false"};
    Args.insert(Args.end(), Files.begin(), Files.end());
    Args.insert(Args.end(), {"--", "-std=c++17"});
    std::vector<std::string> Serial = Args, Parallel = Args;
    Serial.insert(Serial.begin(), "-j1");
    Parallel.insert(Parallel.begin(), "-j3");
    ProcessResult S = lint(Serial), P = lint(Parallel);
    EXPECT_TRUE(S.exitedWith(2)) << show(S);
    EXPECT_EQ(S.Stdout, P.Stdout) << Format;
    EXPECT_EQ(S.Stderr, P.Stderr) << Format;
    if (std::string(Format) == "sarif" || std::string(Format) == "json")
      EXPECT_NO_THROW(json::parse(S.Stdout)) << Format; // one document
  }
}

TEST(Ci, TextRunEndsWithASummaryLineThatQuietDrops) {
  TempDir Dir("cal-ci");
  ASSERT_TRUE(writeFile(Dir / "a.cu", Transpose));
  ASSERT_TRUE(writeFile(Dir / "b.cu",
                        std::string(Strided) +
                            "__global__ void n(float *o, const float *i) {\n"
                            "  o[threadIdx.x] = i[threadIdx.x * 2]; // NOLINT\n"
                            "}\n"));
  ProcessResult R = lint({Dir / "a.cu", Dir / "b.cu", "--", "-std=c++17"});
  EXPECT_TRUE(R.exitedWith(1)) << show(R);
  std::vector<std::string> Lines = nonEmptyLines(R.Stderr);
  ASSERT_FALSE(Lines.empty());
  EXPECT_EQ(Lines.back(),
            "cuda-access-lint: 2 files, 3 kernel configurations, 2 findings "
            "(2 warnings), 1 suppressed by NOLINT, 0 files with parse problems");
  ProcessResult Q =
      lint({"--quiet", Dir / "a.cu", Dir / "b.cu", "--", "-std=c++17"});
  EXPECT_EQ(Q.Stderr, "");
  EXPECT_EQ(Q.Stdout, R.Stdout);
}

TEST(Ci, OneFindingPerPlaceAcrossInstantiations) {
  TempDir Dir("cal-ci");
  std::string File = Dir / "s.cu";
  ASSERT_TRUE(writeFile(File, fifteenInstantiations()));
  ProcessResult T = lint({"--use-color=false", File, "--", "-std=c++17"});
  ASSERT_TRUE(T.exitedWith(1)) << show(T);
  EXPECT_EQ(count(T.Stdout, "warning:"), 1u) << T.Stdout;
  // The worst case's numbers, and what the others say.
  EXPECT_THAT(T.Stdout, HasSubstr("in kernel `strided<16>`"));
  EXPECT_THAT(T.Stdout, HasSubstr("note: differs by configuration: 32 sectors "
                                  "per request in `strided<16>`"));
  EXPECT_THAT(T.Stdout, HasSubstr("8 sectors per request in `strided<2>`"));

  ProcessResult J = lint({"--format=json", File, "--", "-std=c++17"});
  json Doc = json::parse(J.Stdout);
  ASSERT_EQ(Doc["findings"].size(), 1u);
  const json &F = Doc["findings"][0];
  EXPECT_EQ(F["kernel"], "strided<16>");
  ASSERT_EQ(F["configurations"].size(), 15u);
  EXPECT_EQ(F["configurations"][0]["kernel"], "strided<16>");
  EXPECT_EQ(F["configurations"][14]["kernel"], "strided<2>");
  EXPECT_EQ(F["configurations"][14]["metrics"]["sectors_per_request"], 8);
  EXPECT_EQ(F["configurations"][14]["block_dim"], json({256, 1, 1}));
  EXPECT_EQ(Doc["kernels"].size(), 15u);

  ProcessResult S = lint({"--format=sarif", File, "--", "-std=c++17"});
  json Sarif = json::parse(S.Stdout);
  EXPECT_EQ(Sarif["runs"][0]["results"].size(), 1u);
  EXPECT_EQ(Sarif["runs"][0]["results"][0]["properties"]["kernels"].size(), 15u);

  ProcessResult G = lint({"--format=github", File, "--", "-std=c++17"});
  std::vector<std::string> Lines = nonEmptyLines(G.Stdout);
  ASSERT_EQ(Lines.size(), 2u) << G.Stdout;
  EXPECT_THAT(Lines[0], StartsWith("::warning file="));
  EXPECT_THAT(Lines[1], StartsWith("::notice "));
}

TEST(Ci, AnnotationsAreRankedByCostAndTheRestSummarized) {
  TempDir Dir("cal-ci");
  // 12 warnings: 11 cheap (2 elements apart), one costly (32 apart, last in
  // the file).
  std::string S;
  for (int K = 0; K < 11; ++K)
    S += "__global__ void k" + std::to_string(K) +
         "(const float *in, float *out) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  out[i] = in[2 * i];\n}\n";
  S += "__global__ void worst(const float *in, float *out) {\n"
       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
       "  out[i] = in[32 * i];\n}\n";
  ASSERT_TRUE(writeFile(Dir / "r.cu", S));
  ProcessResult G = lint({"--format=github", Dir / "r.cu", "--", "-std=c++17"});
  std::vector<std::string> Lines = nonEmptyLines(G.Stdout);
  ASSERT_EQ(Lines.size(), 11u) << G.Stdout;
  EXPECT_THAT(Lines[0], HasSubstr(",line=47,")) << "most costly first";
  EXPECT_THAT(Lines.back(), StartsWith("::notice title=cuda-access-lint summary::"
                                       "cuda-access-lint: 12 findings (12 warnings)"));
  EXPECT_THAT(Lines.back(), HasSubstr("2 warnings not annotated"));
  ProcessResult R = lint({"--format=rdjsonl", Dir / "r.cu", "--", "-std=c++17"});
  std::vector<std::string> D = nonEmptyLines(R.Stdout);
  ASSERT_EQ(D.size(), 12u);
  EXPECT_EQ(json::parse(D[0])["location"]["range"]["start"]["line"], 47);
}

/// A project with a git work tree, a header kernel and two files using it.
struct HeaderProject {
  TempDir Dir{"cal-ci"};
  HeaderProject(bool Git = true) {
    if (Git)
      std::filesystem::create_directories(Dir / ".git");
    EXPECT_TRUE(writeFile(Dir / "include/k.cuh",
                          "__global__ void hk(const float *in, float *out) {\n"
                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "  out[i] = in[4 * i];\n}\n"));
    for (const char *F : {"src/a.cu", "src/b.cu"})
      EXPECT_TRUE(writeFile(Dir / F, "#include \"../include/k.cuh\"\n"
                                     "__global__ void own(float *o) { o[threadIdx.x] = 0; }\n"));
  }
  ProcessResult run(std::vector<std::string> Args) {
    Args.insert(Args.end(), {Dir / "src/a.cu", Dir / "src/b.cu", "--", "-std=c++17"});
    return lint(Args, Dir.path());
  }
};

TEST(Ci, ProjectHeadersAreAnalyzedOnceByDefault) {
  HeaderProject P;
  for (const char *J : {"-j1", "-j2"}) {
    ProcessResult R = P.run({J, "--format=json"});
    ASSERT_TRUE(R.exitedWith(1)) << show(R);
    json Doc = json::parse(R.Stdout);
    ASSERT_EQ(Doc["findings"].size(), 1u) << R.Stdout;
    EXPECT_EQ(Doc["findings"][0]["file"], "include/k.cuh");
    // hk once, `own` of each file.
    EXPECT_EQ(Doc["kernels"].size(), 3u) << Doc["kernels"].dump();
    ProcessResult S = P.run({J, "--format=sarif"});
    json Sarif = json::parse(S.Stdout);
    ASSERT_EQ(Sarif["runs"][0]["results"].size(), 1u);
    EXPECT_EQ(Sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
                   ["artifactLocation"]["uri"],
              "include/k.cuh");
  }
  ProcessResult X = P.run({"--format=json", "--exclude-header-filter=k\\.cuh"});
  EXPECT_TRUE(X.exitedWith(0)) << show(X);
  EXPECT_TRUE(json::parse(X.Stdout)["findings"].empty());
}

TEST(Ci, OutsideAProjectHeadersNeedTheFilter) {
  HeaderProject P(/*Git=*/false);
  ProcessResult R = P.run({"--format=json"});
  EXPECT_TRUE(R.exitedWith(0)) << show(R);
  ProcessResult F = P.run({"--format=json", "--header-filter=include/"});
  EXPECT_TRUE(F.exitedWith(1)) << show(F);
  ProcessResult Root = P.run({"--format=json", "--project-root=" + P.Dir.path()});
  EXPECT_TRUE(Root.exitedWith(1)) << show(Root);
}

TEST(Ci, ConfigFilesAreFoundAboveEachFileAndInherit) {
  TempDir Dir("cal-ci");
  ASSERT_TRUE(writeFile(Dir / ".cuda-access-lint.yaml",
                        "Checks: '-blocked-stride'\n"
                        "WarningsAsErrors: 'shared-bank-conflict'\n"));
  // The nested directory turns blocked-stride back on, and inherits the
  // gate.
  ASSERT_TRUE(writeFile(Dir / "sub/.cuda-access-lint.yaml",
                        "Checks: 'blocked-stride'\n"
                        "ExtraArgs: ['-DSTRIDE=2']\n"));
  std::string UsesMacro = "__global__ void copy2(const float *in, float *out) {\n"
                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "  out[i] = in[STRIDE * i];\n}\n";
  ASSERT_TRUE(writeFile(Dir / "top.cu", Strided));
  ASSERT_TRUE(writeFile(Dir / "sub/nested.cu", UsesMacro));
  ProcessResult Top = lint({"--format=json", Dir / "top.cu", "--", "-std=c++17"});
  EXPECT_TRUE(Top.exitedWith(0)) << show(Top);
  EXPECT_TRUE(json::parse(Top.Stdout)["findings"].empty());
  ProcessResult Nested =
      lint({"--format=json", Dir / "sub/nested.cu", "--", "-std=c++17"});
  ASSERT_TRUE(Nested.exitedWith(0)) << "gated: a warning does not fail\n"
                                    << show(Nested);
  ASSERT_EQ(json::parse(Nested.Stdout)["findings"].size(), 1u);

  ProcessResult Dump = lint({"--dump-config", Dir / "sub/nested.cu"});
  EXPECT_TRUE(Dump.exitedWith(0)) << show(Dump);
  EXPECT_THAT(Dump.Stdout, HasSubstr("Checks:          '-blocked-stride,blocked-stride'"));
  EXPECT_THAT(Dump.Stdout, HasSubstr("WarningsAsErrors: shared-bank-conflict"));
  EXPECT_THAT(Dump.Stdout, HasSubstr("-DSTRIDE=2"));
  ProcessResult Verify = lint({"--verify-config", Dir / "sub/nested.cu"});
  EXPECT_TRUE(Verify.exitedWith(0)) << show(Verify);
  EXPECT_EQ(Verify.Stdout, "No config errors detected.\n");

  // --config-file: that file only.
  ASSERT_TRUE(writeFile(Dir / "all.yaml", "Checks: '*'\n"));
  ProcessResult Explicit = lint({"--format=json", "--config-file=" + Dir / "all.yaml",
                                 Dir / "top.cu", "--", "-std=c++17"});
  EXPECT_TRUE(Explicit.exitedWith(1)) << show(Explicit);
}

TEST(Ci, BadConfigIsOneLineAndExitThree) {
  TempDir Dir("cal-ci");
  ASSERT_TRUE(writeFile(Dir / "a.cu", Strided));
  struct Case {
    const char *Yaml, *Says;
  } Cases[] = {
      {"Checks: '*'\nChekcs: '-*'\n", ".cuda-access-lint.yaml:2:1: unknown key 'Chekcs'"},
      {"Checks: 'no-such-rule'\n", "Checks: 'no-such-rule' matches no rule"},
      {"CheckOptions:\n  missing-vectorization.Nope: true\n", "CheckOptions: missing-vectorization.Nope"},
      {"BlockDims:\n  k: 5000\n", "BlockDims: k:"},
      {"HeaderFilterRegex: '('\n", "HeaderFilterRegex:"},
      {"Assume:\n  M: lots\n", "Assume: M: 'lots' is not an integer"},
      {"Assume:\n  'k:': 4\n", "Assume: k:: '' is not a variable name"},
  };
  for (const Case &C : Cases) {
    ASSERT_TRUE(writeFile(Dir / ".cuda-access-lint.yaml", C.Yaml));
    for (std::vector<std::string> Args :
         {std::vector<std::string>{Dir / "a.cu", "--", "-std=c++17"},
          std::vector<std::string>{"--verify-config", Dir / "a.cu"}}) {
      ProcessResult R = lint(Args);
      EXPECT_TRUE(R.exitedWith(3)) << C.Yaml << show(R);
      std::vector<std::string> Lines = nonEmptyLines(R.Stderr);
      ASSERT_EQ(Lines.size(), 1u) << R.Stderr;
      EXPECT_THAT(Lines[0], StartsWith("cuda-access-lint: error: " + Dir.path()));
      EXPECT_THAT(Lines[0], HasSubstr(C.Says));
      EXPECT_EQ(R.Stdout, "");
    }
  }
}

TEST(Ci, ARetiredOptionInTheConfigIsOneWarning) {
  // A configuration written for an older version keeps working: the retired
  // missing-vectorization.OneElementPerThread is one warning line naming the
  // file, said once however many files the configuration covers.
  TempDir Dir("cal-ci");
  ASSERT_TRUE(writeFile(Dir / "a.cu", Transpose));
  ASSERT_TRUE(writeFile(Dir / "b.cu", Transpose));
  ASSERT_TRUE(writeFile(Dir / ".cuda-access-lint.yaml",
                        "CheckOptions:\n"
                        "  missing-vectorization.OneElementPerThread: true\n"));
  for (std::vector<std::string> Args :
       {std::vector<std::string>{Dir / "a.cu", Dir / "b.cu", "--quiet", "--",
                                 "-std=c++17"},
        std::vector<std::string>{"--verify-config", Dir / "a.cu"}}) {
    ProcessResult R = lint(Args);
    std::vector<std::string> Lines = nonEmptyLines(R.Stderr);
    ASSERT_EQ(Lines.size(), 1u) << R.Stderr;
    EXPECT_THAT(Lines[0],
                StartsWith("cuda-access-lint: warning: " + Dir.path()));
    EXPECT_THAT(Lines[0],
                HasSubstr("CheckOptions: missing-vectorization."
                          "OneElementPerThread: missing-vectorization."
                          "OneElementPerThread is retired and has no effect"));
    EXPECT_FALSE(R.exitedWith(3)) << show(R);
  }
}

TEST(Ci, WarningsAsErrorsIsTheGate) {
  TempDir Dir("cal-ci");
  ASSERT_TRUE(writeFile(Dir / "t.cu", Transpose));
  auto Run = [&](std::vector<std::string> A) {
    A.insert(A.end(), {"--use-color=false", Dir / "t.cu", "--", "-std=c++17"});
    return lint(A);
  };
  ProcessResult Plain = Run({});
  EXPECT_TRUE(Plain.exitedWith(1)) << show(Plain);
  ProcessResult Gated = Run({"--warnings-as-errors=shared-bank-conflict"});
  EXPECT_TRUE(Gated.exitedWith(1)) << show(Gated);
  EXPECT_THAT(Gated.Stdout, HasSubstr(": error: `tile`: 32-way bank conflict"));
  ProcessResult Other = Run({"--warnings-as-errors=blocked-stride"});
  EXPECT_TRUE(Other.exitedWith(0)) << "only the gate's rules fail\n" << show(Other);
  EXPECT_THAT(Other.Stdout, HasSubstr(": warning: `tile`"));
  ProcessResult Bad = Run({"--warnings-as-errors=no-such"});
  EXPECT_TRUE(Bad.exitedWith(3)) << show(Bad);
}

TEST(Ci, BaselineSurvivesLinesMovingAndReportsOnlyNewFindings) {
  TempDir Dir("cal-ci");
  std::string File = Dir / "t.cu", Base = Dir / "baseline.json";
  ASSERT_TRUE(writeFile(File, Transpose));
  ProcessResult W = lint({"--write-baseline=" + Base, "--format=json", File,
                          "--", "-std=c++17"});
  ASSERT_TRUE(W.exitedWith(1)) << show(W);
  json B = json::parse(*readFile(Base));
  ASSERT_EQ(B["findings"].size(), 1u);
  std::string Fingerprint = B["findings"][0]["fingerprint"];

  // Lines inserted above, the access reindented: still baselined.
  std::string Moved = "// a comment\n// another\n\n" + std::string(Transpose);
  size_t At = Moved.find("    out[(y + j) * n + x]");
  Moved.replace(At, 4, "      ");
  ASSERT_TRUE(writeFile(File, Moved));
  ProcessResult Again = lint({"--baseline=" + Base, "--format=json", File, "--",
                              "-std=c++17"});
  EXPECT_TRUE(Again.exitedWith(0)) << show(Again);
  EXPECT_TRUE(json::parse(Again.Stdout)["findings"].empty());
  ProcessResult Sarif = lint({"--format=sarif", File, "--", "-std=c++17"});
  EXPECT_EQ(json::parse(Sarif.Stdout)["runs"][0]["results"][0]
                ["partialFingerprints"]["cudaAccessLint/v1"],
            Fingerprint);

  // A new finding is reported; the old one is not.
  ASSERT_TRUE(writeFile(File, Moved + Strided));
  ProcessResult New = lint({"--baseline=" + Base, "--format=json", File, "--",
                            "-std=c++17"});
  EXPECT_TRUE(New.exitedWith(1)) << show(New);
  json Doc = json::parse(New.Stdout);
  ASSERT_EQ(Doc["findings"].size(), 1u);
  EXPECT_EQ(Doc["findings"][0]["rule"], "blocked-stride");

  ProcessResult Bad = lint({"--baseline=" + File, File, "--", "-std=c++17"});
  EXPECT_TRUE(Bad.exitedWith(3)) << show(Bad);
  EXPECT_EQ(nonEmptyLines(Bad.Stderr).size(), 1u) << Bad.Stderr;
}

TEST(Ci, LineFilterAndDiffReportOnlyChangedLines) {
  TempDir Dir("cal-ci");
  std::string File = Dir / "t.cu";
  ASSERT_TRUE(writeFile(File, std::string(Transpose) + Strided));
  // The transpose's finding is at line 12, the strided copy's at 19.
  auto Lines = [&](std::vector<std::string> A) {
    A.insert(A.end(), {"--format=json", File, "--", "-std=c++17"});
    ProcessResult R = lint(A, Dir.path());
    EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1)) << show(R);
    std::vector<int> Out;
    json Doc = json::parse(R.Stdout);
    for (const json &F : Doc["findings"])
      Out.push_back(F["line"]);
    return Out;
  };
  EXPECT_EQ(Lines({}), (std::vector<int>{12, 19}));
  EXPECT_EQ(Lines({"--line-filter=[{\"name\":\"t.cu\",\"lines\":[[15,20]]}]"}),
            (std::vector<int>{19}));
  EXPECT_EQ(Lines({"--line-filter=[{\"name\":\"t.cu\"}]"}),
            (std::vector<int>{12, 19}));
  EXPECT_EQ(Lines({"--line-filter=[{\"name\":\"other.cu\"}]"}), std::vector<int>{});
  ProcessResult Bad = lint({"--line-filter=[{\"lines\":1}]", File, "--"});
  EXPECT_TRUE(Bad.exitedWith(3)) << show(Bad);

  // git diff -U0: line 12 changed.
  ASSERT_TRUE(writeFile(Dir / "change.diff",
                        "diff --git a/t.cu b/t.cu\n--- a/t.cu\n+++ b/t.cu\n"
                        "@@ -12 +12 @@\n-old\n+new\n"));
  ProcessResult D = lint({"--diff=" + (Dir / "change.diff"), "--format=json",
                          "--", "-std=c++17"},
                         Dir.path());
  ASSERT_TRUE(D.exitedWith(1)) << show(D);
  json Doc = json::parse(D.Stdout);
  ASSERT_EQ(Doc["findings"].size(), 1u);
  EXPECT_EQ(Doc["findings"][0]["line"], 12);
  ASSERT_TRUE(writeFile(Dir / "none.diff", "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n+a\n"));
  ProcessResult None = lint({"--diff=" + (Dir / "none.diff"), "--", "-std=c++17"},
                            Dir.path());
  EXPECT_TRUE(None.exitedWith(0)) << show(None);
}

TEST(Ci, SarifPathsRelativeToTheSourceRootWithHelpUris) {
  TempDir Dir("cal-ci");
  ASSERT_TRUE(writeFile(Dir / "src/t.cu", Transpose));
  ProcessResult S = lint({"--format=sarif", "--source-root=" + Dir.path(),
                          Dir / "src/t.cu", "--", "-std=c++17"});
  json Run0 = json::parse(S.Stdout)["runs"][0];
  const json &Loc =
      Run0["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(Loc["uri"], "src/t.cu");
  EXPECT_EQ(Loc["uriBaseId"], "SRCROOT");
  EXPECT_EQ(Run0["originalUriBaseIds"]["SRCROOT"]["uri"],
            "file://" + Dir.path() + "/");
  for (const json &R : Run0["tool"]["driver"]["rules"])
    EXPECT_THAT(R["helpUri"].get<std::string>(),
                HasSubstr("/rules/" + R["id"].get<std::string>() + ".md"));
}

TEST(Ci, ShardsSplitTheFilesAndTogetherCoverThem) {
  TempDir Dir("cal-ci");
  std::vector<std::string> Files;
  for (int I = 0; I < 5; ++I) {
    Files.push_back(Dir / ("f" + std::to_string(I) + ".cu"));
    ASSERT_TRUE(writeFile(Files.back(), Strided));
  }
  std::multiset<std::string> Seen;
  for (const char *Shard : {"--shard=1/2", "--shard=2/2"}) {
    std::vector<std::string> A = {Shard, "--format=json"};
    A.insert(A.end(), Files.rbegin(), Files.rend());
    A.insert(A.end(), {"--", "-std=c++17"});
    ProcessResult R = lint(A);
    EXPECT_TRUE(R.exitedWith(1)) << show(R);
    json Doc = json::parse(R.Stdout);
    for (const json &F : Doc["files"])
      Seen.insert(F["file"].get<std::string>());
  }
  EXPECT_EQ(Seen, std::multiset<std::string>(Files.begin(), Files.end()));
  ProcessResult Bad = lint({"--shard=3/2", Files[0], "--"});
  EXPECT_TRUE(Bad.exitedWith(3)) << show(Bad);
}

TEST(Ci, MergeCombinesShardDocuments) {
  HeaderProject P;
  // Each shard reports the header's finding (its first file includes it).
  std::vector<std::string> Docs;
  for (const char *Shard : {"--shard=1/2", "--shard=2/2"}) {
    ProcessResult R = P.run({Shard, "--format=json"});
    ASSERT_TRUE(R.exitedWith(1)) << show(R);
    Docs.push_back(P.Dir / (std::string("shard") + Shard[8] + ".json"));
    ASSERT_TRUE(writeFile(Docs.back(), R.Stdout));
  }
  ProcessResult J = lint({"--merge", Docs[0], Docs[1]}, P.Dir.path());
  ASSERT_TRUE(J.exitedWith(1)) << show(J);
  json Doc = json::parse(J.Stdout);
  EXPECT_EQ(Doc["files"].size(), 2u);
  EXPECT_EQ(Doc["findings"].size(), 1u) << "the header's finding once";
  EXPECT_EQ(Doc["summary"]["files"], 2);
  ProcessResult S = lint({"--merge", "--format=sarif", Docs[0], Docs[1]},
                         P.Dir.path());
  json Sarif = json::parse(S.Stdout);
  ASSERT_EQ(Sarif["runs"].size(), 1u);
  EXPECT_EQ(Sarif["runs"][0]["results"].size(), 1u);
  // SARIF documents merge into one run.
  ASSERT_TRUE(writeFile(P.Dir / "a.sarif", S.Stdout));
  ProcessResult SS = lint({"--merge", P.Dir / "a.sarif", P.Dir / "a.sarif"});
  EXPECT_EQ(json::parse(SS.Stdout)["runs"][0]["results"].size(), 1u);
  ProcessResult G = lint({"--merge", "--format=github", Docs[0], Docs[1]},
                         P.Dir.path());
  EXPECT_THAT(G.Stdout, StartsWith("::warning file=include/k.cuh,line=3,"));
  ProcessResult Bad = lint({"--merge", P.Dir / "src/a.cu"});
  EXPECT_TRUE(Bad.exitedWith(3)) << show(Bad);
  EXPECT_EQ(nonEmptyLines(Bad.Stderr).size(), 1u);
}

TEST(Ci, LspPublishesOneDiagnosticPerPlace) {
  TempDir Dir("cal-ci");
  std::string File = Dir / "s.cu";
  ASSERT_TRUE(writeFile(File, fifteenInstantiations()));
  std::string Uri = "file://" + File;
  // As an editor drives it: the lint is published when it is done.
  LspClient Client({toolPath(), "--lsp", "--", "-std=c++17"}, Dir / "stderr.log");
  ASSERT_TRUE(Client.initialize(json::object()));
  Client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", Uri}, {"languageId", "cuda"},
                                   {"version", 1},
                                   {"text", fifteenInstantiations()}}}});
  std::optional<json> Msg = Client.diagnostics(Uri, 1);
  ASSERT_TRUE(Msg) << readFile(Dir / "stderr.log").value_or("");
  ASSERT_EQ((*Msg)["params"]["diagnostics"].size(), 1u) << Msg->dump(1);
  EXPECT_THAT((*Msg)["params"]["diagnostics"][0]["message"].get<std::string>(),
              HasSubstr("differs by configuration"));
  Client.response(Client.request("shutdown", nullptr));
  Client.notify("exit", nullptr);
  EXPECT_EQ(Client.finish(), 0);
}

} // namespace
} // namespace cal::test

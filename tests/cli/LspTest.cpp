//===- LspTest.cpp - cuda-access-lint --lsp, as an editor drives it -------===//
//
// End to end: the server is started as an editor starts it and talked to
// over its pipes (LspClient): open, edit without saving, ask for hover,
// inlay hints and code actions while a lint is pending, cancel, change the
// configuration, shut down.
//
//===----------------------------------------------------------------------===//

#include "cli/LspClient.h"
#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

namespace cal {
namespace {

using nlohmann::json;
using test::LspClient;

const char Tile[] = R"cu(#define TILE 32
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

/// Replaces the first \p From in \p S.
std::string replaced(std::string S, const std::string &From,
                     const std::string &To) {
  size_t At = S.find(From);
  EXPECT_NE(At, std::string::npos) << From;
  if (At != std::string::npos)
    S.replace(At, From.size(), To);
  return S;
}

/// The number of UTF-16 code units of the UTF-8 text \p S.
int utf16Length(const std::string &S) {
  int N = 0;
  for (size_t I = 0; I < S.size();) {
    unsigned char C = static_cast<unsigned char>(S[I]);
    size_t Len = C < 0x80 ? 1 : C >= 0xF0 ? 4 : C >= 0xE0 ? 3 : 2;
    N += Len == 4 ? 2 : 1;
    I += Len;
  }
  return N;
}

/// A server on a scratch directory with one document, t.cu, whose file on
/// disk is an older text than the editor's.
class LspSession {
public:
  explicit LspSession(std::vector<std::string> Extra = {})
      : Dir("cal-lsp"), File(Dir / "t.cu"), Uri("file://" + File) {
    test::writeFile(File, "__global__ void k() {}\n");
    std::vector<std::string> Argv = {CAL_TOOL_PATH, "--lsp"};
    Argv.insert(Argv.end(), Extra.begin(), Extra.end());
    Argv.insert(Argv.end(), {"--", "-std=c++17"});
    Client = std::make_unique<LspClient>(Argv, Dir / "stderr.log");
  }

  std::optional<json> start(const json &Capabilities = json::object(),
                            const json &Options = nullptr) {
    return Client->initialize(Capabilities, Options);
  }
  void open(const std::string &Text, int64_t Version) {
    Client->notify("textDocument/didOpen",
                   {{"textDocument",
                     {{"uri", Uri}, {"languageId", "cuda-cpp"},
                      {"version", Version}, {"text", Text}}}});
  }
  json changeMessage(const std::string &Text, int64_t Version) {
    return LspClient::notificationMessage(
        "textDocument/didChange",
        {{"textDocument", {{"uri", Uri}, {"version", Version}}},
         {"contentChanges", json::array({{{"text", Text}}})}});
  }
  void change(const std::string &Text, int64_t Version) {
    Client->sendAll({changeMessage(Text, Version)});
  }
  /// The published diagnostics of \p Version (fails the test without).
  json diagnostics(int64_t Version) {
    std::optional<json> D = Client->diagnostics(Uri, Version);
    EXPECT_TRUE(D) << "no diagnostics for version " << Version << "\n"
                   << log();
    return D ? (*D)["params"]["diagnostics"] : json::array();
  }
  json result(int Id) {
    std::optional<json> R = Client->response(Id);
    EXPECT_TRUE(R && R->contains("result")) << (R ? R->dump() : "no response");
    return R && R->contains("result") ? (*R)["result"] : json();
  }
  json position(int Line, int Character) {
    return {{"line", Line}, {"character", Character}};
  }
  json range(int Line, int From, int To) {
    return {{"start", position(Line, From)}, {"end", position(Line, To)}};
  }
  int codeActions(int Line) {
    return Client->request(
        "textDocument/codeAction",
        {{"textDocument", {{"uri", Uri}}},
         {"range", range(Line, 0, 0)},
         {"context", {{"diagnostics", json::array()}}}});
  }
  /// shutdown, exit: the exit status.
  int stop() {
    int Id = Client->request("shutdown", nullptr);
    Client->response(Id);
    Client->notify("exit", nullptr);
    return Client->finish();
  }
  /// Waits until the server's log has \p Text (for a lint to have started).
  bool waitForLog(const std::string &Text, int TimeoutSeconds = 120) const {
    for (int I = 0; I < TimeoutSeconds * 100; ++I) {
      if (log().find(Text) != std::string::npos)
        return true;
      usleep(10000);
    }
    return false;
  }
  std::string log() const {
    return test::readFile(Dir / "stderr.log").value_or("");
  }
  /// The lints the server started, as "version N" in order.
  std::vector<std::string> lintsStarted() const {
    std::vector<std::string> Out;
    std::string Mark = "lint " + File + " version ";
    for (const std::string &L : test::nonEmptyLines(log())) {
      size_t At = L.find(Mark);
      if (At != std::string::npos)
        Out.push_back("version " + L.substr(At + Mark.size()));
    }
    return Out;
  }

  test::TempDir Dir;
  std::string File, Uri;
  std::unique_ptr<LspClient> Client;
};

const json *findCode(const json &Diags, const std::string &Code) {
  for (const json &D : Diags)
    if (D.value("code", "") == Code)
      return &D;
  return nullptr;
}

TEST(Lsp, PublishesFindingsAndOffersThePaddingAsAQuickFix) {
  LspSession S;
  ASSERT_TRUE(S.start());
  // On disk: an old version without the shared array; the editor's text is
  // what is linted.
  S.open(Tile, 7);
  json Diags = S.diagnostics(7);
  ASSERT_EQ(Diags.size(), 1u) << Diags.dump(1);
  const json &D = Diags[0];
  EXPECT_EQ(D["code"], "shared-bank-conflict");
  EXPECT_EQ(D["source"], "cuda-access-lint");
  EXPECT_EQ(D["severity"], 2);
  EXPECT_EQ(D["range"]["start"]["line"], 11);
  EXPECT_NE(D["message"].get<std::string>().find("32-way"), std::string::npos);
  // The array's declaration as related information.
  ASSERT_TRUE(D.contains("relatedInformation")) << D.dump(1);
  EXPECT_EQ(D["relatedInformation"][0]["location"]["uri"], S.Uri);
  EXPECT_EQ(D["relatedInformation"][0]["location"]["range"]["start"]["line"], 2);

  json Actions = S.result(S.codeActions(11));
  ASSERT_EQ(Actions.size(), 1u) << Actions.dump(1);
  const json &A = Actions[0];
  EXPECT_EQ(A["kind"], "quickfix");
  EXPECT_EQ(A["isPreferred"], true);
  const json &Edit = A["edit"]["changes"][S.Uri][0];
  EXPECT_EQ(Edit["newText"], "TILE + 1");
  EXPECT_EQ(Edit["range"]["start"]["line"], 2);
  EXPECT_EQ(Edit["range"]["start"]["character"], 30);
  EXPECT_EQ(Edit["range"]["end"]["character"], 34);
  EXPECT_EQ(S.stop(), 0) << S.log();
}

// A lint that crashes (here clang's own `#pragma clang __debug crash`, a
// trap in its preprocessor) is recovered from: an error on the document,
// and the next version is linted as usual.
TEST(Lsp, ACrashingLintIsAnErrorAndTheServerGoesOn) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open("#pragma clang __debug crash\n" + std::string(Tile), 1);
  json Diags = S.diagnostics(1);
  ASSERT_EQ(Diags.size(), 1u) << Diags.dump(1) << S.log();
  EXPECT_EQ(Diags[0]["severity"], 1);
  EXPECT_NE(Diags[0]["message"].get<std::string>().find("crashed"),
            std::string::npos);
  S.change(Tile, 2);
  EXPECT_TRUE(findCode(S.diagnostics(2), "shared-bank-conflict")) << S.log();
  EXPECT_EQ(S.stop(), 0) << S.log();
}

TEST(Lsp, AnEditWithoutSaveIsLintedAtItsNewPositions) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open(Tile, 1);
  json Before = S.diagnostics(1);
  ASSERT_EQ(Before.size(), 1u) << Before.dump(1);
  EXPECT_EQ(Before[0]["range"]["start"]["line"], 11);
  // Two lines added above the kernel, not saved: the finding moves with
  // them, and the file on disk (which has no finding) is not read.
  S.change("// one\n// two\n" + std::string(Tile), 2);
  json After = S.diagnostics(2);
  ASSERT_EQ(After.size(), 1u) << After.dump(1);
  EXPECT_EQ(After[0]["range"]["start"]["line"], 13);
  EXPECT_EQ(After[0]["range"]["start"]["character"], 27);
  EXPECT_EQ(After[0]["range"]["end"]["character"], 61);
  // Padded in the editor: the finding goes.
  S.change(replaced(Tile, "tile[TILE][TILE];", "tile[TILE][TILE + 1];"), 3);
  EXPECT_TRUE(S.diagnostics(3).empty()) << S.log();
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, AQuickFixAfterAnEditAppliesToTheEditedText) {
  LspSession S;
  ASSERT_TRUE(S.start({{"workspace", {{"workspaceEdit", {{"documentChanges", true}}}}}}));
  S.open(Tile, 1);
  S.diagnostics(1);
  // Lines added and a non-ASCII comment before the declaration, on its line;
  // the code action is asked for at once, before the edit's lint ran: it
  // must be computed for this text, not the one linted last.
  std::string Edited =
      "// transpose, 32×32 tiles\n// ✓ checked\n" +
      replaced(Tile, "  __shared__ float tile[TILE][TILE];",
               "  /* 32×32 𝄞 */ __shared__ float tile[TILE][TILE];");
  S.change(Edited, 2);
  json Actions = S.result(S.codeActions(13));
  ASSERT_EQ(Actions.size(), 1u) << Actions.dump(1) << S.log();
  const json &Change = Actions[0]["edit"]["documentChanges"][0];
  EXPECT_EQ(Change["textDocument"]["uri"], S.Uri);
  EXPECT_EQ(Change["textDocument"]["version"], 2);
  std::string Fixed = test::applyUtf16Edits(Edited, Change["edits"]);
  EXPECT_EQ(Fixed, replaced(Edited, "tile[TILE][TILE];", "tile[TILE][TILE + 1];"));
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, ANonAsciiLineGivesColumnsInTheNegotiatedEncoding) {
  std::string Prefix = "    out[(y + j) * n + x] = /* ≤ 𝄞 é */ ";
  std::string Text = replaced(Tile, "    out[(y + j) * n + x] = ", Prefix);
  {
    // No encoding offered: UTF-16, the protocol's default.
    LspSession S;
    std::optional<json> Init = S.start();
    ASSERT_TRUE(Init);
    EXPECT_EQ((*Init)["capabilities"]["positionEncoding"], "utf-16");
    S.open(Text, 1);
    json Diags = S.diagnostics(1);
    ASSERT_EQ(Diags.size(), 1u) << Diags.dump(1);
    EXPECT_EQ(Diags[0]["range"]["start"]["character"], utf16Length(Prefix));
    EXPECT_EQ(Diags[0]["range"]["end"]["character"],
              utf16Length(Prefix) + 34);
    EXPECT_EQ(S.stop(), 0);
  }
  {
    // UTF-8 offered (with UTF-16): UTF-8 it is, columns in bytes.
    LspSession S;
    std::optional<json> Init =
        S.start({{"general", {{"positionEncodings", {"utf-16", "utf-8"}}}}});
    ASSERT_TRUE(Init);
    EXPECT_EQ((*Init)["capabilities"]["positionEncoding"], "utf-8");
    S.open(Text, 1);
    json Diags = S.diagnostics(1);
    ASSERT_EQ(Diags.size(), 1u) << Diags.dump(1);
    EXPECT_EQ(Diags[0]["range"]["start"]["character"], int(Prefix.size()));
    EXPECT_EQ(S.stop(), 0);
  }
}

TEST(Lsp, HoverOnAnAccessShowsItsMetrics) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open(Tile, 1);
  S.diagnostics(1);
  int Id = S.Client->request("textDocument/hover",
                             {{"textDocument", {{"uri", S.Uri}}},
                              {"position", S.position(11, 30)}});
  json H = S.result(Id);
  ASSERT_TRUE(H.is_object()) << H.dump();
  EXPECT_EQ(H["contents"]["kind"], "markdown");
  std::string Card = H["contents"]["value"];
  EXPECT_THAT(Card, testing::HasSubstr("load of `tile` (shared, 4 bytes per lane) in `transpose`"));
  EXPECT_THAT(Card, testing::HasSubstr("32 wavefronts per request: 32-way bank conflict"));
  EXPECT_THAT(Card, testing::HasSubstr("byte offset: 4*(32*threadIdx.x + threadIdx.y + j)"));
  EXPECT_THAT(Card, testing::HasSubstr("lanes' byte offsets from lane 0: 0, 128, ..., 3968"));
  EXPECT_EQ(H["range"]["start"]["line"], 11);
  EXPECT_EQ(H["range"]["start"]["character"], 27);

  // The global store on the same line: sectors and utilization.
  Id = S.Client->request("textDocument/hover",
                         {{"textDocument", {{"uri", S.Uri}}},
                          {"position", S.position(11, 6)}});
  Card = S.result(Id)["contents"]["value"];
  EXPECT_THAT(Card, testing::HasSubstr("store of `out` (global, 4 bytes per lane)"));
  EXPECT_THAT(Card, testing::HasSubstr("4 sectors per request, 100% sector utilization"));
  EXPECT_THAT(Card, testing::HasSubstr("lanes' byte offsets from lane 0: 0, 4, ..., 124"));
  // Nowhere near an access: nothing.
  Id = S.Client->request("textDocument/hover",
                         {{"textDocument", {{"uri", S.Uri}}},
                          {"position", S.position(7, 2)}});
  EXPECT_TRUE(S.result(Id).is_null());
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, HoverOnAKernelNameShowsThePredictedTime) {
  // A constant grid: the cost model's time, its bound and its budgets.
  std::string Constant =
      replaced(replaced(Tile, "dim3(n / TILE, n / TILE)", "dim3(256, 256)"),
               "(in, out, n);", "(in, out, 8192);");
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open(Constant, 1);
  S.diagnostics(1);
  int Id = S.Client->request("textDocument/hover",
                             {{"textDocument", {{"uri", S.Uri}}},
                              {"position", S.position(1, 20)}});
  json H = S.result(Id);
  ASSERT_TRUE(H.is_object()) << H.dump();
  std::string Card = H["contents"]["value"];
  EXPECT_THAT(Card, testing::HasSubstr("**cost model**"));
  EXPECT_THAT(Card, testing::HasSubstr(
                        "kernel 'transpose' <32x8x1>: predicted 299 us on the "
                        "H200 model, bound by shared (DRAM 129 us at 1.02x for the "
                        "17.3 MB its resident warps read through, counting each warp's "
                        "loads in flight in 4 places apart, latency 28.5 us"));
  EXPECT_EQ(H["range"]["start"]["line"], 1);
  EXPECT_EQ(H["range"]["start"]["character"], 16);
  EXPECT_EQ(H["range"]["end"]["character"], 25);
  // A grid computed from a runtime value: no time, and why.
  S.change(Tile, 2);
  S.diagnostics(2);
  Id = S.Client->request("textDocument/hover",
                         {{"textDocument", {{"uri", S.Uri}}},
                          {"position", S.position(1, 20)}});
  Card = S.result(Id)["contents"]["value"];
  EXPECT_THAT(Card, testing::HasSubstr(
                        "kernel 'transpose' <32x8x1>: no time predicted "
                        "(unknown: grid size)"));
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, InlayHintsAppearWhenEnabled) {
  auto Hints = [](LspSession &S) {
    int Id = S.Client->request("textDocument/inlayHint",
                               {{"textDocument", {{"uri", S.Uri}}},
                                {"range", {{"start", S.position(0, 0)},
                                           {"end", S.position(20, 0)}}}});
    return S.result(Id);
  };
  {
    LspSession S; // off by default
    ASSERT_TRUE(S.start());
    S.open(Tile, 1);
    S.diagnostics(1);
    EXPECT_TRUE(Hints(S).empty());
    EXPECT_EQ(S.stop(), 0);
  }
  LspSession S;
  ASSERT_TRUE(S.start(json::object(), {{"inlayHints", true}}));
  S.open(Tile, 1);
  json H = Hints(S);
  std::vector<std::string> Labels;
  for (const json &X : H)
    Labels.push_back(std::to_string(X["position"]["line"].get<int>()) + ":" +
                     X["label"].get<std::string>());
  EXPECT_THAT(Labels, testing::ElementsAre("6:⟨no bank conflict⟩", "6:⟨4 sect/req⟩",
                                           "11:⟨4 sect/req⟩", "11:⟨32-way⟩"))
      << H.dump(1);
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, AParseErrorInsideAKernelIsPublished) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open(replaced(Tile, "  __syncthreads();", "  __syncthreads(;"), 1);
  json Diags = S.diagnostics(1);
  const json *Err = nullptr;
  for (const json &D : Diags)
    if (D["severity"] == 1)
      Err = &D;
  ASSERT_TRUE(Err) << Diags.dump(1);
  EXPECT_EQ((*Err)["range"]["start"]["line"], 7);
  EXPECT_THAT((*Err)["message"].get<std::string>(), testing::HasSubstr("expected"));
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, HostCodeThatDoesNotParseIsOneWarningAndTheKernelsAreLinted) {
  LspSession S;
  ASSERT_TRUE(S.start());
  // A missing header and an error in host code: the kernel parses; as on
  // the command line, one warning for the host code, and the findings.
  S.open("#include \"no_such_header.cuh\"\n" +
             replaced(Tile, "void launch(const float *in, float *out, int n) {",
                      "void launch(const float *in, float *out, int n) {\n  int k = ;"),
         1);
  json Diags = S.diagnostics(1);
  ASSERT_EQ(Diags.size(), 2u) << Diags.dump(1);
  EXPECT_EQ(Diags[0]["severity"], 2);
  EXPECT_EQ(Diags[0]["range"]["start"]["line"], 0);
  std::string Msg = Diags[0]["message"];
  EXPECT_THAT(Msg, testing::HasSubstr("host code did not parse (2 errors"));
  EXPECT_THAT(Msg, testing::HasSubstr("not found: 'no_such_header.cuh'"));
  ASSERT_EQ(Diags[0]["relatedInformation"].size(), 2u) << Diags[0].dump(1);
  EXPECT_EQ(Diags[0]["relatedInformation"][1]["location"]["range"]["start"]["line"], 15);
  EXPECT_EQ(Diags[1]["code"], "shared-bank-conflict");
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, AKernelOverTheAnalysisBudgetIsAWarningAtItsName) {
  LspSession S({"--analysis-time-limit=0.25"});
  ASSERT_TRUE(S.start());
  // Eight nested loops run iteration by iteration: over a quarter second.
  std::string Heavy = "__global__ void heavy(float *out) {\n"
                      "  __shared__ float s[32][33];\n  float acc = 0;\n";
  for (char V = 'a'; V <= 'h'; ++V)
    Heavy += std::string("  for (int ") + V + " = 1; " + V + " < 32; " + V +
             " *= 2)\n";
  Heavy += "    acc += s[(threadIdx.x * a + b * c + d) % 32]"
           "[(e * f + g * h + threadIdx.x) % 33];\n"
           "  out[threadIdx.x] = acc;\n}\n"
           "__global__ void light(float *out, const float *in) {\n"
           "  out[threadIdx.x * 2] = in[threadIdx.x];\n}\n";
  S.open(Heavy, 1);
  json Diags = S.diagnostics(1);
  const json *Stopped = nullptr;
  for (const json &D : Diags)
    if (D.value("message", "").find("analysis of kernel 'heavy' stopped") !=
        std::string::npos)
      Stopped = &D;
  ASSERT_TRUE(Stopped) << Diags.dump(1);
  EXPECT_EQ((*Stopped)["severity"], 2);
  EXPECT_EQ((*Stopped)["range"], S.range(0, 16, 21)) << Stopped->dump();
  EXPECT_THAT((*Stopped)["message"].get<std::string>(),
              testing::HasSubstr("budget exceeded (time: 0.25 s)"));
  // light, in the same file, is linted.
  EXPECT_TRUE(findCode(Diags, "blocked-stride")) << Diags.dump(1);
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, TenRapidChangesAreOneLintOfTheLastVersion) {
  LspSession S;
  ASSERT_TRUE(S.start(json::object(), {{"debounceMs", 1000}}));
  S.open(Tile, 1);
  S.diagnostics(1);
  ASSERT_EQ(S.lintsStarted(), std::vector<std::string>{"version 1"});
  // Typing: ten changes in one burst, each adding a line.
  std::vector<json> Burst;
  std::string Text = Tile;
  for (int V = 2; V <= 11; ++V) {
    Text = "// line " + std::to_string(V) + "\n" + Text;
    Burst.push_back(S.changeMessage(Text, V));
  }
  S.Client->sendAll(Burst);
  json Diags = S.diagnostics(11);
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0]["range"]["start"]["line"], 21);
  EXPECT_EQ(S.stop(), 0);
  EXPECT_EQ(S.lintsStarted(), (std::vector<std::string>{"version 1", "version 11"}))
      << S.log();
  for (const json &M : S.Client->received())
    if (M.value("method", "") == "textDocument/publishDiagnostics")
      EXPECT_THAT(M["params"]["version"].get<int>(), testing::AnyOf(1, 11));
}

TEST(Lsp, SavesDoNotQueueLintsOfTheTextAlreadyLinted) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open(Tile, 1);
  S.diagnostics(1);
  std::vector<json> Saves;
  for (int I = 0; I < 10; ++I)
    Saves.push_back(LspClient::notificationMessage(
        "textDocument/didSave", {{"textDocument", {{"uri", S.Uri}}}}));
  S.Client->sendAll(Saves);
  // The code action is answered from the current lint, behind nothing.
  EXPECT_EQ(S.result(S.codeActions(11)).size(), 1u);
  EXPECT_EQ(S.stop(), 0);
  EXPECT_EQ(S.lintsStarted(), std::vector<std::string>{"version 1"}) << S.log();
}

TEST(Lsp, TheLintOfAVersionThatChangedIsNotPublished) {
  LspSession S;
  ASSERT_TRUE(S.start());
  // The open's lint starts at once; the change comes while it runs.
  S.open(Tile, 1);
  ASSERT_TRUE(S.waitForLog("lint " + S.File + " version 1"));
  S.change(replaced(Tile, "tile[TILE][TILE];", "tile[TILE][TILE + 1];"), 2);
  EXPECT_TRUE(S.diagnostics(2).empty());
  EXPECT_EQ(S.stop(), 0);
  EXPECT_THAT(S.log(), testing::HasSubstr("dropped the lint of " + S.File + " version 1"));
  for (const json &M : S.Client->received())
    if (M.value("method", "") == "textDocument/publishDiagnostics")
      EXPECT_EQ(M["params"]["version"], 2) << M.dump();
}

TEST(Lsp, ACancelledRequestIsAnsweredAsCancelled) {
  LspSession S;
  ASSERT_TRUE(S.start(json::object(), {{"debounceMs", 2000}}));
  S.open(Tile, 1);
  S.diagnostics(1);
  S.change("// moved\n" + std::string(Tile), 2);
  // The lint of version 2 is two seconds away: the request waits for it
  // and is cancelled meanwhile.
  int Id = S.codeActions(12);
  S.Client->notify("$/cancelRequest", {{"id", Id}});
  std::optional<json> R = S.Client->response(Id);
  ASSERT_TRUE(R);
  ASSERT_TRUE(R->contains("error")) << R->dump();
  EXPECT_EQ((*R)["error"]["code"], -32800);
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, ExitBeforeShutdownExitsWithStatus1) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.Client->notify("exit", nullptr);
  EXPECT_EQ(S.Client->finish(), 1);
}

TEST(Lsp, RequestsAfterShutdownAreRefused) {
  LspSession S;
  ASSERT_TRUE(S.start());
  int Id = S.Client->request("shutdown", nullptr);
  S.Client->response(Id);
  Id = S.Client->request("textDocument/hover",
                         {{"textDocument", {{"uri", S.Uri}}},
                          {"position", S.position(0, 0)}});
  std::optional<json> R = S.Client->response(Id);
  ASSERT_TRUE(R && R->contains("error")) << (R ? R->dump() : "");
  EXPECT_EQ((*R)["error"]["code"], -32600);
  S.Client->notify("exit", nullptr);
  EXPECT_EQ(S.Client->finish(), 0);
}

TEST(Lsp, ConfigurationChangesApplyToTheOpenDocuments) {
  LspSession S;
  ASSERT_TRUE(S.start({{"workspace", {{"inlayHint", {{"refreshSupport", true}}}}}}));
  S.open(Tile, 1);
  ASSERT_EQ(S.diagnostics(1).size(), 1u);
  // The rule switched off and inlay hints on, as VS Code sends settings.
  S.Client->notify("workspace/didChangeConfiguration",
                   {{"settings", {{"cuda-access-lint",
                                   {{"checks", "-shared-bank-conflict"},
                                    {"inlayHints", true}}}}}});
  std::optional<json> Again = S.Client->waitFor([&](const json &M) {
    return M.value("method", "") == "textDocument/publishDiagnostics" &&
           M["params"]["diagnostics"].empty();
  });
  ASSERT_TRUE(Again) << S.log();
  // Hints switched on: the client is asked to ask for them again.
  std::optional<json> Refresh = S.Client->waitFor([](const json &M) {
    return M.value("method", "") == "workspace/inlayHint/refresh";
  });
  ASSERT_TRUE(Refresh);
  S.Client->sendAll({{{"jsonrpc", "2.0"}, {"id", (*Refresh)["id"]}, {"result", nullptr}}});
  int Id = S.Client->request("textDocument/inlayHint",
                             {{"textDocument", {{"uri", S.Uri}}},
                              {"range", {{"start", S.position(0, 0)},
                                         {"end", S.position(20, 0)}}}});
  EXPECT_FALSE(S.result(Id).empty());
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, OneDiagnosticPerPlaceAcrossInstantiations) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open(R"cu(template <int V>
__global__ void column(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x][0] = V;
  __syncthreads();
  out[threadIdx.x] = s[0][threadIdx.x];
}
void launch(float *out) {
  column<1><<<1, 32>>>(out);
  column<2><<<1, 32>>>(out);
}
)cu", 1);
  json Diags = S.diagnostics(1);
  ASSERT_EQ(Diags.size(), 1u) << Diags.dump(1);
  const json &D = Diags[0];
  EXPECT_EQ(D["range"]["start"]["line"], 3);
  EXPECT_THAT(D["message"].get<std::string>(),
              testing::HasSubstr("the same in 2 configurations: `column<1>`, `column<2>`"));
  std::vector<std::string> Related;
  for (const json &R : D["relatedInformation"])
    Related.push_back(std::to_string(R["location"]["range"]["start"]["line"].get<int>()) +
                      ": " + R["message"].get<std::string>().substr(0, 20));
  EXPECT_THAT(Related, testing::Contains(testing::StartsWith("2: `s` declared here")))
      << D.dump(1);
  EXPECT_THAT(Related, testing::Contains(testing::StartsWith("3: in `column<2>`")))
      << D.dump(1);
  // Both instantiations' padding fix is the same: one quick fix.
  json Actions = S.result(S.codeActions(3));
  EXPECT_EQ(Actions.size(), 1u) << Actions.dump(1);
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, SuggestedRewritesArePreviewsNotPreferred) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.open(R"cu(template <int THREADS, int V>
__global__ void row_product(const float *X, float *out, int N) {
  int tx = threadIdx.x, row = blockIdx.x;
  float acc = 1;
  for (int c = 0; c < V; ++c)
    acc *= X[row * N + tx * V + c];
  out[row * THREADS + tx] = acc;
}
void launch(const float *X, float *out) {
  row_product<256, 16><<<4096, 256>>>(X, out, 4096);
}
)cu", 1);
  json Diags = S.diagnostics(1);
  const json *D = findCode(Diags, "blocked-stride");
  ASSERT_TRUE(D) << Diags.dump(1);
  json Actions = S.result(S.codeActions((*D)["range"]["start"]["line"]));
  ASSERT_FALSE(Actions.empty());
  for (const json &A : Actions) {
    EXPECT_EQ(A["kind"], "refactor.rewrite") << A.dump(1);
    EXPECT_EQ(A["isPreferred"], false);
    const json &E = A["edit"]["changes"][S.Uri][0];
    EXPECT_EQ(E["range"]["start"]["line"], 5);
    EXPECT_EQ(E["range"]["start"]["character"], 0);
    EXPECT_THAT(E["newText"].get<std::string>(),
                testing::StartsWith("    // cuda-access-lint: suggested rewrite ("));
  }
  // The hover card states what the numbers assume.
  int Id = S.Client->request("textDocument/hover",
                             {{"textDocument", {{"uri", S.Uri}}},
                              {"position", S.position(5, 12)}});
  std::string Card = S.result(Id)["contents"]["value"];
  EXPECT_THAT(Card, testing::HasSubstr("32 sectors per request, 12.5% sector utilization"));
  EXPECT_THAT(Card, testing::HasSubstr("- assumption: `X` assumed 256-byte aligned"));
  EXPECT_THAT(Card, testing::HasSubstr("lanes' byte offsets from lane 0: 0, 64, ..., 1984"));
  EXPECT_EQ(S.stop(), 0);
}

TEST(Lsp, ClosingADocumentClearsItsDiagnosticsAndAnswersWhatWaited) {
  LspSession S;
  ASSERT_TRUE(S.start(json::object(), {{"debounceMs", 2000}}));
  S.open(Tile, 1);
  S.diagnostics(1);
  S.change("// moved\n" + std::string(Tile), 2);
  int Id = S.codeActions(12); // waits for the lint of version 2
  S.Client->notify("textDocument/didClose", {{"textDocument", {{"uri", S.Uri}}}});
  EXPECT_TRUE(S.result(Id).is_null());
  std::optional<json> Cleared = S.Client->waitFor([&](const json &M) {
    return M.value("method", "") == "textDocument/publishDiagnostics" &&
           M["params"]["diagnostics"].empty();
  });
  EXPECT_TRUE(Cleared);
  EXPECT_EQ(S.stop(), 0);
  EXPECT_EQ(S.lintsStarted(), std::vector<std::string>{"version 1"}) << S.log();
}

TEST(Lsp, MessagesThatAreNotJsonRpcAreSkipped) {
  LspSession S;
  ASSERT_TRUE(S.start());
  S.Client->sendAll({json{{"hello", 1}}, json::array({1, 2})});
  int Id = S.Client->request("textDocument/hover",
                             {{"textDocument", {{"uri", S.Uri}}},
                              {"position", S.position(0, 0)}});
  EXPECT_TRUE(S.result(Id).is_null());
  EXPECT_EQ(S.stop(), 0);
}

} // namespace
} // namespace cal

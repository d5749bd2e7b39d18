//===- ClangdProxyTest.cpp - cuda-access-lint --clangd with Debian's clangd ===//
//
// End to end, as an editor whose one C++ server is clangd drives it: a CMake
// + nvcc project (configured with this machine's cmake and nvcc; clangd alone
// stops at nvcc's flags in its database), the proxy started in clangd's
// place with the real clangd-22 behind it, one .cu opened. One
// publishDiagnostics carries clangd's error (an undeclared identifier) and
// our bank-conflict finding; definition is clangd's; hover is clangd's type
// and our access card; our quick fix applies and the finding goes; clangd
// killed mid-session is reported and restarted, and answers again; shutdown
// and exit leave no clangd behind.
//
//===----------------------------------------------------------------------===//

#include "cli/LspClient.h"
#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include <unistd.h>

#ifndef CAL_CMAKE_COMMAND
#error "CAL_CMAKE_COMMAND must name cmake"
#endif

namespace cal {
namespace {

using nlohmann::json;
using test::LspClient;
using ::testing::HasSubstr;

const char Clangd[] = "/usr/bin/clangd-22";
const char Nvcc[] = "/usr/local/cuda/bin/nvcc";

const char ProjectCMake[] = R"(cmake_minimum_required(VERSION 3.20)
project(p LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 80)
add_library(transpose src/transpose.cu)
target_compile_options(transpose PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall>)
)";

// The host function calls what is declared nowhere: clangd's error; the
// kernel's second loop reads a column of the tile: our finding.
const char Transpose[] = R"cu(#include <cuda_runtime.h>
#define TILE 32
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
  report_launch(n);
}
)cu";

/// The 0-based line and UTF-16 character of the first \p What in \p Text
/// (ASCII text).
json positionOf(const std::string &Text, const std::string &What,
                int Offset = 0) {
  size_t At = Text.find(What);
  EXPECT_NE(At, std::string::npos) << What;
  At += Offset;
  int Line = static_cast<int>(std::count(Text.begin(), Text.begin() + At, '\n'));
  size_t Start = Text.rfind('\n', At == 0 ? 0 : At - 1);
  int Character = static_cast<int>(Start == std::string::npos ? At : At - Start - 1);
  return {{"line", Line}, {"character", Character}};
}

bool isDiagnostics(const json &M) {
  return M.value("method", "") == "textDocument/publishDiagnostics";
}
bool hasSource(const json &Diags, const std::string &Source,
               const std::string &Text) {
  for (const json &D : Diags)
    if (D.value("source", "") == Source &&
        D.value("message", "").find(Text) != std::string::npos)
      return true;
  return false;
}
bool ours(const json &Diags) {
  for (const json &D : Diags)
    if (D.value("source", "") == "cuda-access-lint")
      return true;
  return false;
}

/// The pids of the clangds the proxy started, from its log.
std::vector<int> clangdPids(const std::string &Log) {
  std::vector<int> Pids;
  std::regex Started("started clangd \\(pid ([0-9]+)\\)");
  for (auto It = std::sregex_iterator(Log.begin(), Log.end(), Started);
       It != std::sregex_iterator(); ++It)
    Pids.push_back(std::stoi((*It)[1]));
  return Pids;
}

std::string readLog(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

TEST(ClangdProxy, ClangdAndOurFindingsInOneSessionOnAnNvccProject) {
  if (access(Clangd, X_OK) != 0 || access(Nvcc, X_OK) != 0)
    GTEST_SKIP() << "needs clangd-22 and nvcc in /usr/local/cuda";
  test::TempDir Dir("cal-clangd-proxy");
  ASSERT_TRUE(test::writeFile(Dir / "CMakeLists.txt", ProjectCMake));
  ASSERT_TRUE(test::writeFile(Dir / "src/transpose.cu", Transpose));
  test::ProcessResult Configure = test::runProcess(
      {CAL_CMAKE_COMMAND, "-S", Dir.path(), "-B", Dir / "build", "-G", "Ninja",
       std::string("-DCMAKE_CUDA_COMPILER=") + Nvcc,
       "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"});
  ASSERT_TRUE(Configure.exitedWith(0)) << Configure.Stdout << Configure.Stderr;

  // The translated database goes to the user's cache: here, the test's.
  setenv("XDG_CACHE_HOME", (Dir / "cache").c_str(), 1);
  std::string LogPath = Dir / "stderr.log";
  LspClient Client({CAL_TOOL_PATH, "--clangd", "--clangd-path=" + std::string(Clangd)},
                   LogPath);
  ASSERT_TRUE(Client.started());
  std::string Uri = "file://" + (Dir / "src/transpose.cu");
  // What an editor says it supports: code actions as literals, markdown.
  json Capabilities = json::parse(R"({"textDocument": {
      "codeAction": {"codeActionLiteralSupport":
                       {"codeActionKind": {"valueSet": ["quickfix", "refactor"]}}},
      "hover": {"contentFormat": ["markdown", "plaintext"]}}})");
  int Init = Client.request("initialize", {{"processId", nullptr},
                                           {"rootUri", "file://" + Dir.path()},
                                           {"capabilities", Capabilities}});
  std::optional<json> InitR = Client.response(Init);
  ASSERT_TRUE(InitR && InitR->contains("result")) << readLog(LogPath);
  const json &Caps = (*InitR)["result"]["capabilities"];
  EXPECT_EQ(Caps["hoverProvider"], true);
  EXPECT_TRUE(Caps.contains("definitionProvider")) << "clangd's capabilities";
  EXPECT_THAT(Caps["codeActionProvider"]["codeActionKinds"].dump(),
              HasSubstr("quickfix"));
  Client.notify("initialized", json::object());
  Client.notify("textDocument/didOpen",
                {{"textDocument",
                  {{"uri", Uri}, {"languageId", "cuda-cpp"}, {"version", 1},
                   {"text", Transpose}}}});

  // One publication with clangd's error and our finding.
  std::optional<json> Both = Client.waitFor([&](const json &M) {
    if (!isDiagnostics(M) || M["params"]["uri"] != Uri)
      return false;
    const json &D = M["params"]["diagnostics"];
    return hasSource(D, "clang", "undeclared identifier 'report_launch'") &&
           hasSource(D, "cuda-access-lint", "32-way bank conflict");
  });
  ASSERT_TRUE(Both) << readLog(LogPath);
  for (const json &D : (*Both)["params"]["diagnostics"])
    if (D["source"] == "cuda-access-lint")
      EXPECT_EQ(D["code"], "shared-bank-conflict");
  // clang's error is clangd's to report: not twice.
  EXPECT_FALSE(hasSource((*Both)["params"]["diagnostics"], "cuda-access-lint",
                         "report_launch"));
  EXPECT_THAT(readLog(LogPath), HasSubstr("--compile-commands-dir="));

  // Definition: clangd's (`tile` is declared on line 3).
  std::string Text = Transpose;
  json TileUse = positionOf(Text, "tile[threadIdx.x]", 1);
  int Def = Client.request("textDocument/definition",
                           {{"textDocument", {{"uri", Uri}}}, {"position", TileUse}});
  std::optional<json> DefR = Client.response(Def);
  ASSERT_TRUE(DefR && (*DefR)["result"].is_array() && !(*DefR)["result"].empty())
      << (DefR ? DefR->dump() : "no response");
  EXPECT_EQ((*DefR)["result"][0]["range"]["start"]["line"], 3);

  // Hover: clangd's type, then our access card.
  int Hover = Client.request("textDocument/hover",
                             {{"textDocument", {{"uri", Uri}}}, {"position", TileUse}});
  std::optional<json> HoverR = Client.response(Hover);
  ASSERT_TRUE(HoverR && HoverR->contains("result")) << "no hover";
  std::string Card = (*HoverR)["result"]["contents"]["value"];
  EXPECT_THAT(Card, HasSubstr("float[32][32]")) << Card;
  EXPECT_THAT(Card, HasSubstr("32-way bank conflict")) << Card;
  EXPECT_LT(Card.find("float[32][32]"), Card.find("32-way bank conflict"));

  // Our quick fix, among clangd's actions; applied, the finding goes.
  int Actions = Client.request(
      "textDocument/codeAction",
      {{"textDocument", {{"uri", Uri}}},
       {"range", {{"start", TileUse}, {"end", TileUse}}},
       {"context", {{"diagnostics", json::array()}}}});
  std::optional<json> ActionsR = Client.response(Actions);
  ASSERT_TRUE(ActionsR && (*ActionsR)["result"].is_array());
  const json *Fix = nullptr;
  for (const json &A : (*ActionsR)["result"])
    if (A.value("kind", "") == "quickfix" && A.value("isPreferred", false))
      Fix = &A;
  ASSERT_TRUE(Fix) << ActionsR->dump();
  std::string Fixed =
      test::applyUtf16Edits(Text, (*Fix)["edit"]["changes"][Uri]);
  EXPECT_THAT(Fixed, HasSubstr("tile[TILE][TILE + 1]"));
  Client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", Uri}, {"version", 2}}},
                 {"contentChanges", json::array({{{"text", Fixed}}})}});
  std::optional<json> FixedDiags = Client.waitFor([&](const json &M) {
    if (!isDiagnostics(M) || M["params"].value("version", 0) != 2)
      return false;
    return readLog(LogPath).find("version 2 in") != std::string::npos &&
           hasSource(M["params"]["diagnostics"], "clang", "report_launch");
  });
  ASSERT_TRUE(FixedDiags) << readLog(LogPath);
  EXPECT_FALSE(ours((*FixedDiags)["params"]["diagnostics"]))
      << FixedDiags->dump();
  EXPECT_TRUE(std::regex_search(readLog(LogPath),
                                std::regex("version 2 in [0-9]+ ms: 0 findings")))
      << readLog(LogPath);

  // clangd killed mid-session: the client is told, clangd starts again with
  // the open document, and answers.
  std::vector<int> Pids = clangdPids(readLog(LogPath));
  ASSERT_EQ(Pids.size(), 1u) << readLog(LogPath);
  size_t Before = Client.received().size();
  ASSERT_EQ(kill(Pids[0], SIGKILL), 0);
  std::optional<json> Told = Client.waitFor(
      [](const json &M) { return M.value("method", "") == "window/showMessage"; },
      60, Before);
  ASSERT_TRUE(Told) << readLog(LogPath);
  EXPECT_THAT(Told->dump(), HasSubstr("restarting"));
  std::optional<json> Again = Client.waitFor(
      [&](const json &M) {
        return isDiagnostics(M) && M["params"]["uri"] == Uri &&
               hasSource(M["params"]["diagnostics"], "clang", "report_launch");
      },
      120, Before);
  ASSERT_TRUE(Again) << readLog(LogPath);
  Pids = clangdPids(readLog(LogPath));
  ASSERT_EQ(Pids.size(), 2u) << readLog(LogPath);
  int Def2 = Client.request("textDocument/definition",
                            {{"textDocument", {{"uri", Uri}}}, {"position", TileUse}});
  std::optional<json> Def2R = Client.response(Def2);
  ASSERT_TRUE(Def2R && (*Def2R)["result"].is_array() && !(*Def2R)["result"].empty())
      << (Def2R ? Def2R->dump() : "no response");

  // Shutdown and exit reach clangd; nothing is left running.
  int Shutdown = Client.request("shutdown", nullptr);
  std::optional<json> ShutdownR = Client.response(Shutdown);
  ASSERT_TRUE(ShutdownR && ShutdownR->contains("result"));
  Client.notify("exit", nullptr);
  EXPECT_EQ(Client.finish(), 0) << readLog(LogPath);
  EXPECT_NE(kill(Pids[1], 0), 0) << "clangd " << Pids[1] << " outlived the proxy";
  unsetenv("XDG_CACHE_HOME");
}

// Our failure never breaks clangd: a lint that crashes (clang's
// `#pragma clang __debug crash`, which clangd ignores) is recovered from and
// shown; clangd's answers go on.
TEST(ClangdProxy, OurCrashingLintLeavesClangdRunning) {
  if (access(Clangd, X_OK) != 0)
    GTEST_SKIP() << "needs clangd-22";
  test::TempDir Dir("cal-clangd-crash");
  std::string Text = "#pragma clang __debug crash\n"
                     "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                     "void host(float *x) { k<<<1, 32>>>(x); }\n";
  ASSERT_TRUE(test::writeFile(Dir / "k.cu", Text));
  setenv("XDG_CACHE_HOME", (Dir / "cache").c_str(), 1);
  std::string LogPath = Dir / "stderr.log";
  LspClient Client({CAL_TOOL_PATH, "--clangd", "--clangd-path=" + std::string(Clangd)},
                   LogPath);
  std::string Uri = "file://" + (Dir / "k.cu");
  int Init = Client.request("initialize", {{"processId", nullptr},
                                           {"rootUri", "file://" + Dir.path()},
                                           {"capabilities", json::object()}});
  ASSERT_TRUE(Client.response(Init)) << readLog(LogPath);
  Client.notify("initialized", json::object());
  Client.notify("textDocument/didOpen",
                {{"textDocument",
                  {{"uri", Uri}, {"languageId", "cuda-cpp"}, {"version", 1},
                   {"text", Text}}}});
  std::optional<json> Told = Client.waitFor([](const json &M) {
    return M.value("method", "") == "window/showMessage";
  });
  ASSERT_TRUE(Told) << readLog(LogPath);
  EXPECT_THAT(Told->dump(), HasSubstr("crashed"));
  // clangd answers: `k` in the launch is defined on line 1.
  int Def = Client.request("textDocument/definition",
                           {{"textDocument", {{"uri", Uri}}},
                            {"position", positionOf(Text, "k<<<")}});
  std::optional<json> DefR = Client.response(Def);
  ASSERT_TRUE(DefR && (*DefR)["result"].is_array() && !(*DefR)["result"].empty())
      << (DefR ? DefR->dump() : "no response") << readLog(LogPath);
  EXPECT_EQ((*DefR)["result"][0]["range"]["start"]["line"], 1);
  int Shutdown = Client.request("shutdown", nullptr);
  ASSERT_TRUE(Client.response(Shutdown));
  Client.notify("exit", nullptr);
  EXPECT_EQ(Client.finish(), 0) << readLog(LogPath);
  unsetenv("XDG_CACHE_HOME");
}

// clangd is started again three times at most; after that the client is
// told it stays down, requests are answered with ours or an error, and
// shutdown and exit still end the proxy cleanly.
TEST(ClangdProxy, ClangdIsRestartedThreeTimesAtMost) {
  if (access(Clangd, X_OK) != 0)
    GTEST_SKIP() << "needs clangd-22";
  test::TempDir Dir("cal-clangd-restarts");
  std::string Text = "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n";
  ASSERT_TRUE(test::writeFile(Dir / "k.cu", Text));
  setenv("XDG_CACHE_HOME", (Dir / "cache").c_str(), 1);
  std::string LogPath = Dir / "stderr.log";
  LspClient Client({CAL_TOOL_PATH, "--clangd", "--clangd-path=" + std::string(Clangd)},
                   LogPath);
  std::string Uri = "file://" + (Dir / "k.cu");
  int Init = Client.request("initialize", {{"processId", nullptr},
                                           {"rootUri", "file://" + Dir.path()},
                                           {"capabilities", json::object()}});
  ASSERT_TRUE(Client.response(Init)) << readLog(LogPath);
  Client.notify("initialized", json::object());
  Client.notify("textDocument/didOpen",
                {{"textDocument",
                  {{"uri", Uri}, {"languageId", "cuda-cpp"}, {"version", 1},
                   {"text", Text}}}});
  auto Messages = [&](size_t From) {
    std::vector<std::string> Out;
    for (size_t I = From; I < Client.received().size(); ++I)
      if (Client.received()[I].value("method", "") == "window/showMessage")
        Out.push_back(Client.received()[I]["params"]["message"]);
    return Out;
  };
  for (unsigned Kill = 1; Kill <= 4; ++Kill) {
    // Wait for this clangd to be running (started, and answering).
    int Ping = Client.request("textDocument/hover",
                              {{"textDocument", {{"uri", Uri}}},
                               {"position", {{"line", 0}, {"character", 16}}}});
    ASSERT_TRUE(Client.response(Ping)) << readLog(LogPath);
    std::vector<int> Pids = clangdPids(readLog(LogPath));
    ASSERT_EQ(Pids.size(), Kill) << readLog(LogPath);
    size_t Before = Client.received().size();
    ASSERT_EQ(kill(Pids.back(), SIGKILL), 0);
    ASSERT_TRUE(Client.waitFor(
        [](const json &M) { return M.value("method", "") == "window/showMessage"; },
        60, Before))
        << readLog(LogPath);
    std::vector<std::string> Told = Messages(Before);
    ASSERT_EQ(Told.size(), 1u);
    EXPECT_THAT(Told[0], HasSubstr(Kill <= 3 ? "restarting it (" + std::to_string(Kill) + " of 3)"
                                             : "not restarting"));
  }
  // No clangd now: a request is still answered.
  int Def = Client.request("textDocument/definition",
                           {{"textDocument", {{"uri", Uri}}},
                            {"position", {{"line", 0}, {"character", 16}}}});
  std::optional<json> DefR = Client.response(Def);
  ASSERT_TRUE(DefR);
  EXPECT_TRUE(DefR->contains("error")) << DefR->dump();
  EXPECT_EQ(clangdPids(readLog(LogPath)).size(), 4u);
  int Shutdown = Client.request("shutdown", nullptr);
  ASSERT_TRUE(Client.response(Shutdown));
  Client.notify("exit", nullptr);
  EXPECT_EQ(Client.finish(), 0) << readLog(LogPath);
  unsetenv("XDG_CACHE_HOME");
}

// clangd syncs documents incrementally, in the encoding it negotiated
// (UTF-16 here): the proxy applies the edits' ranges to its copy and to the
// session's in that encoding, so our findings move with the text. "×" is
// one UTF-16 unit and two bytes; "é" is inserted right after it.
TEST(ClangdProxy, IncrementalEditsAreAppliedInClangdsEncoding) {
  if (access(Clangd, X_OK) != 0)
    GTEST_SKIP() << "needs clangd-22";
  std::string Text = Transpose;
  size_t Out = Text.find("    out[(y + j)");
  ASSERT_NE(Out, std::string::npos);
  Text.insert(Out + 4, "/* 32×32 */ ");
  test::TempDir Dir("cal-clangd-incremental");
  ASSERT_TRUE(test::writeFile(Dir / "t.cu", Text));
  setenv("XDG_CACHE_HOME", (Dir / "cache").c_str(), 1);
  std::string LogPath = Dir / "stderr.log";
  LspClient Client({CAL_TOOL_PATH, "--clangd", "--clangd-path=" + std::string(Clangd)},
                   LogPath);
  std::string Uri = "file://" + (Dir / "t.cu");
  int Init = Client.request("initialize", {{"processId", nullptr},
                                           {"rootUri", "file://" + Dir.path()},
                                           {"capabilities", json::object()}});
  std::optional<json> InitR = Client.response(Init);
  ASSERT_TRUE(InitR) << readLog(LogPath);
  EXPECT_EQ((*InitR)["result"]["capabilities"]["textDocumentSync"]["change"], 2)
      << "clangd's incremental sync";
  Client.notify("initialized", json::object());
  Client.notify("textDocument/didOpen",
                {{"textDocument",
                  {{"uri", Uri}, {"languageId", "cuda-cpp"}, {"version", 1},
                   {"text", Text}}}});
  auto OurFinding = [&](int Version) -> std::optional<json> {
    std::optional<json> M = Client.waitFor([&](const json &M) {
      return isDiagnostics(M) && M["params"].value("version", 0) == Version &&
             ours(M["params"]["diagnostics"]);
    });
    if (!M)
      return std::nullopt;
    for (const json &D : (*M)["params"]["diagnostics"])
      if (D["source"] == "cuda-access-lint")
        return D;
    return std::nullopt;
  };
  std::optional<json> First = OurFinding(1);
  ASSERT_TRUE(First) << readLog(LogPath);
  int Line = (*First)["range"]["start"]["line"];
  int Character = (*First)["range"]["start"]["character"];
  EXPECT_EQ(Line, 12);
  // After "/* 32×": 4 + 6 UTF-16 units into the line (7 bytes).
  json At = {{"line", Line}, {"character", 4 + 6}};
  Client.notify("textDocument/didChange",
                {{"textDocument", {{"uri", Uri}, {"version", 2}}},
                 {"contentChanges",
                  json::array({{{"range", {{"start", At}, {"end", At}}},
                                {"text", "é"}}})}});
  std::optional<json> Second = OurFinding(2);
  ASSERT_TRUE(Second) << readLog(LogPath);
  EXPECT_EQ((*Second)["range"]["start"]["line"], Line);
  EXPECT_EQ((*Second)["range"]["start"]["character"], Character + 1);
  int Shutdown = Client.request("shutdown", nullptr);
  ASSERT_TRUE(Client.response(Shutdown));
  Client.notify("exit", nullptr);
  EXPECT_EQ(Client.finish(), 0) << readLog(LogPath);
  unsetenv("XDG_CACHE_HOME");
}

// Editors ask the binary in clangd's place for clangd's version.
TEST(ClangdProxy, VersionIsOursThenClangds) {
  if (access(Clangd, X_OK) != 0)
    GTEST_SKIP() << "needs clangd-22";
  test::ProcessResult R = test::runProcess(
      {CAL_TOOL_PATH, "--clangd", "--clangd-path=" + std::string(Clangd), "--",
       "--version"});
  EXPECT_TRUE(R.exitedWith(0)) << R.describe() << R.Stderr;
  EXPECT_THAT(R.Stdout, HasSubstr("cuda-access-lint version"));
  EXPECT_THAT(R.Stdout, HasSubstr("clangd version 22"));
}

TEST(ClangdProxy, WithoutClangdItIsOneLineAndExitThree) {
  test::ProcessResult R = test::runProcess(
      {CAL_TOOL_PATH, "--clangd", "--clangd-path=/nonexistent/clangd"});
  EXPECT_TRUE(R.exitedWith(3)) << R.describe();
  EXPECT_EQ(test::nonEmptyLines(R.Stderr).size(), 1u) << R.Stderr;
  EXPECT_THAT(R.Stderr, HasSubstr("/nonexistent/clangd"));
}

} // namespace
} // namespace cal

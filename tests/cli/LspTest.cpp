//===- LspTest.cpp - cuda-access-lint --lsp, as an editor drives it -------===//

#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cal {
namespace {

using nlohmann::json;

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

std::string frame(const json &M) {
  std::string Body = M.dump();
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

std::vector<json> messages(const std::string &Out) {
  std::vector<json> Msgs;
  size_t Pos = 0;
  while ((Pos = Out.find("Content-Length: ", Pos)) != std::string::npos) {
    size_t LenEnd = Out.find("\r\n\r\n", Pos);
    size_t Len = std::stoul(Out.substr(Pos + 16, LenEnd - Pos - 16));
    Msgs.push_back(json::parse(Out.substr(LenEnd + 4, Len)));
    Pos = LenEnd + 4 + Len;
  }
  return Msgs;
}

TEST(Lsp, PublishesFindingsAndOffersThePaddingAsAQuickFix) {
  test::TempDir Dir("cal-lsp");
  std::string File = Dir / "t.cu";
  // On disk: an old version without the shared array; the editor's text is
  // what must be linted.
  ASSERT_TRUE(test::writeFile(File, "__global__ void k() {}\n"));
  std::string Uri = "file://" + File;
  std::string In =
      frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
             {"params", {{"processId", nullptr}, {"rootUri", nullptr},
                         {"capabilities", json::object()}}}}) +
      frame({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}}) +
      frame({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
             {"params", {{"textDocument", {{"uri", Uri}, {"languageId", "cuda"},
                                           {"version", 7}, {"text", Tile}}}}}}) +
      frame({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/codeAction"},
             {"params", {{"textDocument", {{"uri", Uri}}},
                         {"range", {{"start", {{"line", 11}, {"character", 0}}},
                                    {"end", {{"line", 11}, {"character", 70}}}}},
                         {"context", {{"diagnostics", json::array()}}}}}}) +
      frame({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "shutdown"}, {"params", nullptr}}) +
      frame({{"jsonrpc", "2.0"}, {"method", "exit"}, {"params", nullptr}});
  std::string InFile = Dir / "in.lsp";
  ASSERT_TRUE(test::writeFile(InFile, In));
  test::ProcessResult R = test::runProcess(
      {"/bin/sh", "-c",
       std::string("'") + CAL_TOOL_PATH + "' --lsp -- -std=c++17 < '" + InFile + "'"});
  ASSERT_TRUE(R.exitedWith(0)) << R.describe() << R.Stderr;
  std::vector<json> Msgs = messages(R.Stdout);
  const json *Diags = nullptr, *Actions = nullptr;
  for (const json &M : Msgs) {
    if (M.value("method", "") == "textDocument/publishDiagnostics")
      Diags = &M;
    if (M.contains("id") && M["id"] == 2)
      Actions = &M;
  }
  ASSERT_TRUE(Diags) << R.Stdout;
  EXPECT_EQ((*Diags)["params"]["uri"], Uri);
  EXPECT_EQ((*Diags)["params"]["version"], 7);
  ASSERT_EQ((*Diags)["params"]["diagnostics"].size(), 1u) << Diags->dump(1);
  const json &D = (*Diags)["params"]["diagnostics"][0];
  EXPECT_EQ(D["code"], "shared-bank-conflict");
  EXPECT_EQ(D["source"], "cuda-access-lint");
  EXPECT_EQ(D["severity"], 2);
  EXPECT_EQ(D["range"]["start"]["line"], 11);
  EXPECT_NE(D["message"].get<std::string>().find("32-way"), std::string::npos);

  ASSERT_TRUE(Actions) << R.Stdout;
  ASSERT_EQ((*Actions)["result"].size(), 1u) << Actions->dump(1);
  const json &A = (*Actions)["result"][0];
  EXPECT_EQ(A["kind"], "quickfix");
  const json &Edit = A["edit"]["changes"][Uri][0];
  EXPECT_EQ(Edit["newText"], "TILE + 1");
  EXPECT_EQ(Edit["range"]["start"]["line"], 2);
  EXPECT_EQ(Edit["range"]["start"]["character"], 30);
  EXPECT_EQ(Edit["range"]["end"]["character"], 34);
}

} // namespace
} // namespace cal

//===- LspServer.cpp - cuda-access-lint --lsp -----------------------------===//
//
// A small language server that runs beside clangd (clangd cannot load
// plugins): the editor opens and saves .cu files, this publishes their
// findings as diagnostics (source "cuda-access-lint", the rule id as code,
// the notes in the message) and offers the machine-applicable fixes (the
// padding of a shared array) as quick fixes. Documents are linted on open
// and on save, from the editor's text, with the same compile commands as
// the command line (-p, or a compile_commands.json above the file).
//
// JSON-RPC and the protocol types are LLVM's own (llvm/Support/LSP), as
// mlir-lsp-server uses them.
//
//===----------------------------------------------------------------------===//

#include "tool/LspServer.h"

#include "output/JsonReport.h"
#include "report/Grouping.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace cal {

using namespace llvm::lsp;

namespace {

/// textDocument/didSave: only the document is needed (the text is the one
/// the editor sent with didOpen/didChange).
struct DidSaveParams {
  URIForFile Uri;
};
bool fromJSON(const llvm::json::Value &V, DidSaveParams &P,
              llvm::json::Path Path) {
  const llvm::json::Object *O = V.getAsObject();
  const llvm::json::Value *TD = O ? O->get("textDocument") : nullptr;
  const llvm::json::Object *TDO = TD ? TD->getAsObject() : nullptr;
  const llvm::json::Value *Uri = TDO ? TDO->get("uri") : nullptr;
  return Uri && fromJSON(*Uri, P.Uri, Path.field("textDocument").field("uri"));
}

struct Document {
  std::string Text;
  int64_t Version = 0;
  /// The last lint's findings in this document, one per place.
  std::vector<FindingRecord> Findings;
};

class Server {
public:
  Server(JSONTransport &Transport, FrontendOptions Base, LintSettings Settings)
      : Handler(Transport), Base(std::move(Base)),
        Settings(std::move(Settings)) {
    Handler.method("initialize", this, &Server::onInitialize);
    Handler.notification("initialized", this, &Server::onInitialized);
    Handler.method("shutdown", this, &Server::onShutdown);
    Handler.notification("textDocument/didOpen", this, &Server::onOpen);
    Handler.notification("textDocument/didChange", this, &Server::onChange);
    Handler.notification("textDocument/didSave", this, &Server::onSave);
    Handler.notification("textDocument/didClose", this, &Server::onClose);
    Handler.method("textDocument/codeAction", this, &Server::onCodeAction);
    Publish = Handler.outgoingNotification<llvm::json::Value>(
        "textDocument/publishDiagnostics");
  }

  MessageHandler Handler;

private:
  void onInitialize(const InitializeParams &, Callback<llvm::json::Value> Reply) {
    llvm::json::Object Sync{{"openClose", true},
                            {"change", int(TextDocumentSyncKind::Full)},
                            {"save", llvm::json::Object{{"includeText", false}}}};
    llvm::json::Object Caps{
        {"textDocumentSync", std::move(Sync)},
        {"codeActionProvider",
         llvm::json::Object{
             {"codeActionKinds", llvm::json::Array{"quickfix"}}}}};
    Reply(llvm::json::Object{
        {"capabilities", std::move(Caps)},
        {"serverInfo", llvm::json::Object{{"name", "cuda-access-lint"},
                                          {"version", CAL_VERSION}}}});
  }
  void onInitialized(const NoParams &) {}
  void onShutdown(const NoParams &, Callback<llvm::json::Value> Reply) {
    Reply(llvm::json::Value(nullptr));
  }

  void onOpen(const DidOpenTextDocumentParams &P) {
    Document &D = Docs[P.textDocument.uri.file().str()];
    D.Text = P.textDocument.text;
    D.Version = P.textDocument.version;
    lint(P.textDocument.uri, D);
  }
  void onChange(const DidChangeTextDocumentParams &P) {
    auto It = Docs.find(P.textDocument.uri.file().str());
    if (It == Docs.end())
      return;
    for (const TextDocumentContentChangeEvent &C : P.contentChanges)
      if (!C.range) // full sync: the whole text
        It->second.Text = C.text;
    It->second.Version = P.textDocument.version;
  }
  void onSave(const DidSaveParams &P) {
    auto It = Docs.find(P.Uri.file().str());
    if (It != Docs.end())
      lint(P.Uri, It->second);
  }
  void onClose(const DidCloseTextDocumentParams &P) {
    Docs.erase(P.textDocument.uri.file().str());
    Publish(llvm::json::Object{{"uri", P.textDocument.uri.uri()},
                               {"diagnostics", llvm::json::Array{}}});
  }

  void onCodeAction(const CodeActionParams &P,
                    Callback<llvm::json::Value> Reply) {
    llvm::json::Array Actions;
    auto It = Docs.find(P.textDocument.uri.file().str());
    if (It != Docs.end()) {
      for (const FindingRecord &F : It->second.Findings) {
        int Line = int(F.Begin.Line) - 1;
        if (Line < P.range.start.line || Line > P.range.end.line)
          continue;
        for (const FixRecord &X : F.Fixes) {
          if (!X.machineApplicable())
            continue;
          llvm::json::Array Edits;
          for (const EditRecord &R : X.Edits)
            Edits.push_back(llvm::json::Object{
                {"range", rangeJson(R.At.Line, R.At.Column, R.At.Line,
                                    R.At.Column + R.Length)},
                {"newText", R.Text}});
          llvm::json::Object Changes;
          Changes[P.textDocument.uri.uri()] = std::move(Edits);
          Actions.push_back(llvm::json::Object{
              {"title", X.Description},
              {"kind", "quickfix"},
              {"isPreferred", true},
              {"diagnostics", llvm::json::Array{diagnostic(F)}},
              {"edit", llvm::json::Object{{"changes", std::move(Changes)}}}});
        }
      }
    }
    Reply(llvm::json::Value(std::move(Actions)));
  }

  /// 1-based line and column (bytes) to an LSP range (0-based).
  static llvm::json::Object rangeJson(int Line, int Col, int EndLine,
                                      int EndCol) {
    return llvm::json::Object{
        {"start", llvm::json::Object{{"line", Line - 1}, {"character", Col - 1}}},
        {"end", llvm::json::Object{{"line", EndLine - 1},
                                   {"character", EndCol - 1}}}};
  }

  static llvm::json::Object diagnostic(const FindingRecord &F) {
    int Level = F.Sev == Severity::Error ? 1 : F.Sev == Severity::Warning ? 2 : 3;
    std::string Msg = F.Message;
    for (const std::string &N : allNotes(F))
      Msg += "\n" + N;
    return llvm::json::Object{
        {"range", rangeJson(F.Begin.Line, F.Begin.Column, F.EndLine,
                            F.EndColumn + 1)},
        {"severity", Level},
        {"code", F.Rule},
        {"source", "cuda-access-lint"},
        {"message", Msg}};
  }

  void lint(const URIForFile &Uri, Document &D) {
    FrontendOptions FO = Base;
    FO.Files = {Uri.file().str()};
    FO.Overrides = {{Uri.file().str(), D.Text}};
    std::string Log;
    llvm::raw_string_ostream LogOS(Log);
    Frontend FE(FO, LogOS);
    std::vector<FindingRecord> Records;
    if (FE.prepare()) {
      FE.run(
          [&](clang::ASTContext &Ctx, clang::CompilerInstance &,
              const ParsedFile &) {
            AnalysisResult R;
            for (const Finding &F : lintTranslationUnit(Ctx, Settings, R))
              Records.push_back(makeRecord(F, Ctx, R));
          },
          LogOS);
    }
    LogOS.flush();
    if (!Log.empty())
      Logger::info("{0}", Log);
    D.Findings.clear();
    llvm::json::Array Diags;
    // One diagnostic per place, only what lies in this document.
    for (FindingRecord &F : groupByPlace(std::move(Records))) {
      if (F.Begin.Path != Uri.file())
        continue;
      Diags.push_back(diagnostic(F));
      D.Findings.push_back(std::move(F));
    }
    Publish(llvm::json::Object{{"uri", Uri.uri()},
                               {"version", D.Version},
                               {"diagnostics", std::move(Diags)}});
  }

  FrontendOptions Base;
  LintSettings Settings;
  std::map<std::string, Document> Docs;
  OutgoingNotification<llvm::json::Value> Publish;
};

} // namespace

int runLspServer(FrontendOptions Base, LintSettings Settings) {
  Logger::setLogLevel(Logger::Level::Error);
  JSONTransport Transport(stdin, llvm::outs());
  Server S(Transport, std::move(Base), std::move(Settings));
  if (llvm::Error E = Transport.run(S.Handler)) {
    // The client closed the stream: the normal way out after "exit".
    llvm::consumeError(std::move(E));
  }
  return 0;
}

} // namespace cal

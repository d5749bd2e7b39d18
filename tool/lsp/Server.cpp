//===- Server.cpp ---------------------------------------------------------===//

#include "tool/lsp/Server.h"

#include "tool/lsp/Session.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <memory>

namespace cal::lsp {

namespace L = llvm::lsp;
namespace json = llvm::json;

namespace {

/// Params taken as they come (what LLVM's types do not model).
struct RawParams {
  json::Value V = nullptr;
};
bool fromJSON(const json::Value &V, RawParams &P, json::Path) {
  P.V = V;
  return true;
}

/// textDocument/didSave: only the document is needed.
struct DidSaveParams {
  L::URIForFile Uri;
};
bool fromJSON(const json::Value &V, DidSaveParams &P, json::Path Path) {
  json::ObjectMapper O(V, Path);
  L::TextDocumentIdentifier TD;
  if (!O || !O.map("textDocument", TD))
    return false;
  P.Uri = TD.uri;
  return true;
}

/// The transport's input, which also remembers the id of the message just
/// read (LLVM's MessageHandler does not pass it to a method's handler, and
/// `$/cancelRequest` names requests by it) and skips valid JSON that is not
/// a JSON-RPC 2.0 message (LLVM's transport would stop there).
class RequestInput : public L::JSONTransportInput {
public:
  explicit RequestInput(std::FILE *In) : File(In) {}
  bool hasError() const override { return File.hasError(); }
  bool isEndOfInput() const override { return File.isEndOfInput(); }
  llvm::LogicalResult readDelimitedMessage(std::string &Json) override {
    return File.readDelimitedMessage(Json);
  }
  llvm::LogicalResult readStandardMessage(std::string &Json) override {
    while (true) {
      if (llvm::failed(File.readStandardMessage(Json)))
        return llvm::failure();
      llvm::Expected<json::Value> V = json::parse(Json);
      if (!V) {
        llvm::consumeError(V.takeError());
        return llvm::success(); // the transport logs it and reads on
      }
      const json::Object *O = V->getAsObject();
      if (!O || O->getString("jsonrpc") != std::optional<llvm::StringRef>("2.0")) {
        log("ignoring a message that is not JSON-RPC 2.0");
        continue;
      }
      const json::Value *Id = O->get("id");
      LastId = Id ? std::optional<json::Value>(*Id) : std::nullopt;
      return llvm::success();
    }
  }
  /// The id of the request being handled.
  std::optional<json::Value> LastId;

private:
  L::JSONTransportInputOverFile File;
};

/// The protocol's side: LLVM's MessageHandler dispatches each method to
/// the session; every message out goes through the handler, whose lock
/// serializes the transport's writes from both threads.
class Server {
public:
  Server(L::JSONTransport &Transport, RequestInput &Input,
         FrontendOptions Base, LintSettings Settings)
      : Handler(Transport), Input(Input),
        Docs(std::move(Base), std::move(Settings),
             Session::Hooks{[this](json::Value P) { Publish(P); },
                            [this] { refreshInlayHints(); },
                            /*LintCrashed=*/nullptr}) {
    Handler.method("initialize", this, &Server::onInitialize);
    Handler.notification("initialized", this, &Server::onInitialized);
    Handler.method("shutdown", this, &Server::onShutdown);
    Handler.notification("$/cancelRequest", this, &Server::onCancel);
    Handler.notification("workspace/didChangeConfiguration", this,
                         &Server::onConfiguration);
    Handler.notification("textDocument/didOpen", this, &Server::onOpen);
    Handler.notification("textDocument/didChange", this, &Server::onChange);
    Handler.notification("textDocument/didSave", this, &Server::onSave);
    Handler.notification("textDocument/didClose", this, &Server::onClose);
    Handler.method("textDocument/hover", this, &Server::onHover);
    Handler.method("textDocument/inlayHint", this, &Server::onInlayHint);
    Handler.method("textDocument/codeAction", this, &Server::onCodeAction);
    Publish = Handler.outgoingNotification<json::Value>(
        "textDocument/publishDiagnostics");
    RefreshInlayHints = Handler.outgoingRequest<std::nullptr_t, RawParams>(
        "workspace/inlayHint/refresh",
        [](json::Value, llvm::Expected<RawParams> R) {
          if (!R)
            llvm::consumeError(R.takeError());
        });
  }

  void stop() { Docs.stop(); }
  bool shutdownRequested() { return Docs.shutdownRequested(); }

  L::MessageHandler Handler;

private:
  using Reply = L::Callback<json::Value>;

  void onInitialize(const RawParams &P, Reply R) {
    Docs.initialize(P.V.getAsObject());
    json::Object Sync{{"openClose", true},
                      {"change", int(L::TextDocumentSyncKind::Full)},
                      {"save", json::Object{{"includeText", false}}}};
    json::Object Capabilities{
        {"positionEncoding", encodingName(Docs.encoding())},
        {"textDocumentSync", std::move(Sync)},
        {"hoverProvider", true},
        {"inlayHintProvider", true},
        {"codeActionProvider",
         json::Object{{"codeActionKinds",
                       json::Array{"quickfix", "refactor.rewrite"}}}}};
    R(json::Object{{"capabilities", std::move(Capabilities)},
                   {"serverInfo", json::Object{{"name", "cuda-access-lint"},
                                               {"version", CAL_VERSION}}}});
  }
  void onInitialized(const L::NoParams &) {}
  void onShutdown(const L::NoParams &, Reply R) {
    Docs.shutdown();
    R(json::Value(nullptr));
  }
  void onCancel(const RawParams &P) {
    const json::Object *O = P.V.getAsObject();
    if (const json::Value *Id = O ? O->get("id") : nullptr)
      Docs.cancel(*Id);
  }
  void onConfiguration(const RawParams &P) { Docs.configure(P.V); }
  void onOpen(const L::DidOpenTextDocumentParams &P) { Docs.open(P); }
  void onChange(const L::DidChangeTextDocumentParams &P) { Docs.change(P); }
  void onSave(const DidSaveParams &P) { Docs.save(P.Uri); }
  void onClose(const L::DidCloseTextDocumentParams &P) {
    Docs.close(P.textDocument.uri);
  }
  void onHover(const L::TextDocumentPositionParams &P, Reply R) {
    Docs.hover(P, Input.LastId, std::move(R));
  }
  void onInlayHint(const L::InlayHintsParams &P, Reply R) {
    Docs.inlayHints(P, Input.LastId, std::move(R));
  }
  void onCodeAction(const L::CodeActionParams &P, Reply R) {
    Docs.codeActions(P, Input.LastId, std::move(R));
  }
  void refreshInlayHints() {
    int64_t Id = NextRequestId.fetch_add(1) + 1;
    RefreshInlayHints(nullptr,
                      json::Value("cuda-access-lint-" + std::to_string(Id)));
  }

  RequestInput &Input;
  L::OutgoingNotification<json::Value> Publish;
  /// Asks the client to ask for inlay hints again (when it says it can).
  L::OutgoingRequest<std::nullptr_t> RefreshInlayHints;
  std::atomic<int64_t> NextRequestId{0};
  Session Docs; // last: its worker starts with everything above ready
};

} // namespace

int serve(std::FILE *In, llvm::raw_ostream &Out, FrontendOptions Base,
          LintSettings Settings) {
  L::Logger::setLogLevel(L::Logger::Level::Error);
  auto Input = std::make_unique<RequestInput>(In);
  RequestInput &InputRef = *Input;
  L::JSONTransport Transport(std::move(Input), Out);
  Server S(Transport, InputRef, std::move(Base), std::move(Settings));
  llvm::Error E = Transport.run(S.Handler);
  // An error: the client closed the stream without `exit`.
  llvm::consumeError(std::move(E));
  S.stop();
  return S.shutdownRequested() ? 0 : 1;
}

} // namespace cal::lsp

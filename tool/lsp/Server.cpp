//===- Server.cpp ---------------------------------------------------------===//

#include "tool/lsp/Server.h"

#include "tool/lsp/DocumentLint.h"
#include "tool/lsp/LintWorker.h"
#include "tool/lsp/Positions.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>

namespace cal::lsp {

namespace L = llvm::lsp;
namespace json = llvm::json;

namespace {

std::mutex LogMutex;

/// One line on stderr (the editor's log of the server).
void log(const llvm::Twine &Line) {
  std::lock_guard<std::mutex> Lock(LogMutex);
  llvm::errs() << "cuda-access-lint: lsp: " << Line << "\n";
}

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

struct Document {
  L::URIForFile Uri;
  std::string Text;
  int64_t Version = 0;
  /// The last lint kept: of Version, or of an earlier one while the lint of
  /// Version is pending.
  std::shared_ptr<const DocumentLint> Last;
  bool current() const { return Last && Last->Version == Version; }
};

std::optional<std::string> uriOf(const std::string &File) {
  llvm::Expected<L::URIForFile> U = L::URIForFile::fromFile(File);
  if (!U) {
    llvm::consumeError(U.takeError());
    return std::nullopt;
  }
  return U->uri().str();
}

json::Object diagnosticJson(const DiagnosticRecord &D) {
  json::Object O{{"range", toJSON(D.Range)},
                 {"severity", D.Severity},
                 {"source", "cuda-access-lint"},
                 {"message", D.Message}};
  if (!D.Code.empty())
    O["code"] = D.Code;
  if (!D.Related.empty()) {
    json::Array Rel;
    for (const RelatedRecord &R : D.Related)
      if (std::optional<std::string> U = uriOf(R.File))
        Rel.push_back(json::Object{
            {"location", json::Object{{"uri", *U}, {"range", toJSON(R.Range)}}},
            {"message", R.Message}});
    O["relatedInformation"] = std::move(Rel);
  }
  return O;
}

class Server {
public:
  Server(L::JSONTransport &Transport, RequestInput &Input,
         FrontendOptions Base, LintSettings Settings)
      : Handler(Transport), Input(Input), Base(std::move(Base)),
        Settings(std::move(Settings)),
        Worker([this](const DocumentSnapshot &S) { return lint(S); },
               [this](const DocumentSnapshot &S, DocumentLint R) {
                 onLinted(S, std::move(R));
               }) {
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

  /// Ends the worker (the lint running finishes first).
  void stop() { Worker.stop(); }
  bool shutdownRequested() {
    std::lock_guard<std::mutex> Lock(M);
    return ShutdownRequested;
  }

  L::MessageHandler Handler;

private:
  using Reply = L::Callback<json::Value>;
  using Answer = std::function<json::Value(const Document &)>;

  // Lifecycle and settings.
  void onInitialize(const RawParams &P, Reply R);
  void onInitialized(const L::NoParams &) {}
  void onShutdown(const L::NoParams &, Reply R);
  void onCancel(const RawParams &P);
  void onConfiguration(const RawParams &P);
  void applySettings(const json::Object &O);

  // Documents.
  void onOpen(const L::DidOpenTextDocumentParams &P);
  void onChange(const L::DidChangeTextDocumentParams &P);
  void onSave(const DidSaveParams &P);
  void onClose(const L::DidCloseTextDocumentParams &P);

  // Requests on the current text.
  void onHover(const L::TextDocumentPositionParams &P, Reply R);
  void onInlayHint(const L::InlayHintsParams &P, Reply R);
  void onCodeAction(const L::CodeActionParams &P, Reply R);
  json::Value codeActions(const Document &D, const L::CodeActionParams &P);

  /// Replies with \p A of the document once its lint is of its current
  /// version: now when it is, else when that lint is done (or with null
  /// when the document is closed first, or with an error when cancelled).
  void whenCurrent(const L::URIForFile &Uri, Answer A, Reply R);
  /// After shutdown, requests are errors (the protocol's InvalidRequest).
  bool refusedAfterShutdown(Reply &R);

  // The worker's side.
  DocumentLint lint(const DocumentSnapshot &S);
  void onLinted(const DocumentSnapshot &S, DocumentLint R);
  void publish(const Document &D);
  void scheduleLocked(const std::string &File, const Document &D,
                      std::chrono::milliseconds Delay);

  struct Waiter {
    std::string File;
    std::optional<json::Value> Id;
    Answer Compute;
    Reply Send;
  };

  RequestInput &Input;
  std::mutex M; // guards everything below
  FrontendOptions Base;
  LintSettings Settings;
  PositionEncoding Encoding = PositionEncoding::UTF16;
  bool VersionedEdits = false;
  bool InlayHints = false;
  std::chrono::milliseconds Debounce{300};
  bool ShutdownRequested = false;
  std::map<std::string, Document> Docs; // by absolute path
  std::vector<Waiter> Waiters;
  L::OutgoingNotification<json::Value> Publish;
  /// Asks the client to ask for inlay hints again (when it says it can).
  L::OutgoingRequest<std::nullptr_t> RefreshInlayHints;
  bool CanRefreshInlayHints = false;
  int64_t NextRequestId = 0;
  LintWorker Worker; // last: its thread starts with everything above ready
};

void Server::onInitialize(const RawParams &P, Reply R) {
  const json::Object *O = P.V.getAsObject();
  const json::Object *Caps = O ? O->getObject("capabilities") : nullptr;
  const json::Object *General = Caps ? Caps->getObject("general") : nullptr;
  const json::Object *Workspace = Caps ? Caps->getObject("workspace") : nullptr;
  const json::Object *WEdit =
      Workspace ? Workspace->getObject("workspaceEdit") : nullptr;
  {
    std::lock_guard<std::mutex> Lock(M);
    Encoding = negotiateEncoding(General ? General->get("positionEncodings")
                                         : nullptr);
    VersionedEdits = WEdit && WEdit->getBoolean("documentChanges").value_or(false);
    const json::Object *Inlay = Workspace ? Workspace->getObject("inlayHint") : nullptr;
    CanRefreshInlayHints =
        Inlay && Inlay->getBoolean("refreshSupport").value_or(false);
    if (const json::Object *Init = O ? O->getObject("initializationOptions") : nullptr)
      applySettings(*Init);
  }
  json::Object Sync{{"openClose", true},
                    {"change", int(L::TextDocumentSyncKind::Full)},
                    {"save", json::Object{{"includeText", false}}}};
  json::Object Capabilities{
      {"positionEncoding", encodingName(Encoding)},
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

void Server::onShutdown(const L::NoParams &, Reply R) {
  std::vector<Waiter> Unanswered;
  {
    std::lock_guard<std::mutex> Lock(M);
    ShutdownRequested = true;
    Unanswered = std::move(Waiters);
    Waiters.clear();
  }
  Worker.stop();
  for (Waiter &W : Unanswered)
    W.Send(json::Value(nullptr));
  R(json::Value(nullptr));
}

bool Server::refusedAfterShutdown(Reply &R) {
  std::lock_guard<std::mutex> Lock(M);
  if (!ShutdownRequested)
    return false;
  R(llvm::make_error<L::LSPError>("the server is shut down",
                                  L::ErrorCode::InvalidRequest));
  return true;
}

void Server::onCancel(const RawParams &P) {
  const json::Object *O = P.V.getAsObject();
  const json::Value *Id = O ? O->get("id") : nullptr;
  if (!Id)
    return;
  std::optional<Reply> Cancelled;
  {
    std::lock_guard<std::mutex> Lock(M);
    for (auto It = Waiters.begin(); It != Waiters.end(); ++It)
      if (It->Id && *It->Id == *Id) {
        Cancelled = std::move(It->Send);
        Waiters.erase(It);
        break;
      }
  }
  // A request already answered is not cancelled (the protocol allows it).
  if (Cancelled)
    (*Cancelled)(llvm::make_error<L::LSPError>("cancelled",
                                               L::ErrorCode::RequestCancelled));
}

void Server::applySettings(const json::Object &O) {
  // Settings may come nested under the server's name (VS Code sends the
  // section it is asked for, others the whole object).
  for (llvm::StringRef Section : {"cuda-access-lint", "cudaAccessLint"})
    if (const json::Object *Inner = O.getObject(Section))
      return applySettings(*Inner);
  if (std::optional<bool> B = O.getBoolean("inlayHints"))
    InlayHints = *B;
  if (std::optional<int64_t> D = O.getInteger("debounceMs"); D && *D >= 0)
    Debounce = std::chrono::milliseconds(*D);
  if (std::optional<llvm::StringRef> C = O.getString("checks")) {
    std::string Error;
    if (std::optional<RuleSelection> S = RuleSelection::parse(C->str(), Error))
      Settings.Selection = *S;
    else
      log("checks '" + *C + "' ignored: " + Error);
  }
}

void Server::onConfiguration(const RawParams &P) {
  bool Refresh;
  int64_t Id;
  {
    std::lock_guard<std::mutex> Lock(M);
    bool HadHints = InlayHints;
    const json::Object *O = P.V.getAsObject();
    if (const json::Object *S = O ? O->getObject("settings") : nullptr)
      applySettings(*S);
    // Compile commands (and config files) are read again by each lint:
    // lint every open document again.
    for (const auto &[File, D] : Docs)
      scheduleLocked(File, D, Debounce);
    Refresh = CanRefreshInlayHints && HadHints != InlayHints;
    Id = ++NextRequestId;
  }
  if (Refresh)
    RefreshInlayHints(nullptr, json::Value("cuda-access-lint-" + std::to_string(Id)));
}

void Server::scheduleLocked(const std::string &File, const Document &D,
                            std::chrono::milliseconds Delay) {
  Worker.schedule(DocumentSnapshot{File, D.Text, D.Version}, Delay);
}

void Server::onOpen(const L::DidOpenTextDocumentParams &P) {
  std::lock_guard<std::mutex> Lock(M);
  std::string File = P.textDocument.uri.file().str();
  Document &D = Docs[File];
  D.Uri = P.textDocument.uri;
  D.Text = P.textDocument.text;
  D.Version = P.textDocument.version;
  D.Last.reset();
  scheduleLocked(File, D, std::chrono::milliseconds(0));
}

void Server::onChange(const L::DidChangeTextDocumentParams &P) {
  std::lock_guard<std::mutex> Lock(M);
  std::string File = P.textDocument.uri.file().str();
  auto It = Docs.find(File);
  if (It == Docs.end())
    return;
  for (const L::TextDocumentContentChangeEvent &C : P.contentChanges) {
    if (C.range) {
      // Full sync was asked for; a client that sends ranges anyway gets
      // them applied with the negotiated encoding.
      unsigned B = offsetAt(It->second.Text, C.range->start, Encoding);
      unsigned E = offsetAt(It->second.Text, C.range->end, Encoding);
      if (E < B)
        std::swap(B, E);
      It->second.Text.replace(B, E - B, C.text);
    } else {
      It->second.Text = C.text;
    }
  }
  It->second.Version = P.textDocument.version;
  scheduleLocked(File, It->second, Debounce);
}

void Server::onSave(const DidSaveParams &P) {
  // The saved text is the one already linted; other open documents may
  // include the file from disk: lint them again.
  std::lock_guard<std::mutex> Lock(M);
  std::string Saved = P.Uri.file().str();
  for (const auto &[File, D] : Docs)
    if (File != Saved)
      scheduleLocked(File, D, Debounce);
}

void Server::onClose(const L::DidCloseTextDocumentParams &P) {
  std::vector<Reply> Unanswered;
  {
    std::lock_guard<std::mutex> Lock(M);
    std::string File = P.textDocument.uri.file().str();
    Docs.erase(File);
    Worker.cancel(File);
    for (auto It = Waiters.begin(); It != Waiters.end();) {
      if (It->File == File) {
        Unanswered.push_back(std::move(It->Send));
        It = Waiters.erase(It);
      } else {
        ++It;
      }
    }
    Publish(json::Object{{"uri", P.textDocument.uri.uri()},
                         {"diagnostics", json::Array{}}});
  }
  for (Reply &R : Unanswered)
    R(json::Value(nullptr));
}

void Server::whenCurrent(const L::URIForFile &Uri, Answer A, Reply R) {
  std::optional<json::Value> Now;
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Docs.find(Uri.file().str());
    if (It == Docs.end()) {
      Now = json::Value(nullptr);
    } else if (It->second.current()) {
      Now = A(It->second);
    } else {
      Waiters.push_back({Uri.file().str(), Input.LastId, std::move(A),
                         std::move(R)});
      return;
    }
  }
  R(std::move(*Now));
}

void Server::onHover(const L::TextDocumentPositionParams &P, Reply R) {
  if (refusedAfterShutdown(R))
    return;
  L::Position At = P.position;
  whenCurrent(
      P.textDocument.uri,
      [At](const Document &D) -> json::Value {
        const AccessRecord *Best = nullptr;
        for (const AccessRecord &A : D.Last->Accesses)
          if (A.Range.start <= At && At <= A.Range.end &&
              (!Best || Best->Range.contains(A.Range)))
            Best = &A;
        if (!Best)
          return nullptr;
        return json::Object{
            {"contents", json::Object{{"kind", "markdown"}, {"value", Best->Hover}}},
            {"range", toJSON(Best->Range)}};
      },
      std::move(R));
}

void Server::onInlayHint(const L::InlayHintsParams &P, Reply R) {
  if (refusedAfterShutdown(R))
    return;
  bool Enabled;
  {
    std::lock_guard<std::mutex> Lock(M);
    Enabled = InlayHints;
  }
  if (!Enabled)
    return R(json::Value(json::Array{}));
  L::Range In = P.range;
  whenCurrent(
      P.textDocument.uri,
      [In](const Document &D) -> json::Value {
        json::Array Hints;
        for (const AccessRecord &A : D.Last->Accesses)
          if (!A.InlayHint.empty() && In.start <= A.Range.end &&
              A.Range.end <= In.end)
            Hints.push_back(json::Object{{"position", toJSON(A.Range.end)},
                                         {"label", A.InlayHint},
                                         {"paddingLeft", true}});
        return Hints;
      },
      std::move(R));
}

void Server::onCodeAction(const L::CodeActionParams &P, Reply R) {
  if (refusedAfterShutdown(R))
    return;
  whenCurrent(
      P.textDocument.uri,
      [this, P](const Document &D) { return codeActions(D, P); },
      std::move(R));
}

json::Value Server::codeActions(const Document &D,
                                const L::CodeActionParams &P) {
  json::Array Actions;
  auto Wanted = [&](llvm::StringRef Kind) {
    if (P.context.only.empty())
      return true;
    for (const std::string &O : P.context.only)
      if (Kind == O || Kind.starts_with(O + "."))
        return true;
    return false;
  };
  for (const DiagnosticRecord &Diag : D.Last->Diagnostics) {
    // Any line of the diagnostic's (the cursor anywhere on the line).
    if (Diag.Range.end.line < P.range.start.line ||
        P.range.end.line < Diag.Range.start.line)
      continue;
    for (const ActionRecord &A : Diag.Actions) {
      if (!Wanted(A.Kind))
        continue;
      json::Array Edits;
      for (const TextEditRecord &E : A.Edits)
        Edits.push_back(json::Object{{"range", toJSON(E.Range)},
                                     {"newText", E.NewText}});
      // The edit names the version it was computed for: a client that
      // has moved on refuses it rather than apply it to other text.
      json::Object Edit;
      if (VersionedEdits) {
        Edit["documentChanges"] = json::Array{json::Object{
            {"textDocument",
             json::Object{{"uri", D.Uri.uri()}, {"version", D.Version}}},
            {"edits", std::move(Edits)}}};
      } else {
        json::Object Changes;
        Changes[D.Uri.uri()] = std::move(Edits);
        Edit["changes"] = std::move(Changes);
      }
      Actions.push_back(json::Object{
          {"title", A.Title},
          {"kind", A.Kind},
          {"isPreferred", A.Preferred},
          {"diagnostics", json::Array{diagnosticJson(Diag)}},
          {"edit", std::move(Edit)}});
    }
  }
  return Actions;
}

DocumentLint Server::lint(const DocumentSnapshot &S) {
  FrontendOptions B;
  LintSettings LS;
  PositionEncoding E;
  {
    std::lock_guard<std::mutex> Lock(M);
    B = Base;
    LS = Settings;
    E = Encoding;
  }
  log("lint " + S.File + " version " + llvm::Twine(S.Version));
  auto T0 = std::chrono::steady_clock::now();
  DocumentLint R = lintDocument(S, B, LS, E);
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - T0)
                  .count();
  llvm::StringRef Log = llvm::StringRef(R.Log).trim();
  if (!Log.empty())
    log(Log);
  log("linted " + S.File + " version " + llvm::Twine(S.Version) + " in " +
      llvm::Twine(static_cast<int64_t>(Ms)) + " ms: " +
      llvm::Twine(R.Findings) + " findings, " + llvm::Twine(R.CompilerErrors) +
      " compiler errors");
  return R;
}

void Server::publish(const Document &D) {
  json::Array Diags;
  for (const DiagnosticRecord &R : D.Last->Diagnostics)
    Diags.push_back(diagnosticJson(R));
  Publish(json::Object{{"uri", D.Uri.uri()},
                       {"version", D.Version},
                       {"diagnostics", std::move(Diags)}});
}

void Server::onLinted(const DocumentSnapshot &S, DocumentLint R) {
  std::vector<std::pair<Reply, json::Value>> Ready;
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Docs.find(S.File);
    if (It == Docs.end() || It->second.Version != R.Version) {
      log("dropped the lint of " + S.File + " version " +
          llvm::Twine(R.Version) + ": the document changed");
      return;
    }
    Document &D = It->second;
    D.Last = std::make_shared<const DocumentLint>(std::move(R));
    publish(D);
    for (auto W = Waiters.begin(); W != Waiters.end();) {
      if (W->File == S.File) {
        Ready.emplace_back(std::move(W->Send), W->Compute(D));
        W = Waiters.erase(W);
      } else {
        ++W;
      }
    }
  }
  for (auto &[Send, Value] : Ready)
    Send(std::move(Value));
}

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

//===- Session.cpp --------------------------------------------------------===//

#include "tool/lsp/Session.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

namespace cal::lsp {

namespace L = llvm::lsp;
namespace json = llvm::json;

namespace {

std::mutex LogMutex;

std::optional<std::string> uriOf(const std::string &File) {
  llvm::Expected<L::URIForFile> U = L::URIForFile::fromFile(File);
  if (!U) {
    llvm::consumeError(U.takeError());
    return std::nullopt;
  }
  return U->uri().str();
}

} // namespace

void log(const llvm::Twine &Line) {
  std::lock_guard<std::mutex> Lock(LogMutex);
  llvm::errs() << "cuda-access-lint: lsp: " << Line << "\n";
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

Session::Session(FrontendOptions Base, LintSettings Settings, Hooks H)
    : H(std::move(H)), Base(std::move(Base)), Settings(std::move(Settings)),
      Worker([this](const DocumentSnapshot &S) { return lint(S); },
             [this](const DocumentSnapshot &S, DocumentLint R) {
               onLinted(S, std::move(R));
             }) {}

Session::~Session() { Worker.stop(); }

void Session::stop() { Worker.stop(); }

void Session::initialize(const json::Object *O) {
  const json::Object *Caps = O ? O->getObject("capabilities") : nullptr;
  const json::Object *General = Caps ? Caps->getObject("general") : nullptr;
  const json::Object *Workspace = Caps ? Caps->getObject("workspace") : nullptr;
  const json::Object *WEdit =
      Workspace ? Workspace->getObject("workspaceEdit") : nullptr;
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

PositionEncoding Session::encoding() {
  std::lock_guard<std::mutex> Lock(M);
  return Encoding;
}

void Session::setEncoding(PositionEncoding E) {
  std::lock_guard<std::mutex> Lock(M);
  Encoding = E;
}

void Session::shutdown() {
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
}

bool Session::shutdownRequested() {
  std::lock_guard<std::mutex> Lock(M);
  return ShutdownRequested;
}

bool Session::refusedAfterShutdown(Reply &R) {
  std::lock_guard<std::mutex> Lock(M);
  if (!ShutdownRequested)
    return false;
  R(llvm::make_error<L::LSPError>("the server is shut down",
                                  L::ErrorCode::InvalidRequest));
  return true;
}

void Session::cancel(const json::Value &Id) {
  std::optional<Reply> Cancelled;
  {
    std::lock_guard<std::mutex> Lock(M);
    for (auto It = Waiters.begin(); It != Waiters.end(); ++It)
      if (It->Id && *It->Id == Id) {
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

void Session::applySettings(const json::Object &O) {
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

void Session::configure(const json::Value &Params) {
  bool Refresh;
  {
    std::lock_guard<std::mutex> Lock(M);
    bool HadHints = InlayHints;
    const json::Object *O = Params.getAsObject();
    if (const json::Object *S = O ? O->getObject("settings") : nullptr)
      applySettings(*S);
    // Compile commands (and config files) are read again by each lint:
    // lint every open document again.
    for (const auto &[File, D] : Docs)
      scheduleLocked(File, D, Debounce);
    Refresh = CanRefreshInlayHints && HadHints != InlayHints;
  }
  if (Refresh && H.RefreshInlayHints)
    H.RefreshInlayHints();
}

void Session::scheduleLocked(const std::string &File, const Document &D,
                             std::chrono::milliseconds Delay) {
  Worker.schedule(DocumentSnapshot{File, D.Text, D.Version, D.Preamble}, Delay);
}

void Session::open(const L::DidOpenTextDocumentParams &P) {
  std::lock_guard<std::mutex> Lock(M);
  std::string File = P.textDocument.uri.file().str();
  Document &D = Docs[File];
  D.Uri = P.textDocument.uri;
  D.Text = P.textDocument.text;
  D.Version = P.textDocument.version;
  D.Last.reset();
  scheduleLocked(File, D, std::chrono::milliseconds(0));
}

void Session::change(const L::DidChangeTextDocumentParams &P) {
  std::lock_guard<std::mutex> Lock(M);
  std::string File = P.textDocument.uri.file().str();
  auto It = Docs.find(File);
  if (It == Docs.end())
    return;
  for (const L::TextDocumentContentChangeEvent &C : P.contentChanges) {
    if (C.range) {
      // Ranges (which the server's full sync did not ask for, and clangd's
      // incremental sync does) are applied in the negotiated encoding.
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

void Session::save(const L::URIForFile &Uri) {
  // The saved text is the one already linted; other open documents may
  // include the file from disk: lint them again.
  std::lock_guard<std::mutex> Lock(M);
  std::string Saved = Uri.file().str();
  for (const auto &[File, D] : Docs)
    if (File != Saved)
      scheduleLocked(File, D, Debounce);
}

void Session::close(const L::URIForFile &Uri) {
  std::vector<Reply> Unanswered;
  {
    std::lock_guard<std::mutex> Lock(M);
    std::string File = Uri.file().str();
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
    if (H.Publish)
      H.Publish(json::Object{{"uri", Uri.uri()}, {"diagnostics", json::Array{}}});
  }
  for (Reply &R : Unanswered)
    R(json::Value(nullptr));
}

void Session::whenCurrent(const L::URIForFile &Uri,
                          std::optional<json::Value> Id, Answer A, Reply R,
                          Wait W) {
  std::optional<json::Value> Now;
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Docs.find(Uri.file().str());
    if (It == Docs.end()) {
      Now = json::Value(nullptr);
    } else if (It->second.current()) {
      Now = A(It->second);
    } else if (W == Wait::No) {
      Now = json::Value(nullptr);
    } else {
      Waiters.push_back({Uri.file().str(), std::move(Id), std::move(A),
                         std::move(R)});
      return;
    }
  }
  R(std::move(*Now));
}

void Session::hover(const L::TextDocumentPositionParams &P,
                    std::optional<json::Value> Id, Reply R, Wait W) {
  if (refusedAfterShutdown(R))
    return;
  L::Position At = P.position;
  whenCurrent(
      P.textDocument.uri, std::move(Id),
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
      std::move(R), W);
}

void Session::inlayHints(const L::InlayHintsParams &P,
                         std::optional<json::Value> Id, Reply R, Wait W) {
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
      P.textDocument.uri, std::move(Id),
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
      std::move(R), W);
}

void Session::codeActions(const L::CodeActionParams &P,
                          std::optional<json::Value> Id, Reply R, Wait W) {
  if (refusedAfterShutdown(R))
    return;
  whenCurrent(
      P.textDocument.uri, std::move(Id),
      [this, P](const Document &D) { return codeActionsOf(D, P); },
      std::move(R), W);
}

json::Value Session::codeActionsOf(const Document &D,
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

DocumentLint Session::lint(const DocumentSnapshot &S) {
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
  static std::once_flag CrashRecovery;
  std::call_once(CrashRecovery, [] { llvm::CrashRecoveryContext::Enable(); });
  DocumentLint R;
  llvm::CrashRecoveryContext Guard;
  if (!Guard.RunSafely([&] { R = lintDocument(S, B, LS, E); })) {
    std::string Why = "cuda-access-lint: the analysis of this file crashed "
                      "(version " + std::to_string(S.Version) +
                      "); it is tried again when the file changes";
    log("the lint of " + S.File + " version " + llvm::Twine(S.Version) +
        " crashed (recovered)");
    R = DocumentLint();
    R.Version = S.Version;
    DiagnosticRecord D;
    D.Severity = 1;
    D.Message = Why;
    R.Diagnostics.push_back(std::move(D));
    R.CompilerErrors = 1;
    if (H.LintCrashed)
      H.LintCrashed(S.File, Why);
    return R;
  }
  double Ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - T0)
                  .count();
  llvm::StringRef Log = llvm::StringRef(R.Log).trim();
  if (!Log.empty())
    log(Log);
  log("linted " + S.File + " version " + llvm::Twine(S.Version) + " in " +
      llvm::Twine(static_cast<int64_t>(Ms)) +
      " ms: " + llvm::Twine(R.Findings) + " findings, " +
      llvm::Twine(R.CompilerErrors) + " compiler errors" +
      (R.Preamble.empty() ? "" : "; preamble " + R.Preamble));
  return R;
}

void Session::publish(const Document &D) {
  if (!H.Publish)
    return;
  json::Array Diags;
  for (const DiagnosticRecord &R : D.Last->Diagnostics)
    Diags.push_back(diagnosticJson(R));
  H.Publish(json::Object{{"uri", D.Uri.uri()},
                         {"version", D.Version},
                         {"diagnostics", std::move(Diags)}});
}

void Session::onLinted(const DocumentSnapshot &S, DocumentLint R) {
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

} // namespace cal::lsp

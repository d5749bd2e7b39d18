//===- ClangdProxy.cpp ----------------------------------------------------===//

#include "tool/lsp/ClangdProxy.h"
#include "tool/lsp/ClangdProxyImpl.h"

namespace cal::lsp {
namespace proxy {

// --- The client's side -------------------------------------------------===//

int Proxy::run() {
  L::JSONTransportInputOverFile Input(ClientIn);
  std::thread Supervisor([this] { supervise(); });
  std::string Raw;
  bool ExitSeen = false;
  while (!ExitSeen && llvm::succeeded(Input.readMessage(Raw))) {
    llvm::Expected<json::Value> V = json::parse(Raw);
    if (!V) {
      proxyLog("ignoring a message that is not JSON: " +
               llvm::toString(V.takeError()));
      continue;
    }
    json::Object *O = V->getAsObject();
    if (!O)
      continue;
    ExitSeen = O->getString("method") == std::optional<llvm::StringRef>("exit");
    fromClient(std::move(*O));
  }
  std::shared_ptr<ClangdProcess> Last;
  bool Shutdown;
  {
    std::lock_guard<std::mutex> Lock(M);
    Exiting = true;
    Last = Clangd;
    Shutdown = ShutdownRequested;
  }
  Wake.notify_all();
  // clangd ends at exit, or at the end of its input: a little while, then
  // it is terminated.
  if (Last) {
    Last->closeInput();
    Last->finish(std::chrono::seconds(3));
  }
  Supervisor.join();
  for (std::thread &T : Readers)
    T.join();
  if (Ours)
    Ours->stop();
  return ExitSeen && Shutdown ? 0 : 1;
}

void Proxy::fromClient(json::Object Msg) {
  std::optional<llvm::StringRef> Method = Msg.getString("method");
  if (!Method) {
    // The client's answer to a request of clangd's.
    std::lock_guard<std::mutex> Lock(M);
    toClangdLocked(std::move(Msg));
    return;
  }
  std::string Name = Method->str();
  if (Msg.get("id"))
    clientRequest(Name, std::move(Msg));
  else
    clientNotification(Name, std::move(Msg));
}

std::vector<std::string> Proxy::clangdArgv(llvm::StringRef BuildDir) {
  std::vector<std::string> A = {ClangdPath};
  bool HasDir = llvm::any_of(Opts.ClangdArgs, [](const std::string &S) {
    return llvm::StringRef(S).starts_with("--compile-commands-dir") ||
           llvm::StringRef(S).starts_with("-compile-commands-dir");
  });
  Translated = HasDir; // the user's choice stands
  if (!HasDir && !BuildDir.empty())
    if (std::optional<std::string> Dir = translateDatabase(Base, BuildDir)) {
      A.push_back("--compile-commands-dir=" + *Dir);
      Translated = true;
    }
  A.insert(A.end(), Opts.ClangdArgs.begin(), Opts.ClangdArgs.end());
  return A;
}

bool Proxy::translateForLocked(llvm::StringRef Uri) {
  std::optional<L::URIForFile> F = parseAs<L::URIForFile>(json::Value(Uri));
  if (!F)
    return false;
  // As clangd looks: each directory above the file, and its build/.
  llvm::SmallString<256> Dir(F->file());
  llvm::sys::path::remove_filename(Dir);
  while (!Dir.empty()) {
    for (const std::string &Build : databaseDirsAt(Dir)) {
      std::vector<std::string> A = clangdArgv(Build);
      if (Translated) {
        Argv = std::move(A);
        return true;
      }
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return false;
}

void Proxy::clientRequest(llvm::StringRef Method, json::Object Msg) {
  json::Value Id = *Msg.get("id");
  json::Value Params =
      Msg.get("params") ? *Msg.get("params") : json::Value(nullptr);
  Pending P;
  P.Id = Id;
  std::string Uri;
  if (const json::Object *O = Params.getAsObject())
    if (const json::Object *TD = O->getObject("textDocument"))
      Uri = TD->getString("uri").value_or("").str();

  if (Method == "initialize") {
    std::string Build = rootDatabase(Base, Params.getAsObject());
    {
      std::lock_guard<std::mutex> Lock(M);
      InitializeParams = Params;
      Argv = clangdArgv(Build);
    }
    // Our lints read the database clangd reads (translated for it).
    FrontendOptions B = Base;
    if (Translated)
      B.BuildPath = Build;
    Ours = std::make_unique<Session>(
        B, Settings,
        Session::Hooks{
            [this](json::Value P) { onOurDiagnostics(std::move(P)); }, nullptr,
            [this](const std::string &File, const std::string &Why) {
              // clangd goes on; the user hears why our findings are missing.
              showMessage(2, Why + ": " + File);
            }});
    Ours->initialize(Params.getAsObject());
    std::lock_guard<std::mutex> Lock(M);
    std::string Error;
    if (!spawnLocked(Error)) {
      St = State::GaveUp;
      toClient(json::Object{
          {"jsonrpc", "2.0"},
          {"id", Id},
          {"error", json::Object{{"code", int64_t(L::ErrorCode::InternalError)},
                                 {"message", "cannot start " + ClangdPath +
                                                 ": " + Error}}}});
      return;
    }
    St = State::Ready;
    P.Kind = Merge::Initialize;
    Requests[idKey(Id)] = std::move(P);
    toClangdLocked(std::move(Msg));
    return;
  }
  if (Method == "shutdown") {
    if (Ours)
      Ours->shutdown();
    std::lock_guard<std::mutex> Lock(M);
    ShutdownRequested = true;
    P.Kind = Merge::Shutdown;
    Requests[idKey(Id)] = std::move(P);
    toClangdLocked(std::move(Msg));
    return;
  }

  bool Cuda;
  {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Docs.find(Uri);
    Cuda = Ours && It != Docs.end() && It->second.Cuda;
  }
  if (Cuda && Method == "textDocument/hover")
    P.Kind = Merge::Hover;
  else if (Cuda && Method == "textDocument/codeAction")
    P.Kind = Merge::CodeAction;
  else if (Cuda && Method == "textDocument/inlayHint")
    P.Kind = Merge::InlayHint;
  std::string Key = idKey(Id);
  Merge Kind = P.Kind;
  {
    std::lock_guard<std::mutex> Lock(M);
    Requests[Key] = std::move(P);
    toClangdLocked(std::move(Msg));
  }
  if (Kind == Merge::None)
    return;
  // Our part, from the lint of the current text (never waiting for one).
  auto Keep = [this, Key](llvm::Expected<json::Value> V) {
    json::Value Value = nullptr;
    if (V)
      Value = std::move(*V);
    else
      llvm::consumeError(V.takeError());
    std::lock_guard<std::mutex> Lock(M);
    auto It = Requests.find(Key);
    if (It == Requests.end())
      return;
    It->second.Ours = std::move(Value);
    replyLocked(It->second);
  };
  if (Kind == Merge::Hover) {
    if (auto TP = parseAs<L::TextDocumentPositionParams>(Params))
      return Ours->hover(*TP, Id, Keep, Session::Wait::No);
  } else if (Kind == Merge::CodeAction) {
    if (auto CP = parseAs<L::CodeActionParams>(Params))
      return Ours->codeActions(*CP, Id, Keep, Session::Wait::No);
  } else if (Kind == Merge::InlayHint) {
    if (auto IP = parseAs<L::InlayHintsParams>(Params))
      return Ours->inlayHints(*IP, Id, Keep, Session::Wait::No);
  }
  Keep(json::Value(nullptr));
}

void Proxy::trackLocked(llvm::StringRef Method, const json::Value &Params) {
  const json::Object *O = Params.getAsObject();
  const json::Object *TD = O ? O->getObject("textDocument") : nullptr;
  if (!TD)
    return;
  std::string Uri = TD->getString("uri").value_or("").str();
  if (Method == "textDocument/didOpen") {
    TrackedDocument &D = Docs[Uri];
    D.LanguageId = TD->getString("languageId").value_or("").str();
    D.Version = TD->getInteger("version").value_or(0);
    D.Text = TD->getString("text").value_or("").str();
    D.Cuda = isCudaDocument(D.LanguageId, Uri);
  } else if (Method == "textDocument/didChange") {
    auto It = Docs.find(Uri);
    if (It == Docs.end())
      return;
    It->second.Version = TD->getInteger("version").value_or(It->second.Version);
    if (const json::Array *Changes = O->getArray("contentChanges"))
      for (const json::Value &C : *Changes)
        if (auto E = parseAs<L::TextDocumentContentChangeEvent>(C)) {
          std::string &T = It->second.Text;
          if (!E->range) {
            T = E->text;
            continue;
          }
          unsigned B = offsetAt(T, E->range->start, Encoding);
          unsigned End = offsetAt(T, E->range->end, Encoding);
          if (End < B)
            std::swap(B, End);
          T.replace(B, End - B, E->text);
        }
  } else if (Method == "textDocument/didClose") {
    Docs.erase(Uri);
  }
}

void Proxy::clientNotification(llvm::StringRef Method, json::Object Msg) {
  json::Value Params =
      Msg.get("params") ? *Msg.get("params") : json::Value(nullptr);
  bool Cuda = false;
  {
    std::lock_guard<std::mutex> Lock(M);
    const json::Object *O = Params.getAsObject();
    const json::Object *TD = O ? O->getObject("textDocument") : nullptr;
    std::string Uri = TD ? TD->getString("uri").value_or("").str() : "";
    if (Method == "textDocument/didOpen")
      Cuda = isCudaDocument(TD ? TD->getString("languageId").value_or("") : "",
                            Uri);
    else if (auto It = Docs.find(Uri); It != Docs.end())
      Cuda = It->second.Cuda;
    trackLocked(Method, Params);
    if (Method == "workspace/didChangeConfiguration")
      LastConfiguration = Params;
    if (Method == "textDocument/didClose")
      Diags.erase(Uri);
    if (Method == "textDocument/didOpen" && Cuda && !Translated &&
        St == State::Ready && Clangd && translateForLocked(Uri)) {
      // The root had no database of CUDA files; this file's has: clangd
      // starts again on it (the open documents are sent again).
      proxyLog("restarting clangd on the database of " + Uri);
      Planned = true;
      St = State::Starting;
      Clangd->closeInput();
    }
    toClangdLocked(std::move(Msg));
  }
  // Our side after clangd's (never while holding M: the session's hooks
  // take it).
  if (!Ours)
    return;
  if (Method == "$/cancelRequest") {
    if (const json::Object *O = Params.getAsObject())
      if (const json::Value *Id = O->get("id"))
        Ours->cancel(*Id);
  } else if (Method == "workspace/didChangeConfiguration") {
    Ours->configure(Params);
  } else if (!Cuda) {
    return;
  } else if (Method == "textDocument/didOpen") {
    if (auto P = parseAs<L::DidOpenTextDocumentParams>(Params))
      Ours->open(*P);
  } else if (Method == "textDocument/didChange") {
    if (auto P = parseAs<L::DidChangeTextDocumentParams>(Params))
      Ours->change(*P);
  } else if (Method == "textDocument/didSave") {
    if (auto P = parseAs<L::DidCloseTextDocumentParams>(Params))
      Ours->save(P->textDocument.uri);
  } else if (Method == "textDocument/didClose") {
    if (auto P = parseAs<L::DidCloseTextDocumentParams>(Params))
      Ours->close(P->textDocument.uri);
  }
}

// --- Both sides --------------------------------------------------------===//

void Proxy::toClangdLocked(json::Object Msg) {
  if (St == State::Starting || St == State::NotStarted) {
    // The documents' notifications are not kept: the restarted clangd gets
    // each open document's text as it is then.
    std::optional<llvm::StringRef> Method = Msg.getString("method");
    if (St == State::Starting && Method &&
        Method->starts_with("textDocument/did"))
      return;
    Queue.push_back(std::move(Msg));
    return;
  }
  const json::Value *Id = Msg.get("id");
  bool IsRequest = Id && Msg.get("method");
  if (St == State::GaveUp || !Clangd) {
    // No clangd: requests get our part, or an error.
    if (IsRequest) {
      auto It = Requests.find(idKey(*Id));
      if (It != Requests.end()) {
        It->second.Sent = true;
        It->second.FromClangd = json::Object{
            {"id", *Id},
            {"error", json::Object{{"code", -32803},
                                   {"message", "clangd is not running"}}}};
        replyLocked(It->second);
      }
    }
    return;
  }
  if (IsRequest)
    if (auto It = Requests.find(idKey(*Id)); It != Requests.end())
      It->second.Sent = true;
  Clangd->send(Msg);
}

void Proxy::replyLocked(Pending &P) {
  if (!P.FromClangd)
    return;
  bool NeedsOurs = P.Kind == Merge::Hover || P.Kind == Merge::CodeAction ||
                   P.Kind == Merge::InlayHint;
  if (NeedsOurs && !P.Ours)
    return; // ours comes right after (it never waits for a lint)
  json::Object &R = *P.FromClangd;
  json::Value *Result = R.get("result");
  const json::Object *Error = R.getObject("error");
  bool Cancelled = Error && Error->getInteger("code") ==
                                std::optional<int64_t>(
                                    int64_t(L::ErrorCode::RequestCancelled));
  json::Value OurPart = P.Ours ? *P.Ours : json::Value(nullptr);
  if (P.Kind == Merge::Initialize && Result) {
    if (json::Object *Init = Result->getAsObject())
      addOurCapabilities(*Init);
  } else if (NeedsOurs && !Cancelled && OurPart.kind() != json::Value::Null) {
    json::Value Theirs = Result ? *Result : json::Value(nullptr);
    json::Value Merged = P.Kind == Merge::Hover ? mergedHover(Theirs, OurPart)
                                                : mergedArrays(Theirs, OurPart);
    R.erase("error");
    R["result"] = std::move(Merged);
  }
  R["jsonrpc"] = "2.0";
  R["id"] = P.Id;
  json::Object Out = std::move(R);
  Requests.erase(idKey(P.Id)); // P is gone from here on
  toClient(Out);
}

void Proxy::onOurDiagnostics(json::Value Params) {
  const json::Object *O = Params.getAsObject();
  if (!O)
    return;
  std::string Uri = O->getString("uri").value_or("").str();
  json::Array Kept;
  if (const json::Array *A = O->getArray("diagnostics"))
    for (const json::Value &D : *A)
      // clang's errors are clangd's to report (once); ours are the findings.
      if (const json::Object *DO = D.getAsObject(); DO && DO->get("code"))
        Kept.push_back(D);
  std::lock_guard<std::mutex> Lock(M);
  if (!Docs.count(Uri))
    return;
  Diagnostics &D = Diags[Uri];
  D.Ours = std::move(Kept);
  D.OursVersion = O->getInteger("version");
  publishMergedLocked(Uri, D.OursVersion);
}

void Proxy::publishMergedLocked(const std::string &Uri,
                                std::optional<int64_t> Version) {
  Diagnostics &D = Diags[Uri];
  json::Object P = D.Clangd;
  P["uri"] = Uri;
  json::Array All;
  if (const json::Array *A = D.Clangd.getArray("diagnostics"))
    All = *A;
  auto Doc = Docs.find(Uri);
  // Ours only of the current text (they are replaced with each version).
  if (Doc != Docs.end() && D.OursVersion == Doc->second.Version)
    for (const json::Value &V : D.Ours)
      All.push_back(V);
  P["diagnostics"] = std::move(All);
  if (Version)
    P["version"] = *Version;
  toClient(json::Object{{"jsonrpc", "2.0"},
                        {"method", "textDocument/publishDiagnostics"},
                        {"params", std::move(P)}});
}

} // namespace proxy

using proxy::Proxy;
namespace L = llvm::lsp;

std::string findClangd(const ClangdProxyOptions &O) {
  if (!O.ClangdPath.empty()) {
    if (llvm::StringRef(O.ClangdPath).contains('/'))
      return llvm::sys::fs::can_execute(O.ClangdPath) ? O.ClangdPath : "";
    llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(O.ClangdPath);
    return P ? *P : "";
  }
  for (const char *Name : {"clangd-22", "clangd"})
    if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Name))
      return *P;
  return "";
}

int serveClangdProxy(std::FILE *In, llvm::raw_ostream &Out,
                     FrontendOptions Base, LintSettings Settings,
                     ClangdProxyOptions O) {
  std::string Clangd = findClangd(O);
  if (Clangd.empty()) {
    llvm::errs() << "cuda-access-lint: error: --clangd: "
                 << (O.ClangdPath.empty()
                         ? std::string("no clangd-22 or clangd on PATH")
                         : "'" + O.ClangdPath + "' cannot be run")
                 << " (--clangd-path=PATH names one)\n";
    return 3;
  }
  // Editors ask their clangd for its version (`clangd --version`): clangd's
  // answer, after ours.
  if (O.ClangdArgs.size() == 1 && O.ClangdArgs[0] == "--version") {
    Out << "cuda-access-lint version " << CAL_VERSION << " (--clangd), with:\n";
    Out.flush();
    std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt,
                                                  std::nullopt};
    return llvm::sys::ExecuteAndWait(Clangd, {Clangd, "--version"},
                                     std::nullopt, Redirects);
  }
  // A clangd that is gone makes writes to it fail, not end the proxy.
  signal(SIGPIPE, SIG_IGN);
  L::Logger::setLogLevel(L::Logger::Level::Error);
  Proxy P(In, Out, std::move(Base), std::move(Settings), std::move(O), Clangd);
  return P.run();
}

} // namespace cal::lsp

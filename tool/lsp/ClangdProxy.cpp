//===- ClangdProxy.cpp ----------------------------------------------------===//

#include "tool/lsp/ClangdProxy.h"
#include "tool/lsp/ClangdDatabase.h"
#include "tool/lsp/ClangdProcess.h"
#include "tool/lsp/ReplyMerge.h"

#include "tool/lsp/Session.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cal::lsp {

namespace L = llvm::lsp;
namespace json = llvm::json;

namespace {

void proxyLog(const llvm::Twine &Line) { log("clangd proxy: " + Line); }

/// A request's id as a map key (ids are numbers or strings).
std::string idKey(const json::Value &Id) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << Id;
  return S;
}

bool isCudaDocument(llvm::StringRef LanguageId, llvm::StringRef Uri) {
  if (LanguageId == "cuda" || LanguageId == "cuda-cpp")
    return true;
  llvm::StringRef Ext = llvm::sys::path::extension(Uri.split('?').first);
  return Ext == ".cu" || Ext == ".cuh";
}

/// Parses \p V as LLVM's protocol type \p T.
template <typename T> std::optional<T> parseAs(const json::Value &V) {
  T Result;
  json::Path::Root Root;
  if (fromJSON(V, Result, Root))
    return Result;
  llvm::consumeError(Root.getError());
  return std::nullopt;
}

class Proxy {
public:
  Proxy(std::FILE *In, llvm::raw_ostream &Out, FrontendOptions Base,
        LintSettings Settings, ClangdProxyOptions O, std::string ClangdPath)
      : ClientIn(In), ClientOut(In, Out), Base(std::move(Base)),
        Settings(std::move(Settings)), Opts(std::move(O)),
        ClangdPath(std::move(ClangdPath)) {}

  int run();

private:
  enum class Merge { None, Initialize, Shutdown, Hover, CodeAction, InlayHint };
  struct Pending {
    json::Value Id = nullptr;
    Merge Kind = Merge::None;
    bool Sent = false; ///< to the clangd now running
    std::optional<json::Value> Ours;
    std::optional<json::Object> FromClangd; ///< clangd's response
  };
  struct TrackedDocument {
    std::string LanguageId;
    int64_t Version = 0;
    std::string Text;
    bool Cuda = false;
  };
  struct Diagnostics {
    json::Object Clangd; ///< clangd's last params for the document
    json::Array Ours;
    std::optional<int64_t> OursVersion;
  };
  enum class State { NotStarted, Starting, Ready, GaveUp };

  // The client's side (the main thread).
  void fromClient(json::Object Msg);
  void clientRequest(llvm::StringRef Method, json::Object Msg);
  void clientNotification(llvm::StringRef Method, json::Object Msg);
  void trackLocked(llvm::StringRef Method, const json::Value &Params);
  /// clangd's command line, on the translated database of \p BuildDir
  /// (sets Translated; ClangdDatabase.h).
  std::vector<std::string> clangdArgv(llvm::StringRef BuildDir);
  /// When clangd runs on no translated database: the one the CUDA file
  /// \p Uri belongs to (as clangd finds databases), in Argv; false: none.
  bool translateForLocked(llvm::StringRef Uri);

  // clangd's side (a reader thread per clangd, the supervisor).
  void readClangd(std::shared_ptr<ClangdProcess> C, unsigned Generation);
  void fromClangd(json::Object Msg, unsigned Generation);
  void clangdExited(unsigned Generation, int Status);
  void supervise();
  void restartLocked();
  void reinitialized(unsigned Generation);
  bool spawnLocked(std::string &Error);

  // Both.
  void toClangdLocked(json::Object Msg);
  void toClient(const json::Object &Msg) {
    std::lock_guard<std::mutex> Lock(ClientM);
    sendRaw(ClientOut, Msg);
  }
  void showMessage(int Type, const std::string &Text) {
    toClient(json::Object{
        {"jsonrpc", "2.0"},
        {"method", "window/showMessage"},
        {"params", json::Object{{"type", Type}, {"message", Text}}}});
  }
  void replyLocked(Pending &P);
  void onOurDiagnostics(json::Value Params);
  void publishMergedLocked(const std::string &Uri, std::optional<int64_t> Version);

  std::FILE *ClientIn;
  L::JSONTransport ClientOut; ///< writes only
  std::mutex ClientM;         ///< the client's transport's writes
  FrontendOptions Base;
  LintSettings Settings;
  ClangdProxyOptions Opts;
  std::string ClangdPath;
  std::unique_ptr<Session> Ours; ///< made at initialize (the root is known)

  std::mutex M; // guards everything below; taken before ClientM
  std::condition_variable Wake;
  std::shared_ptr<ClangdProcess> Clangd;
  std::vector<std::string> Argv;
  unsigned Generation = 0, Restarts = 0;
  State St = State::NotStarted;
  bool RestartWanted = false, Exiting = false, ShutdownRequested = false;
  /// clangd reads a translated database (or the user's choice of one).
  bool Translated = false;
  /// clangd was asked to end to start again on a translated database.
  bool Planned = false;
  std::vector<json::Object> Queue; ///< for clangd, while it restarts
  std::optional<json::Value> InitializeParams, LastConfiguration;
  std::map<std::string, Pending> Requests; ///< the client's, by id
  std::map<std::string, TrackedDocument> Docs;  ///< by URI
  std::map<std::string, Diagnostics> Diags;     ///< by URI
  PositionEncoding Encoding = PositionEncoding::UTF16;
  std::vector<std::thread> Readers;
};

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
  json::Value Params = Msg.get("params") ? *Msg.get("params") : json::Value(nullptr);
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
  json::Value Params = Msg.get("params") ? *Msg.get("params") : json::Value(nullptr);
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
    if (St == State::Starting && Method && Method->starts_with("textDocument/did"))
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
  bool Cancelled = Error && Error->getInteger("code") == std::optional<int64_t>(
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

// --- clangd's side -----------------------------------------------------===//

bool Proxy::spawnLocked(std::string &Error) {
  std::shared_ptr<ClangdProcess> C = ClangdProcess::start(Argv, Error);
  if (!C)
    return false;
  Clangd = C;
  unsigned G = ++Generation;
  proxyLog("started clangd (pid " + llvm::Twine(C->pid()) + "): " +
           llvm::join(Argv, " "));
  Readers.emplace_back([this, C, G] { readClangd(C, G); });
  return true;
}

void Proxy::readClangd(std::shared_ptr<ClangdProcess> C, unsigned G) {
  // clangd's output is read as it comes, whatever the proxy is doing, and
  // handled in order on a thread of its own: clangd never waits to write,
  // so it always reads what the proxy writes to it (which the proxy does
  // holding its lock).
  std::mutex QM;
  std::condition_variable QC;
  std::deque<json::Object> Q;
  bool Done = false;
  std::thread Dispatch([&] {
    std::unique_lock<std::mutex> Lock(QM);
    while (true) {
      QC.wait(Lock, [&] { return Done || !Q.empty(); });
      if (Q.empty())
        return;
      json::Object O = std::move(Q.front());
      Q.pop_front();
      Lock.unlock();
      fromClangd(std::move(O), G);
      Lock.lock();
    }
  });
  std::string Raw;
  while (C->read(Raw)) {
    llvm::Expected<json::Value> V = json::parse(Raw);
    if (!V) {
      llvm::consumeError(V.takeError());
      continue;
    }
    if (json::Object *O = V->getAsObject()) {
      std::lock_guard<std::mutex> Lock(QM);
      Q.push_back(std::move(*O));
    }
    QC.notify_one();
  }
  {
    std::lock_guard<std::mutex> Lock(QM);
    Done = true;
  }
  QC.notify_one();
  Dispatch.join();
  int Status = C->finish(std::chrono::seconds(2));
  clangdExited(G, Status);
}

/// The position encoding clangd chose in its initialize result (the
/// protocol's positionEncoding, or clangd's older offsetEncoding).
PositionEncoding clangdEncoding(const json::Object &Response) {
  const json::Object *Init = Response.getObject("result");
  const json::Object *Caps = Init ? Init->getObject("capabilities") : nullptr;
  std::optional<llvm::StringRef> Name =
      Caps ? Caps->getString("positionEncoding") : std::nullopt;
  if (!Name && Init)
    Name = Init->getString("offsetEncoding");
  if (Name == std::optional<llvm::StringRef>("utf-8"))
    return PositionEncoding::UTF8;
  if (Name == std::optional<llvm::StringRef>("utf-32"))
    return PositionEncoding::UTF32;
  return PositionEncoding::UTF16;
}

void Proxy::fromClangd(json::Object Msg, unsigned G) {
  std::optional<llvm::StringRef> Method = Msg.getString("method");
  std::unique_lock<std::mutex> Lock(M);
  if (G != Generation)
    return;
  if (!Method) {
    const json::Value *Id = Msg.get("id");
    if (!Id)
      return;
    if (std::optional<llvm::StringRef> S = Id->getAsString();
        S && S->starts_with("cuda-access-lint-proxy-initialize-")) {
      reinitialized(G);
      return;
    }
    std::string Key = idKey(*Id);
    auto It = Requests.find(Key);
    if (It == Requests.end())
      return; // answered already (clangd's previous life)
    if (It->second.Kind == Merge::Initialize) {
      // clangd's encoding is the session's: set before the client hears of
      // it (and without M: the session's hooks take M).
      Encoding = clangdEncoding(Msg);
      PositionEncoding E = Encoding;
      Lock.unlock();
      if (Ours)
        Ours->setEncoding(E);
      Lock.lock();
      It = Requests.find(Key);
      if (It == Requests.end())
        return;
    }
    It->second.FromClangd = std::move(Msg);
    replyLocked(It->second);
    return;
  }
  if (*Method == "textDocument/publishDiagnostics") {
    const json::Object *P = Msg.getObject("params");
    std::string Uri = P ? P->getString("uri").value_or("").str() : "";
    auto Doc = Docs.find(Uri);
    if (P && Doc != Docs.end() && Doc->second.Cuda) {
      Diags[Uri].Clangd = *P;
      publishMergedLocked(Uri, P->getInteger("version"));
      return;
    }
  }
  // clangd's notifications and requests reach the client as they are.
  toClient(Msg);
}

void Proxy::clangdExited(unsigned G, int Status) {
  std::lock_guard<std::mutex> Lock(M);
  if (G != Generation || Exiting)
    return;
  // What clangd had not answered: our part, or an error.
  std::vector<std::string> Keys;
  for (auto &[Key, P] : Requests)
    if (P.Sent)
      Keys.push_back(Key);
  for (const std::string &Key : Keys) {
    auto It = Requests.find(Key);
    Pending &P = It->second;
    if (P.Kind == Merge::Shutdown) {
      P.FromClangd = json::Object{{"result", nullptr}};
    } else {
      P.FromClangd = json::Object{
          {"error", json::Object{{"code", -32803},
                                 {"message", "clangd " + describeStatus(Status)}}}};
    }
    replyLocked(P);
  }
  Clangd.reset();
  if (Planned && !ShutdownRequested) {
    Planned = false;
    St = State::Starting;
    RestartWanted = true;
    Wake.notify_all();
    return;
  }
  if (ShutdownRequested) {
    St = State::GaveUp;
    return;
  }
  if (Restarts >= Opts.MaxRestarts) {
    St = State::GaveUp;
    showMessage(1, "clangd " + describeStatus(Status) + " " +
                       std::to_string(Restarts + 1) +
                       " times; not restarting it (only cuda-access-lint's "
                       "findings from now on)");
    proxyLog("clangd " + describeStatus(Status) + "; not restarting it");
    return;
  }
  ++Restarts;
  showMessage(2, "clangd " + describeStatus(Status) + "; restarting it (" +
                     std::to_string(Restarts) + " of " +
                     std::to_string(Opts.MaxRestarts) + ")");
  proxyLog("clangd " + describeStatus(Status) + "; restarting it");
  St = State::Starting;
  RestartWanted = true;
  Wake.notify_all();
}

void Proxy::supervise() {
  // Restarts are started from this thread, which lives as long as the proxy
  // (clangd's PR_SET_PDEATHSIG follows the thread that started it).
  std::unique_lock<std::mutex> Lock(M);
  while (true) {
    Wake.wait(Lock, [&] { return Exiting || RestartWanted; });
    if (Exiting)
      return;
    RestartWanted = false;
    restartLocked();
  }
}

void Proxy::restartLocked() {
  std::string Error;
  if (!InitializeParams || !spawnLocked(Error)) {
    St = State::GaveUp;
    showMessage(1, "clangd could not be started again: " + Error);
    return;
  }
  // The client's initialize again; the rest once clangd answers it.
  Clangd->send(json::Object{
      {"jsonrpc", "2.0"},
      {"id", "cuda-access-lint-proxy-initialize-" + std::to_string(Generation)},
      {"method", "initialize"},
      {"params", *InitializeParams}});
}

void Proxy::reinitialized(unsigned G) {
  Clangd->send(json::Object{{"jsonrpc", "2.0"},
                            {"method", "initialized"},
                            {"params", json::Object{}}});
  if (LastConfiguration)
    Clangd->send(json::Object{{"jsonrpc", "2.0"},
                              {"method", "workspace/didChangeConfiguration"},
                              {"params", *LastConfiguration}});
  for (const auto &[Uri, D] : Docs)
    Clangd->send(json::Object{
        {"jsonrpc", "2.0"},
        {"method", "textDocument/didOpen"},
        {"params",
         json::Object{{"textDocument",
                       json::Object{{"uri", Uri},
                                    {"languageId", D.LanguageId},
                                    {"version", D.Version},
                                    {"text", D.Text}}}}}});
  St = State::Ready;
  std::vector<json::Object> Queued = std::move(Queue);
  Queue.clear();
  for (json::Object &Q : Queued)
    toClangdLocked(std::move(Q));
  proxyLog("clangd restarted; " + llvm::Twine(Docs.size()) +
           " documents opened again");
}

} // namespace

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
                 << (O.ClangdPath.empty() ? std::string("no clangd-22 or clangd on PATH")
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
    return llvm::sys::ExecuteAndWait(Clangd, {Clangd, "--version"}, std::nullopt,
                                     Redirects);
  }
  // A clangd that is gone makes writes to it fail, not end the proxy.
  signal(SIGPIPE, SIG_IGN);
  L::Logger::setLogLevel(L::Logger::Level::Error);
  Proxy P(In, Out, std::move(Base), std::move(Settings), std::move(O), Clangd);
  return P.run();
}

} // namespace cal::lsp

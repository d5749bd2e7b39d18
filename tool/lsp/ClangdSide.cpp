//===- ClangdSide.cpp - The clangd proxy: clangd's side ------------------===//
//
// The clangd process: starting it, reading its messages, its exit and
// restarts (tool/lsp/ClangdProxyImpl.h).
//
//===----------------------------------------------------------------------===//

#include "tool/lsp/ClangdProxyImpl.h"

namespace cal::lsp::proxy {

// --- clangd's side -----------------------------------------------------===//

bool Proxy::spawnLocked(std::string &Error) {
  std::shared_ptr<ClangdProcess> C = ClangdProcess::start(Argv, Error);
  if (!C)
    return false;
  Clangd = C;
  unsigned G = ++Generation;
  proxyLog("started clangd (pid " + llvm::Twine(C->pid()) +
           "): " + llvm::join(Argv, " "));
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
static PositionEncoding clangdEncoding(const json::Object &Response) {
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
          {"error",
           json::Object{{"code", -32803},
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
        {"params", json::Object{{"textDocument",
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

} // namespace cal::lsp::proxy

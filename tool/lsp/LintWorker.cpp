//===- LintWorker.cpp -----------------------------------------------------===//

#include "tool/lsp/LintWorker.h"

namespace cal::lsp {

LintWorker::LintWorker(LintFn Lint, DoneFn Done)
    : Lint(std::move(Lint)), Done(std::move(Done)),
      Thread([this] { loop(); }) {}

LintWorker::~LintWorker() { stop(); }

void LintWorker::schedule(DocumentSnapshot Snapshot,
                          std::chrono::milliseconds Delay) {
  {
    std::lock_guard<std::mutex> Lock(M);
    std::string File = Snapshot.File;
    Queue[File] = {std::move(Snapshot),
                   std::chrono::steady_clock::now() + Delay};
  }
  Wake.notify_one();
}

void LintWorker::cancel(const std::string &File) {
  std::lock_guard<std::mutex> Lock(M);
  Queue.erase(File);
}

void LintWorker::stop() {
  {
    std::lock_guard<std::mutex> Lock(M);
    Stopping = true;
    Queue.clear();
  }
  Wake.notify_one();
  if (Thread.joinable())
    Thread.join();
}

void LintWorker::loop() {
  std::unique_lock<std::mutex> Lock(M);
  while (!Stopping) {
    if (Queue.empty()) {
      Wake.wait(Lock);
      continue;
    }
    auto Next = Queue.begin();
    for (auto It = Queue.begin(); It != Queue.end(); ++It)
      if (It->second.Due < Next->second.Due)
        Next = It;
    if (std::chrono::steady_clock::now() < Next->second.Due) {
      // A change may reschedule it, or an earlier one may come: look again.
      std::chrono::steady_clock::time_point Due = Next->second.Due;
      Wake.wait_until(Lock, Due);
      continue;
    }
    DocumentSnapshot Snapshot = std::move(Next->second.Snapshot);
    Queue.erase(Next);
    Lock.unlock();
    DocumentLint Result = Lint(Snapshot);
    Done(Snapshot, std::move(Result));
    Lock.lock();
  }
}

} // namespace cal::lsp

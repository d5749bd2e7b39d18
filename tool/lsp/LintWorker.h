//===- LintWorker.h - Debounced lints on a thread of their own ------------===//
//
// Editors send a change per keystroke. Each change (re)schedules its
// document's lint a debounce interval later, replacing the text a pending
// lint would read, so a burst of changes is one lint of the last text. The
// lints run one at a time on one worker thread, while the protocol thread
// keeps answering; what a lint finds is handed to a callback, which decides
// whether it is still current.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_LINTWORKER_H
#define CUDA_ACCESS_LINT_TOOL_LSP_LINTWORKER_H

#include "tool/lsp/DocumentLint.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace cal::lsp {

class LintWorker {
public:
  using LintFn = std::function<DocumentLint(const DocumentSnapshot &)>;
  using DoneFn = std::function<void(const DocumentSnapshot &, DocumentLint)>;

  LintWorker(LintFn Lint, DoneFn Done);
  ~LintWorker();

  /// Lints \p Snapshot \p Delay from now; a lint of the same document not
  /// yet started is replaced (its text and its time).
  void schedule(DocumentSnapshot Snapshot, std::chrono::milliseconds Delay);
  /// Forgets a pending lint of \p File (a lint already running finishes).
  void cancel(const std::string &File);
  /// Finishes the lint that is running, drops the others, ends the thread.
  void stop();

private:
  void loop();

  struct Pending {
    DocumentSnapshot Snapshot;
    std::chrono::steady_clock::time_point Due;
  };
  LintFn Lint;
  DoneFn Done;
  std::mutex M;
  std::condition_variable Wake;
  std::map<std::string, Pending> Queue; // by file
  bool Stopping = false;
  std::thread Thread;
};

} // namespace cal::lsp

#endif

//===- LintWorkerTest.cpp - Debounced lints on the worker thread ----------===//

#include "tool/lsp/LintWorker.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <vector>

namespace cal::lsp {
namespace {

/// Records what the worker lints and what it hands back.
struct Recorder {
  std::mutex M;
  std::condition_variable Done;
  std::vector<std::string> Linted, Finished;

  LintWorker::LintFn lint() {
    return [this](const DocumentSnapshot &S) {
      std::lock_guard<std::mutex> Lock(M);
      Linted.push_back(S.File + "@" + std::to_string(S.Version));
      DocumentLint R;
      R.Version = S.Version;
      return R;
    };
  }
  LintWorker::DoneFn done() {
    return [this](const DocumentSnapshot &S, DocumentLint R) {
      std::lock_guard<std::mutex> Lock(M);
      Finished.push_back(S.File + "@" + std::to_string(R.Version));
      Done.notify_all();
    };
  }
  void waitFor(size_t N) {
    std::unique_lock<std::mutex> Lock(M);
    Done.wait_for(Lock, std::chrono::seconds(60), [&] { return Finished.size() >= N; });
  }
};

TEST(LintWorker, ABurstOfChangesIsOneLintOfTheLastText) {
  Recorder R;
  LintWorker W(R.lint(), R.done());
  for (int V = 1; V <= 10; ++V)
    W.schedule({"a.cu", "text " + std::to_string(V), V}, std::chrono::milliseconds(300));
  R.waitFor(1);
  W.stop();
  EXPECT_EQ(R.Linted, std::vector<std::string>{"a.cu@10"});
  EXPECT_EQ(R.Finished, std::vector<std::string>{"a.cu@10"});
}

TEST(LintWorker, DocumentsAreLintedEachAndTheSoonestFirst) {
  Recorder R;
  LintWorker W(R.lint(), R.done());
  W.schedule({"later.cu", "", 1}, std::chrono::milliseconds(400));
  W.schedule({"now.cu", "", 1}, std::chrono::milliseconds(0));
  R.waitFor(2);
  W.stop();
  EXPECT_EQ(R.Linted, (std::vector<std::string>{"now.cu@1", "later.cu@1"}));
}

TEST(LintWorker, ACancelledOrStoppedLintDoesNotRun) {
  Recorder R;
  LintWorker W(R.lint(), R.done());
  W.schedule({"closed.cu", "", 1}, std::chrono::milliseconds(300));
  W.cancel("closed.cu");
  W.schedule({"kept.cu", "", 1}, std::chrono::milliseconds(0));
  R.waitFor(1);
  W.schedule({"after-stop.cu", "", 1}, std::chrono::milliseconds(300));
  W.stop();
  EXPECT_EQ(R.Linted, std::vector<std::string>{"kept.cu@1"});
}

} // namespace
} // namespace cal::lsp

//===- Session.h - The editor's documents, their lints and the answers ----===//
//
// What the language server (--lsp) and the clangd proxy (--clangd) share:
// each open document's text and version, its lint on the LintWorker a
// debounce interval after the last change, and the answers computed from
// the lint of the current text (diagnostics, hover, inlay hints, code
// actions). A lint's result is kept and published only while its version
// is the document's; an answer is computed only from the lint of the
// current text, never from an older one, so an edit is never computed
// against text it was not computed for. Each protocol front end owns the
// transport and the messages' framing; the session owns no transport, and
// calls its hooks with the session's lock held (so publications keep the
// order of the lints): a hook must not call back into the session. A lint
// that crashes (a signal in clang or the analyzer) is recovered from
// (llvm::CrashRecoveryContext) and reported, so the session and whatever
// shares the process (the proxy's clangd) go on.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_SESSION_H
#define CUDA_ACCESS_LINT_TOOL_LSP_SESSION_H

#include "tool/lsp/DocumentLint.h"
#include "tool/lsp/LintWorker.h"
#include "tool/lsp/Positions.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace cal::lsp {

/// One line on stderr (the editor's log of the server), whole even when two
/// threads log at once.
void log(const llvm::Twine &Line);

class Session {
public:
  using Reply = llvm::lsp::Callback<llvm::json::Value>;
  struct Hooks {
    /// textDocument/publishDiagnostics's params.
    std::function<void(llvm::json::Value)> Publish;
    /// Asks the client to ask for inlay hints again (only called when the
    /// client said it can); may be empty.
    std::function<void()> RefreshInlayHints;
    /// A lint crashed (and was recovered from): the file and a line saying
    /// so; called on the worker thread, without the session's lock. May be
    /// empty (the document's diagnostics say it anyway).
    std::function<void(const std::string &File, const std::string &Why)>
        LintCrashed;
  };
  /// Whether a request waits for the lint of the current text (the server)
  /// or is answered now, with null when that lint is not done (the proxy:
  /// clangd's answer must not wait for ours).
  enum class Wait { ForCurrentLint, No };

  Session(FrontendOptions Base, LintSettings Settings, Hooks H);
  ~Session();

  // Lifecycle and settings.
  /// Reads `initialize`'s params: the client's position encodings, whether
  /// it takes versioned edits and refreshes inlay hints, the
  /// initializationOptions (the settings).
  void initialize(const llvm::json::Object *Params);
  PositionEncoding encoding();
  /// The encoding another party chose (the proxy: clangd's).
  void setEncoding(PositionEncoding E);
  /// Answers every waiting request with null and stops the worker.
  void shutdown();
  bool shutdownRequested();
  /// Ends the worker (the lint running finishes first).
  void stop();
  /// $/cancelRequest: a waiting request \p Id is answered RequestCancelled.
  void cancel(const llvm::json::Value &Id);
  /// workspace/didChangeConfiguration's params.
  void configure(const llvm::json::Value &Params);

  // Documents.
  void open(const llvm::lsp::DidOpenTextDocumentParams &P);
  void change(const llvm::lsp::DidChangeTextDocumentParams &P);
  void save(const llvm::lsp::URIForFile &Uri);
  void close(const llvm::lsp::URIForFile &Uri);

  // Requests on the current text; \p Id names the request for cancel().
  void hover(const llvm::lsp::TextDocumentPositionParams &P,
             std::optional<llvm::json::Value> Id, Reply R,
             Wait W = Wait::ForCurrentLint);
  void inlayHints(const llvm::lsp::InlayHintsParams &P,
                  std::optional<llvm::json::Value> Id, Reply R,
                  Wait W = Wait::ForCurrentLint);
  void codeActions(const llvm::lsp::CodeActionParams &P,
                   std::optional<llvm::json::Value> Id, Reply R,
                   Wait W = Wait::ForCurrentLint);

private:
  struct Document {
    llvm::lsp::URIForFile Uri;
    std::string Text;
    int64_t Version = 0;
    /// The last lint kept: of Version, or of an earlier one while the lint
    /// of Version is pending.
    std::shared_ptr<const DocumentLint> Last;
    /// Its preamble, kept in memory while it is open (each lint reuses it
    /// while it is fresh: frontend/PreambleCache.h).
    std::shared_ptr<KeptPreamble> Preamble = std::make_shared<KeptPreamble>();
    bool current() const { return Last && Last->Version == Version; }
  };
  using Answer = std::function<llvm::json::Value(const Document &)>;
  struct Waiter {
    std::string File;
    std::optional<llvm::json::Value> Id;
    Answer Compute;
    Reply Send;
  };

  void applySettings(const llvm::json::Object &O);
  /// After shutdown, requests are errors (the protocol's InvalidRequest).
  bool refusedAfterShutdown(Reply &R);
  /// Replies with \p A of the document once its lint is of its current
  /// version: now when it is, else when that lint is done (or with null
  /// when the document is closed first, or with an error when cancelled).
  void whenCurrent(const llvm::lsp::URIForFile &Uri,
                   std::optional<llvm::json::Value> Id, Answer A, Reply R,
                   Wait W);
  llvm::json::Value codeActionsOf(const Document &D,
                                  const llvm::lsp::CodeActionParams &P);

  // The worker's side.
  DocumentLint lint(const DocumentSnapshot &S);
  void onLinted(const DocumentSnapshot &S, DocumentLint R);
  void publish(const Document &D);
  void scheduleLocked(const std::string &File, const Document &D,
                      std::chrono::milliseconds Delay);

  Hooks H;
  std::mutex M; // guards everything below
  FrontendOptions Base;
  LintSettings Settings;
  PositionEncoding Encoding = PositionEncoding::UTF16;
  bool VersionedEdits = false;
  bool InlayHints = false;
  bool CanRefreshInlayHints = false;
  std::chrono::milliseconds Debounce{300};
  bool ShutdownRequested = false;
  std::map<std::string, Document> Docs; // by absolute path
  std::vector<Waiter> Waiters;
  LintWorker Worker; // last: its thread starts with everything above ready
};

/// A diagnostic as LSP sends it (source "cuda-access-lint", the rule id as
/// code).
llvm::json::Object diagnosticJson(const DiagnosticRecord &D);

} // namespace cal::lsp

#endif

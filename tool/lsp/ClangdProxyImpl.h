//===- ClangdProxyImpl.h - The clangd proxy's state, for its two files ---===//
//
// Private to ClangdProxy.cpp (the client's side, the messages between both)
// and ClangdSide.cpp (clangd's side: the process, its output, restarts).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_CLANGDPROXYIMPL_H
#define CUDA_ACCESS_LINT_TOOL_LSP_CLANGDPROXYIMPL_H

#include "tool/lsp/ClangdDatabase.h"
#include "tool/lsp/ClangdProcess.h"
#include "tool/lsp/ClangdProxy.h"
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

namespace cal::lsp::proxy {

namespace L = llvm::lsp;
namespace json = llvm::json;

inline void proxyLog(const llvm::Twine &Line) { log("clangd proxy: " + Line); }

/// A request's id as a map key (ids are numbers or strings).
inline std::string idKey(const json::Value &Id) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << Id;
  return S;
}

inline bool isCudaDocument(llvm::StringRef LanguageId, llvm::StringRef Uri) {
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
  void publishMergedLocked(const std::string &Uri,
                           std::optional<int64_t> Version);

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
  std::map<std::string, Pending> Requests;     ///< the client's, by id
  std::map<std::string, TrackedDocument> Docs; ///< by URI
  std::map<std::string, Diagnostics> Diags;    ///< by URI
  PositionEncoding Encoding = PositionEncoding::UTF16;
  std::vector<std::thread> Readers;
};

} // namespace cal::lsp::proxy

#endif

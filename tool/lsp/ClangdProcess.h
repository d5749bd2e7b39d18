//===- ClangdProcess.h - A clangd child process speaking JSON-RPC ---------===//
//
// The clangd the proxy (ClangdProxy.cpp) runs beside the linter: its pipes,
// the transport framing what goes to it, the input framing what comes from
// it, and how it is ended.
//
//===----------------------------------------------------------------------===//

#ifndef CAL_TOOL_LSP_CLANGDPROCESS_H
#define CAL_TOOL_LSP_CLANGDPROCESS_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <sys/types.h>

namespace cal::lsp {

/// A wait status in words ("exited with status 1", "was killed by signal 9").
std::string describeStatus(int Status);

/// Sends a raw JSON-RPC message (request, notification or response) through
/// \p T, which frames it.
void sendRaw(llvm::lsp::JSONTransport &T, const llvm::json::Object &Msg);

/// A clangd process: its pipes, the transport framing what goes to it and
/// the input framing what comes from it.
class ClangdProcess {
public:
  /// Starts \p Argv with its standard input and output on pipes; null, with
  /// \p Error, when it cannot.
  static std::shared_ptr<ClangdProcess>
  start(const std::vector<std::string> &Argv, std::string &Error);

  ~ClangdProcess();

  void send(const llvm::json::Object &Msg);

  /// clangd's next message; false at the end of its output.
  bool read(std::string &Json);

  /// Closes clangd's input (clangd ends at its end).
  void closeInput();

  /// Waits up to \p Grace for clangd to end, then terminates it (SIGTERM,
  /// then SIGKILL); its wait status.
  int finish(std::chrono::milliseconds Grace);

  pid_t pid() const { return Pid; }

private:
  ClangdProcess() = default;
  pid_t Pid = -1;
  std::FILE *From = nullptr;
  std::unique_ptr<llvm::raw_fd_ostream> ToStream;
  std::unique_ptr<llvm::lsp::JSONTransport> Writer;
  std::unique_ptr<llvm::lsp::JSONTransportInputOverFile> Reader;
  std::mutex WriteM, WaitM;
  bool InputClosed = false;
  bool Reaped = false;
  int Status = 0;
};

} // namespace cal::lsp

#endif // CAL_TOOL_LSP_CLANGDPROCESS_H

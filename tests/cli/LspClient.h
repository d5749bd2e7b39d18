//===- LspClient.h - An LSP client for tests, as an editor would be -------===//
//
// Starts a language server with pipes on its stdin and stdout, sends
// framed JSON-RPC messages and reads the server's messages as they come
// (the server answers and publishes asynchronously, so a test waits for
// the message it wants, with a generous timeout only against hangs).
// POSIX only.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TESTS_CLI_LSPCLIENT_H
#define CUDA_ACCESS_LINT_TESTS_CLI_LSPCLIENT_H

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace cal::test {

class LspClient {
public:
  /// Starts \p Argv (a path, no PATH search); its stderr goes to
  /// \p StderrPath.
  LspClient(const std::vector<std::string> &Argv, const std::string &StderrPath);
  ~LspClient();
  LspClient(const LspClient &) = delete;
  LspClient &operator=(const LspClient &) = delete;

  bool started() const { return Pid > 0; }

  void notify(const std::string &Method, const nlohmann::json &Params);
  /// Sends a request; returns its id.
  int request(const std::string &Method, const nlohmann::json &Params);
  /// Sends several messages in one write (a burst, as fast typing is).
  void sendAll(const std::vector<nlohmann::json> &Messages);
  nlohmann::json requestMessage(const std::string &Method,
                                const nlohmann::json &Params, int &Id);
  static nlohmann::json notificationMessage(const std::string &Method,
                                            const nlohmann::json &Params);

  /// The first message received (now or later), from the \p From-th on,
  /// that \p Match accepts; nullopt when the server ends or
  /// \p TimeoutSeconds pass first.
  std::optional<nlohmann::json>
  waitFor(const std::function<bool(const nlohmann::json &)> &Match,
          int TimeoutSeconds = 120, size_t From = 0);
  /// The response to request \p Id.
  std::optional<nlohmann::json> response(int Id);
  /// The diagnostics published for \p Uri at \p Version.
  std::optional<nlohmann::json> diagnostics(const std::string &Uri,
                                            int64_t Version);

  /// initialize (with \p Capabilities and \p InitializationOptions), then
  /// initialized; returns the initialize result.
  std::optional<nlohmann::json>
  initialize(const nlohmann::json &Capabilities,
             const nlohmann::json &InitializationOptions = nullptr);

  /// Closes the server's stdin and waits for it to end: its exit status,
  /// or -1 when it was killed (by a signal, or after \p TimeoutSeconds).
  int finish(int TimeoutSeconds = 60);

  /// Every message received so far, in order.
  const std::vector<nlohmann::json> &received() const { return Received; }

private:
  void write(const std::string &Bytes);
  /// Reads what is available within \p TimeoutMs; false at the end.
  bool readSome(int TimeoutMs);

  pid_t Pid = -1;
  int ToServer = -1, FromServer = -1;
  int NextId = 1;
  std::string Buffer;
  std::vector<nlohmann::json> Received;
};

/// A JSON-RPC message framed as LSP sends it.
std::string lspFrame(const nlohmann::json &Message);

/// Applies LSP text edits (UTF-16 positions) to \p Text.
std::string applyUtf16Edits(const std::string &Text,
                            const nlohmann::json &Edits);

} // namespace cal::test

#endif

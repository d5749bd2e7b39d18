//===- LspClient.cpp ------------------------------------------------------===//

#include "cli/LspClient.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cal::test {

using nlohmann::json;

std::string lspFrame(const json &Message) {
  std::string Body = Message.dump();
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

LspClient::LspClient(const std::vector<std::string> &Argv,
                     const std::string &StderrPath) {
  std::signal(SIGPIPE, SIG_IGN);
  int In[2], Out[2];
  if (pipe2(In, O_CLOEXEC) != 0 || pipe2(Out, O_CLOEXEC) != 0)
    return;
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  Pid = fork();
  if (Pid == 0) {
    setpgid(0, 0);
    dup2(In[0], 0);
    dup2(Out[1], 1);
    int Err = open(StderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (Err >= 0)
      dup2(Err, 2);
    execv(Args[0], Args.data());
    _exit(127);
  }
  close(In[0]);
  close(Out[1]);
  ToServer = In[1];
  FromServer = Out[0];
}

LspClient::~LspClient() {
  if (Pid > 0) {
    kill(-Pid, SIGKILL);
    kill(Pid, SIGKILL);
    waitpid(Pid, nullptr, 0);
  }
  if (ToServer >= 0)
    close(ToServer);
  if (FromServer >= 0)
    close(FromServer);
}

void LspClient::write(const std::string &Bytes) {
  size_t Done = 0;
  while (ToServer >= 0 && Done < Bytes.size()) {
    ssize_t N = ::write(ToServer, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    Done += static_cast<size_t>(N);
  }
}

json LspClient::notificationMessage(const std::string &Method,
                                    const json &Params) {
  return {{"jsonrpc", "2.0"}, {"method", Method}, {"params", Params}};
}

json LspClient::requestMessage(const std::string &Method, const json &Params,
                               int &Id) {
  Id = NextId++;
  return {{"jsonrpc", "2.0"}, {"id", Id}, {"method", Method}, {"params", Params}};
}

void LspClient::notify(const std::string &Method, const json &Params) {
  write(lspFrame(notificationMessage(Method, Params)));
}

int LspClient::request(const std::string &Method, const json &Params) {
  int Id;
  write(lspFrame(requestMessage(Method, Params, Id)));
  return Id;
}

void LspClient::sendAll(const std::vector<json> &Messages) {
  std::string Bytes;
  for (const json &M : Messages)
    Bytes += lspFrame(M);
  write(Bytes);
}

bool LspClient::readSome(int TimeoutMs) {
  if (FromServer < 0)
    return false;
  pollfd P{FromServer, POLLIN, 0};
  int N = poll(&P, 1, TimeoutMs);
  if (N < 0)
    return errno == EINTR;
  if (N == 0)
    return true;
  char Buf[65536];
  ssize_t Got = read(FromServer, Buf, sizeof Buf);
  if (Got <= 0) {
    if (Got < 0 && errno == EINTR)
      return true;
    close(FromServer);
    FromServer = -1;
    return false;
  }
  Buffer.append(Buf, static_cast<size_t>(Got));
  while (true) {
    size_t HeaderEnd = Buffer.find("\r\n\r\n");
    if (HeaderEnd == std::string::npos)
      break;
    size_t LenAt = Buffer.find("Content-Length: ");
    if (LenAt == std::string::npos || LenAt > HeaderEnd)
      break;
    size_t Len = std::stoul(Buffer.substr(LenAt + 16, HeaderEnd - LenAt - 16));
    if (Buffer.size() < HeaderEnd + 4 + Len)
      break;
    Received.push_back(json::parse(Buffer.substr(HeaderEnd + 4, Len)));
    Buffer.erase(0, HeaderEnd + 4 + Len);
  }
  return true;
}

std::optional<json>
LspClient::waitFor(const std::function<bool(const json &)> &Match,
                   int TimeoutSeconds, size_t From) {
  auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(TimeoutSeconds);
  size_t Checked = From;
  while (true) {
    for (; Checked < Received.size(); ++Checked)
      if (Match(Received[Checked]))
        return Received[Checked];
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - std::chrono::steady_clock::now())
                    .count();
    if (Left <= 0 || !readSome(static_cast<int>(std::min<long long>(Left, 500))))
      break;
  }
  for (; Checked < Received.size(); ++Checked)
    if (Match(Received[Checked]))
      return Received[Checked];
  return std::nullopt;
}

std::optional<json> LspClient::response(int Id) {
  return waitFor([Id](const json &M) {
    return M.contains("id") && M["id"] == Id && !M.contains("method");
  });
}

std::optional<json> LspClient::diagnostics(const std::string &Uri,
                                           int64_t Version) {
  return waitFor([&](const json &M) {
    return M.value("method", "") == "textDocument/publishDiagnostics" &&
           M["params"]["uri"] == Uri && M["params"].value("version", -1) == Version;
  });
}

std::optional<json> LspClient::initialize(const json &Capabilities,
                                          const json &InitializationOptions) {
  json Params = {{"processId", nullptr},
                 {"rootUri", nullptr},
                 {"capabilities", Capabilities}};
  if (!InitializationOptions.is_null())
    Params["initializationOptions"] = InitializationOptions;
  int Id = request("initialize", Params);
  std::optional<json> R = response(Id);
  notify("initialized", json::object());
  if (!R || !R->contains("result"))
    return std::nullopt;
  return (*R)["result"];
}

int LspClient::finish(int TimeoutSeconds) {
  if (ToServer >= 0) {
    close(ToServer);
    ToServer = -1;
  }
  // Read what is left so the server never blocks on a full pipe.
  auto Deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(TimeoutSeconds);
  int Status = 0;
  while (true) {
    pid_t W = waitpid(Pid, &Status, WNOHANG);
    if (W == Pid)
      break;
    if (std::chrono::steady_clock::now() > Deadline) {
      kill(-Pid, SIGKILL);
      kill(Pid, SIGKILL);
      waitpid(Pid, &Status, 0);
      Pid = -1;
      return -1;
    }
    if (!readSome(100))
      usleep(20000);
  }
  Pid = -1;
  while (readSome(0) && FromServer >= 0) {
    pollfd P{FromServer, POLLIN, 0};
    if (poll(&P, 1, 0) <= 0)
      break;
  }
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

namespace {

/// The byte offset of a UTF-16 position in \p Text.
size_t utf16Offset(const std::string &Text, int Line, int Character) {
  size_t At = 0;
  for (int L = 0; L < Line; ++L) {
    size_t NL = Text.find('\n', At);
    if (NL == std::string::npos)
      return Text.size();
    At = NL + 1;
  }
  int Units = 0;
  while (At < Text.size() && Text[At] != '\n' && Units < Character) {
    unsigned char C = static_cast<unsigned char>(Text[At]);
    size_t Len = C < 0x80 ? 1 : C >= 0xF0 ? 4 : C >= 0xE0 ? 3 : 2;
    Units += Len == 4 ? 2 : 1;
    At += Len;
  }
  return At;
}

} // namespace

std::string applyUtf16Edits(const std::string &Text, const json &Edits) {
  // From the last to the first, so earlier offsets stay valid.
  std::vector<std::pair<size_t, size_t>> Spans;
  std::vector<std::string> New;
  for (const json &E : Edits) {
    size_t B = utf16Offset(Text, E["range"]["start"]["line"],
                           E["range"]["start"]["character"]);
    size_t End = utf16Offset(Text, E["range"]["end"]["line"],
                             E["range"]["end"]["character"]);
    Spans.push_back({B, End});
    New.push_back(E["newText"]);
  }
  std::vector<size_t> Order(Spans.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(),
            [&](size_t A, size_t B) { return Spans[A].first > Spans[B].first; });
  std::string Out = Text;
  for (size_t I : Order)
    Out.replace(Spans[I].first, Spans[I].second - Spans[I].first, New[I]);
  return Out;
}

} // namespace cal::test

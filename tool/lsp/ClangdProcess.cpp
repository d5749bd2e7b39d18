//===- ClangdProcess.cpp - A clangd child process speaking JSON-RPC -------===//

#include "tool/lsp/ClangdProcess.h"

#include "llvm/Support/LSP/Protocol.h"

#include <csignal>
#include <thread>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cal::lsp {

namespace L = llvm::lsp;
namespace json = llvm::json;

std::string describeStatus(int Status) {
  if (WIFSIGNALED(Status))
    return "was killed by signal " + std::to_string(WTERMSIG(Status));
  if (WIFEXITED(Status))
    return "exited with status " + std::to_string(WEXITSTATUS(Status));
  return "ended";
}

void sendRaw(L::JSONTransport &T, const json::Object &Msg) {
  const json::Value *Id = Msg.get("id");
  std::optional<llvm::StringRef> Method = Msg.getString("method");
  json::Value Params = nullptr;
  if (const json::Value *P = Msg.get("params"))
    Params = *P;
  if (Method && Id)
    return T.call(*Method, std::move(Params), *Id);
  if (Method)
    return T.notify(*Method, std::move(Params));
  if (!Id)
    return;
  if (const json::Value *R = Msg.get("result"))
    return T.reply(*Id, *R);
  const json::Object *E = Msg.getObject("error");
  int64_t Code = E ? E->getInteger("code").value_or(-32603) : -32603;
  std::string Message =
      E ? E->getString("message").value_or("").str() : "no result";
  T.reply(*Id, llvm::make_error<L::LSPError>(Message,
                                             static_cast<L::ErrorCode>(Code)));
}

std::shared_ptr<ClangdProcess>
ClangdProcess::start(const std::vector<std::string> &Argv, std::string &Error) {
  int In[2], Out[2];
  if (pipe2(In, O_CLOEXEC) != 0) {
    Error = "pipe failed";
    return nullptr;
  }
  if (pipe2(Out, O_CLOEXEC) != 0) {
    close(In[0]);
    close(In[1]);
    Error = "pipe failed";
    return nullptr;
  }
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  pid_t Parent = getpid();
  pid_t Pid = fork();
  if (Pid == 0) {
    // clangd ends with the proxy's thread that started it, however the
    // proxy ends (this thread lives as long as the proxy).
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != Parent)
      _exit(127);
    dup2(In[0], 0);
    dup2(Out[1], 1);
    signal(SIGPIPE, SIG_DFL);
    execv(Args[0], Args.data());
    _exit(127);
  }
  close(In[0]);
  close(Out[1]);
  if (Pid < 0) {
    close(In[1]);
    close(Out[0]);
    Error = "fork failed";
    return nullptr;
  }
  auto P = std::shared_ptr<ClangdProcess>(new ClangdProcess());
  P->Pid = Pid;
  P->From = fdopen(Out[0], "r");
  P->ToStream = std::make_unique<llvm::raw_fd_ostream>(In[1], true);
  P->Writer = std::make_unique<L::JSONTransport>(
      std::make_unique<L::JSONTransportInputOverFile>(P->From), *P->ToStream);
  P->Reader = std::make_unique<L::JSONTransportInputOverFile>(P->From);
  return P;
}

ClangdProcess::~ClangdProcess() {
  finish(std::chrono::milliseconds(0));
  if (ToStream)
    ToStream->clear_error();
  if (From)
    fclose(From);
}

void ClangdProcess::send(const json::Object &Msg) {
  std::lock_guard<std::mutex> Lock(WriteM);
  if (InputClosed)
    return;
  sendRaw(*Writer, Msg);
  ToStream->clear_error(); // a clangd that is gone: its reader tells
}

bool ClangdProcess::read(std::string &Json) {
  return llvm::succeeded(Reader->readMessage(Json));
}

void ClangdProcess::closeInput() {
  std::lock_guard<std::mutex> Lock(WriteM);
  if (InputClosed)
    return;
  InputClosed = true;
  ToStream->close();
  ToStream->clear_error();
}

int ClangdProcess::finish(std::chrono::milliseconds Grace) {
  std::lock_guard<std::mutex> Lock(WaitM);
  if (Reaped)
    return Status;
  auto Deadline = std::chrono::steady_clock::now() + Grace;
  auto Wait = [&](std::chrono::steady_clock::time_point Until) {
    while (true) {
      pid_t R = waitpid(Pid, &Status, WNOHANG);
      if (R == Pid || (R < 0 && errno != EINTR))
        return true;
      if (std::chrono::steady_clock::now() >= Until)
        return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  if (!Wait(Deadline)) {
    kill(Pid, SIGTERM);
    if (!Wait(std::chrono::steady_clock::now() + std::chrono::seconds(2))) {
      kill(Pid, SIGKILL);
      while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  Reaped = true;
  return Status;
}

} // namespace cal::lsp

//===- TestSupport.cpp ----------------------------------------------------===//

#include "support/TestSupport.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cal::test {

std::string ProcessResult::describe() const {
  if (!Started)
    return "could not start: " + Error;
  if (TimedOut)
    return "timed out (killed)";
  if (Exited)
    return "exit status " + std::to_string(ExitCode);
  const char *Name = strsignal(Signal);
  return "killed by signal " + std::to_string(Signal) +
         (Name ? std::string(" (") + Name + ")" : std::string());
}

ProcessResult runProcess(const std::vector<std::string> &Argv,
                         const ProcessOptions &Options) {
  ProcessResult R;
  if (Argv.empty()) {
    R.Error = "empty command";
    return R;
  }
  int Out[2], Err[2];
  if (pipe2(Out, O_CLOEXEC) != 0 || pipe2(Err, O_CLOEXEC) != 0) {
    R.Error = std::string("pipe: ") + std::strerror(errno);
    return R;
  }
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);

  pid_t Pid = fork();
  if (Pid < 0) {
    R.Error = std::string("fork: ") + std::strerror(errno);
    return R;
  }
  if (Pid == 0) {
    // Child: its own process group, so a timeout kills what it started too.
    setpgid(0, 0);
    int DevNull = open("/dev/null", O_RDONLY);
    if (DevNull >= 0)
      dup2(DevNull, 0);
    dup2(Out[1], 1);
    dup2(Err[1], 2);
    if (!Options.WorkingDirectory.empty() &&
        chdir(Options.WorkingDirectory.c_str()) != 0) {
      std::string Msg = "chdir " + Options.WorkingDirectory + ": " +
                        std::strerror(errno) + "\n";
      (void)!write(2, Msg.data(), Msg.size());
      _exit(127);
    }
    for (const std::string &Name : Options.UnsetEnv)
      unsetenv(Name.c_str());
    for (const auto &[Name, Value] : Options.SetEnv)
      setenv(Name.c_str(), Value.c_str(), 1);
    execv(Args[0], Args.data());
    std::string Msg =
        "exec " + Argv[0] + ": " + std::strerror(errno) + "\n";
    (void)!write(2, Msg.data(), Msg.size());
    _exit(127);
  }
  R.Started = true;
  close(Out[1]);
  close(Err[1]);

  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(Options.TimeoutSeconds);
  pollfd Fds[2] = {{Out[0], POLLIN, 0}, {Err[0], POLLIN, 0}};
  std::string *Sinks[2] = {&R.Stdout, &R.Stderr};
  int Open = 2;
  char Buf[65536];
  while (Open > 0) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - std::chrono::steady_clock::now())
                    .count();
    if (Left <= 0) {
      R.TimedOut = true;
      kill(-Pid, SIGKILL);
      kill(Pid, SIGKILL);
      break;
    }
    int N = poll(Fds, 2, static_cast<int>(std::min<long long>(Left, 1000)));
    if (N < 0 && errno != EINTR)
      break;
    for (int I = 0; I < 2; ++I) {
      if (Fds[I].fd < 0 || !(Fds[I].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t Got = read(Fds[I].fd, Buf, sizeof Buf);
      if (Got > 0) {
        Sinks[I]->append(Buf, static_cast<size_t>(Got));
      } else if (Got == 0 || errno != EINTR) {
        close(Fds[I].fd);
        Fds[I].fd = -1;
        --Open;
      }
    }
  }
  for (pollfd &F : Fds)
    if (F.fd >= 0)
      close(F.fd);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(Status)) {
    R.Exited = !R.TimedOut;
    R.ExitCode = WEXITSTATUS(Status);
  } else if (WIFSIGNALED(Status)) {
    R.Signal = WTERMSIG(Status);
  }
  return R;
}

std::string shellLine(const std::vector<std::string> &Argv) {
  std::string Out;
  for (const std::string &A : Argv) {
    if (!Out.empty())
      Out += ' ';
    bool Plain = !A.empty() && A.find_first_not_of(
                                   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                                   "QRSTUVWXYZ0123456789-_./=:,+@%") ==
                                   std::string::npos;
    if (Plain) {
      Out += A;
      continue;
    }
    Out += '\'';
    for (char C : A) {
      if (C == '\'')
        Out += "'\\''";
      else
        Out += C;
    }
    Out += '\'';
  }
  return Out;
}

TempDir::TempDir(const std::string &Prefix) {
  const char *Base = std::getenv("TMPDIR");
  std::string Template =
      std::string(Base && *Base ? Base : "/tmp") + "/" + Prefix + "-XXXXXX";
  std::vector<char> Buf(Template.begin(), Template.end());
  Buf.push_back('\0');
  if (mkdtemp(Buf.data()))
    Path = Buf.data();
}

TempDir::~TempDir() {
  if (Path.empty() || std::getenv("CAL_KEEP_TEST_FILES"))
    return;
  std::error_code EC;
  std::filesystem::remove_all(Path, EC);
}

std::string TempDir::operator/(const std::string &Relative) const {
  return Path + "/" + Relative;
}

std::optional<std::string> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return std::nullopt;
  std::ostringstream S;
  S << In.rdbuf();
  return S.str();
}

bool writeFile(const std::string &Path, const std::string &Contents) {
  std::error_code EC;
  std::filesystem::path P(Path);
  if (P.has_parent_path())
    std::filesystem::create_directories(P.parent_path(), EC);
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  Out << Contents;
  return static_cast<bool>(Out);
}

std::vector<std::string> nonEmptyLines(const std::string &Text) {
  std::vector<std::string> Lines;
  std::istringstream In(Text);
  std::string L;
  while (std::getline(In, L))
    if (L.find_first_not_of(" \t\r") != std::string::npos)
      Lines.push_back(L);
  return Lines;
}

} // namespace cal::test

//===- TestSupport.h - Running programs and scratch files in tests --------===//
//
// The CLI, project and fixture tests run the built cuda-access-lint (and
// cmake) as subprocesses, as a user or CI would, and look at exit status,
// stdout and stderr. POSIX only.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TESTS_SUPPORT_TESTSUPPORT_H
#define CUDA_ACCESS_LINT_TESTS_SUPPORT_TESTSUPPORT_H

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cal::test {

struct ProcessOptions {
  /// Where the program runs; empty: the test's own directory.
  std::string WorkingDirectory;
  /// Killed (with its process group) after this long.
  int TimeoutSeconds = 300;
  /// Environment changes for the child.
  std::vector<std::pair<std::string, std::string>> SetEnv;
  std::vector<std::string> UnsetEnv;
};

struct ProcessResult {
  bool Started = false;  ///< false: see Error
  bool Exited = false;   ///< ended with exit() (ExitCode is valid)
  int ExitCode = -1;
  int Signal = 0;        ///< the signal that ended it, when it did not exit
  bool TimedOut = false; ///< killed by the timeout
  std::string Stdout, Stderr;
  std::string Error;

  /// "exit status 3", "killed by signal 11 (SIGSEGV)", "timed out after ..."
  std::string describe() const;
  /// True when it ended with exit status \p Code.
  bool exitedWith(int Code) const { return Exited && ExitCode == Code; }
};

/// Runs \p Argv (Argv[0] is a path; no PATH search) and collects its output.
ProcessResult runProcess(const std::vector<std::string> &Argv,
                         const ProcessOptions &Options = {});

/// The command as a shell line, for messages.
std::string shellLine(const std::vector<std::string> &Argv);

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents when
/// this goes away, unless CAL_KEEP_TEST_FILES is set in the environment.
class TempDir {
public:
  explicit TempDir(const std::string &Prefix = "cal-test");
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return Path; }
  /// Path of \p Relative inside the directory.
  std::string operator/(const std::string &Relative) const;

private:
  std::string Path;
};

/// Reads a whole file; std::nullopt when it cannot be read.
std::optional<std::string> readFile(const std::string &Path);
/// Writes a whole file, creating its parent directories.
bool writeFile(const std::string &Path, const std::string &Contents);

/// The non-empty lines of \p Text.
std::vector<std::string> nonEmptyLines(const std::string &Text);

} // namespace cal::test

#endif

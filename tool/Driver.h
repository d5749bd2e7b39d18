//===- Driver.h - The command line of cuda-access-lint --------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_DRIVER_H
#define CUDA_ACCESS_LINT_TOOL_DRIVER_H

namespace cal {

/// Exit statuses: what CI scripts branch on.
enum ExitStatus : int {
  ExitClean = 0,      ///< every file parsed, no findings
  ExitFindings = 1,   ///< findings were reported
  ExitParseError = 2, ///< clang reported errors in the code (kernels that
                      ///< parsed were still analyzed)
  ExitUsageError = 3, ///< bad option, missing file, unreadable or malformed
                      ///< compilation database, invalid --cuda-path
};

/// Runs the tool on a command line; returns the exit status.
int runDriver(int argc, const char **argv);

} // namespace cal

#endif

//===- Config.h - .cuda-access-lint.yaml, found as .clang-tidy is ---------===//
//
//   Checks:                   '-*,shared-bank-conflict'   # --checks
//   WarningsAsErrors:         'shared-bank-conflict'      # --warnings-as-errors
//   HeaderFilterRegex:        'third_party/cub/'          # --header-filter
//   ExcludeHeaderFilterRegex: 'generated/'                # --exclude-header-filter
//   CheckOptions:                                         # --rule-option
//     missing-vectorization.MinGain: 1.2
//   BlockDims:                                            # --block-dim
//     transpose: 32,8
//     '*': 256
//   Assume:                                               # --assume
//     M: 4096
//     'sgemm:K': 512
//   ExtraArgs: ['-DTILE=32']                              # --extra-arg
//   ExtraArgsBefore: []                                   # --extra-arg-before
//   AnalysisTimeLimit: 5                                  # --analysis-time-limit
//   AnalysisMemoryLimit: 512                              # --analysis-memory-limit
//   PreambleCache: true                                   # --[no-]preamble-cache
//   PreambleCacheDir: .cache/cal                          # --preamble-cache-dir
//   PreambleBuild: second                                 # --preamble-build
//   PreambleCacheSize: 4096                               # --preamble-cache-size
//   InheritParentConfig: true                             # the default
//
// For each file, the nearest .cuda-access-lint.yaml in its directory or
// above is read, and, unless it says InheritParentConfig: false, the one
// above it, and so on: a nested file refines its parents (Checks and
// WarningsAsErrors are appended to theirs, as clang-tidy does; options,
// block dims, assumed values and the header filters override theirs by key; extra
// arguments add to theirs). The command line refines the result the same
// way. --config-file=F reads only F. Parsed with LLVM's YAML I/O: an
// unknown key or a bad value is one line naming the file, line and column.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_CONFIG_H
#define CUDA_ACCESS_LINT_TOOL_CONFIG_H

#include "frontend/PreambleCache.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cal {

inline constexpr const char *ConfigFileName = ".cuda-access-lint.yaml";

/// What a configuration file (or the command line) says; unset fields say
/// nothing.
struct LintConfig {
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  std::optional<std::string> HeaderFilterRegex;
  std::optional<std::string> ExcludeHeaderFilterRegex;
  std::optional<bool> InheritParentConfig;
  std::map<std::string, std::string> CheckOptions;
  std::map<std::string, std::string> BlockDims;
  /// --assume: "M" or "kernel:M" -> the value; where each was given (the
  /// file's path, or "--assume"), for the output.
  std::map<std::string, std::string> Assume;
  std::map<std::string, std::string> AssumeSources;
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  /// Each kernel configuration's analysis budget: seconds, megabytes (0: no
  /// limit).
  std::optional<double> AnalysisTimeLimit;
  std::optional<uint64_t> AnalysisMemoryLimit;
  /// The preamble cache (one per run: the working directory's configuration
  /// decides; a relative directory is the configuration file's).
  std::optional<bool> PreambleCache;
  std::optional<std::string> PreambleCacheDir;
  std::optional<PreambleBuild> BuildPreamble;
  /// MiB; 0: no limit.
  std::optional<uint64_t> PreambleCacheSize;
  /// The files it was read from, outermost first (for --dump-config).
  std::vector<std::string> Sources;

  /// \p Child refines this one (see the file comment).
  void refineWith(const LintConfig &Child);
};

/// Parses one file's text; the error is one line, "<path>:L:C: message".
llvm::Expected<LintConfig> parseConfig(llvm::StringRef Text,
                                       llvm::StringRef Path);
llvm::Expected<LintConfig> readConfigFile(llvm::StringRef Path);

/// The configuration as YAML (what --dump-config prints).
std::string configYaml(const LintConfig &C);

/// Finds and reads the files for each directory once; safe to share.
class ConfigFinder {
public:
  /// \p ExplicitFile: --config-file (no search).
  explicit ConfigFinder(std::string ExplicitFile = "")
      : ExplicitFile(std::move(ExplicitFile)) {}
  /// The configuration that applies to \p File (no file: an empty one).
  llvm::Expected<LintConfig> configFor(llvm::StringRef File);

private:
  llvm::Expected<LintConfig> configForDirectory(llvm::StringRef Dir);
  std::string ExplicitFile;
  std::mutex Lock;
  std::map<std::string, std::shared_ptr<LintConfig>> ByDirectory;
};

} // namespace cal

#endif

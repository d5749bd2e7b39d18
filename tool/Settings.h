//===- Settings.h - Each file's lint settings, from its configuration -----===//
//
// A file's settings are its .cuda-access-lint.yaml chain (tool/Config.h)
// refined by the command line, checked once per directory: a bad check
// glob, rule option, block dim or regular expression in a configuration is
// one line naming the file. The project's headers are analyzed by default:
// the project is --project-root, else the nearest enclosing git work tree
// of the file and the compile database's directory.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_SETTINGS_H
#define CUDA_ACCESS_LINT_TOOL_SETTINGS_H

#include "tool/Config.h"
#include "tool/Lint.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace cal {

/// The settings a configuration gives; errors are one line.
llvm::Expected<LintSettings> settingsFromConfig(const LintConfig &C);

/// The nearest directory at or above \p Dir holding a .git (a work tree);
/// empty when there is none.
std::string gitWorkTreeOf(llvm::StringRef Dir);

class SettingsCache {
public:
  /// \p ProjectRoot: --project-root (empty: the default). \p BuildDir: the
  /// compile database's directory (-p), also the project's.
  SettingsCache(ConfigFinder &Finder, LintConfig Cli, std::string ProjectRoot,
                std::string BuildDir = "")
      : Finder(Finder), Cli(std::move(Cli)), ProjectRoot(std::move(ProjectRoot)),
        BuildDir(std::move(BuildDir)) {}
  /// The settings for \p File; safe to call from several threads.
  llvm::Expected<const LintSettings *> get(const std::string &File);

private:
  ConfigFinder &Finder;
  LintConfig Cli;
  std::string ProjectRoot, BuildDir;
  std::mutex Lock;
  std::map<std::string, std::unique_ptr<LintSettings>> ByDirectory;
};

} // namespace cal

#endif

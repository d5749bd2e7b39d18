//===- Lint.h - One translation unit: facts, rules, what is reported ------===//
//
// The part of a run that the command line and the LSP server share: analyze
// the parsed translation unit, run the enabled rules, drop what NOLINT
// comments suppress and the duplicate of a compound assignment's load and
// store, and sort the findings by position.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LINT_H
#define CUDA_ACCESS_LINT_TOOL_LINT_H

#include "analyzer/Analyzer.h"
#include "rules/Registry.h"
#include "rules/Rule.h"
#include "tool/Config.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Regex.h"

#include <chrono>
#include <memory>
#include <vector>

namespace cal {

struct LintSettings {
  AnalysisOptions Analysis;
  RuleSelection Selection;
  /// `--rule-option` values.
  RuleOptionValues RuleOptions;
  /// Kernels in headers whose path matches are analyzed too.
  std::shared_ptr<llvm::Regex> HeaderFilter;
  /// Kernels in headers whose path matches are not analyzed (project
  /// headers included).
  std::shared_ptr<llvm::Regex> ExcludeHeaderFilter;
  /// The project's directories (absolute): kernels of headers below them
  /// are analyzed, except in system headers (-isystem and the like) and
  /// the CUDA toolkit.
  std::vector<std::string> ProjectRoots;
  /// Directories whose headers are never the project's (the CUDA toolkit).
  std::vector<std::string> ExcludedRoots;
  /// --warnings-as-errors: findings of these rules are errors, and only
  /// errors make the exit status 1.
  std::optional<RuleSelection> WarningsAsErrors;
  /// Compiler arguments added by the configuration.
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  /// What the settings were made of (--dump-config).
  LintConfig Config;
  /// What the configuration says that is accepted but has no effect (a
  /// retired rule option), one line each.
  std::vector<std::string> Warnings;
};

/// True when \p Path lies in \p Dir (both absolute, normalized).
bool isUnder(llvm::StringRef Path, llvm::StringRef Dir);

struct LintTimes {
  double AnalysisMs = 0, RulesMs = 0;
  /// Findings that NOLINT comments suppressed.
  unsigned Suppressed = 0;
};

/// Lints one parsed translation unit. The findings point into \p Result,
/// which must outlive them. \p CompileErrors: where clang reported errors
/// in it (ParsedFile::ErrorLocs).
std::vector<Finding>
lintTranslationUnit(clang::ASTContext &Ctx, const LintSettings &Settings,
                    const std::vector<clang::SourceLocation> &CompileErrors,
                    AnalysisResult &Result, LintTimes *Times = nullptr);

} // namespace cal

#endif

//===- Lint.cpp -----------------------------------------------------------===//

#include "tool/Lint.h"

#include "rules/Suppression.h"
#include "frontend/BuiltinHeaders.h"
#include "report/FindingRecord.h"

#include "clang/Basic/SourceManager.h"

#include <set>
#include <tuple>

namespace cal {

bool isUnder(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Dir.empty())
    return false;
  Dir.consume_back("/");
  return Path.consume_front(Dir) && (Path.empty() || Path.front() == '/');
}

std::vector<Finding>
lintTranslationUnit(clang::ASTContext &Ctx, const LintSettings &Settings,
                    const std::vector<clang::SourceLocation> &CompileErrors,
                    AnalysisResult &Result, LintTimes *Times) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  AnalysisOptions AO = Settings.Analysis;
  AO.CompileErrors = CompileErrors;
  AO.IncludeKernel = [&SM, &Settings](clang::SourceLocation Loc) {
    clang::SourceLocation E = SM.getExpansionLoc(Loc);
    if (SM.isInMainFile(E))
      return true;
    if (SM.isInSystemHeader(E))
      return false;
    std::string Path = placeOf(SM, E).Path;
    if (Settings.ExcludeHeaderFilter && Settings.ExcludeHeaderFilter->match(Path))
      return false;
    if (Settings.HeaderFilter && Settings.HeaderFilter->match(Path))
      return true;
    for (const std::string &X : Settings.ExcludedRoots)
      if (isUnder(Path, X))
        return false;
    if (llvm::StringRef(Path).starts_with(BuiltinIncludeDir))
      return false;
    for (const std::string &Root : Settings.ProjectRoots)
      if (isUnder(Path, Root))
        return true;
    return false;
  };
  auto T0 = std::chrono::steady_clock::now();
  Result = analyze(Ctx, AO);
  auto T1 = std::chrono::steady_clock::now();
  RuleContext RC(Ctx, Result, AO, &Settings.RuleOptions);
  std::vector<Finding> Findings;
  for (const auto &Rule : allRules())
    if (Settings.Selection.enabled(Rule->info().Id))
      Rule->check(RC, Findings);
  auto T2 = std::chrono::steady_clock::now();
  if (Times) {
    Times->AnalysisMs = std::chrono::duration<double, std::milli>(T1 - T0).count();
    Times->RulesMs = std::chrono::duration<double, std::milli>(T2 - T1).count();
  }

  size_t Before = Findings.size();
  llvm::erase_if(Findings, [&](const Finding &F) {
    return isSuppressed(SM, F.Range.getBegin(), F.Rule);
  });
  if (Times)
    Times->Suppressed = Before - Findings.size();
  // `a[i] += x` is a load and a store of the same element: one finding when
  // both say the same thing.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string, std::string>>
      Seen;
  llvm::erase_if(Findings, [&](const Finding &F) {
    return !Seen
                .insert({F.Rule, F.Range.getBegin().getRawEncoding(),
                         F.Range.getEnd().getRawEncoding(), F.Kernel,
                         F.Message})
                .second;
  });
  std::stable_sort(Findings.begin(), Findings.end(),
                   [&](const Finding &A, const Finding &B) {
                     auto LA = SM.getExpansionLoc(A.Range.getBegin());
                     auto LB = SM.getExpansionLoc(B.Range.getBegin());
                     return LA != LB && SM.isBeforeInTranslationUnit(LA, LB);
                   });
  return Findings;
}

} // namespace cal

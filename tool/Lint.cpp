//===- Lint.cpp -----------------------------------------------------------===//

#include "tool/Lint.h"

#include "rules/Suppression.h"

#include "clang/Basic/SourceManager.h"

#include <set>
#include <tuple>

namespace cal {

std::vector<Finding> lintTranslationUnit(clang::ASTContext &Ctx,
                                         const LintSettings &Settings,
                                         AnalysisResult &Result,
                                         LintTimes *Times) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  AnalysisOptions AO = Settings.Analysis;
  std::shared_ptr<llvm::Regex> Filter = Settings.HeaderFilter;
  AO.IncludeKernel = [&SM, Filter](clang::SourceLocation Loc) {
    clang::SourceLocation E = SM.getExpansionLoc(Loc);
    if (SM.isInMainFile(E))
      return true;
    return Filter && !SM.isInSystemHeader(E) &&
           Filter->match(SM.getFilename(E));
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

  llvm::erase_if(Findings, [&](const Finding &F) {
    return isSuppressed(SM, F.Range.getBegin(), F.Rule);
  });
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

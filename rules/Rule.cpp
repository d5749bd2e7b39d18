//===- Rule.cpp -----------------------------------------------------------===//

#include "rules/Rule.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace cal {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

const char *fixKindName(FixKind K) {
  switch (K) {
  case FixKind::Pad:
    return "pad";
  case FixKind::Swizzle:
    return "swizzle";
  case FixKind::Vectorize:
    return "vectorize";
  case FixKind::StageShared:
    return "stage-shared";
  case FixKind::Interchange:
    return "interchange";
  case FixKind::Realign:
    return "realign";
  }
  return "pad";
}

const char *applicabilityName(Applicability A) {
  return A == Applicability::MachineApplicable ? "machine-applicable"
                                               : "suggestion";
}

std::string RuleContext::text(clang::SourceRange R) const {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::CharSourceRange CR = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
  if (CR.isInvalid())
    return "";
  std::string T =
      clang::Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
  std::string Out;
  bool Space = false;
  for (char C : T) {
    if (C == '\n' || C == '\t' || C == ' ' || C == '\r') {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

AnalysisResult
RuleContext::reanalyze(size_t Kernel,
                       const std::map<const clang::VarDecl *, int64_t> &Pad) const {
  AnalysisOptions O = Opts;
  O.Padding = Pad;
  return analyzeKernel(Ctx, Result.Kernels[Kernel], O);
}

} // namespace cal

//===- Rule.cpp -----------------------------------------------------------===//

#include "rules/Rule.h"

#include "analyzer/SourceText.h"

#include "clang/Basic/SourceManager.h"

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

std::string RuleContext::option(const RuleInfo &Rule,
                                llvm::StringRef Name) const {
  if (Options) {
    auto It = Options->find(Rule.Id + "." + Name.str());
    if (It != Options->end())
      return It->second;
  }
  for (const RuleOption &O : Rule.Options)
    if (O.Name == Name)
      return O.Default;
  return "";
}

double RuleContext::number(const RuleInfo &Rule, llvm::StringRef Name) const {
  double V = 0;
  if (llvm::StringRef(option(Rule, Name)).trim().getAsDouble(V))
    return 0;
  return V;
}

std::string RuleContext::text(clang::SourceRange R) const {
  return oneLineSourceText(R, Ctx);
}

AnalysisResult
RuleContext::reanalyze(size_t Kernel,
                       const std::map<const clang::VarDecl *, int64_t> &Pad,
                       bool FirstWarpOnly) const {
  AnalysisOptions O = Opts;
  O.Padding = Pad;
  O.OnlyPaddedArrays = true;
  O.FirstWarpOnly = FirstWarpOnly;
  O.RecordRows = false;
  return analyzeKernel(Ctx, Result.Kernels[Kernel], O);
}

AnalysisResult RuleContext::padded(size_t Kernel, const clang::VarDecl *Array,
                                   int64_t Pad, bool FirstWarpOnly,
                                   const RowLayout *Rows) const {
  if (std::optional<AnalysisResult> R = paddedFacts(
          Ctx, Opts, Result, Kernel, Array, Pad, FirstWarpOnly, Rows)) {
    ++Result.PaddingsFromRows;
    return std::move(*R);
  }
  ++Result.PaddingsReanalyzed;
  if (Rows)
    return analyzeLayout(Ctx, Opts, Result.Kernels[Kernel], Array,
                         rowPaddingRewrites(Ctx, *Rows, Pad), 0, FirstWarpOnly);
  return reanalyze(Kernel, {{Array, Pad}}, FirstWarpOnly);
}

} // namespace cal

//===- RuleUtil.cpp -------------------------------------------------------===//

#include "rules/RuleUtil.h"

#include "support/Location.h"

namespace cal {

Finding makeFinding(const RuleContext &Ctx, const AccessFacts &F,
                    const RuleInfo &Info) {
  Finding R;
  R.Rule = Info.Id;
  R.Sev = Info.DefaultSeverity;
  R.Facts = &F;
  R.Range = F.E->getSourceRange();
  R.Kernel = Ctx.Result.Kernels[F.Kernel].Name;
  R.Array = F.Array;
  return R;
}

void addCommonNotes(const RuleContext &Ctx, const AccessFacts &F, Finding &R) {
  const KernelInfo &K = Ctx.Result.Kernels[F.Kernel];
  std::string Shape = K.Shape.Dim ? dimText(*K.Shape.Dim) + " threads per block (" +
                                        K.Shape.Source + ")"
                                  : "block shape unknown";
  R.Notes.insert(R.Notes.begin(),
                 "in kernel `" + K.Name + "`, " + Shape);
  if (!F.Symbolic.empty())
    R.Notes.push_back("byte offset: " + F.Symbolic);
  const clang::SourceManager &SM = Ctx.Ctx.getSourceManager();
  for (const clang::Expr *Call : F.CallStack) {
    Position P = positionOf(SM, Call->getBeginLoc());
    R.Notes.push_back("inlined from the call at " +
                      llvm::sys::path::filename(P.File).str() + ":" +
                      std::to_string(P.Line));
  }
  for (const Assumption &A : F.Assumptions)
    R.Notes.push_back("assumption: " + A.Message);
}

} // namespace cal

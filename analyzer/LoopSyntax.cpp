//===- LoopSyntax.cpp -----------------------------------------------------===//

#include "analyzer/LoopSyntax.h"

namespace cal {

using namespace clang;

const VarDecl *namedVar(const Expr *E) {
  if (const auto *D =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(D->getDecl());
  return nullptr;
}

std::optional<CounterUpdate> counterUpdate(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    const VarDecl *VD = namedVar(U->getSubExpr());
    if (!U->isIncrementDecrementOp() || !VD)
      return std::nullopt;
    return CounterUpdate{VD, U->isIncrementOp() ? BO_Add : BO_Sub, nullptr};
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    const VarDecl *VD = namedVar(CA->getLHS());
    if (!VD)
      return std::nullopt;
    return CounterUpdate{
        VD, BinaryOperator::getOpForCompoundAssignment(CA->getOpcode()),
        CA->getRHS()};
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || B->getOpcode() != BO_Assign)
    return std::nullopt;
  const VarDecl *VD = namedVar(B->getLHS());
  const auto *R = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
  if (!VD || !R)
    return std::nullopt;
  if (namedVar(R->getLHS()) == VD)
    return CounterUpdate{VD, R->getOpcode(), R->getRHS()};
  if (R->getOpcode() == BO_Add && namedVar(R->getRHS()) == VD)
    return CounterUpdate{VD, BO_Add, R->getLHS()};
  return std::nullopt;
}

} // namespace cal

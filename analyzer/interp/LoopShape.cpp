//===- LoopShape.cpp ------------------------------------------------------===//
//
// What a loop's header and body say about its counter: linear updates,
// early exits, trip counts, the loop's symbol.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

std::optional<Interpreter::Impl::LinearUpdate>
Interpreter::Impl::linearUpdate(const Stmt *S) const {
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  };
  const Expr *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (!U->isIncrementDecrementOp())
      return std::nullopt;
    if (const VarDecl *VD = VarOf(U->getSubExpr()))
      return LinearUpdate{VD, nullptr, U->isIncrementOp() ? 1 : -1};
    return std::nullopt;
  }
  if (auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    if (CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign)
      return std::nullopt;
    if (const VarDecl *VD = VarOf(CA->getLHS()))
      return LinearUpdate{VD, CA->getRHS(),
                          CA->getOpcode() == BO_AddAssign ? 1 : -1};
    return std::nullopt;
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BO_Assign)
      return std::nullopt;
    const VarDecl *VD = VarOf(B->getLHS());
    auto *Sum = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (!VD || !Sum ||
        (Sum->getOpcode() != BO_Add && Sum->getOpcode() != BO_Sub))
      return std::nullopt;
    if (VarOf(Sum->getLHS()) == VD)
      return LinearUpdate{VD, Sum->getRHS(),
                          Sum->getOpcode() == BO_Add ? 1 : -1};
    if (Sum->getOpcode() == BO_Add && VarOf(Sum->getRHS()) == VD)
      return LinearUpdate{VD, Sum->getLHS(), 1};
  }
  return std::nullopt;
}

bool Interpreter::Impl::mentionsVar(const Stmt *E, const VarDecl *VD) {
  if (!E)
    return false;
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    if (D->getDecl() == VD)
      return true;
  for (const Stmt *C : E->children())
    if (mentionsVar(C, VD))
      return true;
  return false;
}

bool Interpreter::Impl::continues(const Stmt *S, bool Nested) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return !Nested;
  bool Loop = Nested || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
              isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
  for (const Stmt *C : S->children())
    if (continues(C, Loop))
      return true;
  return false;
}

bool Interpreter::Impl::exits(const Stmt *S, bool Continue, bool InLoop,
                              bool InSwitch) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<ContinueStmt>(S))
    return Continue && !InLoop;
  if (isa<BreakStmt>(S))
    return !InLoop && !InSwitch;
  bool Loop = InLoop || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
              isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
  bool Switch = InSwitch || isa<SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (exits(C, Continue, Loop, Switch))
      return true;
  return false;
}

bool Interpreter::Impl::jumpsOut(const Stmt *S) {
  return exits(S, /*Continue=*/true);
}

bool Interpreter::Impl::leavesEarly(const Stmt *S) {
  return exits(S, /*Continue=*/false);
}

void Interpreter::Impl::incrementsOf(const Expr *Inc,
                                     std::vector<LinearUpdate> &Out) const {
  if (!Inc)
    return;
  const Expr *E = Inc->IgnoreParenImpCasts();
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Comma) {
    incrementsOf(B->getLHS(), Out);
    incrementsOf(B->getRHS(), Out);
    return;
  }
  if (auto U = linearUpdate(E))
    Out.push_back(*U);
}

std::optional<AbsValue> Interpreter::Impl::deltaOf(
    const LinearUpdate &U,
    const llvm::SmallPtrSetImpl<const VarDecl *> &Modified) {
  if (!U.Delta)
    return AbsValue::integer(Poly(U.Sign));
  bool UsesModified = false;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *D = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        if (Modified.count(VD))
          UsesModified = true;
    if (isa<CallExpr>(S) && !isa<CXXOperatorCallExpr>(S))
      UsesModified = UsesModified || false;
    for (const Stmt *C : S->children())
      Visit(C);
  };
  Visit(U.Delta);
  if (UsesModified)
    return std::nullopt;
  size_t Mark = Out.size();
  AbsValue D = eval(U.Delta);
  Out.resize(Mark); // evaluated again inside the loop, where it belongs
  if (!D.isInt())
    return std::nullopt;
  if (U.Sign < 0) {
    auto N = D.Val.map([](const Poly &P) { return Poly::scale(P, -1); });
    if (!N)
      return std::nullopt;
    D.Val = *N;
  }
  return D;
}

std::optional<int64_t> Interpreter::Impl::tripCount(const Expr *Cond,
                                                    const VarDecl *IV,
                                                    const AbsValue &Start,
                                                    int64_t Step) {
  auto *B = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts()
                                                  : nullptr);
  if (!B || !B->isComparisonOp() || !(Start.isInt() || Start.isPointer()) ||
      Step == 0)
    return std::nullopt;
  auto IsIV = [&](const Expr *E) {
    if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return D->getDecl() == IV;
    return false;
  };
  const Expr *BoundE;
  BinaryOperatorKind Op = B->getOpcode();
  if (IsIV(B->getLHS())) {
    BoundE = B->getRHS();
  } else if (IsIV(B->getRHS())) {
    BoundE = B->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  } else {
    return std::nullopt;
  }
  size_t Mark = Out.size();
  AbsValue Bound = eval(BoundE);
  Out.resize(Mark);
  if (Start.isPointer()) {
    // Pointers into the same object: compare byte offsets.
    auto Size = sizeOf(Start.Pointee);
    if (!Bound.isPointer() || Bound.Region != Start.Region || !Size ||
        *Size <= 0)
      return std::nullopt;
    AbsValue S = AbsValue::integer(Start.Val);
    Bound = AbsValue::integer(Bound.Val);
    return tripCountOf(Op, S, Bound, Step * *Size);
  }
  if (!Bound.isInt())
    return std::nullopt;
  return tripCountOf(Op, Start, Bound, Step);
}

std::optional<int64_t> Interpreter::Impl::tripCountOf(BinaryOperatorKind Op,
                                                      const AbsValue &Start,
                                                      const AbsValue &Bound,
                                                      int64_t Step) {
  auto D = LaneVec::zip(Bound.Val, Start.Val, Poly::sub);
  if (!D)
    return std::nullopt;
  // The same for every lane and every warp (else none is reported): the
  // distance's range gives the trip count's range.
  std::optional<int64_t> MinDist, MaxDist;
  for (unsigned L = 0; L < WarpSize; ++L) {
    std::optional<std::pair<int64_t, int64_t>> R;
    if (auto C = D->lane(L).asConstant())
      R = std::make_pair(*C, *C);
    else
      R = range(D->lane(L));
    if (!R)
      return std::nullopt;
    MinDist = MinDist ? std::min(*MinDist, R->first) : R->first;
    MaxDist = MaxDist ? std::max(*MaxDist, R->second) : R->second;
  }
  auto Trips = [&](int64_t Dist) -> std::optional<int64_t> {
    if (Step > 0 && (Op == BO_LT || Op == BO_NE))
      return Dist <= 0 ? 0 : (Dist + Step - 1) / Step;
    if (Step > 0 && Op == BO_LE)
      return Dist < 0 ? 0 : Dist / Step + 1;
    if (Step < 0 && (Op == BO_GT || Op == BO_NE))
      return Dist >= 0 ? 0 : (-Dist + (-Step) - 1) / (-Step);
    if (Step < 0 && Op == BO_GE)
      return Dist > 0 ? 0 : (-Dist) / (-Step) + 1;
    return std::nullopt;
  };
  auto T1 = Trips(*MinDist), T2 = Trips(*MaxDist);
  if (T1 && T2)
    LastTripRange = TripBounds{std::min(*T1, *T2), std::max(*T1, *T2)};
  if (!T1 || !T2 || *T1 != *T2)
    return std::nullopt;
  return *T1;
}

SymbolId Interpreter::Impl::loopSymbol(const std::string &Name,
                                       std::optional<int64_t> Trip,
                                       SymbolKind Kind, int64_t Start,
                                       int64_t Step) {
  SymbolInfo Info;
  Info.Name = Name;
  Info.Kind = Kind;
  Info.Rank = 60 + static_cast<int>(Loops.size());
  if (Kind == SymbolKind::LoopIter) {
    Info.Min = 0;
    if (Trip)
      Info.Max = std::max<int64_t>(0, *Trip - 1);
    Info.Start = 0;
    Info.Step = 1;
  } else {
    Info.Start = Start;
    Info.Step = Step;
    if (Trip && *Trip > 0) {
      int64_t Last = Start + Step * (*Trip - 1);
      Info.Min = std::min(Start, Last);
      Info.Max = std::max(Start, Last);
    }
  }
  Info.Trip = Trip;
  return Syms.add(Info);
}

} // namespace cal

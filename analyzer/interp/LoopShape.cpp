//===- LoopShape.cpp ------------------------------------------------------===//
//
// What a loop's header and body say about its counter: linear updates,
// early exits, trip counts, the loop's symbol.
//
//===----------------------------------------------------------------------===//

#include "analyzer/LoopSyntax.h"
#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

std::optional<Interpreter::Impl::LinearUpdate>
Interpreter::Impl::linearUpdate(const Stmt *S) const {
  std::optional<CounterUpdate> U = counterUpdate(S);
  if (!U || (U->Op != BO_Add && U->Op != BO_Sub))
    return std::nullopt;
  return LinearUpdate{U->VD, U->Operand, U->Op == BO_Add ? 1 : -1};
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
  AbsValue D;
  {
    DiscardAccesses Discard(Out); // evaluated again inside the loop
    D = eval(U.Delta);
  }
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

Interpreter::Impl::LoopShape Interpreter::Impl::loopShape(const LoopParts &L) {
  LoopShape S;
  collectModified(L.Body, S.Modified);
  collectModified(L.Inc, S.Modified);
  collectModified(L.Cond, S.Modified);
  collectModified(L.Body, S.BodyModified);
  S.BodyLinear = bodyLinearUpdates(L.Body);
  findCounter(S, L);
  if (!S.IV && L.Cond && !jumpsOut(L.Body))
    findBodyCounter(S, L);
  return S;
}

std::vector<Interpreter::Impl::LinearUpdate>
Interpreter::Impl::bodyLinearUpdates(const Stmt *Body) {
  std::vector<LinearUpdate> Linear;
  if (continues(Body))
    return Linear;
  auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS) {
    if (auto U = linearUpdate(Body))
      Linear.push_back(*U);
    return Linear;
  }
  llvm::DenseMap<const VarDecl *, int> Count;
  for (const Stmt *S : CS->body())
    if (auto U = linearUpdate(S))
      ++Count[U->VD];
  for (const Stmt *S : CS->body())
    if (auto U = linearUpdate(S)) {
      llvm::SmallPtrSet<const VarDecl *, 8> Nested;
      for (const Stmt *Other : CS->body())
        if (Other != S)
          collectModified(Other, Nested);
      if (Count[U->VD] == 1 && !Nested.count(U->VD))
        Linear.push_back(*U);
    }
  return Linear;
}

void Interpreter::Impl::findCounter(LoopShape &S, const LoopParts &L) {
  std::vector<LinearUpdate> Incs;
  incrementsOf(L.Inc, Incs);
  // An integer counter first; else a pointer walked by the increment
  // (`for (; p < end; p += 256)`). Every other variable the increment
  // advances (`++k, p += 256`) advances with the iteration count.
  for (int Pass = 0; Pass < 2 && !S.IV; ++Pass)
    for (const LinearUpdate &U : Incs)
      if (!S.BodyModified.count(U.VD) && !S.IV) {
        auto D = deltaOf(U, S.Modified);
        auto E = Env.find(U.VD);
        if (D && E != Env.end() &&
            (Pass == 0 ? E->second.isInt() : E->second.isPointer())) {
          S.IV = U.VD;
          S.IVStart = E->second;
          S.IVStep = *D;
        }
      }
  for (const LinearUpdate &U : Incs)
    if (U.VD != S.IV && !S.BodyModified.count(U.VD))
      S.IncLinear.push_back(U);
  if (S.IV)
    if (std::optional<int64_t> Step = knownStep(*S.IVStep))
      S.Trip = tripCount(L.Cond, S.IV, *S.IVStart, *Step);
}

std::optional<int64_t> Interpreter::Impl::knownStep(const AbsValue &D) const {
  if (!D.isInt() || !D.Val.isUniform())
    return std::nullopt;
  if (auto C = D.Val.asConstant())
    return C;
  // `blockDim.x * gridDim.x` of a launch whose grid is constant: symbols
  // whose ranges hold one value.
  auto R = range(D.Val.uniform());
  if (R && R->first == R->second)
    return R->first;
  return std::nullopt;
}

void Interpreter::Impl::findBodyCounter(LoopShape &S, const LoopParts &L) {
  // The condition bounds the loop as well, when nothing jumps past the
  // update.
  for (const LinearUpdate &U : S.BodyLinear) {
    if (!mentionsVar(L.Cond, U.VD))
      continue;
    auto D = deltaOf(U, S.Modified);
    auto E = Env.find(U.VD);
    std::optional<int64_t> Known = D ? knownStep(*D) : std::nullopt;
    if (!Known || E == Env.end() || !E->second.isInt())
      continue;
    int64_t Step = *Known;
    TripCount T;
    if (isa<DoStmt>(L.Loop)) {
      // The condition sees the counter after the body's update.
      auto Next = LaneVec::zip(E->second.Val, LaneVec(Poly(Step)), Poly::add);
      if (!Next)
        continue;
      T = tripCount(L.Cond, U.VD, AbsValue::integer(*Next), Step);
      if (T.Exact)
        T.Exact = 1 + *T.Exact;
      if (T.Range)
        T.Range = TripBounds{T.Range->Min + 1, T.Range->Max + 1};
    } else {
      T = tripCount(L.Cond, U.VD, E->second, Step);
    }
    if (T.Exact) {
      S.BodyCounter = U.VD;
      S.Trip = T;
      return;
    }
  }
}

std::optional<std::pair<BinaryOperatorKind, const Expr *>>
Interpreter::Impl::counterComparison(const Expr *Cond, const VarDecl *IV) {
  auto *B = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts()
                                                  : nullptr);
  if (!B || !B->isComparisonOp())
    return std::nullopt;
  if (namedVar(B->getLHS()) == IV)
    return std::make_pair(B->getOpcode(), B->getRHS());
  if (namedVar(B->getRHS()) == IV)
    return std::make_pair(BinaryOperator::reverseComparisonOp(B->getOpcode()),
                          B->getLHS());
  return std::nullopt;
}

std::optional<std::pair<BinaryOperatorKind, const Expr *>>
Interpreter::Impl::offsetComparison(const Expr *Cond, const VarDecl *IV,
                                    const Expr *&Offset, bool &Subtract) {
  auto *B = dyn_cast_or_null<BinaryOperator>(Cond ? Cond->IgnoreParenImpCasts()
                                                  : nullptr);
  if (!B || !B->isComparisonOp())
    return std::nullopt;
  // Which side holds the counter plus or minus an offset.
  auto Split = [&](const Expr *E) -> bool {
    auto *A = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!A || (A->getOpcode() != BO_Add && A->getOpcode() != BO_Sub))
      return false;
    const Expr *Other = nullptr;
    if (namedVar(A->getLHS()) == IV)
      Other = A->getRHS();
    else if (A->getOpcode() == BO_Add && namedVar(A->getRHS()) == IV)
      Other = A->getLHS();
    if (!Other || mentionsVar(Other, IV))
      return false;
    Offset = Other;
    Subtract = A->getOpcode() == BO_Add;
    return true;
  };
  if (Split(B->getLHS()) && !mentionsVar(B->getRHS(), IV))
    return std::make_pair(B->getOpcode(), B->getRHS());
  if (Split(B->getRHS()) && !mentionsVar(B->getLHS(), IV))
    return std::make_pair(BinaryOperator::reverseComparisonOp(B->getOpcode()),
                          B->getLHS());
  Offset = nullptr;
  return std::nullopt;
}

Interpreter::Impl::TripCount Interpreter::Impl::tripCount(const Expr *Cond,
                                                          const VarDecl *IV,
                                                          const AbsValue &Start,
                                                          int64_t Step) {
  if (!(Start.isInt() || Start.isPointer()) || Step == 0)
    return {};
  auto Cmp = counterComparison(Cond, IV);
  // `i + c <= n`, `c + i < n`, `i - c < n`: the counter against n - c
  // (n + c), c not depending on the counter.
  const Expr *OffsetE = nullptr;
  bool Subtract = true;
  if (!Cmp)
    Cmp = offsetComparison(Cond, IV, OffsetE, Subtract);
  if (!Cmp)
    return {};
  auto [Op, BoundE] = *Cmp;
  AbsValue Bound;
  {
    DiscardAccesses Discard(Out);
    Bound = eval(BoundE);
    if (OffsetE) {
      AbsValue Off = eval(OffsetE);
      if (!Bound.isInt() || !Off.isInt())
        return {};
      auto Adjusted =
          LaneVec::zip(Bound.Val, Off.Val, Subtract ? Poly::sub : Poly::add);
      if (!Adjusted)
        return {};
      Bound = AbsValue::integer(*Adjusted);
    }
  }
  if (Start.isPointer()) {
    // Pointers into the same object: compare byte offsets.
    auto Size = sizeOf(Start.Pointee);
    if (!Bound.isPointer() || Bound.Region != Start.Region || !Size ||
        *Size <= 0)
      return {};
    AbsValue S = AbsValue::integer(Start.Val);
    Bound = AbsValue::integer(Bound.Val);
    return tripCountOf(Op, S, Bound, Step * *Size);
  }
  if (!Bound.isInt())
    return {};
  return tripCountOf(Op, Start, Bound, Step);
}

Interpreter::Impl::TripCount
Interpreter::Impl::tripCountOf(BinaryOperatorKind Op, const AbsValue &Start,
                               const AbsValue &Bound, int64_t Step) {
  auto D = LaneVec::zip(Bound.Val, Start.Val, Poly::sub);
  if (!D)
    return {};
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
      return {};
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
  if (!T1 || !T2)
    return {};
  TripCount T;
  T.Range = TripBounds{std::min(*T1, *T2), std::max(*T1, *T2)};
  if (*T1 == *T2)
    T.Exact = *T1;
  return T;
}

std::optional<Interpreter::Impl::GeometricUpdate>
Interpreter::Impl::geometricUpdate(
    const Expr *Inc,
    const llvm::SmallPtrSetImpl<const VarDecl *> &BodyModified) {
  auto ConstOf = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  };
  std::optional<CounterUpdate> U = counterUpdate(Inc);
  if (!U || !U->Operand)
    return std::nullopt;
  const VarDecl *VD = U->VD;
  BinaryOperatorKind Op = U->Op;
  std::optional<int64_t> K = ConstOf(U->Operand);
  if (!K || BodyModified.count(VD) || !VD->getType()->isIntegerType())
    return std::nullopt;
  if (!((Op == BO_Mul && *K > 1) || (Op == BO_Div && *K > 1) ||
        ((Op == BO_Shl || Op == BO_Shr) && *K > 0 && *K < 31)))
    return std::nullopt;
  return GeometricUpdate{VD, Op, *K};
}

std::optional<std::pair<const VarDecl *, int64_t>>
Interpreter::Impl::geometricTrip(
    const LoopParts &L,
    const llvm::SmallPtrSetImpl<const VarDecl *> &BodyModified,
    llvm::function_ref<AbsValue(const VarDecl *)> Start) {
  if (!L.Cond || !L.Inc || jumpsOut(L.Body))
    return std::nullopt;
  auto G = geometricUpdate(L.Inc, BodyModified);
  if (!G)
    return std::nullopt;
  auto Cmp = counterComparison(L.Cond, G->VD);
  if (!Cmp)
    return std::nullopt;
  AbsValue Bound;
  {
    DiscardAccesses Discard(Out);
    Bound = eval(Cmp->second);
  }
  AbsValue First = Start(G->VD);
  auto B0 = Bound.isInt() ? Bound.Val.asConstant() : std::nullopt;
  auto S0 = First.isInt() ? First.Val.asConstant() : std::nullopt;
  if (!B0 || !S0)
    return std::nullopt;
  auto Holds = [&, Op = Cmp->first](int64_t V) {
    switch (Op) {
    case BO_LT:
      return V < *B0;
    case BO_LE:
      return V <= *B0;
    case BO_GT:
      return V > *B0;
    case BO_GE:
      return V >= *B0;
    case BO_NE:
      return V != *B0;
    default:
      return false;
    }
  };
  int64_t X = *S0, N = 0;
  while (Holds(X)) {
    if (++N > 64)
      return std::nullopt;
    int64_t Next = G->Op == BO_Mul   ? X * G->K
                   : G->Op == BO_Div ? X / G->K
                   : G->Op == BO_Shl ? X << G->K
                                     : X >> G->K;
    if (Next == X || std::abs(Next) > (int64_t(1) << 40))
      return std::nullopt;
    X = Next;
  }
  return std::make_pair(G->VD, N);
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

//===- Loops.cpp ----------------------------------------------------------===//
//
// Loops: walked once with the iteration as a symbol, or iteration by
// iteration when the condition is a constant at every test.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

template <typename EntryFn>
std::optional<std::pair<const VarDecl *, int64_t>>
Interpreter::Impl::geometricTrip(
    const Expr *Cond, const Expr *Inc, const Stmt *Body,
    const llvm::SmallPtrSetImpl<const VarDecl *> &BodyModified,
    EntryFn EntryValue) {
  if (!Cond || !Inc || jumpsOut(Body))
    return std::nullopt;
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  };
  auto ConstOf = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  };
  const Expr *E = Inc->IgnoreParenImpCasts();
  const VarDecl *VD = nullptr;
  BinaryOperatorKind Op = BO_Comma;
  std::optional<int64_t> K;
  if (auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    VD = VarOf(CA->getLHS());
    Op = BinaryOperator::getOpForCompoundAssignment(CA->getOpcode());
    K = ConstOf(CA->getRHS());
  } else if (auto *B = dyn_cast<BinaryOperator>(E);
             B && B->getOpcode() == BO_Assign) {
    VD = VarOf(B->getLHS());
    if (auto *R = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
        R && VarOf(R->getLHS()) == VD) {
      Op = R->getOpcode();
      K = ConstOf(R->getRHS());
    }
  }
  if (!VD || !K || BodyModified.count(VD) || !VD->getType()->isIntegerType())
    return std::nullopt;
  if (!((Op == BO_Mul && *K > 1) || (Op == BO_Div && *K > 1) ||
        ((Op == BO_Shl || Op == BO_Shr) && *K > 0 && *K < 31)))
    return std::nullopt;
  auto *C = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!C || !C->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind Cmp = C->getOpcode();
  const Expr *BoundE;
  if (VarOf(C->getLHS()) == VD) {
    BoundE = C->getRHS();
  } else if (VarOf(C->getRHS()) == VD) {
    BoundE = C->getLHS();
    Cmp = BinaryOperator::reverseComparisonOp(Cmp);
  } else {
    return std::nullopt;
  }
  size_t Mark = Out.size();
  AbsValue Bound = eval(BoundE);
  Out.resize(Mark);
  AbsValue Start = EntryValue(VD);
  auto B0 = Bound.isInt() ? Bound.Val.asConstant() : std::nullopt;
  auto S0 = Start.isInt() ? Start.Val.asConstant() : std::nullopt;
  if (!B0 || !S0)
    return std::nullopt;
  int64_t X = *S0, N = 0;
  auto Holds = [&](int64_t V) {
    switch (Cmp) {
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
  while (Holds(X)) {
    if (++N > 64)
      return std::nullopt;
    int64_t Next = Op == BO_Mul   ? X * *K
                   : Op == BO_Div ? X / *K
                   : Op == BO_Shl ? X << *K
                                  : X >> *K;
    if (Next == X || std::abs(Next) > (int64_t(1) << 40))
      return std::nullopt;
    X = Next;
  }
  return std::make_pair(VD, N);
}

bool Interpreter::Impl::concreteIterations(const Expr *Cond, const Expr *Inc,
                                           const Stmt *Body,
                                           const DeclStmt *CondVar) {
  // The display walk keeps the loop symbolic: the readable form names
  // the loop's variables (`4*(threadIdx.x + 256*cur)`), not one
  // iteration's values.
  if (!Cond || jumpsOut(Body) || W.Display)
    return false;
  if (OnlyPadded && Padding) {
    bool Names = false;
    for (const auto &[VD, Pad] : *Padding)
      Names = Names || mentionsVar(Body, VD) || mentionsVar(Cond, VD) ||
              mentionsVar(Inc, VD);
    if (!Names)
      return false;
  }
  Snapshot Before = snapshot();
  size_t Mark = Before.OutSize;
  unsigned N = 0;
  while (true) {
    if (CondVar)
      exec(CondVar);
    ++Unused;
    AbsValue C = eval(Cond);
    --Unused;
    std::optional<int64_t> Go =
        C.isInt() && C.Val.isUniform() ? C.Val.asConstant() : std::nullopt;
    if (!Go || (*Go && N == MaxConcreteIterations) ||
        (Budget && Budget->spent())) {
      restore(Before);
      return false;
    }
    if (!*Go)
      break;
    ++N;
    exec(Body);
    if (Inc)
      eval(Inc);
  }
  std::string Note = "the loop on `" + text(Cond) +
                     "` evaluated iteration by "
                     "iteration (" +
                     std::to_string(N) + " iteration" + (N == 1 ? "" : "s") +
                     "); the facts are averages over them";
  for (size_t I = Mark; I < Out.size(); ++I)
    if (std::find(Out[I].Assumptions.begin(), Out[I].Assumptions.end(), Note) ==
        Out[I].Assumptions.end())
      Out[I].Assumptions.push_back(Note);
  return true;
}

void Interpreter::Impl::execLoop(const Stmt *Loop, const Stmt *Init,
                                 const Expr *Cond, const Expr *Inc,
                                 const Stmt *Body, const DeclStmt *CondVar) {
  if (Init)
    exec(Init);
  llvm::SmallPtrSet<const VarDecl *, 8> Modified;
  collectModified(Body, Modified);
  collectModified(Inc, Modified);
  collectModified(Cond, Modified);

  // The induction variable: updated in the increment only.
  std::vector<LinearUpdate> Incs;
  incrementsOf(Inc, Incs);
  llvm::SmallPtrSet<const VarDecl *, 8> BodyModified;
  collectModified(Body, BodyModified);
  // Linear updates at the top level of the body, each variable once (and
  // none when a `continue` may skip them).
  std::vector<LinearUpdate> BodyLinear;
  if (continues(Body)) {
    // no linear body updates
  } else if (auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
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
          BodyLinear.push_back(*U);
      }
  } else if (auto U = linearUpdate(Body)) {
    BodyLinear.push_back(*U);
  }

  // The loop's symbol and the variables that advance with it.
  std::string IVName;
  const VarDecl *IV = nullptr;
  std::optional<AbsValue> IVStart, IVStep;
  // An integer counter first; else a pointer walked by the increment
  // (`for (; p < end; p += 256)`). Every other variable the increment
  // advances (`++k, p += 256`) advances with the iteration count.
  std::vector<LinearUpdate> IncLinear;
  for (int Pass = 0; Pass < 2 && !IV; ++Pass)
    for (const LinearUpdate &U : Incs)
      if (!BodyModified.count(U.VD) && !IV) {
        auto D = deltaOf(U, Modified);
        auto S = Env.find(U.VD);
        if (D && S != Env.end() &&
            (Pass == 0 ? S->second.isInt() : S->second.isPointer())) {
          IV = U.VD;
          IVStart = S->second;
          IVStep = *D;
          IVName = U.VD->getNameAsString();
        }
      }
  for (const LinearUpdate &U : Incs)
    if (U.VD != IV && !BodyModified.count(U.VD))
      IncLinear.push_back(U);
  std::optional<int64_t> Trip;
  std::optional<TripBounds> TripRange;
  LastTripRange.reset();
  if (IV && IVStep->Val.asConstant()) {
    Trip = tripCount(Cond, IV, *IVStart, *IVStep->Val.asConstant());
    TripRange = LastTripRange;
  }
  // A while/do loop whose counter is advanced once at the top level of
  // its body (`while (c < n) { ...; ++c; }`): the condition bounds it as
  // well, when nothing jumps past the update.
  const VarDecl *BodyCounter = nullptr;
  if (!IV && Cond && !jumpsOut(Body)) {
    for (const LinearUpdate &U : BodyLinear) {
      if (!mentionsVar(Cond, U.VD))
        continue;
      auto D = deltaOf(U, Modified);
      auto S = Env.find(U.VD);
      if (!D || !D->Val.asConstant() || S == Env.end() || !S->second.isInt())
        continue;
      int64_t Step = *D->Val.asConstant();
      LastTripRange.reset();
      if (isa<DoStmt>(Loop)) {
        // The condition sees the counter after the body's update.
        auto Next = LaneVec::zip(S->second.Val, LaneVec(Poly(Step)), Poly::add);
        if (!Next)
          continue;
        if (auto T = tripCount(Cond, U.VD, AbsValue::integer(*Next), Step))
          Trip = 1 + *T;
        if (LastTripRange)
          LastTripRange =
              TripBounds{LastTripRange->first + 1, LastTripRange->second + 1};
      } else {
        Trip = tripCount(Cond, U.VD, S->second, Step);
      }
      if (Trip) {
        BodyCounter = U.VD;
        TripRange = LastTripRange;
        break;
      }
    }
  }

  // A loop whose counter does not advance linearly (`st *= 2`,
  // `s >>= 1`) but whose condition is a constant at every iteration: run
  // it as the hardware does, iteration by iteration.
  if (!IV && !BodyCounter && concreteIterations(Cond, Inc, Body, CondVar))
    return;
  Snapshot BeforeLoop = snapshot();
  unsigned UndecidedBefore = UndecidedConds;

  SymbolId Sym;
  // The display walk names the loop variable itself.
  bool DisplayVar =
      W.Display && IV && IVStart->isInt() && IVStart->Val.isUniform();
  if (DisplayVar) {
    Sym = loopSymbol(IVName, Trip, SymbolKind::LoopVar,
                     IVStart->Val.asConstant().value_or(0),
                     IVStep->Val.asConstant().value_or(1));
  } else {
    std::string Name = IV ? IVName : "iter";
    if (!W.Display || IV == nullptr || !IVStart->isInt() ||
        !IVStart->Val.isUniform())
      Name = "iter(" + (IV ? IVName : std::string("loop")) + ")";
    Sym = loopSymbol(Name, Trip, SymbolKind::LoopIter);
  }
  Poly K = Poly::symbol(Sym);
  // What other variables advance by: the iteration count.
  Poly KIter = DisplayVar ? Poly::symbol(loopSymbol("iter(" + IVName + ")",
                                                    Trip, SymbolKind::LoopIter))
                          : K;

  // Everything modified in the loop is unknown on entry to the body,
  // except what advances linearly with the iteration count.
  std::vector<std::pair<const VarDecl *, AbsValue>> Entry;
  for (const VarDecl *VD : Modified) {
    auto It = Env.find(VD);
    Entry.push_back({VD, It == Env.end() ? AbsValue::unknown("") : It->second});
  }
  for (const VarDecl *VD : Modified)
    Env[VD] = unknownPointer(Env[VD], "`" + VD->getNameAsString() +
                                          "` is modified in a loop");
  auto EntryValue = [&](const VarDecl *VD) -> AbsValue {
    for (auto &[D, V] : Entry)
      if (D == VD)
        return V;
    return AbsValue::unknown("");
  };
  std::function<AbsValue(const AbsValue &, const AbsValue &, const Poly &)>
      AdvanceImpl;
  auto Advance = [&](const AbsValue &Start, const AbsValue &Delta,
                     const Poly &By) -> AbsValue {
    AbsValue R = AdvanceImpl(Start, Delta, By);
    if (!R.isUnknown())
      R.assuming(Start).assuming(Delta);
    return R;
  };
  AdvanceImpl = [&](const AbsValue &Start, const AbsValue &Delta,
                    const Poly &By) -> AbsValue {
    if (!Delta.isInt())
      return AbsValue::unknown("");
    auto Steps = Delta.Val.map([&](const Poly &P) { return Poly::mul(P, By); });
    if (!Steps)
      return AbsValue::unknown("overflow");
    if (Start.isInt()) {
      auto S = LaneVec::zip(Start.Val, *Steps, Poly::add);
      return S ? AbsValue::integer(*S) : AbsValue::unknown("overflow");
    }
    if (Start.isPointer()) {
      auto Size = sizeOf(Start.Pointee);
      if (!Size)
        return AbsValue::unknown("");
      auto Bytes =
          Steps->map([&](const Poly &P) { return Poly::scale(P, *Size); });
      if (!Bytes)
        return AbsValue::unknown("overflow");
      auto S = LaneVec::zip(Start.Val, *Bytes, Poly::add);
      return S ? AbsValue::pointer(Start.Region, *S, Start.Pointee)
               : AbsValue::unknown("overflow");
    }
    return AbsValue::unknown("");
  };
  if (IV) {
    if (DisplayVar)
      Env[IV] = AbsValue::integer(K);
    else
      Env[IV] = Advance(*IVStart, *IVStep, K);
  }
  std::vector<std::pair<const VarDecl *, AbsValue>> Linear;
  for (const LinearUpdate &U : IncLinear) {
    auto D = deltaOf(U, Modified);
    if (!D)
      continue;
    AbsValue Start = EntryValue(U.VD);
    Env[U.VD] = Advance(Start, *D, KIter);
    Linear.push_back({U.VD, *D});
  }
  for (const LinearUpdate &U : BodyLinear) {
    if (U.VD == IV)
      continue;
    auto D = deltaOf(U, Modified);
    if (!D)
      continue;
    AbsValue Start = EntryValue(U.VD);
    Env[U.VD] = Advance(Start, *D, KIter);
    Linear.push_back({U.VD, *D});
  }

  LoopRef Ref;
  Ref.Loop = Loop;
  Ref.Sym = Sym;
  Ref.VarName = IV ? IVName : BodyCounter ? BodyCounter->getNameAsString() : "";
  if (!Trip && !IV && !BodyCounter)
    if (auto G = geometricTrip(Cond, Inc, Body, BodyModified, EntryValue)) {
      Trip = G->second;
      Ref.VarName = G->first->getNameAsString();
      Syms.get(Sym).Trip = Trip;
      Syms.get(Sym).Max = std::max<int64_t>(0, *Trip - 1);
      Syms.get(Sym).Name = "iter(" + Ref.VarName + ")";
    }
  Ref.Trip = Trip;
  if (Trip)
    Ref.TripMin = Ref.TripMax = Trip;
  else if (TripRange) {
    Ref.TripMin = TripRange->first;
    Ref.TripMax = TripRange->second;
  }
  // A loop that a break, return or goto may leave early: the header's
  // count is an upper bound only.
  if (leavesEarly(Body)) {
    Ref.Trip.reset();
    Ref.TripMin.reset();
  }
  Loops.push_back(Ref);

  // Integers updated other than linearly (`cur = 1 - cur`, `s >>= 1`)
  // that stay the same for every lane: a warp-uniform symbol each, fresh
  // for the loop, when a trial walk of the body with them as symbols
  // leaves every one of them lane-uniform (repeated until no candidate
  // fails: a failing one is unknown, which is not uniform).
  llvm::SmallPtrSet<const VarDecl *, 8> Skip;
  if (IV)
    Skip.insert(IV);
  for (auto &[VD, D] : Linear)
    Skip.insert(VD);
  std::vector<const VarDecl *> Uniform;
  // A lane-dependent continue/break/return could skip an update for some
  // lanes only: then nothing is taken as uniform.
  for (const VarDecl *VD : jumpsOut(Body) ? decltype(Modified)() : Modified) {
    if (Skip.count(VD) || !VD->getType()->isIntegerType())
      continue;
    AbsValue E = EntryValue(VD);
    if (isUniformInt(E))
      Uniform.push_back(VD);
  }
  std::sort(Uniform.begin(), Uniform.end(),
            [](const VarDecl *A, const VarDecl *B) {
              return A->getBeginLoc() < B->getBeginLoc();
            });
  // One pass over the loop's condition, body and increment.
  auto runIteration = [&] {
    if (CondVar)
      exec(CondVar);
    if (Cond) {
      ++Unused;
      eval(Cond);
      --Unused;
    }
    exec(Body);
    if (Inc)
      eval(Inc);
  };
  while (!Uniform.empty()) {
    for (const VarDecl *VD : Uniform)
      Env[VD] = AbsValue::integer(Poly::symbol(
          opaqueSymbol("loop-uniform:" + std::to_string(Syms.size()),
                       VD->getNameAsString())));
    auto SavedEnv = Env;
    auto SavedRefs = Refs;
    auto SavedFrames = Frames;
    size_t Mark = Out.size();
    bool SavedNeed = NeedConcrete;
    LaneMask SavedActive = Active;
    runIteration();
    std::vector<const VarDecl *> Kept;
    for (const VarDecl *VD : Uniform)
      if (isUniformInt(Env[VD]))
        Kept.push_back(VD);
    Env = std::move(SavedEnv);
    Refs = std::move(SavedRefs);
    Frames = std::move(SavedFrames);
    Out.resize(Mark);
    NeedConcrete = SavedNeed;
    Active = SavedActive;
    if (Kept.size() == Uniform.size())
      break;
    for (const VarDecl *VD : Uniform)
      if (std::find(Kept.begin(), Kept.end(), VD) == Kept.end())
        Env[VD] = AbsValue::unknown("`" + VD->getNameAsString() +
                                    "` is modified in a loop");
    Uniform = std::move(Kept);
  }
  for (const VarDecl *VD : Uniform)
    for (const Poly::Term &T : Env[VD].Val.uniform().terms())
      for (SymbolId S : T.Mono)
        Loops.back().Varying.push_back(S);

  runIteration();
  Loops.pop_back();

  // A branch in the body that the loop's counter decides per lane
  // (`if (tx <= m)`): with a small constant trip count, the loop is run
  // iteration by iteration instead, each with its own active lanes.
  if (UndecidedConds > UndecidedBefore && Trip &&
      *Trip <= MaxConcreteIterations && !jumpsOut(Body)) {
    Snapshot Symbolic = snapshot();
    std::vector<RawAccess> SymbolicOut(
        std::make_move_iterator(Out.begin() + BeforeLoop.OutSize),
        std::make_move_iterator(Out.end()));
    restore(BeforeLoop);
    if (concreteIterations(Cond, Inc, Body, CondVar))
      return;
    Out.insert(Out.end(), std::make_move_iterator(SymbolicOut.begin()),
               std::make_move_iterator(SymbolicOut.end()));
    restore(Symbolic);
  }

  // After the loop.
  for (const VarDecl *VD : Modified)
    Env[VD] =
        unknownPointer(Env[VD], "`" + VD->getNameAsString() + "` after a loop");
  // (A loop that may be left early ends after an unknown number of
  // iterations: its variables stay unknown. A `continue` skips no update
  // of these: body updates are not linear when one may skip them.)
  bool Early = leavesEarly(Body);
  // The variables the same for every lane through the loop: the uniform
  // ones, and the counters that start and step uniformly.
  auto UniformAfter = [&] {
    llvm::SmallPtrSet<const VarDecl *, 8> U(Uniform.begin(), Uniform.end());
    if (IV && isUniformInt(*IVStart) && isUniformInt(*IVStep))
      U.insert(IV);
    for (auto &[VD, D] : Linear)
      if (isUniformInt(EntryValue(VD)) && isUniformInt(D))
        U.insert(VD);
    return U;
  };
  if (Trip && !Early) {
    Poly N(*Trip);
    for (auto &[VD, D] : Linear)
      Env[VD] = Advance(EntryValue(VD), D, N);
    if (IV && !DisplayVar)
      Env[IV] = Advance(*IVStart, *IVStep, N);
  } else if (!Trip && !Early && Cond && (IV || !Linear.empty())) {
    // An unknown trip count that is the same for every lane (a condition
    // of lane-uniform values: `k < nz - 1`): the counters end at their
    // start plus the step times that count, a symbol of its own.
    llvm::SmallPtrSet<const VarDecl *, 8> U = UniformAfter();
    if (uniformExpr(Cond, U)) {
      std::string Name = Ref.VarName.empty() ? "loop" : Ref.VarName;
      SymbolId NS = opaqueSymbol("trips:" + std::to_string(Syms.size()),
                                 "trips(" + Name + ")");
      Syms.get(NS).Min = 0;
      Poly N = Poly::symbol(NS);
      for (auto &[VD, D] : Linear)
        Env[VD] = Advance(EntryValue(VD), D, N);
      if (IV)
        Env[IV] = Advance(*IVStart, *IVStep, N);
    }
  }
  // The uniform ones are still uniform after the loop when every lane
  // leaves it after the same iteration: a condition of uniform values,
  // no early exit.
  if (!Uniform.empty() && !jumpsOut(Body)) {
    llvm::SmallPtrSet<const VarDecl *, 8> U = UniformAfter();
    if (!Cond || uniformExpr(Cond, U))
      for (const VarDecl *VD : Uniform)
        Env[VD] = AbsValue::integer(Poly::symbol(
            opaqueSymbol("loop-uniform:" + std::to_string(Syms.size()),
                         VD->getNameAsString())));
  }
}

} // namespace cal

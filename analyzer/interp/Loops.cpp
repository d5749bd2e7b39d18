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

bool Interpreter::Impl::concreteIterations(const LoopParts &L,
                                           bool CertainPrefix) {
  // The display walk keeps the loop symbolic: the readable form names
  // the loop's variables (`4*(threadIdx.x + 256*cur)`), not one
  // iteration's values.
  if (!L.Cond || jumpsOut(L.Body) || W.Display)
    return false;
  if (OnlyPadded && Padding) {
    bool Names = false;
    for (const auto &[VD, Pad] : *Padding)
      Names = Names || mentionsVar(L.Body, VD) || mentionsVar(L.Cond, VD) ||
              mentionsVar(L.Inc, VD);
    if (!Names)
      return false;
  }
  Snapshot Before = snapshot();
  size_t Mark = Before.OutSize;
  // A counter scaled by a constant (`s *= 2`): its value at each iteration
  // run, for a prefix of certain iterations.
  std::optional<GeometricUpdate> G;
  if (CertainPrefix && L.Inc) {
    llvm::SmallPtrSet<const VarDecl *, 8> BodyModified;
    collectModified(L.Body, BodyModified);
    G = geometricUpdate(L.Inc, BodyModified);
  }
  std::vector<int64_t> Values;
  unsigned N = 0;
  while (true) {
    if (L.CondVar)
      exec(L.CondVar);
    AbsValue C;
    {
      llvm::SaveAndRestore<unsigned> NotUsed(Unused, Unused + 1);
      C = eval(L.Cond);
    }
    std::optional<int64_t> Go =
        C.isInt() && C.Val.isUniform() ? C.Val.asConstant() : std::nullopt;
    bool Spent = Budget && Budget->spent();
    if (!Go && G && !Spent && N < MaxConcreteIterations &&
        certainPrefixEnds(L, *G, C)) {
      keepCertainPrefix(L, *G, Values, Mark);
      noteIteratedLoop(L);
      return true;
    }
    if (!Go || (*Go && N == MaxConcreteIterations) || Spent) {
      restore(Before);
      return false;
    }
    if (!*Go)
      break;
    ++N;
    if (G) {
      // A counter whose values are not known (`s = blockDim.x / 2`) has no
      // certain iterations to keep.
      const AbsValue &V = Env[G->VD];
      if (V.isInt() && V.Val.isUniform() && V.Val.asConstant())
        Values.push_back(*V.Val.asConstant());
      else
        G.reset();
    }
    exec(L.Body);
    if (L.Inc)
      eval(L.Inc);
  }
  Assumption Note{Assumption::Kind::LoopIterations, text(L.Cond),
                  "the loop on `" + text(L.Cond) +
                      "` evaluated iteration by iteration (" +
                      std::to_string(N) + " iteration" + (N == 1 ? "" : "s") +
                      "); the facts are averages over them"};
  for (size_t I = Mark; I < Out.size(); ++I)
    addAssumption(Out[I].Assumptions, Note);
  noteIteratedLoop(L);
  return true;
}

void Interpreter::Impl::noteIteratedLoop(const LoopParts &L) {
  if (!Recipes)
    return;
  // The test that a padding search's walk makes above (OnlyPadded).
  for (const VarDecl *VD : Recipes->Arrays)
    if (!mentionsVar(L.Body, VD) && !mentionsVar(L.Cond, VD) &&
        !mentionsVar(L.Inc, VD))
      MissedByIteratedLoops.insert(VD);
}

bool Interpreter::Impl::certainPrefixEnds(const LoopParts &L,
                                          const GeometricUpdate &G,
                                          const AbsValue &Cond) {
  // Not a split of the lanes (that is a per-lane condition), but a bound
  // the same for every lane that the values cannot decide, with the
  // counter's value known.
  if (Cond.isInt())
    return false;
  auto It = Env.find(G.VD);
  if (It == Env.end() || !It->second.isInt() || !It->second.Val.isUniform() ||
      !It->second.Val.asConstant())
    return false;
  llvm::SmallPtrSet<const VarDecl *, 8> Counter;
  Counter.insert(G.VD);
  return uniformExpr(L.Cond, Counter);
}

void Interpreter::Impl::keepCertainPrefix(const LoopParts &L,
                                          const GeometricUpdate &G,
                                          std::vector<int64_t> &Values,
                                          size_t Mark) {
  std::string Name = G.VD->getNameAsString();
  // No iteration is certain whatever the bound: the first one is, whenever
  // the loop runs at all.
  bool Certain = !Values.empty();
  if (!Certain) {
    Values.push_back(*Env[G.VD].Val.asConstant());
    exec(L.Body);
    if (L.Inc)
      eval(L.Inc);
  }
  std::string List = Name + " = ";
  for (size_t I = 0; I < Values.size(); ++I)
    List += (I ? ", " : "") + std::to_string(Values[I]);
  size_t K = Values.size();
  std::string Which =
      K == 1 ? "its first iteration (" + List + ")"
             : "its first " + std::to_string(K) + " iterations (" + List + ")";
  Assumption Note{
      Assumption::Kind::LoopPrefix, text(L.Cond),
      "the loop on `" + text(L.Cond) + "` analyzed for " + Which +
          (Certain ? (K == 1 ? ", which runs" : ", which run") +
                         std::string(" whatever its bound is")
                   : ", which runs whenever the loop runs at all") +
          "; the later ones depend on the bound and are not analyzed" +
          (K > 1 ? " (the facts are averages over those " +
                       std::to_string(K) + ")"
                 : "")};
  // The loop stands around its accesses with an unknown trip count (at
  // least the certain iterations), and no symbol for its iteration.
  LoopRef Ref;
  Ref.Loop = L.Loop;
  Ref.Attributes = L.Attributes;
  Ref.Sym =
      loopSymbol("iter(" + Name + ")", std::nullopt, SymbolKind::LoopIter);
  Ref.VarName = Name;
  if (Certain)
    Ref.TripMin = static_cast<int64_t>(K);
  Ref.IterationsApart = true;
  size_t Depth = Loops.size();
  for (size_t I = Mark; I < Out.size(); ++I) {
    RawAccess &A = Out[I];
    A.Loops.insert(A.Loops.begin() + std::min(Depth, A.Loops.size()), Ref);
    addAssumption(A.Assumptions, Note);
  }
  llvm::SmallPtrSet<const VarDecl *, 8> Modified;
  collectModified(L.Cond, Modified);
  collectModified(L.Body, Modified);
  if (L.Inc)
    collectModified(L.Inc, Modified);
  for (const VarDecl *VD : Modified)
    Env[VD] =
        unknownPointer(Env[VD], "`" + VD->getNameAsString() + "` after a loop");
}

void Interpreter::Impl::execLoop(const Stmt *Loop, const Stmt *Init,
                                 const Expr *Cond, const Expr *Inc,
                                 const Stmt *Body, const DeclStmt *CondVar) {
  if (Init)
    exec(Init);
  LoopParts L{Loop, Cond, Inc, Body, CondVar};
  if (AroundStmt && AroundStmt->getSubStmt() == Loop)
    L.Attributes = AroundStmt;
  LoopWalk Wk;
  Wk.Shape = loopShape(L);
  // A loop whose counter does not advance linearly (`st *= 2`,
  // `s >>= 1`) but whose condition is a constant at every iteration: run
  // it as the hardware does, iteration by iteration.
  if (!Wk.Shape.IV && !Wk.Shape.BodyCounter &&
      concreteIterations(L, /*CertainPrefix=*/true))
    return;
  Snapshot BeforeLoop = snapshot();
  unsigned UndecidedBefore = UndecidedConds;
  loopSymbols(Wk);
  enterBody(Wk);
  pushLoopRef(L, Wk);
  findUniform(L, Wk);
  runIteration(L);
  Loops.pop_back();
  if (iterateInstead(L, Wk, BeforeLoop, UndecidedBefore))
    return;
  leaveLoop(L, Wk);
}

AbsValue interp::LoopWalk::entryValue(const VarDecl *VD) const {
  for (auto &[D, V] : Entry)
    if (D == VD)
      return V;
  return AbsValue::unknown("");
}

AbsValue Interpreter::Impl::advance(const AbsValue &Start,
                                    const AbsValue &Delta, const Poly &By) {
  if (!Delta.isInt())
    return AbsValue::unknown("");
  auto Steps = Delta.Val.map([&](const Poly &P) { return Poly::mul(P, By); });
  if (!Steps)
    return AbsValue::unknown("overflow");
  AbsValue R;
  if (Start.isInt()) {
    auto S = LaneVec::zip(Start.Val, *Steps, Poly::add);
    if (!S)
      return AbsValue::unknown("overflow");
    R = AbsValue::integer(*S);
  } else if (Start.isPointer()) {
    auto Size = sizeOf(Start.Pointee);
    if (!Size)
      return AbsValue::unknown("");
    auto Bytes =
        Steps->map([&](const Poly &P) { return Poly::scale(P, *Size); });
    if (!Bytes)
      return AbsValue::unknown("overflow");
    auto S = LaneVec::zip(Start.Val, *Bytes, Poly::add);
    if (!S)
      return AbsValue::unknown("overflow");
    R = AbsValue::pointer(Start.Region, *S, Start.Pointee);
  } else {
    return AbsValue::unknown("");
  }
  R.assuming(Start).assuming(Delta);
  return R;
}

void Interpreter::Impl::loopSymbols(LoopWalk &Wk) {
  const LoopShape &S = Wk.Shape;
  std::string IVName = S.IV ? S.IV->getNameAsString() : "";
  Wk.Trip = S.Trip.Exact;
  // The display walk names the loop variable itself.
  Wk.DisplayVar =
      W.Display && S.IV && S.IVStart->isInt() && S.IVStart->Val.isUniform();
  if (Wk.DisplayVar) {
    Wk.Sym = loopSymbol(IVName, Wk.Trip, SymbolKind::LoopVar,
                        S.IVStart->Val.asConstant().value_or(0),
                        S.IVStep->Val.asConstant().value_or(1));
    Wk.KIter = Poly::symbol(
        loopSymbol("iter(" + IVName + ")", Wk.Trip, SymbolKind::LoopIter));
    return;
  }
  std::string Name = S.IV ? IVName : "iter";
  if (!W.Display || S.IV == nullptr || !S.IVStart->isInt() ||
      !S.IVStart->Val.isUniform())
    Name = "iter(" + (S.IV ? IVName : std::string("loop")) + ")";
  Wk.Sym = loopSymbol(Name, Wk.Trip, SymbolKind::LoopIter);
  Wk.KIter = Poly::symbol(Wk.Sym);
}

void Interpreter::Impl::enterBody(LoopWalk &Wk) {
  const LoopShape &S = Wk.Shape;
  for (const VarDecl *VD : S.Modified) {
    auto It = Env.find(VD);
    Wk.Entry.push_back(
        {VD, It == Env.end() ? AbsValue::unknown("") : It->second});
  }
  for (const VarDecl *VD : S.Modified)
    Env[VD] = unknownPointer(Env[VD], "`" + VD->getNameAsString() +
                                          "` is modified in a loop");
  if (S.IV) {
    Poly K = Poly::symbol(Wk.Sym);
    if (Wk.DisplayVar)
      Env[S.IV] = AbsValue::integer(K);
    else
      Env[S.IV] = advance(*S.IVStart, *S.IVStep, K);
  }
  auto AdvanceLinear = [&](const LinearUpdate &U) {
    auto D = deltaOf(U, S.Modified);
    if (!D)
      return;
    Env[U.VD] = advance(Wk.entryValue(U.VD), *D, Wk.KIter);
    Wk.Linear.push_back({U.VD, *D});
  };
  for (const LinearUpdate &U : S.IncLinear)
    AdvanceLinear(U);
  for (const LinearUpdate &U : S.BodyLinear)
    if (U.VD != S.IV)
      AdvanceLinear(U);
}

void Interpreter::Impl::pushLoopRef(const LoopParts &L, LoopWalk &Wk) {
  const LoopShape &S = Wk.Shape;
  Wk.VarName = S.IV            ? S.IV->getNameAsString()
               : S.BodyCounter ? S.BodyCounter->getNameAsString()
                               : "";
  if (!Wk.Trip && !S.IV && !S.BodyCounter)
    if (auto G = geometricTrip(L, S.BodyModified, [&](const VarDecl *VD) {
          return Wk.entryValue(VD);
        })) {
      Wk.Trip = G->second;
      Wk.VarName = G->first->getNameAsString();
      Syms.get(Wk.Sym).Trip = Wk.Trip;
      Syms.get(Wk.Sym).Max = std::max<int64_t>(0, *Wk.Trip - 1);
      Syms.get(Wk.Sym).Name = "iter(" + Wk.VarName + ")";
    }
  LoopRef Ref;
  Ref.Loop = L.Loop;
  Ref.Attributes = L.Attributes;
  Ref.Sym = Wk.Sym;
  Ref.VarName = Wk.VarName;
  Ref.Trip = Wk.Trip;
  if (Wk.Trip) {
    Ref.TripMin = Ref.TripMax = Wk.Trip;
  } else if (S.Trip.Range) {
    Ref.TripMin = S.Trip.Range->Min;
    Ref.TripMax = S.Trip.Range->Max;
  }
  // A loop that a break, return or goto may leave early: the header's
  // count is an upper bound only.
  if (leavesEarly(L.Body)) {
    Ref.Trip.reset();
    Ref.TripMin.reset();
  }
  Loops.push_back(Ref);
}

void Interpreter::Impl::findUniform(const LoopParts &L, LoopWalk &Wk) {
  llvm::SmallPtrSet<const VarDecl *, 8> Skip;
  if (Wk.Shape.IV)
    Skip.insert(Wk.Shape.IV);
  for (auto &[VD, D] : Wk.Linear)
    Skip.insert(VD);
  std::vector<const VarDecl *> &Uniform = Wk.Uniform;
  // A lane-dependent continue/break/return could skip an update for some
  // lanes only: then nothing is taken as uniform.
  if (!jumpsOut(L.Body))
    for (const VarDecl *VD : Wk.Shape.Modified)
      if (!Skip.count(VD) && VD->getType()->isIntegerType() &&
          isUniformInt(Wk.entryValue(VD)))
        Uniform.push_back(VD);
  std::sort(Uniform.begin(), Uniform.end(),
            [](const VarDecl *A, const VarDecl *B) {
              return A->getBeginLoc() < B->getBeginLoc();
            });
  while (!Uniform.empty()) {
    for (const VarDecl *VD : Uniform)
      Env[VD] = AbsValue::integer(Poly::symbol(
          opaqueSymbol("loop-uniform:" + std::to_string(Syms.size()),
                       VD->getNameAsString())));
    Snapshot Trial = snapshot();
    runIteration(L);
    std::vector<const VarDecl *> Kept;
    for (const VarDecl *VD : Uniform)
      if (isUniformInt(Env[VD]))
        Kept.push_back(VD);
    restore(Trial);
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
}

void Interpreter::Impl::runIteration(const LoopParts &L) {
  if (L.CondVar)
    exec(L.CondVar);
  if (L.Cond) {
    llvm::SaveAndRestore<unsigned> NotUsed(Unused, Unused + 1);
    eval(L.Cond);
  }
  exec(L.Body);
  if (L.Inc)
    eval(L.Inc);
}

bool Interpreter::Impl::iterateInstead(const LoopParts &L, const LoopWalk &Wk,
                                       const Snapshot &BeforeLoop,
                                       unsigned UndecidedBefore) {
  // What the walk with the iteration as a symbol could not decide: a
  // branch, or an operator on lane-dependent values and a value of the
  // loop's iteration (`(threadRow * TM) ^ ((k / 4) * 16)`).
  bool Undecided = UndecidedConds > UndecidedBefore;
  bool Inexact = InexactInLoop > BeforeLoop.InexactInLoop;
  if (!((Undecided || Inexact) && Wk.Trip &&
        *Wk.Trip <= MaxConcreteIterations && !jumpsOut(L.Body)))
    return false;
  Snapshot Symbolic = snapshot();
  std::vector<RawAccess> SymbolicOut(
      std::make_move_iterator(Out.begin() + BeforeLoop.OutSize),
      std::make_move_iterator(Out.end()));
  restore(BeforeLoop);
  // Iteration by iteration is kept when it decides what the symbolic walk
  // could not; an operator still inexact with the iteration known was not
  // the iteration's doing, and the symbolic walk stands.
  if (concreteIterations(L)) {
    if (Undecided || InexactInLoop == BeforeLoop.InexactInLoop)
      return true;
    restore(BeforeLoop);
  }
  Out.insert(Out.end(), std::make_move_iterator(SymbolicOut.begin()),
             std::make_move_iterator(SymbolicOut.end()));
  restore(Symbolic);
  return false;
}

llvm::SmallPtrSet<const VarDecl *, 8>
Interpreter::Impl::uniformThroughLoop(const LoopWalk &Wk) {
  const LoopShape &S = Wk.Shape;
  llvm::SmallPtrSet<const VarDecl *, 8> U(Wk.Uniform.begin(), Wk.Uniform.end());
  if (S.IV && isUniformInt(*S.IVStart) && isUniformInt(*S.IVStep))
    U.insert(S.IV);
  for (auto &[VD, D] : Wk.Linear)
    if (isUniformInt(Wk.entryValue(VD)) && isUniformInt(D))
      U.insert(VD);
  return U;
}

void Interpreter::Impl::leaveLoop(const LoopParts &L, const LoopWalk &Wk) {
  const LoopShape &S = Wk.Shape;
  for (const VarDecl *VD : S.Modified)
    Env[VD] =
        unknownPointer(Env[VD], "`" + VD->getNameAsString() + "` after a loop");
  // (A loop that may be left early ends after an unknown number of
  // iterations: its variables stay unknown. A `continue` skips no update
  // of these: body updates are not linear when one may skip them.)
  bool Early = leavesEarly(L.Body);
  auto AdvanceAll = [&](const Poly &N, bool Counter) {
    for (auto &[VD, D] : Wk.Linear)
      Env[VD] = advance(Wk.entryValue(VD), D, N);
    if (Counter)
      Env[S.IV] = advance(*S.IVStart, *S.IVStep, N);
  };
  if (Wk.Trip && !Early) {
    AdvanceAll(Poly(*Wk.Trip), S.IV && !Wk.DisplayVar);
  } else if (!Wk.Trip && !Early && L.Cond && (S.IV || !Wk.Linear.empty())) {
    // An unknown trip count that is the same for every lane (a condition
    // of lane-uniform values: `k < nz - 1`): the counters end at their
    // start plus the step times that count, a symbol of its own.
    if (uniformExpr(L.Cond, uniformThroughLoop(Wk))) {
      std::string Name = Wk.VarName.empty() ? "loop" : Wk.VarName;
      SymbolId NS = opaqueSymbol("trips:" + std::to_string(Syms.size()),
                                 "trips(" + Name + ")");
      Syms.get(NS).Min = 0;
      AdvanceAll(Poly::symbol(NS), S.IV != nullptr);
    }
  }
  // The uniform ones are still uniform after the loop when every lane
  // leaves it after the same iteration: a condition of uniform values,
  // no early exit.
  if (!Wk.Uniform.empty() && !jumpsOut(L.Body) &&
      (!L.Cond || uniformExpr(L.Cond, uniformThroughLoop(Wk))))
    for (const VarDecl *VD : Wk.Uniform)
      Env[VD] = AbsValue::integer(Poly::symbol(
          opaqueSymbol("loop-uniform:" + std::to_string(Syms.size()),
                       VD->getNameAsString())));
}

} // namespace cal

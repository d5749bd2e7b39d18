//===- HostScenarios.cpp --------------------------------------------------===//
//
// A launch's scenarios: the variables its values depend on, the enclosing
// function's parameters from the host calls of it (a few callers deep), the
// counters of constant loops around it; each combination is run from the
// globals to the launch, one outcome each (interp/HostImpl.h).
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/HostImpl.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace cal {

using namespace clang;
using namespace host;

bool HostCode::Data::isSystem(SourceLocation Loc) const {
  return inSystemOrPrelude(Ctx.getSourceManager(), Loc);
}

namespace {

/// The variables that \p Exprs depend on in \p Body: those they name, and,
/// for each local among them, those its initializer and assignments name
/// and the conditions of the branches around those assignments.
std::set<const VarDecl *> dependencies(const Stmt *Body,
                                       llvm::ArrayRef<const Expr *> Exprs) {
  std::set<const VarDecl *> Out;
  std::function<void(const Stmt *)> Names = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *D = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        Out.insert(VD);
    for (const Stmt *C : S->children())
      Names(C);
  };
  for (const Expr *E : Exprs)
    Names(E);
  if (!Body)
    return Out;
  for (int Round = 0; Round < 4; ++Round) {
    size_t Before = Out.size();
    std::vector<const Stmt *> Conds;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      auto Depends = [&](const VarDecl *VD, const Expr *Value) {
        if (!VD || !Out.count(VD))
          return;
        Names(Value);
        for (const Stmt *C : Conds)
          Names(C);
      };
      if (auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit())
            Depends(VD, VD->getInit());
      if (auto *E = dyn_cast<Expr>(S)) {
        if (auto A = plainAssignment(E)) {
          Depends(rootVar(A->first), A->second);
          Depends(rootVar(A->first), A->first);
        } else if (auto *B = dyn_cast<BinaryOperator>(E);
                   B && B->isAssignmentOp())
          Depends(rootVar(B->getLHS()), B->getRHS());
      }
      const Stmt *Cond = nullptr;
      if (auto *If = dyn_cast<IfStmt>(S))
        Cond = If->getCond();
      else if (auto *Sw = dyn_cast<SwitchStmt>(S))
        Cond = Sw->getCond();
      if (Cond)
        Conds.push_back(Cond);
      for (const Stmt *C : S->children())
        if (C != Cond)
          Walk(C);
      if (Cond)
        Conds.pop_back();
    };
    Walk(Body);
    if (Out.size() == Before)
      break;
  }
  return Out;
}

/// The step of a loop's increment `++v`, `v--`, `v += 4`: 0 when it is
/// none of them or not constant.
int64_t constantStep(ASTContext &Ctx, const Expr *Inc) {
  Inc = Inc ? Inc->IgnoreParenImpCasts() : nullptr;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    return U->isIncrementOp() ? 1 : U->isDecrementOp() ? -1 : 0;
  if (auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult R;
    if (B->getRHS()->EvaluateAsInt(R, Ctx))
      return (B->getOpcode() == BO_AddAssign   ? 1
              : B->getOpcode() == BO_SubAssign ? -1
                                               : 0) *
             R.Val.getInt().getExtValue();
  }
  return 0;
}

/// \p S assigns, increments or takes the address of \p VD.
bool touches(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (auto *E = dyn_cast<Expr>(S)) {
    if (auto *B = dyn_cast<BinaryOperator>(E);
        B && B->isAssignmentOp() && rootVar(B->getLHS()) == VD)
      return true;
    if (auto *U = dyn_cast<UnaryOperator>(E);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        rootVar(U->getSubExpr()) == VD)
      return true;
  }
  for (const Stmt *C : S->children())
    if (touches(C, VD))
      return true;
  return false;
}

/// The values from \p Start by \p Step while `v Op Bound` holds; none when
/// more than MaxLoopValues or \p Op is not a comparison of these.
std::optional<std::vector<int64_t>> countedValues(int64_t Start, int64_t Step,
                                                  BinaryOperatorKind Op,
                                                  int64_t Bound) {
  std::vector<int64_t> Out;
  for (int64_t V = Start; Out.size() <= size_t(HostCode::Data::MaxLoopValues);
       V += Step) {
    bool In = false;
    switch (Op) {
    case BO_LT:
      In = V < Bound;
      break;
    case BO_LE:
      In = V <= Bound;
      break;
    case BO_GT:
      In = V > Bound;
      break;
    case BO_GE:
      In = V >= Bound;
      break;
    case BO_NE:
      In = V != Bound;
      break;
    default:
      return std::nullopt;
    }
    if (!In)
      return Out;
    Out.push_back(V);
  }
  return std::nullopt; // too many
}

/// `for (int v = a; v < b; v += s)` with constants a, b, s around \p At,
/// the body not modifying v: its values.
std::optional<std::vector<int64_t>> loopValues(ASTContext &Ctx,
                                               const ForStmt *F,
                                               const FunctionDecl *Enclosing,
                                               const VarDecl *&VD) {
  auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  if (!DS || !DS->isSingleDecl())
    return std::nullopt;
  VD = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!VD || !VD->getInit() || !VD->getType()->isIntegerType())
    return std::nullopt;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !Cond->isComparisonOp())
    return std::nullopt;
  auto *L = dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts());
  if (!L || L->getDecl() != VD)
    return std::nullopt;
  int64_t Step = constantStep(Ctx, F->getInc());
  // (The body must leave the counter alone.)
  if (Step == 0 || touches(F->getBody(), VD))
    return std::nullopt;
  AbsValue Start = Interpreter::evalHostExpr(Ctx, VD->getInit(), Enclosing, F);
  AbsValue Bound = Interpreter::evalHostExpr(Ctx, Cond->getRHS(), Enclosing, F);
  auto S = Start.isInt() ? Start.Val.asConstant() : std::nullopt;
  auto B = Bound.isInt() ? Bound.Val.asConstant() : std::nullopt;
  if (!S || !B)
    return std::nullopt;
  return countedValues(*S, Step, Cond->getOpcode(), *B);
}

} // namespace

void HostCode::Data::parameterChoices(const FunctionDecl *Enclosing,
                                      const std::set<const VarDecl *> &Deps,
                                      unsigned Depth,
                                      std::vector<Choice> &Choices) {
  auto CI = Calls.find(Enclosing->getCanonicalDecl());
  if (CI == Calls.end() || CI->second.size() > MaxCallSites)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  for (unsigned P = 0; P < Enclosing->getNumParams(); ++P) {
    const ParmVarDecl *PD = Enclosing->getParamDecl(P);
    if (!Deps.count(PD))
      continue;
    QualType T = PD->getType();
    if (!(T->isIntegerType() || T->isRecordType()))
      continue;
    Choice C{PD, true, {}};
    for (const auto &[Call, Caller] : CI->second) {
      if (P >= Call->getNumArgs())
        continue;
      // The same for every launch in the function (the globals are computed
      // once; each scenario runs on its own copy of them).
      auto [It, New] = ArgumentOutcomes.try_emplace(
          {Caller, Call, Call->getArg(P), Depth + 1});
      if (New)
        It->second = evaluate(Caller, Call, nullptr, nullptr,
                              {Call->getArg(P)}, Depth + 1);
      for (const HostOutcome &O : It->second) {
        const AbsValue &V = O.Values[0];
        if (!knownValue(V))
          continue;
        bool Seen = false;
        for (const auto &[W, Text] : C.Values)
          Seen = Seen || W.sameAs(V);
        if (!Seen)
          C.Values.push_back({V, PD->getNameAsString() + " = " + valueText(V) +
                                     " (" + Caller->getNameAsString() +
                                     " calls " + Enclosing->getNameAsString() +
                                     " at " +
                                     fileLine(SM, Call->getBeginLoc()) + ")"});
      }
    }
    if (!C.Values.empty())
      Choices.push_back(std::move(C));
  }
}

void HostCode::Data::loopChoices(const FunctionDecl *Enclosing, const Stmt *At,
                                 const std::set<const VarDecl *> &Deps,
                                 std::vector<Choice> &Choices) {
  std::function<void(const Stmt *)> Loops = [&](const Stmt *S) {
    if (!S || S == At)
      return;
    if (auto *F = dyn_cast<ForStmt>(S))
      if (Interpreter::Impl::containsStmt(F->getBody(), At)) {
        const VarDecl *VD = nullptr;
        if (auto Vs = loopValues(Ctx, F, Enclosing, VD);
            Vs && VD && Deps.count(VD)) {
          Choice C{VD, false, {}};
          for (int64_t V : *Vs)
            C.Values.push_back(
                {AbsValue::integer(Poly(V)),
                 VD->getNameAsString() + " = " + std::to_string(V)});
          if (!C.Values.empty())
            Choices.push_back(std::move(C));
        }
      }
    for (const Stmt *C : S->children())
      if (Interpreter::Impl::containsStmt(C, At)) {
        Loops(C);
        return;
      }
  };
  Loops(Enclosing->getBody());
}

namespace {

/// At most MaxScenarios: loop counters go first, then the last parameters.
void limitChoices(std::vector<HostCode::Data::Choice> &Choices) {
  constexpr size_t Max = HostCode::Data::MaxScenarios;
  auto Count = [&] {
    size_t N = 1;
    for (const HostCode::Data::Choice &C : Choices)
      N = std::min(N * C.Values.size(), Max + 1);
    return N;
  };
  while (!Choices.empty() && Count() > Max) {
    auto It =
        std::find_if(Choices.rbegin(), Choices.rend(),
                     [](const HostCode::Data::Choice &C) { return !C.Param; });
    if (It != Choices.rend())
      Choices.erase(std::next(It).base());
    else
      Choices.pop_back();
  }
}

} // namespace

std::optional<HostOutcome> HostCode::Data::runScenario(
    const FunctionDecl *Enclosing, const Stmt *At, const Expr *Callee,
    const FunctionDecl *Direct, llvm::ArrayRef<const Expr *> Exprs,
    const std::vector<Choice> &Choices, const std::vector<size_t> &Pick) {
  const Stmt *Body = Enclosing ? Enclosing->getBody() : nullptr;
  HostInterp H;
  H.Mem = Globals;
  H.Mem.Assumed = &Assumed;
  if (Direct)
    H.Mem.Kernel = Direct->getName().str();
  Interpreter::Impl I(Ctx, H.Syms, H.W, H.Regions, H.Out);
  I.Host = &H.Mem;
  std::vector<std::string> Bindings;
  for (size_t K = 0; K < Choices.size(); ++K) {
    const auto &[V, Text] = Choices[K].Values[Pick[K]];
    if (Choices[K].Param)
      I.Env[Choices[K].VD] = V;
    else
      H.Mem.Scenario[Choices[K].VD] = V;
    Bindings.push_back(Text);
  }
  if (Body) {
    bindLocals(I, Body);
    if (At)
      I.followTo(Body, At);
  }
  if (H.Mem.Unreachable)
    return std::nullopt;
  HostOutcome O;
  O.Callee = Callee ? I.hostFunction(Callee) : Direct;
  for (const Expr *E : Exprs)
    O.Values.push_back(I.eval(E));
  O.Bindings = llvm::join(Bindings, ", ");
  for (const ValueDecl *D : H.Mem.GlobalsRead)
    O.Notes.push_back(H.Mem.GlobalNotes.at(D));
  O.Assumed = H.Mem.AssumedUsed;
  return O;
}

std::vector<HostOutcome>
HostCode::Data::evaluate(const FunctionDecl *Enclosing, const Stmt *At,
                         const Expr *Callee, const FunctionDecl *Direct,
                         llvm::ArrayRef<const Expr *> Exprs, unsigned Depth) {
  computeGlobals();
  const Stmt *Body = Enclosing ? Enclosing->getBody() : nullptr;
  // The variables to enumerate, each with its values.
  std::vector<Choice> Choices;
  std::vector<const Expr *> Asked(Exprs.begin(), Exprs.end());
  if (Callee)
    Asked.push_back(Callee);
  std::set<const VarDecl *> Deps = dependencies(Body, Asked);
  if (Body && Depth < MaxDepth) {
    // The enclosing function's parameters, from its host calls.
    parameterChoices(Enclosing, Deps, Depth, Choices);
    // Counters of constant loops around the launch.
    loopChoices(Enclosing, At, Deps, Choices);
  }
  limitChoices(Choices);

  std::vector<HostOutcome> Result;
  std::vector<size_t> Pick(Choices.size(), 0);
  while (true) {
    if (std::optional<HostOutcome> O =
            runScenario(Enclosing, At, Callee, Direct, Exprs, Choices, Pick))
      Result.push_back(std::move(*O));
    // Next combination.
    size_t K = 0;
    for (; K < Choices.size(); ++K) {
      if (++Pick[K] < Choices[K].Values.size())
        break;
      Pick[K] = 0;
    }
    if (K == Choices.size())
      break;
  }
  return Result;
}

HostCode::HostCode(ASTContext &Ctx, const std::vector<AssumedValue> &Assumed)
    : D(std::make_unique<Data>(Ctx, Assumed)) {}

HostCode::~HostCode() = default;

void HostCode::addCall(const CallExpr *C, const FunctionDecl *Enclosing) {
  const FunctionDecl *Callee = C->getDirectCallee();
  if (!Callee || !Enclosing || isa<CUDAKernelCallExpr>(C) ||
      !Callee->hasBody() || D->isSystem(C->getBeginLoc()))
    return;
  D->Calls[Callee->getCanonicalDecl()].push_back({C, Enclosing});
}

std::vector<HostOutcome>
HostCode::evaluate(const FunctionDecl *Enclosing, const Stmt *At,
                   const Expr *Callee, const FunctionDecl *Direct,
                   llvm::ArrayRef<const Expr *> Exprs) {
  return D->evaluate(Enclosing, At, Callee, Direct, Exprs, 0);
}

} // namespace cal

//===- Interpreter.cpp ----------------------------------------------------===//
//
// The public interface, the state's helpers (source text, symbols, ranges,
// snapshots) and the display walk's div/mod identities.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

const char *accessKindName(AccessKind K) {
  switch (K) {
  case AccessKind::Load:
    return "load";
  case AccessKind::Store:
    return "store";
  case AccessKind::Atomic:
    return "atomic";
  }
  return "load";
}

bool Interpreter::Impl::budgetSpent() { return Budget && Budget->tick(); }

std::string Interpreter::Impl::text(const Expr *E) const {
  std::string T = oneLineSourceText(E->getSourceRange(), Ctx);
  return T.empty() ? "<expr>" : T;
}

bool Interpreter::Impl::isSystem(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Loc.isInvalid())
    return true;
  Loc = SM.getExpansionLoc(Loc);
  if (SM.isInSystemHeader(Loc))
    return true;
  llvm::StringRef File = SM.getFilename(Loc);
  return File.starts_with("/__cuda_access_lint__/");
}

std::optional<int64_t> Interpreter::Impl::sizeOf(QualType T) const {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() ||
      T->isVoidType() || T->isFunctionType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

SymbolId
Interpreter::Impl::opaqueSymbol(const std::string &Key, const std::string &Name,
                                std::initializer_list<const Poly *> From) {
  SymbolId S;
  auto It = Opaque.find(Key);
  if (It != Opaque.end()) {
    S = It->second;
  } else {
    SymbolInfo Info;
    Info.Name = Name;
    Info.Kind = SymbolKind::Opaque;
    Info.Rank = 40;
    S = Syms.add(Info);
    Opaque[Key] = S;
  }
  for (LoopRef &L : Loops) {
    bool Moves = false;
    for (const Poly *P : From) {
      Moves = Moves || P->mentions(L.Sym);
      for (SymbolId V : L.Varying)
        Moves = Moves || P->mentions(V);
    }
    if (Moves &&
        std::find(L.Varying.begin(), L.Varying.end(), S) == L.Varying.end())
      L.Varying.push_back(S);
  }
  return S;
}

bool Interpreter::Impl::mentionsWarpSymbol(const Poly &P) const {
  for (SymbolId S : W.WarpSymbols)
    if (P.mentions(S))
      return true;
  return false;
}

bool Interpreter::Impl::mentionsWarpSymbol(const LaneVec &V) const {
  if (V.isUniform())
    return mentionsWarpSymbol(V.uniform());
  for (unsigned L = 0; L < WarpSize; ++L)
    if (mentionsWarpSymbol(V.lane(L)))
      return true;
  return false;
}

std::optional<std::pair<int64_t, int64_t>>
Interpreter::Impl::range(const Poly &P) const {
  __int128 Lo = P.constant(), Hi = P.constant();
  for (const Poly::Term &T : P.terms()) {
    __int128 TLo = T.Coeff, THi = T.Coeff;
    for (SymbolId S : T.Mono) {
      const SymbolInfo &I = Syms.get(S);
      if (!I.Min || !I.Max)
        return std::nullopt;
      __int128 C[4] = {TLo * *I.Min, TLo * *I.Max, THi * *I.Min, THi * *I.Max};
      TLo = std::min(std::min(C[0], C[1]), std::min(C[2], C[3]));
      THi = std::max(std::max(C[0], C[1]), std::max(C[2], C[3]));
    }
    Lo += TLo;
    Hi += THi;
  }
  if (Lo < INT64_MIN || Hi > INT64_MAX)
    return std::nullopt;
  return std::make_pair(static_cast<int64_t>(Lo), static_cast<int64_t>(Hi));
}

AbsValue
Interpreter::Impl::uniformOpaque(const std::string &Key, const Expr *E,
                                 std::initializer_list<const Poly *> From) {
  return AbsValue::integer(
      Poly::symbol(opaqueSymbol(Key, "(" + text(E) + ")", From)));
}

Interpreter::Impl::Snapshot Interpreter::Impl::snapshot() const {
  return {Env,          Refs,   Frames,         Out.size(),
          NeedConcrete, Active, UndecidedConds, CondNotes};
}

void Interpreter::Impl::restore(const Snapshot &S) {
  Env = S.Env;
  Refs = S.RefsSaved;
  Frames = S.FramesSaved;
  Out.resize(S.OutSize);
  NeedConcrete = S.NeedConcrete;
  Active = S.Active;
  UndecidedConds = S.UndecidedConds;
  CondNotes = S.CondNotes;
}

bool Interpreter::Impl::isUniformInt(const AbsValue &V) const {
  return V.isInt() && V.Val.isUniform() && !mentionsWarpSymbol(V.Val.uniform());
}

void Interpreter::Impl::collectModified(
    const Stmt *S, llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  auto Target = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return;
      E = M->getBase()->IgnoreParenImpCasts();
    }
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        Out.insert(VD);
  };
  if (auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isAssignmentOp())
      Target(B->getLHS());
  } else if (auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
      Target(U->getSubExpr());
  } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus ||
        OC->getOperator() == OO_MinusMinus)
      if (OC->getNumArgs() > 0)
        Target(OC->getArg(0));
  } else if (auto *C = dyn_cast<CallExpr>(S)) {
    // Non-const reference arguments.
    if (const FunctionDecl *FD = C->getDirectCallee())
      for (unsigned I = 0; I < C->getNumArgs() && I < FD->getNumParams(); ++I) {
        QualType T = FD->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
          Target(C->getArg(I));
      }
  } else if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(D))
        if (VD->getType()->isReferenceType() &&
            !VD->getType()->getPointeeType().isConstQualified() &&
            VD->getInit())
          Target(VD->getInit());
  }
  for (const Stmt *Child : S->children())
    collectModified(Child, Out);
}

bool Interpreter::Impl::alwaysReturns(const Stmt *S) const {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && alwaysReturns(CS->body_back());
  return false;
}

void Interpreter::Impl::execDecl(const DeclStmt *DS) {
  for (const Decl *D : DS->decls()) {
    auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      continue;
    if (VD->hasAttr<CUDASharedAttr>() || VD->isStaticLocal())
      continue; // a region, created on first use
    const Expr *Init = VD->getInit();
    if (VD->getType()->isReferenceType()) {
      if (Init)
        Refs[VD] = evalLValue(Init);
      continue;
    }
    if (VD->getType()->isArrayType()) {
      if (Init)
        eval(Init);
      continue;
    }
    if (!Init) {
      Env[VD] =
          AbsValue::unknown("`" + VD->getNameAsString() + "` is uninitialized");
      continue;
    }
    AbsValue V = eval(Init);
    if (V.isPointer() && VD->getType()->isPointerType())
      V.Pointee = VD->getType()->getPointeeType();
    Env[VD] = std::move(V);
  }
}

void Interpreter::Impl::mergeInto(
    llvm::DenseMap<const VarDecl *, AbsValue> &A,
    const llvm::DenseMap<const VarDecl *, AbsValue> &B,
    std::optional<LaneMask> TakeA, const Stmt *UniformBranch) {
  // Lanes in TakeA keep A's value, the others take B's.
  llvm::SmallVector<const VarDecl *, 8> Keys;
  for (auto &KV : A)
    Keys.push_back(KV.first);
  for (auto &KV : B)
    if (!A.count(KV.first))
      Keys.push_back(KV.first);
  for (const VarDecl *VD : Keys) {
    auto IA = A.find(VD);
    auto IB = B.find(VD);
    if (IA == A.end() || IB == B.end()) {
      A[VD] = AbsValue::unknown("assigned on one path only");
      continue;
    }
    if (IA->second.sameAs(IB->second))
      continue;
    if (TakeA)
      IA->second = select(*TakeA, IA->second, IB->second);
    else if (UniformBranch && isUniformInt(IA->second) &&
             isUniformInt(IB->second)) {
      // A branch every lane of the warp takes the same way, between two
      // lane-uniform values (transposeDiagonal's blockIdx_x): one of
      // them, the same for every lane: a symbol.
      const Poly &PA = IA->second.Val.uniform(), &PB = IB->second.Val.uniform();
      char Buf[64];
      snprintf(Buf, sizeof(Buf), "merge:%p:%p", (const void *)UniformBranch,
               (const void *)VD);
      AbsValue M = AbsValue::integer(
          Poly::symbol(opaqueSymbol(Buf, VD->getNameAsString(), {&PA, &PB})));
      M.assuming(IA->second).assuming(IB->second);
      IA->second = M;
    } else if (IA->second.Region && IA->second.Region == IB->second.Region)
      IA->second = unknownPointer(IA->second, "`" + VD->getNameAsString() +
                                                  "` differs between branches");
    else
      IA->second = AbsValue::unknown("`" + VD->getNameAsString() +
                                     "` differs between branches");
  }
}

void Interpreter::Impl::execIf(const IfStmt *If) {
  if (If->getInit())
    exec(If->getInit());
  if (If->getConditionVariableDeclStmt())
    exec(If->getConditionVariableDeclStmt());
  InIfCondition = true;
  AbsValue Cond = eval(If->getCond());
  InIfCondition = false;
  std::optional<LaneMask> Taken;
  if (Cond.isInt())
    Taken = truth(Cond.Val);
  // What the condition's lanes rest on (a bound's common case, a class of
  // lanes), said with every access under it.
  size_t NotesBefore = CondNotes.size();
  if (Taken)
    for (const std::string &N : Cond.Assumed)
      if (LaneClassNotes.count(N))
        CondNotes.push_back("`" + text(If->getCond()) + "`: " + N);
  // (`if (i >= n) return;` taken as false: what follows rests on it, so
  // its note stays for the rest of the body.)
  if (Taken && *Taken == AllLanes && Cond.Val.isUniform()) {
    exec(If->getThen());
    if (!(If->getElse() && alwaysReturns(If->getElse())))
      CondNotes.resize(NotesBefore);
    return;
  }
  if (Taken && *Taken == 0 && Cond.Val.isUniform()) {
    if (If->getElse())
      exec(If->getElse());
    if (!alwaysReturns(If->getThen()))
      CondNotes.resize(NotesBefore);
    return;
  }
  LaneMask Saved = Active;
  // A condition of lane-uniform values: every lane goes the same way.
  bool UniformCond = false;
  if (!Taken) {
    llvm::SmallPtrSet<const VarDecl *, 1> None;
    UniformCond = uniformExpr(If->getCond(), None);
  }
  // Not decided per lane: every active lane is taken through both sides,
  // and the accesses there say so.
  bool Undecided = !Taken && !UniformCond;
  if (Undecided) {
    ++UndecidedConds;
    CondNotes.push_back("`" + text(If->getCond()) +
                        "` not decided per lane: every active lane taken "
                        "through the branch");
  }
  auto EnvBefore = Env;
  if (Taken)
    Active = Saved & *Taken;
  exec(If->getThen());
  auto EnvThen = std::move(Env);
  Env = std::move(EnvBefore);
  Active = Taken ? (Saved & ~*Taken) : Saved;
  if (If->getElse())
    exec(If->getElse());
  // A return that no active lane takes: what follows rests on it.
  bool Kept =
      Taken && (((*Taken & Saved) == 0 && alwaysReturns(If->getThen())) ||
                ((*Taken & Saved) == Saved && If->getElse() &&
                 alwaysReturns(If->getElse())));
  if (!Kept)
    CondNotes.resize(NotesBefore);
  mergeInto(EnvThen, Env, Taken, UniformCond ? If : nullptr);
  Env = std::move(EnvThen);
  Active = Saved;
  // `if (lane >= 16) return;`: those lanes are gone afterwards.
  if (Taken && alwaysReturns(If->getThen()))
    Active &= ~*Taken;
  if (Taken && If->getElse() && alwaysReturns(If->getElse()))
    Active &= *Taken;
}

bool Interpreter::Impl::uniformExpr(
    const Expr *E, const llvm::SmallPtrSetImpl<const VarDecl *> &U) {
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent())
    return false;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return true;
  if (auto *C = dyn_cast<CastExpr>(E))
    return uniformExpr(C->getSubExpr(), U);
  if (auto *D = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(D->getDecl()))
      return true;
    auto *VD = dyn_cast<VarDecl>(D->getDecl());
    if (!VD || VD->getType()->isReferenceType())
      return false;
    if (U.count(VD))
      return true;
    auto It = Env.find(VD);
    return It != Env.end() && isUniformInt(It->second);
  }
  if (auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    if (auto *Prop =
            dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
      if (auto *B = dyn_cast<DeclRefExpr>(
              Prop->getBaseExpr()->IgnoreParenImpCasts())) {
        llvm::StringRef N = B->getDecl()->getName();
        return N == "blockIdx" || N == "blockDim" || N == "gridDim";
      }
    return false;
  }
  if (auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           uniformExpr(B->getLHS(), U) && uniformExpr(B->getRHS(), U);
  if (auto *Un = dyn_cast<UnaryOperator>(E))
    return !Un->isIncrementDecrementOp() && Un->getOpcode() != UO_Deref &&
           Un->getOpcode() != UO_AddrOf && uniformExpr(Un->getSubExpr(), U);
  if (auto *C = dyn_cast<ConditionalOperator>(E))
    return uniformExpr(C->getCond(), U) && uniformExpr(C->getTrueExpr(), U) &&
           uniformExpr(C->getFalseExpr(), U);
  return false;
}

void Interpreter::Impl::exec(const Stmt *S) {
  if (!S || budgetSpent())
    return;
  if (auto *E = dyn_cast<Expr>(S)) {
    eval(E);
    return;
  }
  switch (S->getStmtClass()) {
  case Stmt::CompoundStmtClass:
    for (const Stmt *C : cast<CompoundStmt>(S)->body())
      exec(C);
    return;
  case Stmt::DeclStmtClass:
    execDecl(cast<DeclStmt>(S));
    return;
  case Stmt::IfStmtClass:
    execIf(cast<IfStmt>(S));
    return;
  case Stmt::ForStmtClass: {
    auto *F = cast<ForStmt>(S);
    execLoop(F, F->getInit(), F->getCond(), F->getInc(), F->getBody(),
             F->getConditionVariableDeclStmt());
    return;
  }
  case Stmt::WhileStmtClass: {
    auto *Wh = cast<WhileStmt>(S);
    execLoop(Wh, nullptr, Wh->getCond(), nullptr, Wh->getBody(),
             Wh->getConditionVariableDeclStmt());
    return;
  }
  case Stmt::DoStmtClass: {
    auto *D = cast<DoStmt>(S);
    execLoop(D, nullptr, D->getCond(), nullptr, D->getBody());
    return;
  }
  case Stmt::CXXForRangeStmtClass: {
    auto *F = cast<CXXForRangeStmt>(S);
    llvm::SmallPtrSet<const VarDecl *, 8> Modified;
    collectModified(F->getBody(), Modified);
    for (const VarDecl *VD : Modified)
      Env[VD] = unknownPointer(Env[VD], "modified in a loop");
    exec(F->getLoopVarStmt());
    exec(F->getBody());
    for (const VarDecl *VD : Modified)
      Env[VD] = unknownPointer(Env[VD], "modified in a loop");
    return;
  }
  case Stmt::SwitchStmtClass: {
    auto *Sw = cast<SwitchStmt>(S);
    if (Sw->getInit())
      exec(Sw->getInit());
    eval(Sw->getCond());
    llvm::SmallPtrSet<const VarDecl *, 8> Modified;
    collectModified(Sw->getBody(), Modified);
    exec(Sw->getBody());
    for (const VarDecl *VD : Modified)
      Env[VD] = unknownPointer(Env[VD], "assigned in a switch");
    return;
  }
  case Stmt::ReturnStmtClass: {
    auto *R = cast<ReturnStmt>(S);
    if (!Frames.empty() && R->getRetValue()) {
      // Evaluate first: the value may inline calls that grow Frames.
      if (Frames.back().ReturnsRef) {
        LValue L = evalLValue(R->getRetValue());
        Frames.back().RefReturns.push_back(std::move(L));
      } else {
        AbsValue V = eval(R->getRetValue());
        Frames.back().Returns.push_back(std::move(V));
      }
    } else if (R->getRetValue()) {
      eval(R->getRetValue());
    }
    return;
  }
  case Stmt::AttributedStmtClass:
    exec(cast<AttributedStmt>(S)->getSubStmt());
    return;
  case Stmt::LabelStmtClass:
    exec(cast<LabelStmt>(S)->getSubStmt());
    return;
  case Stmt::CaseStmtClass:
    exec(cast<CaseStmt>(S)->getSubStmt());
    return;
  case Stmt::DefaultStmtClass:
    exec(cast<DefaultStmt>(S)->getSubStmt());
    return;
  default:
    // break, continue, goto, asm, null statements: nothing to evaluate.
    return;
  }
}

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

bool Interpreter::Impl::containsStmt(const Stmt *S, const Stmt *At) {
  if (!S)
    return false;
  if (S == At)
    return true;
  for (const Stmt *C : S->children())
    if (containsStmt(C, At))
      return true;
  return false;
}

void Interpreter::Impl::forgetModified(const Stmt *S) {
  llvm::SmallPtrSet<const VarDecl *, 8> M;
  collectModified(S, M);
  for (const VarDecl *VD : M)
    Env[VD] = AbsValue::unknown("`" + VD->getNameAsString() +
                                "` is assigned on some paths");
}

void Interpreter::Impl::followTo(const Stmt *S, const Stmt *At) {
  if (!S || S == At)
    return;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body()) {
      if (containsStmt(C, At)) {
        followTo(C, At);
        return;
      }
      if (isa<DeclStmt>(C)) {
        exec(C);
        continue;
      }
      const Expr *E = dyn_cast<Expr>(C);
      if (E) {
        E = E->IgnoreParenImpCasts();
        if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
          if (auto *D =
                  dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
            if (isa<VarDecl>(D->getDecl())) {
              eval(B);
              continue;
            }
      }
      forgetModified(C);
    }
    return;
  }
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
      isa<CXXForRangeStmt>(S)) {
    // Whatever the loop changes differs from one iteration to the next.
    if (auto *F = dyn_cast<ForStmt>(S))
      if (F->getInit() && !containsStmt(F->getInit(), At))
        exec(F->getInit());
    forgetModified(S);
  }
  for (const Stmt *C : S->children())
    if (containsStmt(C, At)) {
      followTo(C, At);
      return;
    }
}

Interpreter::Interpreter(ASTContext &Ctx, SymbolTable &Syms,
                         const WarpInstance &Warp,
                         std::deque<MemRegion> &Regions,
                         std::vector<RawAccess> &Out)
    : P(std::make_unique<Impl>(Ctx, Syms, Warp, Regions, Out)) {}

Interpreter::~Interpreter() = default;

void Interpreter::run(
    const FunctionDecl *Kernel,
    const llvm::DenseMap<const ParmVarDecl *, AbsValue> &Params) {
  for (const ParmVarDecl *PD : Kernel->parameters()) {
    auto It = Params.find(PD);
    if (It != Params.end()) {
      P->Env[PD] = It->second;
      continue;
    }
    QualType T = PD->getType();
    int64_t Offset = 0;
    if (P->PointerOffsets)
      for (const auto &[Param, Bytes] : *P->PointerOffsets)
        if (Param == PD)
          Offset = Bytes;
    if (T->isPointerType())
      P->Env[PD] = AbsValue::pointer(P->regionFor(PD, MemSpace::Global),
                                     Poly(Offset), T->getPointeeType());
    else if (T->isRecordType())
      P->Env[PD] = P->paramStruct(T, PD->getNameAsString(), 0);
    else
      P->Env[PD] = AbsValue::unknown("parameter `" + PD->getNameAsString() +
                                     "` not tracked");
  }
  P->exec(Kernel->getBody());
}

void Interpreter::setBudget(BudgetMeter *Meter) { P->Budget = Meter; }

bool Interpreter::needsConcreteWarps() const { return P->NeedConcrete; }

Poly Interpreter::simplifyDivMod(const Poly &In) const {
  Poly Out = In;
  auto Has = [](const Poly &Where, const Poly::Term &T) {
    for (const Poly::Term &U : Where.terms())
      if (U == T)
        return true;
    return false;
  };
  for (int Round = 0; Round < 8; ++Round) {
    bool Changed = false;
    for (const Impl::DivModIdentity &I : P->Identities) {
      for (const Poly::Term &T : Out.terms()) {
        auto It = std::find(T.Mono.begin(), T.Mono.end(), I.R);
        if (It == T.Mono.end())
          continue;
        Monomial M = T.Mono;
        M.erase(M.begin() + (It - T.Mono.begin()));
        Poly CM = Poly::term(M, T.Coeff);
        auto CMT = Poly::mul(CM, I.T);
        auto Partner = CMT ? Poly::mul(*CMT, Poly::symbol(I.Q)) : std::nullopt;
        if (!Partner)
          continue;
        bool All = true;
        for (const Poly::Term &U : Partner->terms())
          All = All && Has(Out, U);
        if (!All || Partner->constant() != 0)
          continue;
        auto CMX = Poly::mul(CM, I.X);
        auto Next = Poly::sub(Out, Poly::term(T.Mono, T.Coeff));
        if (Next)
          Next = Poly::sub(*Next, *Partner);
        if (Next && CMX)
          Next = Poly::add(*Next, *CMX);
        if (!Next)
          continue;
        Out = *Next;
        Changed = true;
        break;
      }
      if (Changed)
        break;
    }
    if (!Changed)
      break;
  }
  return Out;
}

void Interpreter::setPadding(
    const std::map<const clang::VarDecl *, int64_t> *Padding) {
  P->Padding = Padding;
}

void Interpreter::setOnlyPaddedArrays(bool Only) { P->OnlyPadded = Only; }

void Interpreter::setPointerOffsets(
    const std::vector<std::pair<const clang::ParmVarDecl *, int64_t>>
        *Offsets) {
  P->PointerOffsets = Offsets;
}

AbsValue Interpreter::evalHostExpr(ASTContext &Ctx, const Expr *E,
                                   const FunctionDecl *Enclosing,
                                   const Stmt *At) {
  // No thread context: threadIdx etc. are unknown; locals are followed to
  // their initializer when the function never modifies them.
  SymbolTable Syms;
  WarpInstance W;
  for (int D = 0; D < 3; ++D) {
    SymbolInfo I;
    I.Name = "host";
    I.Kind = SymbolKind::Opaque;
    W.Tid[D] = Poly::symbol(Syms.add(I));
    W.BlockDim[D] = Poly::symbol(Syms.add(I));
  }
  std::deque<MemRegion> Regions;
  std::vector<RawAccess> Out;
  Impl I(Ctx, Syms, W, Regions, Out);
  if (Enclosing && Enclosing->getBody()) {
    llvm::SmallPtrSet<const VarDecl *, 8> Modified;
    I.collectModified(Enclosing->getBody(), Modified);
    // Bind every local declared once and never modified to its initializer,
    // in declaration order.
    std::function<void(const Stmt *)> Bind = [&](const Stmt *S) {
      if (!S)
        return;
      if (auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (auto *VD = dyn_cast<VarDecl>(D))
            if (!Modified.count(VD) && VD->getInit() &&
                !VD->getType()->isReferenceType())
              I.Env[VD] = I.eval(VD->getInit());
        return;
      }
      if (isa<Expr>(S))
        return;
      for (const Stmt *C : S->children())
        Bind(C);
    };
    Bind(Enclosing->getBody());
    if (At)
      I.followTo(Enclosing->getBody(), At);
  }
  return I.eval(E);
}

} // namespace cal

//===- Statements.cpp -----------------------------------------------------===//
//
// Statements: declarations, if (with per-lane masks and the merge of
// both sides), switch, return, and the variables a statement modifies.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

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
  } else if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    // Statements clang dropped (they did not compile) may assign too.
    for (const DroppedStmt &D : droppedIn(CS))
      droppedTargets(D, Out);
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
    if (VD->isInvalidDecl()) {
      if (Init)
        eval(Init);
      Env[VD] = AbsValue::unknown(uncompiledDecl(VD));
      continue;
    }
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
      std::string Why = uncompiledDecl(VD);
      Env[VD] = AbsValue::unknown(!Why.empty() ? Why
                                               : "`" + VD->getNameAsString() +
                                                     "` is uninitialized");
      continue;
    }
    // A user's constructor runs on the variable (its members' values).
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit())) {
      LValue Object;
      Object.K = LValue::Var;
      Object.VD = VD;
      Object.Type = VD->getType();
      Env[VD] = AbsValue::unknown("constructed object");
      if (runConstructor(Object, CE))
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
    char Key[64];
    snprintf(Key, sizeof(Key), "merge:%p:%p", (const void *)UniformBranch,
             (const void *)VD);
    IA->second = mergedValue(IA->second, IB->second, TakeA, UniformBranch, Key,
                             VD->getNameAsString());
  }
}

AbsValue Interpreter::Impl::mergedValue(const AbsValue &A, const AbsValue &B,
                                        std::optional<LaneMask> TakeA,
                                        const Stmt *UniformBranch,
                                        const std::string &Key,
                                        const std::string &Name) {
  if (A.sameAs(B))
    return A;
  // A struct (an object whose members the branches set): member by member,
  // so that one member differing leaves the others known.
  if (A.K == AbsValue::Struct && B.K == AbsValue::Struct && A.Fields &&
      B.Fields) {
    AbsValue M = A;
    M.Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
    for (const auto &[F, V] : *A.Fields) {
      auto It = B.Fields->find(F);
      std::string Member = Name + "." + F->getNameAsString();
      (*M.Fields)[F] =
          It == B.Fields->end()
              ? AbsValue::unknown("`" + Member + "` assigned on one path only")
              : mergedValue(V, It->second, TakeA, UniformBranch,
                            Key + ":" + F->getNameAsString(), Member);
    }
    for (const auto &[F, V] : *B.Fields)
      if (!A.Fields->count(F))
        (*M.Fields)[F] =
            AbsValue::unknown("`" + Name + "." + F->getNameAsString() +
                              "` assigned on one path only");
    return M;
  }
  if (TakeA)
    return select(*TakeA, A, B);
  if (UniformBranch && isUniformInt(A) && isUniformInt(B)) {
    // A branch every lane of the warp takes the same way, between two
    // lane-uniform values (transposeDiagonal's blockIdx_x): one of them,
    // the same for every lane: a symbol.
    const Poly &PA = A.Val.uniform(), &PB = B.Val.uniform();
    AbsValue M =
        AbsValue::integer(Poly::symbol(opaqueSymbol(Key, Name, {&PA, &PB})));
    M.assuming(A).assuming(B);
    return M;
  }
  if (A.Region && A.Region == B.Region)
    return unknownPointer(A, "`" + Name + "` differs between branches");
  return AbsValue::unknown("`" + Name + "` differs between branches");
}

bool Interpreter::Impl::execIfDecided(const IfStmt *If, LaneMask Taken,
                                      size_t NotesBefore) {
  // (`if (i >= n) return;` taken as false: what follows rests on it, so
  // its note stays for the rest of the body.)
  if (Taken == AllLanes) {
    exec(If->getThen());
    if (!(If->getElse() && alwaysReturns(If->getElse())))
      CondNotes.resize(NotesBefore);
    return true;
  }
  if (Taken == 0) {
    if (If->getElse())
      exec(If->getElse());
    if (!alwaysReturns(If->getThen()))
      CondNotes.resize(NotesBefore);
    return true;
  }
  return false;
}

void Interpreter::Impl::execIf(const IfStmt *If) {
  if (If->getInit())
    exec(If->getInit());
  if (If->getConditionVariableDeclStmt())
    exec(If->getConditionVariableDeclStmt());
  AbsValue Cond;
  {
    llvm::SaveAndRestore<bool> InCondition(InIfCondition, true);
    Cond = eval(If->getCond());
  }
  std::optional<LaneMask> Taken;
  if (Cond.isInt())
    Taken = truth(Cond.Val);
  // What the condition's lanes rest on (a bound's common case, a class of
  // lanes), said with every access under it.
  size_t NotesBefore = CondNotes.size();
  if (Taken)
    for (const Assumption &N : Cond.Assumed)
      if (N.K == Assumption::Kind::LaneClass ||
          N.K == Assumption::Kind::CommonCaseBound)
        CondNotes.push_back({N.K, text(If->getCond()),
                             "`" + text(If->getCond()) + "`: " + N.Message});
  if (Taken && Cond.Val.isUniform() && execIfDecided(If, *Taken, NotesBefore))
    return;
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
    CondNotes.push_back({Assumption::Kind::UndecidedBranch, text(If->getCond()),
                         "`" + text(If->getCond()) +
                             "` not decided per lane: every active lane taken "
                             "through the branch"});
  }
  auto EnvBefore = Env;
  if (Taken)
    Active = Saved & *Taken;
  UndecidedDepth += Undecided;
  exec(If->getThen());
  auto EnvThen = std::move(Env);
  Env = std::move(EnvBefore);
  Active = Taken ? (Saved & ~*Taken) : Saved;
  if (If->getElse())
    exec(If->getElse());
  UndecidedDepth -= Undecided;
  // A return that no active lane takes: what follows rests on it.
  bool Kept =
      Taken && (((*Taken & Saved) == 0 && alwaysReturns(If->getThen())) ||
                ((*Taken & Saved) == Saved && If->getElse() &&
                 alwaysReturns(If->getElse())));
  if (!Kept)
    CondNotes.resize(NotesBefore);
  if (Undecided &&
      (jumpsOut(If->getThen()) || (If->getElse() && jumpsOut(If->getElse()))))
    ActiveInexact = "some lanes may have left at `" + text(If->getCond()) +
                    "`, not decided per lane";
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
    if (auto *Prop = dyn_cast<MSPropertyRefExpr>(
            PO->getSyntacticForm()->IgnoreParens())) {
      // The base is the builtin variable, under the OpaqueValueExpr that
      // the pseudo-object's semantic form shares (as builtinVar reads it).
      const Expr *Base = Prop->getBaseExpr()->IgnoreParenImpCasts();
      if (auto *OV = dyn_cast<OpaqueValueExpr>(Base))
        Base = OV->getSourceExpr()->IgnoreParenImpCasts();
      if (auto *B = dyn_cast<DeclRefExpr>(Base)) {
        llvm::StringRef N = B->getDecl()->getName();
        return N == "blockIdx" || N == "blockDim" || N == "gridDim";
      }
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
  case Stmt::CompoundStmtClass: {
    auto *CS = cast<CompoundStmt>(S);
    unsigned I = 0;
    for (const Stmt *C : CS->body()) {
      forgetDropped(CS, I++);
      exec(C);
    }
    forgetDropped(CS, I);
    return;
  }
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
  case Stmt::CXXForRangeStmtClass:
    execRangeFor(cast<CXXForRangeStmt>(S));
    return;
  case Stmt::SwitchStmtClass:
    execSwitch(cast<SwitchStmt>(S));
    return;
  case Stmt::ReturnStmtClass:
    execReturn(cast<ReturnStmt>(S));
    return;
  case Stmt::AttributedStmtClass: {
    // A loop's attributes go with it (LoopRef::Attributes).
    llvm::SaveAndRestore<const AttributedStmt *> Around(
        AroundStmt, cast<AttributedStmt>(S));
    exec(cast<AttributedStmt>(S)->getSubStmt());
    return;
  }
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

void Interpreter::Impl::execRangeFor(const CXXForRangeStmt *F) {
  llvm::SmallPtrSet<const VarDecl *, 8> Modified;
  collectModified(F->getBody(), Modified);
  for (const VarDecl *VD : Modified)
    Env[VD] = unknownPointer(Env[VD], "modified in a loop");
  exec(F->getLoopVarStmt());
  exec(F->getBody());
  for (const VarDecl *VD : Modified)
    Env[VD] = unknownPointer(Env[VD], "modified in a loop");
}

void Interpreter::Impl::execSwitch(const SwitchStmt *Sw) {
  if (Sw->getInit())
    exec(Sw->getInit());
  eval(Sw->getCond());
  llvm::SmallPtrSet<const VarDecl *, 8> Modified;
  collectModified(Sw->getBody(), Modified);
  // Every case is walked with every active lane.
  llvm::SmallPtrSet<const VarDecl *, 1> None;
  bool Uniform = uniformExpr(Sw->getCond(), None);
  UndecidedDepth += !Uniform;
  exec(Sw->getBody());
  UndecidedDepth -= !Uniform;
  for (const VarDecl *VD : Modified)
    Env[VD] = unknownPointer(Env[VD], "assigned in a switch");
}

void Interpreter::Impl::execReturn(const ReturnStmt *R) {
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
}

} // namespace cal

//===- HostExec.cpp -------------------------------------------------------===//
//
// Host statements on the path to a launch: declarations, assignments to
// locals, their members and array elements, branches and switches whose
// condition is known; whatever else a statement may change is forgotten
// (interp/HostImpl.h).
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/HostImpl.h"

namespace cal {

using namespace clang;
using namespace host;
using interp::LValue;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

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
  for (const VarDecl *VD : M) {
    Env[VD] = AbsValue::unknown("`" + VD->getNameAsString() +
                                "` is assigned on some paths");
    if (Host)
      Host->Fns.erase({VD, 0});
  }
}

void Interpreter::Impl::hostForget(const Stmt *S) {
  forgetModified(S);
  if (!Host || !S)
    return;
  // Arrays assigned (at any index) or handed to a call, in S.
  forEachWritten(S, /*RefArguments=*/false, [&](const VarDecl *VD) {
    if (VD && VD->getType()->isArrayType())
      Host->Poisoned.insert(VD);
  });
}

void Interpreter::Impl::hostDecl(const DeclStmt *DS) {
  exec(DS);
  for (const Decl *D : DS->decls()) {
    auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !VD->getInit())
      continue;
    QualType T = VD->getType();
    if (T->isArrayType())
      hostInitArray(VD, 0, T, VD->getInit());
    else if (T->isFunctionPointerType()) {
      if (const FunctionDecl *FD = hostFunction(VD->getInit()))
        Host->Fns[{VD, 0}] = FD;
    } else if (T->isRecordType() && isa<InitListExpr>(stripFull(VD->getInit())))
      Env[VD] = hostInitValue(T, VD->getInit());
  }
}

bool Interpreter::Impl::hostAssign(const Expr *E) {
  E = stripFull(E);
  if (auto A = plainAssignment(E)) {
    const Expr *LHS = A->first, *RHS = A->second;
    QualType T = LHS->getType();
    LValue L = evalLValue(LHS);
    if (L.K == LValue::Var) {
      if (T->isFunctionPointerType() && L.Path.empty()) {
        if (const FunctionDecl *FD = hostFunction(RHS))
          Host->Fns[{L.VD, 0}] = FD;
        else
          Host->Fns.erase({L.VD, 0});
        return true;
      }
      writeVar(L, eval(RHS));
      return true;
    }
    if (L.K == LValue::Memory && L.Region && L.Region->Decl &&
        isa<VarDecl>(L.Region->Decl) &&
        L.Region->Decl->getType()->isArrayType()) {
      const ValueDecl *D = L.Region->Decl;
      std::optional<int64_t> Off =
          L.Offset ? L.Offset->asConstant() : std::nullopt;
      if (!Off) {
        Host->Poisoned.insert(D);
        eval(RHS);
        return true;
      }
      if (T->isFunctionPointerType()) {
        if (const FunctionDecl *FD = hostFunction(RHS))
          Host->Fns[{D, *Off}] = FD;
        else
          Host->Fns.erase({D, *Off});
        return true;
      }
      hostStore(D, *Off, T, eval(RHS));
      return true;
    }
    hostForget(E);
    return true;
  }
  // Compound assignments and increments of a variable: the interpreter's
  // own arithmetic.
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    if (auto *D = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
      if (isa<VarDecl>(D->getDecl())) {
        eval(B);
        return true;
      }
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
    if (auto *D = dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
      if (isa<VarDecl>(D->getDecl()) && D->getType()->isIntegerType()) {
        eval(U);
        return true;
      }
  return false;
}

bool Interpreter::Impl::hostSwitch(const SwitchStmt *S) {
  if (S->getInit() || S->getConditionVariable())
    return false;
  AbsValue C = eval(S->getCond());
  std::optional<int64_t> V = C.isInt() ? C.Val.asConstant() : std::nullopt;
  auto *Body = dyn_cast_or_null<CompoundStmt>(S->getBody());
  if (!V || !Body)
    return false;
  // The statement the switch jumps to.
  auto Matches = [&](const Stmt *X, bool Default) {
    while (X) {
      if (auto *CS = dyn_cast<CaseStmt>(X)) {
        Expr::EvalResult R;
        if (!Default && !CS->getRHS() && CS->getLHS()->EvaluateAsInt(R, Ctx) &&
            R.Val.getInt().getExtValue() == *V)
          return true;
        X = CS->getSubStmt();
      } else if (auto *DS = dyn_cast<DefaultStmt>(X)) {
        if (Default)
          return true;
        X = DS->getSubStmt();
      } else {
        return false;
      }
    }
    return false;
  };
  auto Stmts = Body->body();
  auto Start = Stmts.end();
  for (auto It = Stmts.begin(); It != Stmts.end(); ++It)
    if (Matches(*It, false)) {
      Start = It;
      break;
    }
  if (Start == Stmts.end())
    for (auto It = Stmts.begin(); It != Stmts.end(); ++It)
      if (Matches(*It, true)) {
        Start = It;
        break;
      }
  for (auto It = Start; It != Stmts.end(); ++It) {
    const Stmt *X = *It;
    while (true) {
      if (auto *CS = dyn_cast<CaseStmt>(X))
        X = CS->getSubStmt();
      else if (auto *DS = dyn_cast<DefaultStmt>(X))
        X = DS->getSubStmt();
      else
        break;
    }
    if (isa<BreakStmt>(X))
      return true;
    if (exits(X, /*Continue=*/false, /*InLoop=*/false, /*InSwitch=*/false)) {
      // A break or return inside: where it leaves is not followed.
      hostForget(S);
      return true;
    }
    hostExec(X);
  }
  return true;
}

void Interpreter::Impl::hostExec(const Stmt *S) {
  if (!S || Host->Returned)
    return;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      hostExec(C);
    return;
  }
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    hostDecl(DS);
    return;
  }
  if (auto *E = dyn_cast<Expr>(S)) {
    if (!hostAssign(E))
      hostForget(S);
    return;
  }
  if (auto *If = dyn_cast<IfStmt>(S)) {
    if (!If->getInit() && !If->getConditionVariable() && !If->isConsteval()) {
      AbsValue C = eval(If->getCond());
      if (C.isInt())
        if (auto V = C.Val.asConstant()) {
          hostExec(*V ? If->getThen() : If->getElse());
          return;
        }
    }
    hostForget(S);
    return;
  }
  if (auto *Sw = dyn_cast<SwitchStmt>(S)) {
    if (!hostSwitch(Sw))
      hostForget(S);
    return;
  }
  if (isa<ReturnStmt>(S)) {
    Host->Returned = true;
    return;
  }
  if (isa<NullStmt>(S))
    return;
  hostForget(S);
}

void Interpreter::Impl::followTo(const Stmt *S, const Stmt *At) {
  if (!S || S == At || Host->Unreachable)
    return;
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body()) {
      if (containsStmt(C, At)) {
        followTo(C, At);
        return;
      }
      hostExec(C);
      if (Host->Returned) {
        Host->Unreachable = true;
        return;
      }
    }
    return;
  }
  if (auto *If = dyn_cast<IfStmt>(S)) {
    // A branch the known condition does not take does not reach the launch.
    if (!If->getInit() && !If->getConditionVariable() &&
        !containsStmt(If->getCond(), At)) {
      AbsValue C = eval(If->getCond());
      if (C.isInt())
        if (auto V = C.Val.asConstant())
          if ((*V && !containsStmt(If->getThen(), At)) ||
              (!*V && !containsStmt(If->getElse(), At))) {
            Host->Unreachable = true;
            return;
          }
    }
  }
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
      isa<CXXForRangeStmt>(S)) {
    // Whatever the loop changes differs from one iteration to the next
    // (a counter the scenario fixes excepted).
    if (auto *F = dyn_cast<ForStmt>(S))
      if (F->getInit() && !containsStmt(F->getInit(), At))
        exec(F->getInit());
    hostForget(S);
    for (const auto &[VD, V] : Host->Scenario)
      if (mentionsVar(S, VD))
        Env[VD] = V;
  }
  for (const Stmt *C : S->children())
    if (containsStmt(C, At)) {
      followTo(C, At);
      return;
    }
}

} // namespace cal

//===- HostEval.cpp -------------------------------------------------------===//
//
// Host code: the values of a launch's configuration, following the
// enclosing function's straight-line statements to the launch.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

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

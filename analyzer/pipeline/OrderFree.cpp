//===- OrderFree.cpp -----------------------------------------------------===//
//
// Whether a loop's iterations may run in any order (LoopFact::OrderFree).
//
//===----------------------------------------------------------------------===//

#include "analyzer/pipeline/KernelAnalysis.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

namespace cal {
namespace pipeline {

using namespace clang;

namespace {

/// Whether a loop's iterations may run in any order: every variable from
/// outside the loop that it writes is only accumulated with a commutative
/// operator (+=, *=, min/max, ...) and read nowhere else in it, and it
/// stores nothing to memory except per-thread arrays. A product along a row
/// is order-free; a prefix product that writes each step back is not.
class OrderFreeCheck {
public:
  OrderFreeCheck(const Stmt *Body,
                 const llvm::SmallPtrSetImpl<const VarDecl *> &Counters)
      : Body(Body) {
    collectLocals(Body);
    Locals.insert(Counters.begin(), Counters.end());
  }

  bool run() {
    visit(Body);
    for (const auto &[VD, N] : Reads)
      if (Accumulated.count(VD))
        return false;
    return Ok;
  }

private:
  void collectLocals(const Stmt *S) {
    if (!S)
      return;
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D))
          Locals.insert(VD);
    for (const Stmt *C : S->children())
      collectLocals(C);
  }

  static const VarDecl *varOf(const Expr *E) {
    if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  }

  /// A write to memory is order-free only into a per-thread array.
  bool localArrayElement(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    while (auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase()->IgnoreParenImpCasts();
    const VarDecl *VD = varOf(E);
    return VD && VD->getType()->isArrayType() && VD->hasLocalStorage() &&
           !VD->hasAttr<CUDASharedAttr>();
  }

  /// `v = v op x`, `v = op(v, x)` with a commutative op, v not in x.
  bool accumulates(const VarDecl *V, const Expr *RHS) {
    RHS = RHS->IgnoreParenImpCasts();
    const Expr *Other = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(RHS)) {
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Mul &&
          B->getOpcode() != BO_And && B->getOpcode() != BO_Or &&
          B->getOpcode() != BO_Xor)
        return false;
      if (varOf(B->getLHS()) == V)
        Other = B->getRHS();
      else if (varOf(B->getRHS()) == V)
        Other = B->getLHS();
    } else if (auto *C = dyn_cast<CallExpr>(RHS)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || C->getNumArgs() != 2 || !FD->getDeclName().isIdentifier())
        return false;
      llvm::StringRef N = FD->getName();
      if (N != "max" && N != "min" && N != "fmaxf" && N != "fminf" &&
          N != "fmax" && N != "fmin" && N != "__hmax" && N != "__hmin")
        return false;
      if (varOf(C->getArg(0)) == V)
        Other = C->getArg(1);
      else if (varOf(C->getArg(1)) == V)
        Other = C->getArg(0);
    }
    if (!Other)
      return false;
    visit(Other);
    return true;
  }

  void write(const Expr *LHS, bool Commutative) {
    if (const VarDecl *V = varOf(LHS)) {
      if (Locals.count(V))
        return;
      if (Commutative)
        Accumulated.insert(V);
      else
        Ok = false;
      return;
    }
    if (!localArrayElement(LHS))
      Ok = false; // a store to global or shared memory
    // The index expressions are reads.
    for (const Stmt *C : LHS->children())
      if (auto *E = dyn_cast_or_null<Expr>(C))
        if (!varOf(E))
          visit(E);
  }

  void visit(const Stmt *S) {
    if (!S || !Ok)
      return;
    if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<GotoStmt>(S)) {
      Ok = false;
      return;
    }
    if (auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->getOpcode() == BO_Assign) {
        const VarDecl *V = varOf(B->getLHS());
        if (V && !Locals.count(V)) {
          if (!accumulates(V, B->getRHS()))
            Ok = false;
          else
            Accumulated.insert(V);
          return;
        }
        write(B->getLHS(), false);
        visit(B->getRHS());
        return;
      }
      if (auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
        BinaryOperatorKind Op = CA->getOpcode();
        bool Comm = Op == BO_AddAssign || Op == BO_SubAssign ||
                    Op == BO_MulAssign || Op == BO_AndAssign ||
                    Op == BO_OrAssign || Op == BO_XorAssign;
        write(CA->getLHS(), Comm);
        visit(CA->getRHS());
        return;
      }
    }
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      OverloadedOperatorKind K = OC->getOperator();
      if (OC->isAssignmentOp() && OC->getNumArgs() == 2) {
        bool Comm =
            K == OO_PlusEqual || K == OO_MinusEqual || K == OO_StarEqual;
        const VarDecl *V = varOf(OC->getArg(0));
        if (K == OO_Equal && V && !Locals.count(V)) {
          if (!accumulates(V, OC->getArg(1)))
            Ok = false;
          else
            Accumulated.insert(V);
          return;
        }
        write(OC->getArg(0), Comm);
        visit(OC->getArg(1));
        return;
      }
    }
    if (auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp()) {
        write(U->getSubExpr(), true);
        return;
      }
    }
    if (auto *D = dyn_cast<DeclRefExpr>(S)) {
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        if (!Locals.count(VD))
          ++Reads[VD];
      return;
    }
    for (const Stmt *C : S->children())
      visit(C);
  }

  const Stmt *Body;
  bool Ok = true;
  llvm::SmallPtrSet<const VarDecl *, 8> Locals, Accumulated;
  llvm::DenseMap<const VarDecl *, unsigned> Reads;
};

/// Variables a while/do loop counts with: mentioned in its condition and
/// stepped by `++v`, `v += c` at the top level of its body. They are the
/// loop's own counter (as a for-loop's is), not results of the iterations.
void whileCounters(const Expr *Cond, const Stmt *Body,
                   llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Cond || !CS)
    return;
  llvm::SmallPtrSet<const VarDecl *, 4> InCond;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *D = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        InCond.insert(VD);
    for (const Stmt *C : S->children())
      Collect(C);
  };
  Collect(Cond);
  for (const Stmt *S : CS->body()) {
    const Expr *E = dyn_cast<Expr>(S);
    if (!E)
      continue;
    E = E->IgnoreParenImpCasts();
    const Expr *Target = nullptr;
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    else if (auto *CA = dyn_cast<CompoundAssignOperator>(E);
             CA &&
             (CA->getOpcode() == BO_AddAssign ||
              CA->getOpcode() == BO_SubAssign) &&
             isa<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts()))
      Target = CA->getLHS();
    if (!Target)
      continue;
    if (auto *D = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        if (InCond.count(VD))
          Out.insert(VD);
  }
}

} // namespace

bool isOrderFree(const Stmt *Loop) {
  const Stmt *Body = nullptr;
  const Expr *Cond = nullptr;
  if (auto *F = dyn_cast_or_null<ForStmt>(Loop))
    Body = F->getBody();
  else if (auto *W = dyn_cast_or_null<WhileStmt>(Loop))
    Body = W->getBody(), Cond = W->getCond();
  else if (auto *D = dyn_cast_or_null<DoStmt>(Loop))
    Body = D->getBody(), Cond = D->getCond();
  if (!Body)
    return false;
  llvm::SmallPtrSet<const VarDecl *, 4> Counters;
  whileCounters(Cond, Body, Counters);
  return OrderFreeCheck(Body, Counters).run();
}

} // namespace pipeline
} // namespace cal

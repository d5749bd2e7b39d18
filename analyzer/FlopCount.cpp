//===- FlopCount.cpp ------------------------------------------------------===//

#include "analyzer/FlopCount.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include <optional>
#include <set>

namespace cal {

namespace {

using namespace clang;

/// 32 for float, 64 for double, 0 for anything else.
int precisionOf(QualType T) {
  if (T.isNull())
    return 0;
  if (const auto *BT = T.getCanonicalType()->getAs<BuiltinType>()) {
    if (BT->getKind() == BuiltinType::Float)
      return 32;
    if (BT->getKind() == BuiltinType::Double)
      return 64;
  }
  return 0;
}

const Expr *strip(const Expr *E) { return E ? E->IgnoreParenImpCasts() : nullptr; }

const VarDecl *varOf(const Expr *E) {
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(strip(E)))
    return dyn_cast<VarDecl>(D->getDecl());
  return nullptr;
}

struct Counter {
  const std::map<const Stmt *, int64_t> &Trips;
  ASTContext &Ctx;
  FlopCount C;
  std::set<const FunctionDecl *> Active;

  std::optional<int64_t> constant(const Expr *E) {
    Expr::EvalResult R;
    if (E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  }

  /// `for (int i = a; i < b; i op= c)` with constant a, b, c (<, <=, >, >=,
  /// !=; ++, --, +=, -=, *=, /=, <<=, >>=), run on the constants (at most
  /// 2^24 trips).
  std::optional<int64_t> headerTrip(const ForStmt *L) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(L->getInit());
    if (!DS || !DS->isSingleDecl())
      return std::nullopt;
    const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!V || !V->getType()->isIntegerType() || !V->getInit())
      return std::nullopt;
    auto A = constant(V->getInit());
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(strip(L->getCond()));
    if (!A || !Cond || varOf(Cond->getLHS()) != V)
      return std::nullopt;
    auto B = constant(Cond->getRHS());
    if (!B)
      return std::nullopt;
    BinaryOperatorKind Op;
    int64_t Step = 1;
    const Expr *Inc = strip(L->getInc());
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
      if (varOf(U->getSubExpr()) != V || !(U->isIncrementOp() || U->isDecrementOp()))
        return std::nullopt;
      Op = U->isIncrementOp() ? BO_AddAssign : BO_SubAssign;
    } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
      auto S = constant(CA->getRHS());
      if (varOf(CA->getLHS()) != V || !S)
        return std::nullopt;
      Op = CA->getOpcode();
      Step = *S;
    } else {
      return std::nullopt;
    }
    auto Holds = [&](int64_t X) {
      switch (Cond->getOpcode()) {
      case BO_LT: return X < *B;
      case BO_LE: return X <= *B;
      case BO_GT: return X > *B;
      case BO_GE: return X >= *B;
      case BO_NE: return X != *B;
      default: return false;
      }
    };
    if (!Cond->isComparisonOp())
      return std::nullopt;
    int64_t X = *A, N = 0;
    while (Holds(X)) {
      if (++N > (int64_t(1) << 24))
        return std::nullopt;
      int64_t Y = X;
      switch (Op) {
      case BO_AddAssign: Y = X + Step; break;
      case BO_SubAssign: Y = X - Step; break;
      case BO_MulAssign: Y = X * Step; break;
      case BO_DivAssign: Y = Step ? X / Step : X; break;
      case BO_ShlAssign: Y = Step >= 0 && Step < 32 ? X << Step : X; break;
      case BO_ShrAssign: Y = Step >= 0 && Step < 63 ? X >> Step : X; break;
      default: return std::nullopt;
      }
      if (Y == X)
        return std::nullopt; // never ends
      X = Y;
    }
    return N;
  }

  double trip(const Stmt *L, const std::string &What) {
    auto It = Trips.find(L);
    if (It != Trips.end() && It->second >= 0)
      return double(It->second);
    if (const auto *F = dyn_cast<ForStmt>(L))
      if (auto T = headerTrip(F))
        return double(*T);
    C.Complete = false;
    C.Unknown.push_back(What);
    return 1;
  }

  static std::string loopName(const ForStmt *L) {
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(L->getInit()))
      if (DS->isSingleDecl())
        if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
          return "for " + V->getNameAsString();
    return "for";
  }

  bool isMul(const Expr *E) {
    const auto *B = dyn_cast_or_null<BinaryOperator>(strip(E));
    return B && B->getOpcode() == BO_Mul && precisionOf(B->getType());
  }

  void count(int P, double &F32, double &F64, double N) {
    (P == 64 ? F64 : F32) += N;
  }

  /// An FMA's multiply: its operands are visited, the multiply itself is
  /// part of the FMA.
  void visitFused(const Expr *Mul, double N) {
    const auto *B = cast<BinaryOperator>(strip(Mul));
    visit(B->getLHS(), N);
    visit(B->getRHS(), N);
  }

  /// A loop: its condition and body counted trip times over. False when
  /// \p S is not a loop.
  bool visitLoop(const Stmt *S, double N) {
    if (const auto *L = dyn_cast<ForStmt>(S)) {
      visit(L->getInit(), N);
      double T = trip(L, loopName(L));
      visit(L->getCond(), N * T);
      visit(L->getInc(), N * T);
      visit(L->getBody(), N * T);
      return true;
    }
    if (const auto *L = dyn_cast<WhileStmt>(S)) {
      double T = trip(L, "while");
      visit(L->getCond(), N * T);
      visit(L->getBody(), N * T);
      return true;
    }
    if (const auto *L = dyn_cast<DoStmt>(S)) {
      double T = trip(L, "do");
      visit(L->getCond(), N * T);
      visit(L->getBody(), N * T);
      return true;
    }
    if (const auto *L = dyn_cast<CXXForRangeStmt>(S)) {
      double T = trip(L, "for");
      visit(L->getBody(), N * T);
      return true;
    }
    return false;
  }

  /// `a += b`, `a *= b`, ...: true when its operands are visited already
  /// (`a += b * c`, an FMA).
  bool visitCompound(const CompoundAssignOperator *CA, double N) {
    int P = precisionOf(CA->getComputationResultType());
    if (!P)
      return false;
    switch (CA->getOpcode()) {
    case BO_AddAssign:
    case BO_SubAssign:
      if (isMul(CA->getRHS())) {
        count(P, C.Fma32, C.Fma64, N);
        visit(CA->getLHS(), N);
        visitFused(CA->getRHS(), N);
        return true;
      }
      count(P, C.Add32, C.Add64, N);
      break;
    case BO_MulAssign:
      count(P, C.Mul32, C.Mul64, N);
      break;
    case BO_DivAssign:
      count(P, C.Div32, C.Div64, N);
      break;
    default:
      break;
    }
    return false;
  }

  /// `a + b`, `a * b`, ...: true when its operands are visited already
  /// (`a + b * c`, an FMA).
  bool visitBinary(const BinaryOperator *B, double N) {
    int P = precisionOf(B->getType());
    if (!P)
      return false;
    switch (B->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      if (isMul(B->getRHS())) {
        count(P, C.Fma32, C.Fma64, N);
        visit(B->getLHS(), N);
        visitFused(B->getRHS(), N);
        return true;
      }
      if (isMul(B->getLHS())) {
        count(P, C.Fma32, C.Fma64, N);
        visitFused(B->getLHS(), N);
        visit(B->getRHS(), N);
        return true;
      }
      count(P, C.Add32, C.Add64, N);
      break;
    case BO_Mul:
      count(P, C.Mul32, C.Mul64, N);
      break;
    case BO_Div:
      count(P, C.Div32, C.Div64, N);
      break;
    default:
      break;
    }
    return false;
  }

  /// A call: the callee's body, where it has one (not recursively).
  void visitCall(const CallExpr *Call, double N) {
    const FunctionDecl *FD = Call->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (FD && FD->hasBody(Def) && Def && Active.size() < 16 &&
        Active.insert(Def).second) {
      visit(Def->getBody(), N);
      Active.erase(Def);
    }
  }

  void visit(const Stmt *S, double N) {
    if (!S || visitLoop(S, N))
      return;
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(S)) {
      if (visitCompound(CA, N))
        return;
    } else if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (visitBinary(B, N))
        return;
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      visitCall(Call, N);
    } else if (isa<LambdaExpr>(S)) {
      return; // counted where it is called
    } else if (isa<ArraySubscriptExpr>(S)) {
      C.Subscripts += N;
    }
    for (const Stmt *Child : S->children())
      visit(Child, N);
  }
};

} // namespace

FlopCount countFlops(const clang::FunctionDecl *Kernel,
                     const std::map<const clang::Stmt *, int64_t> &Trips) {
  if (!Kernel || !Kernel->hasBody())
    return {};
  Counter Cnt{Trips, Kernel->getASTContext(), {}, {Kernel}};
  Cnt.visit(Kernel->getBody(), 1);
  return Cnt.C;
}

FlopCount countFlopsIn(const clang::Stmt *S, clang::ASTContext &Ctx,
                       const std::map<const clang::Stmt *, int64_t> &Trips) {
  Counter Cnt{Trips, Ctx, {}, {}};
  Cnt.visit(S, 1);
  return Cnt.C;
}

} // namespace cal

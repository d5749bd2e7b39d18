//===- HostEval.cpp -------------------------------------------------------===//
//
// Host code: the values of a launch's configuration. The enclosing
// function's statements are followed to the launch (declarations,
// assignments to locals, their members and array elements, branches whose
// condition is known); globals are taken as the host function that assigns
// them leaves them; the enclosing function's parameters come from the host
// calls of it, a few callers deep; loop counters with constant bounds and
// those parameters are enumerated, one scenario each (analyzer/HostLaunch.h).
//
//===----------------------------------------------------------------------===//

#include "analyzer/HostLaunch.h"
#include "analyzer/interp/InterpImpl.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <tuple>

namespace cal {

using namespace clang;
using interp::LValue;

/// What host statements stored: array elements and function pointers, the
/// globals as their setup function leaves them, the user's assumptions.
struct HostMemory {
  /// (array, byte offset, canonical type) -> value.
  std::map<std::tuple<const ValueDecl *, int64_t, const void *>, AbsValue>
      Cells;
  /// Function pointers: (variable or array, byte offset) -> function.
  std::map<std::pair<const ValueDecl *, int64_t>, const FunctionDecl *> Fns;
  /// Arrays whose elements are not known (assigned at an unknown index,
  /// handed to a call).
  std::set<const ValueDecl *> Poisoned;
  /// Global variables (not arrays) as the setup function leaves them.
  llvm::DenseMap<const VarDecl *, AbsValue> GlobalVars;
  /// Globals: where their values come from, stated when one is read.
  std::map<const ValueDecl *, std::string> GlobalNotes;
  /// In the order they are first read, so that the notes come out in the
  /// same order on every run (not in the order of the pointers).
  llvm::SetVector<const ValueDecl *> GlobalsRead;
  const std::vector<AssumedValue> *Assumed = nullptr;
  /// The kernel whose per-kernel assumptions apply (empty: global only).
  std::string Kernel;
  std::vector<const AssumedValue *> AssumedUsed;
  /// Loop counters bound by the scenario.
  llvm::DenseMap<const VarDecl *, AbsValue> Scenario;
  bool Returned = false;
  bool Unreachable = false;
};

namespace {

bool isHostGlobal(const VarDecl *VD) {
  return VD && VD->hasGlobalStorage() && !VD->isStaticLocal() &&
         !isa<ParmVarDecl>(VD) && !VD->hasAttr<CUDADeviceAttr>() &&
         !VD->hasAttr<CUDAConstantAttr>() && !VD->hasAttr<CUDASharedAttr>();
}

const Expr *stripFull(const Expr *E) {
  while (true) {
    if (auto *F = dyn_cast<FullExpr>(E))
      E = F->getSubExpr();
    else if (auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else
      return E;
  }
}

/// The variable an lvalue expression is rooted in: `a[i][j].x` -> a.
const VarDecl *rootVar(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      E = S->getBase();
      continue;
    }
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return nullptr;
      E = M->getBase();
      continue;
    }
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  }
}

/// `a = e` or a trivial (defaulted) operator= of a class: LHS and RHS.
std::optional<std::pair<const Expr *, const Expr *>>
plainAssignment(const Expr *E) {
  E = stripFull(E);
  if (auto *B = dyn_cast<BinaryOperator>(E))
    if (B->getOpcode() == BO_Assign)
      return std::make_pair(B->getLHS(), B->getRHS());
  if (auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee()))
        if ((MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
            (MD->isTrivial() || MD->isDefaulted()))
          return std::make_pair(OC->getArg(0), OC->getArg(1));
  return std::nullopt;
}

std::string valueText(const AbsValue &V) {
  if (V.isInt()) {
    if (auto C = V.Val.asConstant())
      return std::to_string(*C);
    return "?";
  }
  if (V.K == AbsValue::Struct && V.Fields) {
    std::vector<std::string> Parts;
    for (const char *N : {"x", "y", "z"})
      for (const auto &[F, FV] : *V.Fields)
        if (F->getName() == N)
          Parts.push_back(valueText(FV));
    if (!Parts.empty())
      return "(" + llvm::join(Parts, ", ") + ")";
    return "{...}";
  }
  return "?";
}

bool knownValue(const AbsValue &V) {
  if (V.isInt())
    return V.Val.asConstant().has_value();
  if (V.K == AbsValue::Struct && V.Fields && !V.Fields->empty()) {
    for (const auto &[F, FV] : *V.Fields)
      if (!knownValue(FV))
        return false;
    return true;
  }
  return false;
}

std::string locText(const SourceManager &SM, SourceLocation Loc) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return "<unknown>";
  return (llvm::sys::path::filename(P.getFilename()) + ":" +
          llvm::Twine(P.getLine()))
      .str();
}

} // namespace

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
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *X,
                                                      bool AsBase) {
    if (!X)
      return;
    auto Poison = [&](const VarDecl *VD) {
      if (VD && VD->getType()->isArrayType())
        Host->Poisoned.insert(VD);
    };
    if (auto *E = dyn_cast<Expr>(X)) {
      if (auto A = plainAssignment(E))
        Poison(rootVar(A->first));
      if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
        Poison(rootVar(B->getLHS()));
      if (auto *U = dyn_cast<UnaryOperator>(E);
          U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
        Poison(rootVar(U->getSubExpr()));
      if (auto *IC = dyn_cast<ImplicitCastExpr>(E);
          IC && IC->getCastKind() == CK_ArrayToPointerDecay && !AsBase)
        Poison(rootVar(IC->getSubExpr()));
      if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
        Walk(AS->getBase(), /*AsBase=*/true);
        Walk(AS->getIdx(), false);
        return;
      }
    }
    for (const Stmt *C : X->children())
      Walk(C, false);
  };
  Walk(S, false);
}

void Interpreter::Impl::hostStore(const ValueDecl *D, int64_t Off, QualType T,
                                  const AbsValue &V) {
  std::optional<int64_t> Size = sizeOf(T);
  if (!Size)
    return;
  // What the store overwrites goes.
  for (auto It = Host->Cells.begin(); It != Host->Cells.end();) {
    auto [CD, COff, CT] = It->first;
    std::optional<int64_t> CS =
        sizeOf(QualType::getFromOpaquePtr(const_cast<void *>(CT)));
    if (CD == D && CS && COff < Off + *Size && Off < COff + *CS)
      It = Host->Cells.erase(It);
    else
      ++It;
  }
  Host->Cells[{D, Off, T.getCanonicalType().getUnqualifiedType().getAsOpaquePtr()}] = V;
  // A struct's fields are readable one by one too.
  if (V.K == AbsValue::Struct && V.Fields)
    if (const RecordDecl *RD = T->getAsRecordDecl();
        RD && RD->isCompleteDefinition()) {
      const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
      for (const FieldDecl *F : RD->fields()) {
        auto FI = V.Fields->find(F);
        if (FI == V.Fields->end() || F->isBitField())
          continue;
        int64_t FOff = Ctx.toCharUnitsFromBits(
                              Layout.getFieldOffset(F->getFieldIndex()))
                           .getQuantity();
        QualType FT = F->getType();
        Host->Cells[{D, Off + FOff,
                     FT.getCanonicalType().getUnqualifiedType().getAsOpaquePtr()}] =
            FI->second;
      }
    }
}

AbsValue Interpreter::Impl::hostInitValue(QualType T, const Expr *Init) {
  Init = stripFull(Init);
  auto *IL = dyn_cast<InitListExpr>(Init);
  const RecordDecl *RD = T->getAsRecordDecl();
  auto *CRD = dyn_cast_or_null<CXXRecordDecl>(RD);
  if (!IL || !RD || !RD->isCompleteDefinition() ||
      (CRD && CRD->getNumBases()))
    return eval(Init);
  AbsValue V;
  V.K = AbsValue::Struct;
  V.Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields()) {
    if (I >= IL->getNumInits())
      break;
    (*V.Fields)[F] = hostInitValue(F->getType(), IL->getInit(I++));
  }
  return V;
}

void Interpreter::Impl::hostInitArray(const ValueDecl *D, int64_t Off,
                                      QualType T, const Expr *Init) {
  Init = stripFull(Init);
  const auto *AT = Ctx.getAsConstantArrayType(T);
  auto *IL = dyn_cast<InitListExpr>(Init);
  if (!AT || !IL)
    return;
  QualType ET = AT->getElementType();
  std::optional<int64_t> ES = sizeOf(ET);
  if (!ES)
    return;
  uint64_t N = std::min<uint64_t>(AT->getSize().getZExtValue(), 4096);
  for (uint64_t I = 0; I < N; ++I) {
    const Expr *E = I < IL->getNumInits() ? IL->getInit(I)
                    : IL->hasArrayFiller() ? IL->getArrayFiller()
                                           : nullptr;
    if (!E)
      break;
    int64_t At = Off + int64_t(I) * *ES;
    if (ET->isArrayType())
      hostInitArray(D, At, ET, E);
    else if (ET->isFunctionPointerType()) {
      if (const FunctionDecl *FD = hostFunction(E))
        Host->Fns[{D, At}] = FD;
    } else
      hostStore(D, At, ET, hostInitValue(ET, E));
  }
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
    } else if (T->isRecordType() &&
               isa<InitListExpr>(stripFull(VD->getInit())))
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
      if (isa<VarDecl>(D->getDecl()) &&
          D->getType()->isIntegerType()) {
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

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

const FunctionDecl *Interpreter::Impl::hostFunction(const Expr *E) {
  if (!E || !Host)
    return nullptr;
  E = stripFull(E)->IgnoreParenCasts();
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    E = U->getSubExpr()->IgnoreParenCasts();
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    if (auto *FD = dyn_cast<FunctionDecl>(D->getDecl()))
      return FD;
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    AbsValue V = eval(C->getCond());
    if (V.isInt())
      if (auto K = V.Val.asConstant())
        return hostFunction(*K ? C->getTrueExpr() : C->getFalseExpr());
    return nullptr;
  }
  if (!E->isGLValue())
    return nullptr;
  LValue L = evalLValue(E);
  if (L.K == LValue::Var && L.Path.empty()) {
    auto It = Host->Fns.find({L.VD, 0});
    return It == Host->Fns.end() ? nullptr : It->second;
  }
  if (L.K == LValue::Memory && L.Region && L.Region->Decl && L.Offset)
    if (auto Off = L.Offset->asConstant()) {
      if (Host->Poisoned.count(L.Region->Decl))
        return nullptr;
      auto It = Host->Fns.find({L.Region->Decl, *Off});
      if (It != Host->Fns.end()) {
        if (Host->GlobalNotes.count(L.Region->Decl))
          Host->GlobalsRead.insert(L.Region->Decl);
        return It->second;
      }
    }
  return nullptr;
}

AbsValue Interpreter::Impl::hostLoad(const LValue &L, QualType T) {
  const ValueDecl *D = L.Region ? L.Region->Decl : nullptr;
  std::string Name = D ? "`" + D->getNameAsString() + "`" : "the array";
  if (!D || !L.Offset)
    return AbsValue::unknown("element of " + Name + " at an unknown address");
  std::optional<int64_t> Off = L.Offset->asConstant();
  if (!Off)
    return AbsValue::unknown(Name + " indexed by a value not known here");
  if (Host->Poisoned.count(D))
    return AbsValue::unknown(Name + " is assigned where it is not followed");
  auto It = Host->Cells.find(
      {D, *Off, T.getCanonicalType().getUnqualifiedType().getAsOpaquePtr()});
  if (It == Host->Cells.end())
    return AbsValue::unknown("element of " + Name + " not known");
  if (Host->GlobalNotes.count(D))
    Host->GlobalsRead.insert(D);
  return It->second;
}

std::optional<AbsValue> Interpreter::Impl::hostReadVar(const LValue &L) {
  const VarDecl *VD = L.VD;
  if (isHostGlobal(VD)) {
    auto It = Host->GlobalVars.find(VD);
    if (It != Host->GlobalVars.end() && !It->second.isUnknown()) {
      const AbsValue *V = &It->second;
      for (const FieldDecl *F : L.Path) {
        if (V->K != AbsValue::Struct || !V->Fields)
          return std::nullopt;
        auto FI = V->Fields->find(F);
        if (FI == V->Fields->end())
          return std::nullopt;
        V = &FI->second;
      }
      if (Host->GlobalNotes.count(VD))
        Host->GlobalsRead.insert(VD);
      return *V;
    }
  }
  // What the user assumed for a variable of this name.
  if (!Host->Assumed || !L.Path.empty() ||
      !(VD->getType()->isIntegerType() && !VD->getType()->isBooleanType()))
    return std::nullopt;
  const AssumedValue *Found = nullptr;
  for (const AssumedValue &A : *Host->Assumed)
    if (A.Name == VD->getName() && A.Kernel.empty())
      Found = &A;
  for (const AssumedValue &A : *Host->Assumed)
    if (A.Name == VD->getName() && !A.Kernel.empty() && A.Kernel == Host->Kernel)
      Found = &A;
  if (!Found)
    return std::nullopt;
  if (std::find(Host->AssumedUsed.begin(), Host->AssumedUsed.end(), Found) ==
      Host->AssumedUsed.end())
    Host->AssumedUsed.push_back(Found);
  return AbsValue::integer(Poly(Found->Value));
}

//===----------------------------------------------------------------------===//
// evalHostExpr: one expression, one scenario, no globals
//===----------------------------------------------------------------------===//

namespace {

/// An interpreter for host code: no thread context (threadIdx etc. are
/// unknown symbols).
struct HostInterp {
  SymbolTable Syms;
  WarpInstance W;
  std::deque<MemRegion> Regions;
  std::vector<RawAccess> Out;
  HostMemory Mem;

  HostInterp() {
    for (int D = 0; D < 3; ++D) {
      SymbolInfo I;
      I.Name = "host";
      I.Kind = SymbolKind::Opaque;
      W.Tid[D] = Poly::symbol(Syms.add(I));
      W.BlockDim[D] = Poly::symbol(Syms.add(I));
    }
  }
};

/// Binds every local of \p Body declared once and never modified to its
/// initializer, in declaration order.
template <typename ImplT> void bindLocals(ImplT &I, const Stmt *Body) {
  llvm::SmallPtrSet<const VarDecl *, 8> Modified;
  I.collectModified(Body, Modified);
  std::function<void(const Stmt *)> Bind = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D))
          if (!Modified.count(VD) && VD->getInit() &&
              !VD->getType()->isReferenceType() &&
              !VD->getType()->isArrayType() && !I.Env.count(VD))
            I.Env[VD] = I.eval(VD->getInit());
      return;
    }
    if (isa<Expr>(S))
      return;
    for (const Stmt *C : S->children())
      Bind(C);
  };
  Bind(Body);
}

} // namespace

AbsValue Interpreter::evalHostExpr(ASTContext &Ctx, const Expr *E,
                                   const FunctionDecl *Enclosing,
                                   const Stmt *At) {
  HostInterp H;
  Impl I(Ctx, H.Syms, H.W, H.Regions, H.Out);
  I.Host = &H.Mem;
  if (Enclosing && Enclosing->getBody()) {
    bindLocals(I, Enclosing->getBody());
    if (At)
      I.followTo(Enclosing->getBody(), At);
  }
  return I.eval(E);
}

//===----------------------------------------------------------------------===//
// HostCode: globals, call sites, scenarios
//===----------------------------------------------------------------------===//

bool parseAssumedValues(llvm::StringRef Text, const std::string &Source,
                        std::vector<AssumedValue> &Out, std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Text.split(Items, ',');
  std::string Kernel;
  size_t Before = Out.size();
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    if (Item.empty()) {
      Error = "empty item in '" + Text.str() + "' (expected NAME=VALUE)";
      break;
    }
    auto [Lhs, Value] = Item.split('=');
    if (Value.data() == nullptr || !Item.contains('=')) {
      Error = "'" + Item.str() + "' is not NAME=VALUE";
      break;
    }
    Lhs = Lhs.trim();
    Value = Value.trim();
    if (Lhs.contains(':')) {
      auto [K, N] = Lhs.rsplit(':');
      Kernel = K.trim().str();
      Lhs = N.trim();
      if (Kernel.empty()) {
        Error = "'" + Item.str() + "': empty kernel name before ':'";
        break;
      }
    }
    auto IsIdent = [](llvm::StringRef N) {
      if (N.empty() || !(std::isalpha((unsigned char)N[0]) || N[0] == '_'))
        return false;
      for (char C : N)
        if (!(std::isalnum((unsigned char)C) || C == '_'))
          return false;
      return true;
    };
    if (!IsIdent(Lhs)) {
      Error = "'" + Lhs.str() + "' is not a variable name (in '" +
              Item.str() + "')";
      break;
    }
    int64_t V;
    if (Value.getAsInteger(0, V)) {
      Error = "'" + Value.str() + "' is not an integer (in '" + Item.str() +
              "')";
      break;
    }
    Out.push_back({Kernel, Lhs.str(), V, Source});
  }
  if (!Error.empty()) {
    Out.resize(Before);
    return false;
  }
  return true;
}

struct HostCode::Data {
  ASTContext &Ctx;
  const std::vector<AssumedValue> &Assumed;
  std::map<const FunctionDecl *,
           std::vector<std::pair<const CallExpr *, const FunctionDecl *>>>
      Calls;
  bool GlobalsDone = false;
  HostMemory Globals;

  static constexpr unsigned MaxDepth = 3;
  static constexpr size_t MaxScenarios = 64;
  static constexpr size_t MaxCallSites = 16;
  static constexpr int64_t MaxLoopValues = 32;

  Data(ASTContext &C, const std::vector<AssumedValue> &A)
      : Ctx(C), Assumed(A) {}

  bool isSystem(SourceLocation Loc) const {
    const SourceManager &SM = Ctx.getSourceManager();
    if (Loc.isInvalid())
      return true;
    Loc = SM.getExpansionLoc(Loc);
    return SM.isInSystemHeader(Loc) ||
           SM.getFilename(Loc).starts_with("/__cuda_access_lint__/");
  }

  /// The globals, as the one host function that assigns each leaves it.
  void computeGlobals();

  std::vector<HostOutcome> evaluate(const FunctionDecl *Enclosing,
                                    const Stmt *At, const Expr *Callee,
                                    const FunctionDecl *Direct,
                                    llvm::ArrayRef<const Expr *> Exprs,
                                    unsigned Depth);
};

namespace {

/// Host functions with bodies, and the globals each may write.
class GlobalWriters : public RecursiveASTVisitor<GlobalWriters> {
public:
  std::vector<const FunctionDecl *> Functions;
  std::map<const VarDecl *, std::vector<const FunctionDecl *>> Writers;
  std::vector<const VarDecl *> Globals;
  std::function<bool(SourceLocation)> IsSystem;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitVarDecl(VarDecl *VD) {
    if (isHostGlobal(VD) && !VD->isInvalidDecl() &&
        !VD->getDeclContext()->isDependentContext() &&
        !IsSystem(VD->getLocation()))
      Globals.push_back(VD);
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
        FD->hasAttr<CUDAGlobalAttr>() ||
        (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()) ||
        IsSystem(FD->getLocation()))
      return true;
    std::set<const VarDecl *> W;
    std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *S,
                                                        bool AsBase) {
      if (!S)
        return;
      auto Add = [&](const VarDecl *VD) {
        if (isHostGlobal(VD))
          W.insert(VD);
      };
      if (auto *E = dyn_cast<Expr>(S)) {
        if (auto A = plainAssignment(E))
          Add(rootVar(A->first));
        if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
          Add(rootVar(B->getLHS()));
        if (auto *U = dyn_cast<UnaryOperator>(E);
            U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
          Add(rootVar(U->getSubExpr()));
        if (auto *IC = dyn_cast<ImplicitCastExpr>(E);
            IC && IC->getCastKind() == CK_ArrayToPointerDecay && !AsBase)
          Add(rootVar(IC->getSubExpr()));
        if (auto *C = dyn_cast<CallExpr>(E))
          if (const FunctionDecl *Callee = C->getDirectCallee())
            for (unsigned I = 0; I < C->getNumArgs() && I < Callee->getNumParams();
                 ++I) {
              QualType T = Callee->getParamDecl(I)->getType();
              if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
                Add(rootVar(C->getArg(I)));
            }
        if (auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
          Walk(AS->getBase(), true);
          Walk(AS->getIdx(), false);
          return;
        }
      }
      for (const Stmt *C : S->children())
        Walk(C, false);
    };
    Walk(FD->getBody(), false);
    if (!W.empty()) {
      Functions.push_back(FD);
      for (const VarDecl *VD : W)
        Writers[VD].push_back(FD);
    }
    return true;
  }
};

} // namespace

void HostCode::Data::computeGlobals() {
  if (GlobalsDone)
    return;
  GlobalsDone = true;
  GlobalWriters GW;
  GW.IsSystem = [&](SourceLocation L) { return isSystem(L); };
  GW.TraverseDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();
  // Initial values: the globals' initializers.
  {
    HostInterp H;
    Interpreter::Impl I(Ctx, H.Syms, H.W, H.Regions, H.Out);
    I.Host = &Globals;
    for (const VarDecl *VD : GW.Globals) {
      const Expr *Init = VD->getInit();
      if (!Init)
        continue;
      QualType T = VD->getType();
      if (T->isArrayType())
        I.hostInitArray(VD, 0, T, Init);
      else if (T->isFunctionPointerType()) {
        if (const FunctionDecl *FD = I.hostFunction(Init))
          Globals.Fns[{VD, 0}] = FD;
      } else {
        AbsValue V = I.hostInitValue(T, Init);
        if (knownValue(V))
          Globals.GlobalVars[VD] = V;
      }
    }
  }
  // Each writer run once over its body, from the initial values.
  HostMemory Initial = Globals;
  for (const FunctionDecl *FD : GW.Functions) {
    HostInterp H;
    H.Mem = Initial;
    Interpreter::Impl I(Ctx, H.Syms, H.W, H.Regions, H.Out);
    I.Host = &H.Mem;
    for (const auto &[VD, V] : Initial.GlobalVars)
      I.Env[VD] = V;
    bindLocals(I, FD->getBody());
    I.hostExec(FD->getBody());
    std::string Where = FD->getNameAsString() + "() (" +
                        locText(SM, FD->getLocation()) + ")";
    for (const auto &[VD, Ws] : GW.Writers) {
      if (std::find(Ws.begin(), Ws.end(), FD) == Ws.end())
        continue;
      std::string Name = "`" + VD->getNameAsString() + "`";
      if (Ws.size() > 1) {
        // Several functions assign it: which ran last is not known.
        Globals.GlobalVars.erase(VD);
        Globals.Poisoned.insert(VD);
        for (auto It = Globals.Fns.begin(); It != Globals.Fns.end();)
          It = It->first.first == VD ? Globals.Fns.erase(It) : std::next(It);
        continue;
      }
      Globals.GlobalNotes[VD] = Name + " as " + Where +
                                " leaves it (the one host function that "
                                "assigns it)";
      if (VD->getType()->isArrayType()) {
        for (auto It = Globals.Cells.begin(); It != Globals.Cells.end();)
          It = std::get<0>(It->first) == VD ? Globals.Cells.erase(It)
                                             : std::next(It);
        for (auto It = Globals.Fns.begin(); It != Globals.Fns.end();)
          It = It->first.first == VD ? Globals.Fns.erase(It) : std::next(It);
        if (H.Mem.Poisoned.count(VD)) {
          Globals.Poisoned.insert(VD);
          continue;
        }
        for (const auto &[K, V] : H.Mem.Cells)
          if (std::get<0>(K) == VD)
            Globals.Cells[K] = V;
        for (const auto &[K, F] : H.Mem.Fns)
          if (K.first == VD)
            Globals.Fns[K] = F;
      } else if (VD->getType()->isFunctionPointerType()) {
        auto It = H.Mem.Fns.find({VD, 0});
        if (It != H.Mem.Fns.end())
          Globals.Fns[{VD, 0}] = It->second;
        else
          Globals.Fns.erase({VD, 0});
      } else {
        auto It = I.Env.find(VD);
        if (It != I.Env.end() && knownValue(It->second))
          Globals.GlobalVars[VD] = It->second;
        else
          Globals.GlobalVars.erase(VD);
      }
    }
  }
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

/// `for (int v = a; v < b; v += s)` with constants a, b, s around \p At,
/// the body not modifying v: its values.
std::optional<std::vector<int64_t>>
loopValues(ASTContext &Ctx, const ForStmt *F, const FunctionDecl *Enclosing,
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
  int64_t Step = 0;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (U->isIncrementOp())
      Step = 1;
    else if (U->isDecrementOp())
      Step = -1;
  } else if (auto *B = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult R;
    if (B->getRHS()->EvaluateAsInt(R, Ctx))
      Step = (B->getOpcode() == BO_AddAssign ? 1
              : B->getOpcode() == BO_SubAssign ? -1
                                                : 0) *
             R.Val.getInt().getExtValue();
  }
  if (Step == 0)
    return std::nullopt;
  llvm::SmallPtrSet<const VarDecl *, 8> Modified;
  // (The body must leave the counter alone.)
  std::function<bool(const Stmt *)> Touches = [&](const Stmt *S) {
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
      if (Touches(C))
        return true;
    return false;
  };
  if (Touches(F->getBody()))
    return std::nullopt;
  AbsValue Start = Interpreter::evalHostExpr(Ctx, VD->getInit(), Enclosing, F);
  AbsValue Bound =
      Interpreter::evalHostExpr(Ctx, Cond->getRHS(), Enclosing, F);
  auto S = Start.isInt() ? Start.Val.asConstant() : std::nullopt;
  auto B = Bound.isInt() ? Bound.Val.asConstant() : std::nullopt;
  if (!S || !B)
    return std::nullopt;
  std::vector<int64_t> Out;
  for (int64_t V = *S; Out.size() <= size_t(HostCode::Data::MaxLoopValues);
       V += Step) {
    bool In = false;
    switch (Cond->getOpcode()) {
    case BO_LT: In = V < *B; break;
    case BO_LE: In = V <= *B; break;
    case BO_GT: In = V > *B; break;
    case BO_GE: In = V >= *B; break;
    case BO_NE: In = V != *B; break;
    default: return std::nullopt;
    }
    if (!In)
      return Out;
    Out.push_back(V);
  }
  return std::nullopt; // too many
}

} // namespace

std::vector<HostOutcome>
HostCode::Data::evaluate(const FunctionDecl *Enclosing, const Stmt *At,
                         const Expr *Callee, const FunctionDecl *Direct,
                         llvm::ArrayRef<const Expr *> Exprs, unsigned Depth) {
  computeGlobals();
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = Enclosing ? Enclosing->getBody() : nullptr;
  // The variables to enumerate, each with its values.
  struct Choice {
    const VarDecl *VD;
    bool Param;
    std::vector<std::pair<AbsValue, std::string>> Values;
  };
  std::vector<Choice> Choices;
  std::vector<const Expr *> Asked(Exprs.begin(), Exprs.end());
  if (Callee)
    Asked.push_back(Callee);
  std::set<const VarDecl *> Deps = dependencies(Body, Asked);
  if (Body && Depth < MaxDepth) {
    // The enclosing function's parameters, from its host calls.
    auto CI = Calls.find(Enclosing->getCanonicalDecl());
    if (CI != Calls.end() && CI->second.size() <= MaxCallSites)
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
          for (const HostOutcome &O :
               evaluate(Caller, Call, nullptr, nullptr, {Call->getArg(P)},
                        Depth + 1)) {
            const AbsValue &V = O.Values[0];
            if (!knownValue(V))
              continue;
            bool Seen = false;
            for (const auto &[W, Text] : C.Values)
              Seen = Seen || W.sameAs(V);
            if (!Seen)
              C.Values.push_back(
                  {V, PD->getNameAsString() + " = " + valueText(V) + " (" +
                          Caller->getNameAsString() + " calls " +
                          Enclosing->getNameAsString() + " at " +
                          locText(SM, Call->getBeginLoc()) + ")"});
          }
        }
        if (!C.Values.empty())
          Choices.push_back(std::move(C));
      }
    // Counters of constant loops around the launch.
    std::function<void(const Stmt *)> Loops = [&](const Stmt *S) {
      if (!S || S == At)
        return;
      if (auto *F = dyn_cast<ForStmt>(S))
        if (Interpreter::Impl::containsStmt(F->getBody(), At)) {
          const VarDecl *VD = nullptr;
          if (auto Vs = loopValues(Ctx, F, Enclosing, VD); Vs && VD &&
                                                          Deps.count(VD)) {
            Choice C{VD, false, {}};
            for (int64_t V : *Vs)
              C.Values.push_back({AbsValue::integer(Poly(V)),
                                  VD->getNameAsString() + " = " +
                                      std::to_string(V)});
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
    Loops(Body);
  }
  // At most MaxScenarios: loop counters go first, then the last parameters.
  auto Count = [&] {
    size_t N = 1;
    for (const Choice &C : Choices)
      N = std::min(N * C.Values.size(), MaxScenarios + 1);
    return N;
  };
  while (!Choices.empty() && Count() > MaxScenarios) {
    auto It = std::find_if(Choices.rbegin(), Choices.rend(),
                           [](const Choice &C) { return !C.Param; });
    if (It != Choices.rend())
      Choices.erase(std::next(It).base());
    else
      Choices.pop_back();
  }

  std::vector<HostOutcome> Result;
  std::vector<size_t> Pick(Choices.size(), 0);
  while (true) {
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
    if (!H.Mem.Unreachable) {
      HostOutcome O;
      O.Callee = Callee ? I.hostFunction(Callee) : Direct;
      for (const Expr *E : Exprs)
        O.Values.push_back(I.eval(E));
      O.Bindings = llvm::join(Bindings, ", ");
      for (const ValueDecl *D : H.Mem.GlobalsRead)
        O.Notes.push_back(H.Mem.GlobalNotes[D]);
      O.Assumed = H.Mem.AssumedUsed;
      Result.push_back(std::move(O));
    }
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

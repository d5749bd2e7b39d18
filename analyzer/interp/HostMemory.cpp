//===- HostMemory.cpp -----------------------------------------------------===//
//
// Host memory: what host statements store in arrays (element by element,
// a struct's fields too), function pointers and tables of them, globals as
// their setup function leaves them and the values the user assumed, read
// back where the environment does not know a variable; the helpers of the
// host files; evalHostExpr (interp/HostImpl.h).
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/HostImpl.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace cal {

using namespace clang;
using interp::LValue;

namespace host {

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
        if ((MD->isCopyAssignmentOperator() ||
             MD->isMoveAssignmentOperator()) &&
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

void forEachWritten(const Stmt *S, bool RefArguments,
                    llvm::function_ref<void(const VarDecl *)> Fn) {
  std::function<void(const Stmt *, bool)> Walk = [&](const Stmt *X,
                                                     bool AsBase) {
    if (!X)
      return;
    if (auto *E = dyn_cast<Expr>(X)) {
      if (auto A = plainAssignment(E))
        Fn(rootVar(A->first));
      if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
        Fn(rootVar(B->getLHS()));
      if (auto *U = dyn_cast<UnaryOperator>(E);
          U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf))
        Fn(rootVar(U->getSubExpr()));
      if (auto *IC = dyn_cast<ImplicitCastExpr>(E);
          IC && IC->getCastKind() == CK_ArrayToPointerDecay && !AsBase)
        Fn(rootVar(IC->getSubExpr()));
      if (auto *C = dyn_cast<CallExpr>(E); C && RefArguments)
        if (const FunctionDecl *Callee = C->getDirectCallee())
          for (unsigned I = 0;
               I < C->getNumArgs() && I < Callee->getNumParams(); ++I) {
            QualType T = Callee->getParamDecl(I)->getType();
            if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
              Fn(rootVar(C->getArg(I)));
          }
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

HostInterp::HostInterp() {
  for (int D = 0; D < 3; ++D) {
    SymbolInfo I;
    I.Name = "host";
    I.Kind = SymbolKind::Opaque;
    W.Tid[D] = Poly::symbol(Syms.add(I));
    W.BlockDim[D] = Poly::symbol(Syms.add(I));
  }
}

} // namespace host

using namespace host;

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

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
  Host->Cells[{D, Off,
               T.getCanonicalType().getUnqualifiedType().getAsOpaquePtr()}] = V;
  // A struct's fields are readable one by one too.
  if (V.K == AbsValue::Struct && V.Fields)
    if (const RecordDecl *RD = T->getAsRecordDecl();
        RD && RD->isCompleteDefinition()) {
      const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
      for (const FieldDecl *F : RD->fields()) {
        auto FI = V.Fields->find(F);
        if (FI == V.Fields->end() || F->isBitField())
          continue;
        int64_t FOff =
            Ctx.toCharUnitsFromBits(Layout.getFieldOffset(F->getFieldIndex()))
                .getQuantity();
        QualType FT = F->getType();
        Host->Cells[{
            D, Off + FOff,
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
  if (!IL || !RD || !RD->isCompleteDefinition() || (CRD && CRD->getNumBases()))
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
    const Expr *E = I < IL->getNumInits()  ? IL->getInit(I)
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
    if (A.Name == VD->getName() && !A.Kernel.empty() &&
        A.Kernel == Host->Kernel)
      Found = &A;
  if (!Found)
    return std::nullopt;
  if (std::find(Host->AssumedUsed.begin(), Host->AssumedUsed.end(), Found) ==
      Host->AssumedUsed.end())
    Host->AssumedUsed.push_back(Found);
  return AbsValue::integer(Poly(Found->Value));
}

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

} // namespace cal

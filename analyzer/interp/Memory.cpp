//===- Memory.cpp ---------------------------------------------------------===//
//
// Lvalues and memory: regions, the address of an lvalue, reads and
// writes, and the access records they make.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

#include "clang/AST/CXXInheritance.h"

namespace cal {

using namespace clang;
using interp::LValue;

const MemRegion *Interpreter::Impl::regionFor(const ValueDecl *D,
                                              MemSpace Space) {
  auto It = RegionOf.find(D);
  if (It != RegionOf.end())
    return It->second;
  MemRegion R;
  R.Space = Space;
  R.Decl = D;
  R.Name = D->getNameAsString();
  R.DeclType = D->getType();
  if (Space == MemSpace::Global && isa<ParmVarDecl>(D)) {
    R.BaseAlign = 256; // cudaMalloc's guarantee
    R.AlignAssumed = true;
  } else if (auto *VD = dyn_cast<VarDecl>(D)) {
    R.BaseAlign = Ctx.getDeclAlign(VD).getQuantity();
    if (Space == MemSpace::Shared && VD->hasExternalStorage()) {
      R.BaseAlign = std::max<int64_t>(R.BaseAlign, 16);
      R.AlignAssumed = true;
    }
  }
  Regions.push_back(R);
  RegionOf[D] = &Regions.back();
  return &Regions.back();
}

AbsValue Interpreter::Impl::paramStruct(QualType T, const std::string &Path,
                                        unsigned Depth) {
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD || !RD->getDefinition() || Depth > 3 || isDim3Like(T))
    return AbsValue::unknown("parameter `" + Path + "` not tracked");
  AbsValue V;
  V.K = AbsValue::Struct;
  V.Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
  for (const FieldDecl *F : RD->getDefinition()->fields()) {
    std::string Name = Path + "." + F->getNameAsString();
    QualType FT = F->getType();
    if (FT->isPointerType()) {
      MemRegion R;
      R.Space = MemSpace::Global;
      R.Decl = F;
      R.Name = Name;
      R.DeclType = FT;
      R.BaseAlign = 256;
      R.AlignAssumed = true;
      Regions.push_back(R);
      (*V.Fields)[F] =
          AbsValue::pointer(&Regions.back(), Poly(0), FT->getPointeeType());
    } else if (FT->isIntegerType() && !F->isBitField()) {
      (*V.Fields)[F] = AbsValue::integer(
          Poly::symbol(opaqueSymbol("param-field:" + Name, Name)));
    } else if (FT->isRecordType()) {
      (*V.Fields)[F] = paramStruct(FT, Name, Depth + 1);
    }
  }
  return V;
}

std::string Interpreter::Impl::arrayName(const Expr *E) const {
  E = E->IgnoreParenCasts();
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return arrayName(A->getBase());
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)
      return arrayName(U->getSubExpr());
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAdditiveOp())
      return B->getLHS()->getType()->isPointerType() ? arrayName(B->getLHS())
                                                     : arrayName(B->getRHS());
  }
  if (auto *M = dyn_cast<MemberExpr>(E)) {
    // A member in a member function: the array the object is in
    // (`counts[2 * lane].get()` reads `counts`), else the member's name
    // (`buf[i]` with `buf` a member pointer).
    if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts())) {
      const LValue *T = thisObject(M->getBase());
      if (T && T->K == LValue::Memory && T->Region)
        return T->Region->Name;
      if (!M->getType()->isPointerType() && !M->getType()->isArrayType())
        return "";
      return M->getMemberDecl()->getNameAsString();
    }
    std::string Base = arrayName(M->getBase());
    if (M->getBase()->getType()->isRecordType() || M->isArrow()) {
      if (!Base.empty() && !M->getType()->isArrayType() &&
          !M->getType()->isPointerType())
        return Base; // a field of an element: the array is the base
      return Base + (M->isArrow() ? "->" : ".") +
             M->getMemberDecl()->getNameAsString();
    }
    return Base;
  }
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    return D->getDecl()->getNameAsString();
  if (auto *C = dyn_cast<CallExpr>(E)) {
    if (C->getNumArgs() > 0)
      return arrayName(C->getArg(0));
  }
  return "";
}

void Interpreter::Impl::record(AccessKind Kind, const LValue &LV, const Expr *E,
                               QualType T, const Expr *IndexHint) {
  if (LV.K != LValue::Memory || !LV.Region)
    return;
  if (LV.Region->Space == MemSpace::Local)
    return;
  if (Active == 0)
    return;
  auto Size = sizeOf(T);
  if (!Size || *Size <= 0)
    return;
  RawAccess A;
  A.E = E;
  A.CallStack = CallStack;
  A.Kind = Kind;
  A.Region = LV.Region;
  A.Array = arrayName(E);
  if (A.Array.empty())
    A.Array = LV.Region->Name;
  A.Type = T;
  A.Bytes = static_cast<unsigned>(*Size);
  A.Offset = LV.Offset;
  if (Recipes && A.Offset)
    A.Row = recordedRow(E);
  A.UnknownWhy = LV.Why;
  A.Assumptions = LV.Assumed;
  addAssumptions(A.Assumptions, CondNotes);
  A.Active = Active;
  A.Loops = Loops;
  A.Weight = W.Weight;
  if (W.Display)
    A.StrideTerm = findStrideTerm(IndexHint ? IndexHint : E);
  // A struct is copied by nvcc in pieces of its alignment, at most 16
  // bytes (a 12-byte struct of floats: three 4-byte loads; a 32-byte
  // 16-aligned one: two 16-byte loads): one access per instruction.
  if (const RecordDecl *RD = T->getAsRecordDecl();
      RD && !T->isIncompleteType() && !T->isDependentType()) {
    int64_t Align = Ctx.getTypeAlignInChars(T).getQuantity();
    int64_t Piece = std::min<int64_t>(16, Align);
    if (Piece > 0 && *Size > Piece && *Size % Piece == 0) {
      unsigned N = static_cast<unsigned>(*Size / Piece);
      for (unsigned I = 0; I < N; ++I) {
        RawAccess P = A;
        P.Bytes = static_cast<unsigned>(Piece);
        P.Piece = I;
        P.Pieces = N;
        if (P.Offset) {
          auto Moved = P.Offset->map([&](const Poly &X) {
            return Poly::add(X, Poly(int64_t(I) * Piece));
          });
          if (Moved)
            P.Offset = *Moved;
          else
            P.Offset.reset();
        }
        Out.push_back(std::move(P));
      }
      return;
    }
  }
  Out.push_back(std::move(A));
}

std::optional<LaneVec> Interpreter::Impl::recordedRow(const Expr *E) const {
  // The subscript of the element use the access is: `a[i][j]`, a field
  // of it, or its address cast and dereferenced at once (`*(float4 *)&a[i][j]`,
  // `((float4 *)&a[i][j])[0]`), as forEachArrayUse finds them.
  const RowRecipes::Terms *Terms = nullptr;
  const Expr *X = E;
  while (X && !Terms) {
    X = X->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MemberExpr>(X); M && !M->isArrow()) {
      X = M->getBase();
    } else if (const auto *A = dyn_cast<ArraySubscriptExpr>(X)) {
      if (auto It = Recipes->Rows.find(A); It != Recipes->Rows.end())
        Terms = &It->second;
      const auto *Addr =
          dyn_cast<UnaryOperator>(A->getBase()->IgnoreParenCasts());
      X = Addr && Addr->getOpcode() == UO_AddrOf ? Addr->getSubExpr() : nullptr;
    } else if (const auto *U = dyn_cast<UnaryOperator>(X);
               U && U->getOpcode() == UO_Deref) {
      const auto *Addr =
          dyn_cast<UnaryOperator>(U->getSubExpr()->IgnoreParenCasts());
      X = Addr && Addr->getOpcode() == UO_AddrOf ? Addr->getSubExpr() : nullptr;
    } else {
      X = nullptr;
    }
  }
  if (!Terms)
    return std::nullopt;
  std::optional<LaneVec> Row = LaneVec(Poly(0));
  for (const auto &[Term, Factor] : *Terms) {
    auto It = RowTermValues.find(Term);
    if (It == RowTermValues.end() || !It->second)
      return std::nullopt;
    auto Scaled = It->second->map(
        [F = Factor](const Poly &P) { return Poly::scale(P, F); });
    if (Scaled)
      Row = LaneVec::zip(*Row, *Scaled, Poly::add);
    if (!Scaled || !Row)
      return std::nullopt;
  }
  return Row;
}

const Expr *Interpreter::Impl::findStrideTerm(const Expr *E) const {
  if (!E)
    return nullptr;
  if (ThreadScaledMuls.count(E))
    return E;
  for (const Stmt *Child : E->children())
    if (auto *CE = dyn_cast_or_null<Expr>(Child))
      if (const Expr *Found = findStrideTerm(CE))
        return Found;
  return nullptr;
}

AbsValue Interpreter::Impl::unknownPointer(const AbsValue &Old,
                                           std::string Why) {
  AbsValue U = AbsValue::unknown(std::move(Why));
  if (Old.isPointer() || (Old.isUnknown() && Old.Region)) {
    U.Region = Old.Region;
    U.Pointee = Old.Pointee;
  }
  return U;
}

LValue Interpreter::Impl::memoryAt(const AbsValue &Ptr, QualType T,
                                   const std::string &Why) {
  LValue L;
  L.assuming(Ptr);
  if (!Ptr.isPointer()) {
    if (Ptr.isUnknown() && Ptr.Region) {
      L.K = LValue::Memory;
      L.Region = Ptr.Region;
      L.Type = T;
      L.Why = Ptr.Why.empty() ? Why : Ptr.Why;
      return L;
    }
    return LValue::unknown(Ptr.Why.empty() ? Why : Ptr.Why);
  }
  L.K = LValue::Memory;
  L.Region = Ptr.Region;
  L.Offset = Ptr.Val;
  L.Type = T;
  return L;
}

LValue Interpreter::Impl::evalLValue(const Expr *E) {
  if (budgetSpent())
    return LValue::unknown("analysis stopped: budget exceeded");
  E = E->IgnoreParens();
  if (auto *R = dyn_cast<RecoveryExpr>(E))
    return LValue::unknown(evalRecovery(R).Why);
  if (auto *CE = dyn_cast<CastExpr>(E))
    return castLValue(CE);
  if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return evalLValue(M->getSubExpr());
  if (auto *O = dyn_cast<OpaqueValueExpr>(E))
    if (O->getSourceExpr())
      return evalLValue(O->getSourceExpr());
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    return lvalueOfDecl(D);
  if (auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return subscriptLValue(A);
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref)
      return memoryAt(eval(U->getSubExpr()), U->getType(), "pointer unknown");
    if (U->getOpcode() == UO_PreInc || U->getOpcode() == UO_PreDec) {
      eval(E);
      return evalLValueNoEffects(U->getSubExpr());
    }
  }
  if (auto *M = dyn_cast<MemberExpr>(E))
    return memberLValue(M);
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp()) {
      eval(E);
      return evalLValueNoEffects(B->getLHS());
    }
    if (B->getOpcode() == BO_Comma) {
      eval(B->getLHS());
      return evalLValue(B->getRHS());
    }
  }
  if (auto *C = dyn_cast<CallExpr>(E)) {
    LValue Result;
    if (inlineCall(C, /*WantLValue=*/true, nullptr, &Result))
      return Result;
    evalCallArgs(C);
    return LValue::unknown("reference returned by a call");
  }
  eval(E);
  if (std::string Why = errorReason(E); !Why.empty())
    return LValue::unknown(Why);
  return LValue::unknown(isa<PseudoObjectExpr>(E) ? "property reference"
                                                  : "unsupported lvalue");
}

LValue Interpreter::Impl::castLValue(const CastExpr *CE) {
  if (auto *ICE = dyn_cast<ImplicitCastExpr>(CE)) {
    switch (ICE->getCastKind()) {
    case CK_NoOp:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
      return evalLValue(ICE->getSubExpr());
    case CK_LValueBitCast: {
      LValue L = evalLValue(ICE->getSubExpr());
      L.Type = ICE->getType();
      return L;
    }
    default:
      eval(CE);
      return LValue::unknown("unsupported lvalue cast");
    }
  }
  LValue L = evalLValue(CE->getSubExpr());
  if (CE->getCastKind() == CK_LValueBitCast || CE->getCastKind() == CK_NoOp)
    L.Type = CE->getType();
  return L;
}

LValue Interpreter::Impl::subscriptLValue(const ArraySubscriptExpr *A) {
  if (A->getType()->isDependentType())
    return subscriptWithErrors(A);
  // A recorded row: its index values are this evaluation's, or none.
  if (Recipes)
    if (auto It = Recipes->Rows.find(A); It != Recipes->Rows.end())
      for (const auto &[Term, Factor] : It->second)
        RowTermValues[Term] = std::nullopt;
  AbsValue Base = eval(A->getBase());
  AbsValue Idx = eval(A->getIdx());
  if (!Base.isPointer()) {
    if (Base.isUnknown() && Base.Region)
      return memoryAt(Base, A->getType(), "base pointer unknown");
    return LValue::unknown(Base.Why.empty() ? "base pointer unknown"
                                            : Base.Why);
  }
  return offsetBy(Base, Idx, A->getType(), A->getIdx());
}

LValue Interpreter::Impl::memberLValue(const MemberExpr *M) {
  if (std::string Why = correctedName(M); !Why.empty()) {
    eval(M->getBase());
    return LValue::unknown(Why);
  }
  auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!FD) {
    if (auto *VD = dyn_cast<VarDecl>(M->getMemberDecl())) {
      eval(M->getBase());
      return lvalueOfVar(VD, M);
    }
    return LValue::unknown("member is not a field");
  }
  LValue Base;
  if (!M->isArrow())
    Base = evalLValue(M->getBase());
  else if (const LValue *T = thisObject(M->getBase()))
    Base = *T; // `this->f`, `f` in a member function
  else
    Base =
        memoryAt(eval(M->getBase()), M->getBase()->getType()->getPointeeType(),
                 "pointer unknown");
  LValue Member = fieldOf(Base, FD, M->getType());
  if (FD->getType()->isReferenceType() && Member.K == LValue::Var) {
    auto It = RefMembers.find(refMemberKey(Member));
    if (It != RefMembers.end()) {
      LValue L = It->second;
      L.Type = M->getType();
      return L;
    }
  }
  return Member;
}

const LValue *Interpreter::Impl::thisObject(const Expr *E) const {
  if (!isa<CXXThisExpr>(E->IgnoreParenBaseCasts()) || Frames.empty() ||
      !Frames.back().This)
    return nullptr;
  return &*Frames.back().This;
}

std::optional<int64_t>
Interpreter::Impl::baseOffset(QualType Object, const RecordDecl *Parent) const {
  const auto *Derived =
      Object.isNull() ? nullptr : Object->getAsCXXRecordDecl();
  const auto *Base = dyn_cast<CXXRecordDecl>(Parent);
  if (!Derived || !Base || !Derived->hasDefinition() ||
      Derived->getCanonicalDecl() == Base->getCanonicalDecl())
    return 0;
  CXXBasePaths Paths(/*FindAmbiguities=*/true, /*RecordPaths=*/true,
                     /*DetectVirtual=*/true);
  if (!Derived->isDerivedFrom(Base, Paths))
    return 0; // not a base: the lvalue's type says nothing of the field
  if (Paths.getDetectedVirtual() ||
      std::distance(Paths.begin(), Paths.end()) != 1)
    return std::nullopt;
  int64_t Off = 0;
  for (const CXXBasePathElement &E : Paths.front()) {
    const CXXRecordDecl *B = E.Base->getType()->getAsCXXRecordDecl();
    if (!B || E.Base->isVirtual())
      return std::nullopt;
    Off += Ctx.getASTRecordLayout(E.Class).getBaseClassOffset(B).getQuantity();
  }
  return Off;
}

LValue Interpreter::Impl::evalLValueNoEffects(const Expr *E) {
  // Re-evaluating a pure lvalue (a variable or an address expression with
  // no side effects of its own) records no access; the value used is the
  // one after the update, as C++ specifies for these operators.
  DiscardAccesses Discard(Out);
  return evalLValue(E);
}

LValue Interpreter::Impl::lvalueOfVar(const VarDecl *VD, const Expr *At) {
  auto RI = Refs.find(VD);
  if (RI != Refs.end())
    return RI->second;
  if (VD->hasAttr<CUDASharedAttr>())
    return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Shared), Poly(0),
                                      VD->getType()),
                    VD->getType(), "");
  if (VD->hasAttr<CUDAConstantAttr>())
    return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Constant),
                                      Poly(0), VD->getType()),
                    VD->getType(), "");
  if (VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>()) {
    // A const __device__ scalar with a constant initializer is a value.
    return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Global), Poly(0),
                                      VD->getType()),
                    VD->getType(), "");
  }
  if (VD->getType()->isReferenceType() && !Env.count(VD))
    return LValue::unknown("reference `" + VD->getNameAsString() +
                           "` not tracked");
  if (VD->getType()->isArrayType() && !isa<ParmVarDecl>(VD))
    return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Local), Poly(0),
                                      VD->getType()),
                    VD->getType(), "");
  LValue L;
  L.K = LValue::Var;
  L.VD = VD;
  L.Type = VD->getType();
  return L;
}

LValue Interpreter::Impl::lvalueOfDecl(const DeclRefExpr *D) {
  if (std::string Why = correctedName(D); !Why.empty())
    return LValue::unknown(Why);
  if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
    return lvalueOfVar(VD, D);
  return LValue::unknown("not a variable");
}

std::optional<int64_t> Interpreter::Impl::elementSize(QualType ElemT,
                                                      const MemRegion *R) {
  if (!Padding || !R || !R->Decl)
    return sizeOf(ElemT);
  auto It = Padding->find(dyn_cast<VarDecl>(R->Decl));
  if (It == Padding->end())
    return sizeOf(ElemT);
  std::vector<int64_t> Dims;
  QualType T = R->DeclType;
  while (const auto *CA = Ctx.getAsConstantArrayType(T)) {
    Dims.push_back(CA->getSize().getSExtValue());
    T = CA->getElementType();
  }
  auto Elem = sizeOf(T);
  if (Dims.empty() || !Elem)
    return sizeOf(ElemT);
  Dims.back() += It->second;
  size_t Depth = 0;
  for (QualType E = ElemT; const auto *CA = Ctx.getAsConstantArrayType(E);
       E = CA->getElementType())
    ++Depth;
  if (Depth > Dims.size())
    return sizeOf(ElemT);
  int64_t Size = *Elem;
  for (size_t I = Dims.size() - Depth; I < Dims.size(); ++I)
    Size *= Dims[I];
  return Size;
}

LValue Interpreter::Impl::offsetBy(const AbsValue &Base, const AbsValue &Idx,
                                   QualType ElemT, const Expr *IdxExpr) {
  LValue L;
  L.K = LValue::Memory;
  L.Region = Base.Region;
  L.Type = ElemT;
  L.assuming(Base);
  L.assuming(Idx);
  auto Size = elementSize(ElemT, Base.Region);
  if (!Idx.isInt() || !Size) {
    L.Why = Idx.Why.empty() ? "index `" + text(IdxExpr) + "` unknown" : Idx.Why;
    return L;
  }
  auto Off = Idx.Val.map([&](const Poly &P) { return Poly::scale(P, *Size); });
  if (Off)
    Off = LaneVec::zip(Base.Val, *Off, Poly::add);
  if (!Off) {
    L.Why = "offset overflows 64 bits";
    return L;
  }
  L.Offset = std::move(*Off);
  return L;
}

LValue Interpreter::Impl::fieldOf(const LValue &Base, const FieldDecl *FD,
                                  QualType T) {
  if (Base.K == LValue::Var) {
    LValue L = Base;
    L.Path.push_back(FD);
    L.Type = T;
    return L;
  }
  if (Base.K != LValue::Memory)
    return Base;
  LValue L = Base;
  L.Type = T;
  if (FD->isBitField()) {
    L.Offset.reset();
    L.Why = "bit-field";
    return L;
  }
  const RecordDecl *RD = FD->getParent();
  if (RD->isInvalidDecl() || !RD->getDefinition())
    return LValue::unknown("incomplete record");
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  // A field of a base class: where its subobject is in the object.
  std::optional<int64_t> Sub = baseOffset(Base.Type, RD);
  if (!Sub)
    return LValue::unknown("a field of a virtual or ambiguous base");
  int64_t Off =
      *Sub + Layout.getFieldOffset(FD->getFieldIndex()) / Ctx.getCharWidth();
  if (L.Offset) {
    auto Sum =
        L.Offset->map([&](const Poly &P) { return Poly::add(P, Poly(Off)); });
    if (Sum)
      L.Offset = *Sum;
    else
      L.Offset.reset();
  }
  return L;
}

AbsValue Interpreter::Impl::readVar(const LValue &L) {
  auto It = Env.find(L.VD);
  if (Host && (It == Env.end() || It->second.isUnknown()))
    if (std::optional<AbsValue> V = hostReadVar(L))
      return *V;
  if (It == Env.end())
    return AbsValue::unknown("`" + L.VD->getNameAsString() +
                             "` has no known value");
  const AbsValue *V = &It->second;
  for (const FieldDecl *F : L.Path) {
    if (V->K != AbsValue::Struct || !V->Fields)
      return AbsValue::unknown(V->isUnknown() && !V->Why.empty()
                                   ? V->Why
                                   : "`" + L.VD->getNameAsString() +
                                         "` is not a known struct");
    auto FI = V->Fields->find(F);
    if (FI == V->Fields->end())
      return AbsValue::unknown("field not known");
    V = &FI->second;
  }
  return *V;
}

void Interpreter::Impl::writeVar(const LValue &L, AbsValue V) {
  if (L.Path.empty()) {
    Env[L.VD] = std::move(V);
    return;
  }
  AbsValue &Root = Env[L.VD];
  AbsValue *Cur = &Root;
  for (const FieldDecl *F : L.Path) {
    if (Cur->K != AbsValue::Struct || !Cur->Fields) {
      Cur->K = AbsValue::Struct;
      Cur->Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
    } else if (Cur->Fields.use_count() > 1) {
      Cur->Fields =
          std::make_shared<std::map<const FieldDecl *, AbsValue>>(*Cur->Fields);
    }
    Cur = &(*Cur->Fields)[F];
  }
  *Cur = std::move(V);
}

AbsValue Interpreter::Impl::read(const LValue &L, const Expr *AccessExpr,
                                 QualType T) {
  if (T.isNull() || T->isDependentType()) // code that does not compile
    T = L.Type;
  switch (L.K) {
  case LValue::Var:
    return readVar(L);
  case LValue::Unknown:
    return AbsValue::unknown(L.Why);
  case LValue::Memory:
    if (Host)
      return hostLoad(L, T);
    break;
  }
  record(AccessKind::Load, L, AccessExpr, T);
  if (!L.Offset)
    return AbsValue::unknown("loaded through an unknown address");
  if (L.Region->Space == MemSpace::Local)
    return AbsValue::unknown("value of a per-thread array element");
  if (!(T->isIntegerType() || T->isEnumeralType()))
    return AbsValue::unknown(T->isPointerType() ? "pointer loaded from memory"
                                                : "value loaded from memory");
  if (L.Offset->isUniform() && !mentionsWarpSymbol(L.Offset->uniform()))
    return AbsValue::integer(Poly::symbol(opaqueSymbol(
        "load:" + L.Region->Name + "@" + Syms.str(L.Offset->uniform()),
        text(AccessExpr), {&L.Offset->uniform()})));
  return AbsValue::unknown("`" + text(AccessExpr) +
                           "` is data-dependent (a value loaded from memory)");
}

void Interpreter::Impl::write(const LValue &L, AbsValue V,
                              const Expr *AccessExpr, QualType T,
                              AccessKind Kind) {
  if (T.isNull() || T->isDependentType()) // code that does not compile
    T = L.Type;
  switch (L.K) {
  case LValue::Var:
    writeVar(L, std::move(V));
    return;
  case LValue::Unknown:
    return;
  case LValue::Memory:
    record(Kind, L, AccessExpr, T);
    return;
  }
}

} // namespace cal

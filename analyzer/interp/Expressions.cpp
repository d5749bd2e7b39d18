//===- Expressions.cpp ----------------------------------------------------===//
//
// Rvalues: eval() and the transfer function of each expression kind.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

#include "clang/AST/StmtVisitor.h"

namespace cal {

using namespace clang;
using interp::LValue;

AbsValue Interpreter::Impl::constantOf(const Expr *E) {
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
    return AbsValue::integer(Poly(R.Val.getInt().getExtValue()));
  return AbsValue::unknown("not a constant");
}

AbsValue Interpreter::Impl::evalPseudo(const PseudoObjectExpr *PO) {
  if (auto *Prop =
          dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
    return builtinVar(Prop->getBaseExpr(), Prop->getPropertyDecl()->getName());
  return eval(PO->getResultExpr());
}

bool Interpreter::Impl::isTemporary(const Expr *E) {
  E = E->IgnoreParens();
  while (auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    E = ICE->getSubExpr()->IgnoreParens();
  return isa<MaterializeTemporaryExpr>(E);
}

AbsValue Interpreter::Impl::readValue(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  // `c ? a : b` of two lvalues, read: the value of the one each lane
  // takes.
  if (auto *CO = dyn_cast<AbstractConditionalOperator>(Sub->IgnoreParens()))
    return evalConditional(CO);
  // const/constexpr integers with a constant initializer (N, warpSize,
  // template-dependent constants): their value.
  if (auto *D = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
    if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
      if ((VD->getType().isConstQualified() || VD->isConstexpr()) &&
          VD->getType()->isIntegerType()) {
        AbsValue C = constantOf(CE);
        if (C.isInt())
          return C;
      }
  // A member of a temporary (`block.group_dim().x`): of its value.
  if (auto *M = dyn_cast<MemberExpr>(Sub->IgnoreParens()))
    if (isTemporary(M->getBase()))
      return eval(M);
  LValue L = evalLValue(Sub);
  return read(L, Sub, CE->getType());
}

AbsValue Interpreter::Impl::decayArray(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  LValue L = evalLValue(Sub);
  if (L.K != LValue::Memory)
    return AbsValue::unknown(L.Why.empty() ? "array not tracked" : L.Why);
  if (!L.Offset) {
    AbsValue V = AbsValue::unknown(L.Why);
    V.Region = L.Region;
    V.Pointee = CE->getType()->getPointeeType();
    return V;
  }
  AbsValue P =
      AbsValue::pointer(L.Region, *L.Offset, CE->getType()->getPointeeType());
  P.Assumed = L.Assumed;
  return P;
}

AbsValue Interpreter::Impl::integralCast(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  // A narrowing cast wraps values outside the destination's range: when
  // the value's range is known and does not fit, an unsigned
  // destination keeps the low bits; else the value is unknown. (An
  // unknown range is taken to fit, as indices do.)
  AbsValue V = eval(Sub);
  QualType To = CE->getType();
  if (!V.isInt() || To->isBooleanType() || !To->isIntegerType())
    return V;
  unsigned Bits = Ctx.getIntWidth(To);
  if (Bits >= 64)
    return V;
  bool Signed = To->isSignedIntegerOrEnumerationType();
  int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
  int64_t Hi =
      Signed ? (int64_t(1) << (Bits - 1)) - 1 : (int64_t(1) << Bits) - 1;
  bool Fits = true;
  for (unsigned L = 0; L < (V.Val.isUniform() ? 1u : WarpSize); ++L) {
    std::optional<std::pair<int64_t, int64_t>> R;
    if (auto C = V.Val.lane(L).asConstant())
      R = std::make_pair(*C, *C);
    else
      R = range(V.Val.lane(L));
    if (R && (R->first < Lo || R->second > Hi))
      Fits = false;
  }
  if (Fits)
    return V;
  if (!Signed)
    if (auto M = modulo(V.Val, int64_t(1) << Bits)) {
      // modulo() follows C's sign rule for constants: make it [0, 2^b).
      auto Wrapped = M->map([&](const Poly &P) -> std::optional<Poly> {
        if (auto C = P.asConstant())
          return Poly(floorMod(*C, int64_t(1) << Bits));
        return P;
      });
      if (Wrapped)
        return AbsValue::integer(*Wrapped).assuming(V);
    }
  if (mentionsWarpSymbol(V.Val))
    NeedConcrete = true;
  return AbsValue::unknown("`" + text(CE) + "` wraps around");
}

AbsValue Interpreter::Impl::castValue(const CastExpr *CE) {
  const Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
    return readValue(CE);
  case CK_ArrayToPointerDecay:
    return decayArray(CE);
  case CK_IntegralCast:
    return integralCast(CE);
  case CK_NoOp:
  case CK_AddressSpaceConversion:
  case CK_UserDefinedConversion:
  case CK_ConstructorConversion:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
  case CK_BaseToDerived:
  case CK_BooleanToSignedIntegral:
  case CK_BitCast: {
    AbsValue V = eval(Sub);
    if (V.isPointer() && CE->getType()->isPointerType())
      V.Pointee = CE->getType()->getPointeeType();
    return V;
  }
  case CK_IntegralToBoolean: {
    AbsValue V = eval(Sub);
    if (!V.isInt())
      return V;
    return compare(BO_NE, V.Val, LaneVec(Poly(0)));
  }
  case CK_FloatingToIntegral:
    eval(Sub);
    return AbsValue::unknown("converted from floating point");
  case CK_PointerToIntegral:
    eval(Sub);
    return AbsValue::unknown("pointer converted to an integer");
  case CK_IntegralToPointer:
    eval(Sub);
    return AbsValue::unknown("integer converted to a pointer");
  default:
    eval(Sub);
    return AbsValue::unknown("value not tracked");
  }
}

AbsValue Interpreter::Impl::pointerArith(BinaryOperatorKind Op,
                                         const AbsValue &Ptr,
                                         const AbsValue &Int,
                                         QualType Pointee) {
  if (!Ptr.isPointer())
    return Ptr;
  if (!Int.isInt())
    return unknownPointer(Ptr, Int.Why);
  auto Size = sizeOf(Pointee);
  if (!Size)
    return AbsValue::unknown("pointer to an incomplete type");
  auto Scaled = Int.Val.map([&](const Poly &P) {
    return Poly::scale(P, Op == BO_Sub ? -*Size : *Size);
  });
  if (!Scaled)
    return AbsValue::unknown("offset overflows");
  auto Sum = LaneVec::zip(Ptr.Val, *Scaled, Poly::add);
  if (!Sum)
    return AbsValue::unknown("offset overflows");
  AbsValue R = AbsValue::pointer(Ptr.Region, *Sum, Ptr.Pointee);
  R.assuming(Ptr).assuming(Int);
  return R;
}

AbsValue Interpreter::Impl::evalBinary(const BinaryOperator *B) {
  BinaryOperatorKind Op = B->getOpcode();
  if (Op == BO_Assign) {
    LValue L = evalLValue(B->getLHS());
    AbsValue V = eval(B->getRHS());
    write(L, V, B->getLHS(), B->getLHS()->getType());
    return V;
  }
  if (auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
    LValue L = evalLValue(CA->getLHS());
    AbsValue Old = read(L, CA->getLHS(), CA->getLHS()->getType());
    AbsValue R = eval(CA->getRHS());
    AbsValue New;
    BinaryOperatorKind Base = BinaryOperator::getOpForCompoundAssignment(Op);
    if (Old.isPointer() && (Base == BO_Add || Base == BO_Sub))
      New = pointerArith(Base, Old, R, Old.Pointee);
    else
      New = binaryInt(Base, Old, R, B);
    write(L, New, CA->getLHS(), CA->getLHS()->getType());
    return New;
  }
  if (Op == BO_Comma) {
    eval(B->getLHS());
    return eval(B->getRHS());
  }
  AbsValue L = eval(B->getLHS());
  AbsValue R = eval(B->getRHS());
  QualType LT = B->getLHS()->getType(), RT = B->getRHS()->getType();
  if ((Op == BO_Add || Op == BO_Sub) && LT->isPointerType() &&
      RT->isIntegerType())
    return pointerArith(Op, L, R, LT->getPointeeType());
  if (Op == BO_Add && RT->isPointerType() && LT->isIntegerType())
    return pointerArith(Op, R, L, RT->getPointeeType());
  if (Op == BO_Sub && LT->isPointerType() && RT->isPointerType()) {
    if (L.isPointer() && R.isPointer() && L.Region == R.Region) {
      auto Size = sizeOf(LT->getPointeeType());
      auto D = LaneVec::zip(L.Val, R.Val, Poly::sub);
      if (Size && D && *Size > 0)
        if (auto Q =
                D->map([&](const Poly &P) { return P.divideExact(*Size); }))
          return AbsValue::integer(*Q);
    }
    return AbsValue::unknown("pointer difference");
  }
  if (L.isPointer() || R.isPointer()) {
    if (B->isComparisonOp() && L.isPointer() && R.isPointer() &&
        L.Region == R.Region)
      return compare(Op, L.Val, R.Val);
    return AbsValue::unknown("pointer arithmetic");
  }
  if (!B->getType()->isIntegerType() && !B->getType()->isBooleanType() &&
      !B->isComparisonOp())
    return AbsValue::unknown("floating-point value");
  return binaryInt(Op, L, R, B);
}

AbsValue Interpreter::Impl::evalUnary(const UnaryOperator *U) {
  switch (U->getOpcode()) {
  case UO_AddrOf: {
    LValue L = evalLValue(U->getSubExpr());
    if (L.K == LValue::Memory && L.Offset) {
      AbsValue P =
          AbsValue::pointer(L.Region, *L.Offset, U->getSubExpr()->getType());
      P.Assumed = L.Assumed;
      return P;
    }
    if (L.K == LValue::Memory && L.Region) {
      // The object is known, the offset is not (&hist[key]).
      AbsValue V = AbsValue::unknown(L.Why);
      V.Region = L.Region;
      V.Pointee = U->getSubExpr()->getType();
      return V;
    }
    return AbsValue::unknown(L.K == LValue::Var ? "address of a local" : L.Why);
  }
  case UO_Deref: {
    LValue L = evalLValue(U);
    return read(L, U, U->getType());
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    LValue L = evalLValue(U->getSubExpr());
    AbsValue Old = read(L, U->getSubExpr(), U->getSubExpr()->getType());
    AbsValue One = AbsValue::integer(Poly(1));
    bool Inc = U->isIncrementOp();
    AbsValue New =
        Old.isPointer()
            ? pointerArith(Inc ? BO_Add : BO_Sub, Old, One, Old.Pointee)
            : binaryInt(Inc ? BO_Add : BO_Sub, Old, One, U);
    write(L, New, U->getSubExpr(), U->getSubExpr()->getType());
    return U->isPrefix() ? New : Old;
  }
  case UO_Minus: {
    AbsValue V = eval(U->getSubExpr());
    if (!V.isInt())
      return V;
    if (auto R = V.Val.map([](const Poly &P) { return Poly::scale(P, -1); }))
      return AbsValue::integer(*R).assuming(V);
    return AbsValue::unknown("overflow");
  }
  case UO_Plus:
    return eval(U->getSubExpr());
  case UO_Not: {
    AbsValue V = eval(U->getSubExpr());
    if (!V.isInt())
      return V;
    // ~x == -x - 1
    if (auto R = V.Val.map([](const Poly &P) -> std::optional<Poly> {
          auto N = Poly::scale(P, -1);
          if (!N)
            return std::nullopt;
          return Poly::add(*N, Poly(-1));
        }))
      return AbsValue::integer(*R).assuming(V);
    return AbsValue::unknown("overflow");
  }
  case UO_LNot: {
    AbsValue V = eval(U->getSubExpr());
    if (!V.isInt())
      return AbsValue::unknown(V.Why);
    return compare(BO_EQ, V.Val, LaneVec(Poly(0)));
  }
  case UO_Extension:
    return eval(U->getSubExpr());
  default:
    eval(U->getSubExpr());
    return AbsValue::unknown("unsupported operator");
  }
}

AbsValue
Interpreter::Impl::evalConditional(const AbstractConditionalOperator *C) {
  AbsValue Cond = eval(C->getCond());
  std::optional<LaneMask> Mask;
  if (Cond.isInt())
    Mask = truth(Cond.Val);
  // Every lane takes the same arm (`SWIZZLE ? a : b` with a template
  // flag): the other is not evaluated, as no lane runs it (its accesses are
  // not made, its operators not tried).
  if (Mask && (*Mask == AllLanes || *Mask == 0)) {
    AbsValue R = eval(*Mask ? C->getTrueExpr() : C->getFalseExpr());
    return R.assuming(Cond);
  }
  AbsValue T = eval(C->getTrueExpr());
  AbsValue F = eval(C->getFalseExpr());
  if (T.sameAs(F))
    return T;
  if (Mask)
    return select(*Mask, T, F).assuming(Cond);
  if (auto R = edgeConditional(C->getCond(), T, F))
    return *R;
  return AbsValue::unknown("`" + text(C->getCond()) + "` not known per lane");
}

std::optional<AbsValue> Interpreter::Impl::edgeConditional(const Expr *CondE,
                                                           const AbsValue &T,
                                                           const AbsValue &F) {
  auto *B = dyn_cast<BinaryOperator>(CondE->IgnoreParenImpCasts());
  if (!B || (B->getOpcode() != BO_EQ && B->getOpcode() != BO_NE))
    return std::nullopt;
  if (T.K != F.K || !(T.isInt() || T.isPointer()) ||
      (T.isPointer() && T.Region != F.Region))
    return std::nullopt;
  AbsValue X, Y;
  {
    // Evaluated already, as the condition.
    DiscardAccesses Discard(Out);
    llvm::SaveAndRestore<bool> KeepNeed(NeedConcrete);
    llvm::SaveAndRestore<unsigned> NotUsed(Unused, Unused + 1);
    X = eval(B->getLHS());
    Y = eval(B->getRHS());
  }
  if (!X.isInt() || !Y.isInt())
    return std::nullopt;
  auto D = LaneVec::zip(X.Val, Y.Val, Poly::sub);
  if (!D)
    return std::nullopt;
  // An edge: the difference moves with the thread or the block.
  bool Edge = !D->isUniform();
  for (unsigned L = 0; !Edge && L < 1; ++L)
    for (const Poly::Term &Tm : D->lane(L).terms())
      for (SymbolId S : Tm.Mono) {
        SymbolKind K = Syms.get(S).Kind;
        Edge = Edge || K == SymbolKind::ThreadIdx || K == SymbolKind::WarpPos ||
               K == SymbolKind::BlockIdx;
      }
  if (!Edge)
    return std::nullopt;
  bool Eq = B->getOpcode() == BO_EQ;
  LaneMask Mask = 0;
  bool Assumed = false;
  for (unsigned L = 0; L < WarpSize; ++L) {
    const Poly &P = D->lane(L);
    std::optional<bool> Zero;
    if (auto C = P.asConstant())
      Zero = *C == 0;
    else if (auto R = range(P)) {
      if (R->first > 0 || R->second < 0)
        Zero = false;
      else if (R->first == 0 && R->second == 0)
        Zero = true;
    }
    if (!Zero) {
      Zero = false; // the common case
      Assumed = Assumed || ((Active >> L) & 1);
    }
    if (*Zero == Eq)
      Mask |= 1u << L;
  }
  AbsValue R = select(Mask, T, F);
  if (Assumed && !R.isUnknown()) {
    AbsValue A;
    A.Assumed.push_back(
        {Assumption::Kind::EdgeCondition, text(CondE),
         "`" + text(CondE) + "` taken as " + (Eq ? "false" : "true") +
             " where the lanes do not decide it: it " +
             (Eq ? "holds" : "fails") + " only at the edge of the block or "
                                       "grid"});
    R.assuming(A);
  }
  return R;
}

AbsValue Interpreter::Impl::select(LaneMask Mask, const AbsValue &T,
                                   const AbsValue &F) {
  if (Mask == AllLanes)
    return T;
  if (Mask == 0)
    return F;
  if (T.K != F.K || (T.isPointer() && T.Region != F.Region) ||
      T.K == AbsValue::Struct || T.isUnknown())
    return AbsValue::unknown("differs between lanes");
  std::array<Poly, WarpSize> Lanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    Lanes[L] = ((Mask >> L) & 1) ? T.Val.lane(L) : F.Val.lane(L);
  AbsValue R = T;
  R.Val = LaneVec::perLane(Lanes);
  R.assuming(F);
  return R;
}

AbsValue Interpreter::Impl::evalConstruct(const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  QualType T = CE->getType();
  if (auto G = cooperativeGroupsConstruct(CE))
    return *G;
  if (Ctor && Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1) {
    const Expr *Arg = CE->getArg(0);
    if (Arg->isGLValue()) {
      LValue L = evalLValue(Arg);
      if (L.K == LValue::Var)
        return readVar(L);
      // (In kernels, a struct read from memory is unknown; host code reads
      // what host statements stored.)
      AbsValue V = read(L, Arg, T.getUnqualifiedType());
      if (!V.isUnknown())
        return V;
      return AbsValue::unknown("`" + text(Arg) +
                               "` is data-dependent (loaded from memory)");
    }
    return eval(Arg);
  }
  if (isDim3Like(T)) {
    std::array<AbsValue, 3> XYZ = {AbsValue::integer(Poly(1)),
                                   AbsValue::integer(Poly(1)),
                                   AbsValue::integer(Poly(1))};
    for (unsigned I = 0; I < CE->getNumArgs() && I < 3; ++I)
      XYZ[I] = eval(CE->getArg(I));
    if (CE->getNumArgs() == 1 && isDim3Like(CE->getArg(0)->getType()))
      return eval(CE->getArg(0));
    return dim3Value(T, XYZ);
  }
  for (const Expr *Arg : CE->arguments())
    eval(Arg);
  return AbsValue::unknown("constructed object");
}

/// eval()'s transfer functions, one per expression kind (as the dataflow
/// framework's Transfer.cpp is written); an expression of a kind not
/// listed is walked for the accesses in its children.
struct Interpreter::Impl::ExprTransfer
    : public ConstStmtVisitor<ExprTransfer, AbsValue> {
  Impl &I;
  explicit ExprTransfer(Impl &I) : I(I) {}

  AbsValue VisitIntegerLiteral(const IntegerLiteral *E) {
    return I.constantOf(E);
  }
  AbsValue VisitCharacterLiteral(const CharacterLiteral *E) {
    return I.constantOf(E);
  }
  AbsValue VisitCXXBoolLiteralExpr(const CXXBoolLiteralExpr *E) {
    return I.constantOf(E);
  }
  AbsValue VisitUnaryExprOrTypeTraitExpr(const UnaryExprOrTypeTraitExpr *E) {
    return I.constantOf(E);
  }
  AbsValue VisitFloatingLiteral(const FloatingLiteral *) {
    return AbsValue::unknown("floating-point value");
  }
  AbsValue VisitConstantExpr(const ConstantExpr *C) {
    if (C->hasAPValueResult() && C->getAPValueResult().isInt())
      return AbsValue::integer(
          Poly(C->getAPValueResult().getInt().getExtValue()));
    return I.eval(C->getSubExpr());
  }

  // Wrappers: the value of what they wrap.
  AbsValue
  VisitSubstNonTypeTemplateParmExpr(const SubstNonTypeTemplateParmExpr *S) {
    return I.eval(S->getReplacement());
  }
  AbsValue VisitCXXDefaultArgExpr(const CXXDefaultArgExpr *D) {
    return I.eval(D->getExpr());
  }
  AbsValue VisitCXXDefaultInitExpr(const CXXDefaultInitExpr *D) {
    return I.eval(D->getExpr());
  }
  AbsValue VisitMaterializeTemporaryExpr(const MaterializeTemporaryExpr *M) {
    return I.eval(M->getSubExpr());
  }
  AbsValue VisitFullExpr(const FullExpr *F) { return I.eval(F->getSubExpr()); }
  AbsValue VisitCXXBindTemporaryExpr(const CXXBindTemporaryExpr *B) {
    return I.eval(B->getSubExpr());
  }
  AbsValue VisitOpaqueValueExpr(const OpaqueValueExpr *O) {
    return O->getSourceExpr() ? I.eval(O->getSourceExpr())
                              : AbsValue::unknown("opaque");
  }

  AbsValue VisitDeclRefExpr(const DeclRefExpr *D) {
    if (std::string Why = I.correctedName(D); !Why.empty())
      return AbsValue::unknown(Why);
    if (auto *EC = dyn_cast<EnumConstantDecl>(D->getDecl()))
      return AbsValue::integer(Poly(EC->getInitVal().getExtValue()));
    if (auto *VD = dyn_cast<VarDecl>(D->getDecl())) {
      // const/constexpr with a constant initializer: the constant.
      if (VD->getType().isConstQualified() || VD->isConstexpr()) {
        AbsValue C = I.constantOf(D);
        if (C.isInt())
          return C;
      }
    }
    if (D->isGLValue())
      return readGLValue(D);
    return AbsValue::unknown("value not tracked");
  }

  // Operators, calls and construction: their own transfer functions.
  AbsValue VisitCastExpr(const CastExpr *CE) { return I.castValue(CE); }
  AbsValue VisitUnaryOperator(const UnaryOperator *U) { return I.evalUnary(U); }
  AbsValue VisitBinaryOperator(const BinaryOperator *B) {
    return I.evalBinary(B);
  }
  AbsValue
  VisitAbstractConditionalOperator(const AbstractConditionalOperator *C) {
    return I.evalConditional(C);
  }
  AbsValue VisitPseudoObjectExpr(const PseudoObjectExpr *PO) {
    return I.evalPseudo(PO);
  }
  AbsValue VisitCXXConstructExpr(const CXXConstructExpr *C) {
    return I.evalConstruct(C);
  }
  AbsValue VisitCallExpr(const CallExpr *C) { return I.evalCall(C); }

  AbsValue VisitMemberExpr(const MemberExpr *M) {
    if (std::string Why = I.correctedName(M); !Why.empty()) {
      I.eval(M->getBase());
      return AbsValue::unknown(Why);
    }
    // A member of a temporary (`block.group_dim().x`: the call's dim3
    // materialized) is read from the temporary's value.
    if (M->isGLValue() && !isTemporary(M->getBase()))
      return readGLValue(M);
    AbsValue Base = I.eval(M->getBase());
    if (Base.K == AbsValue::Struct && Base.Fields)
      if (auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl())) {
        auto It = Base.Fields->find(FD);
        if (It != Base.Fields->end())
          return It->second;
      }
    return AbsValue::unknown("member of a temporary");
  }
  AbsValue VisitArraySubscriptExpr(const ArraySubscriptExpr *A) {
    if (A->isGLValue())
      return readGLValue(A);
    return VisitExpr(A);
  }

  AbsValue VisitInitListExpr(const InitListExpr *IL) {
    if (IL->getNumInits() == 1 && IL->getType()->isScalarType())
      return I.eval(IL->getInit(0));
    // An aggregate of fields (`Shape s{64, 256}`): each field its
    // initializer's value, in order (the semantic form has one per field).
    const RecordDecl *RD = IL->getType()->getAsRecordDecl();
    const auto *CXX = dyn_cast_or_null<CXXRecordDecl>(RD);
    if (RD && RD->getDefinition() && !RD->isUnion() &&
        !(CXX && CXX->getNumBases() > 0)) {
      AbsValue V;
      V.K = AbsValue::Struct;
      V.Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
      unsigned N = 0;
      for (const FieldDecl *F : RD->getDefinition()->fields()) {
        if (N >= IL->getNumInits())
          break;
        (*V.Fields)[F] = I.eval(IL->getInit(N++));
      }
      for (; N < IL->getNumInits(); ++N)
        I.eval(IL->getInit(N));
      return V;
    }
    for (const Expr *Init : IL->inits())
      I.eval(Init);
    return AbsValue::unknown("initializer list");
  }
  AbsValue VisitImplicitValueInitExpr(const ImplicitValueInitExpr *IV) {
    return IV->getType()->isIntegerType() ? AbsValue::integer(Poly(0))
                                          : AbsValue::unknown("value");
  }
  AbsValue VisitLambdaExpr(const LambdaExpr *) {
    return AbsValue::unknown("not evaluated");
  }
  AbsValue VisitStmtExpr(const StmtExpr *) {
    return AbsValue::unknown("not evaluated");
  }

  /// Anything else: the children are visited for accesses.
  AbsValue VisitExpr(const Expr *E) {
    for (const Stmt *Child : E->children())
      if (auto *CE = dyn_cast_or_null<Expr>(Child))
        I.eval(CE);
    return AbsValue::unknown("expression not tracked");
  }

private:
  /// A variable, member or element used as a value: a read of it.
  AbsValue readGLValue(const Expr *E) {
    LValue L = I.evalLValue(E);
    return I.read(L, E, E->getType());
  }
};

AbsValue Interpreter::Impl::eval(const Expr *E) {
  if (!E)
    return AbsValue::unknown("no expression");
  if (budgetSpent())
    return AbsValue::unknown("analysis stopped: budget exceeded");
  // A hypothetical rewrite (Interpreter::setRewrites): the replacement's
  // value, in which this expression stands for itself.
  if (Rewrites && !Rewrites->empty() && !RewritesActive.count(E))
    if (auto It = Rewrites->find(E); It != Rewrites->end()) {
      RewritesActive.insert(E);
      AbsValue V = eval(It->second);
      RewritesActive.erase(E);
      return V;
    }
  // An index expression of a row recipe (Interpreter::setRowRecipes): its
  // value is kept for the access it is part of.
  if (!RowTermValues.empty())
    if (auto It = RowTermValues.find(E); It != RowTermValues.end()) {
      AbsValue V = evalNode(E);
      RowTermValues.find(E)->second =
          V.isInt() ? std::optional<LaneVec>(V.Val) : std::nullopt;
      return V;
    }
  return evalNode(E);
}

AbsValue Interpreter::Impl::evalNode(const Expr *E) {
  E = E->IgnoreParens();
  if (E->containsErrors())
    return evalWithErrors(E);
  if (E->isValueDependent() || E->isTypeDependent())
    return AbsValue::unknown("dependent expression");
  return ExprTransfer(*this).Visit(E);
}

AbsValue Interpreter::Impl::evalWithErrors(const Expr *E) {
  if (auto *R = dyn_cast<RecoveryExpr>(E))
    return evalRecovery(R);
  // Host code (a launch's arguments): only what compiled is evaluated.
  if (Host)
    return AbsValue::unknown(errorReason(E));
  // The parts that compiled are evaluated (their accesses are real); the
  // value, when unknown, is so because of the part that did not.
  AbsValue V = ExprTransfer(*this).Visit(E);
  if (V.isUnknown())
    if (std::string Why = errorReason(E); !Why.empty())
      V.Why = std::move(Why);
  return V;
}

} // namespace cal

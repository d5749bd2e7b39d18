//===- Calls.cpp ----------------------------------------------------------===//
//
// Calls: inlining user functions, arguments of calls not inlined,
// overloaded assignment operators.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

void Interpreter::Impl::evalCallArgs(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  unsigned Shift = 0;
  if (isa<CXXOperatorCallExpr>(C))
    if (FD && isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic())
      Shift = 1; // the object is argument 0
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    const Expr *Arg = C->getArg(I);
    QualType ParamT;
    if (FD && I >= Shift && I - Shift < FD->getNumParams())
      ParamT = FD->getParamDecl(I - Shift)->getType();
    bool ObjectArg = Shift && I == 0;
    if (ObjectArg || (!ParamT.isNull() && ParamT->isReferenceType())) {
      LValue L = evalLValue(Arg);
      if (L.K != LValue::Memory)
        continue;
      // A reference argument of a function not inlined: a read of the
      // object, and a write too through a non-const reference.
      QualType Obj = Arg->getType();
      bool Const = ObjectArg ? cast<CXXMethodDecl>(FD)->isConst()
                             : ParamT->getPointeeType().isConstQualified();
      record(AccessKind::Load, L, Arg, Obj.getUnqualifiedType());
      if (!Const)
        record(AccessKind::Store, L, Arg, Obj.getUnqualifiedType());
      continue;
    }
    eval(Arg);
  }
}

const FunctionDecl *Interpreter::Impl::inlinable(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || isSystem(Def->getLocation()))
    return nullptr;
  if (Frames.size() >= MaxInlineDepth)
    return nullptr;
  for (const Frame &F : Frames)
    if (F.FD == Def)
      return nullptr; // recursion
  return Def;
}

interp::Frame Interpreter::Impl::runInlined(const FunctionDecl *Def,
                                            bool ReturnsRef, CallBindings B,
                                            const Expr *Site,
                                            llvm::function_ref<void()> Body) {
  // Save the callee's bindings in case it is active further out (it is
  // not: recursion is refused), then bind.
  for (auto &[PD, V] : B.Values)
    Env[PD] = V;
  for (auto &[PD, L] : B.Aliases)
    Refs[PD] = L;
  Frames.push_back({Def, ReturnsRef, {}, {}, std::move(B.Object)});
  CallStack.push_back(Site);
  {
    // Lanes that return early from the callee are back after the call.
    llvm::SaveAndRestore<std::string> KeepActive(ActiveInexact);
    Body();
  }
  CallStack.pop_back();
  Frame F = std::move(Frames.back());
  Frames.pop_back();
  for (auto &[PD, L] : B.Aliases)
    Refs.erase(PD);
  return F;
}

bool Interpreter::Impl::inlineCall(const CallExpr *C, bool WantLValue,
                                   AbsValue *Result, LValue *LResult) {
  const FunctionDecl *Def = inlinable(C->getDirectCallee());
  if (!Def)
    return false;
  bool ReturnsRef = Def->getReturnType()->isReferenceType();
  if (WantLValue != ReturnsRef && WantLValue)
    return false;
  Frame F = runInlined(Def, ReturnsRef, bindArguments(C, Def), C,
                       [&] { exec(Def->getBody()); });
  returnedValue(F, Result, LResult);
  return true;
}

bool Interpreter::Impl::runConstructor(const LValue &Object,
                                       const CXXConstructExpr *CE) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  if (!Ctor || Ctor->isCopyOrMoveConstructor())
    return false;
  const auto *CD = dyn_cast_or_null<CXXConstructorDecl>(inlinable(Ctor));
  if (!CD)
    return false;
  CallBindings Args;
  for (unsigned I = 0; I < CE->getNumArgs() && I < CD->getNumParams(); ++I)
    bindParameter(CD->getParamDecl(I), CE->getArg(I), Args);
  Args.Object = Object;
  runInlined(CD, /*ReturnsRef=*/false, std::move(Args), CE, [&] {
    for (const CXXCtorInitializer *Init : CD->inits()) {
      const Expr *E = Init->getInit();
      if (!E)
        continue;
      const auto *Base = dyn_cast<CXXConstructExpr>(E->IgnoreImplicit());
      if (Init->isBaseInitializer() && Base && runConstructor(Object, Base))
        continue; // the base's members are the object's
      const FieldDecl *FD = Init->getMember();
      // A reference member of an object in a local is bound to what its
      // initializer names (not a temporary, which would dangle).
      if (FD && FD->getType()->isReferenceType() &&
          Object.K == LValue::Var && !isTemporary(E)) {
        RefMembers[refMemberKey(fieldOf(Object, FD, FD->getType()))] =
            evalLValue(E);
        continue;
      }
      if (!FD || FD->getType()->isReferenceType() ||
          FD->getType()->isArrayType()) {
        eval(E);
        continue;
      }
      QualType T = FD->getType();
      write(fieldOf(Object, FD, T), eval(E), E, T);
    }
    exec(CD->getBody());
  });
  return true;
}

void Interpreter::Impl::bindParameter(const ParmVarDecl *PD, const Expr *Arg,
                                      CallBindings &B) {
  // A reference bound to a temporary (`f(make_group())`) names the
  // temporary's value.
  if (PD->getType()->isReferenceType() && !isTemporary(Arg))
    B.Aliases.push_back({PD, evalLValue(Arg)});
  else
    B.Values.push_back({PD, eval(Arg)});
}

Interpreter::Impl::CallBindings
Interpreter::Impl::bindArguments(const CallExpr *C, const FunctionDecl *Def) {
  unsigned Shift = 0;
  const Expr *Object = nullptr;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Def) &&
           !cast<CXXMethodDecl>(Def)->isStatic()) {
    Object = C->getArg(0);
    Shift = 1;
  }
  // Member functions: the object is evaluated for what its expression does
  // (an index, a call), as an lvalue when it is one, and is the callee's
  // `this`: the members the callee reads and writes are the object's. A
  // member call does not load the whole object (a 2-piece load per 16 bytes
  // of a shared struct of 8 KB is 2,182 accesses that no instruction makes).
  CallBindings B;
  if (Object) {
    if (Object->isGLValue()) {
      B.Object = evalLValue(Object);
    } else if (const LValue *T = thisObject(Object)) {
      B.Object = *T; // `this->f()`, `f()` in a member function
    } else {
      AbsValue P = eval(Object);
      if (Object->getType()->isPointerType() && P.isPointer())
        B.Object =
            memoryAt(P, Object->getType()->getPointeeType(), "pointer unknown");
    }
  }
  for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
    if (I - Shift >= Def->getNumParams())
      break;
    bindParameter(Def->getParamDecl(I - Shift), C->getArg(I), B);
  }
  for (unsigned I = C->getNumArgs() - Shift; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *PD = Def->getParamDecl(I);
    if (PD->hasDefaultArg() && !PD->getType()->isReferenceType())
      B.Values.push_back({PD, eval(PD->getDefaultArg())});
  }
  return B;
}

void Interpreter::Impl::returnedValue(const Frame &F, AbsValue *Result,
                                      LValue *LResult) {
  if (F.ReturnsRef) {
    if (LResult) {
      if (F.RefReturns.size() == 1)
        *LResult = F.RefReturns.front();
      else
        *LResult = LValue::unknown("reference returned on several paths");
    }
    if (Result)
      *Result = AbsValue::unknown("reference result");
    return;
  }
  if (!Result)
    return;
  if (F.Returns.empty()) {
    *Result = AbsValue::unknown("no return value");
    return;
  }
  AbsValue R = F.Returns.front();
  for (const AbsValue &V : F.Returns)
    if (!V.sameAs(R))
      R = AbsValue::unknown("different values returned");
  *Result = R;
}

AbsValue Interpreter::Impl::evalCall(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  llvm::StringRef Name;
  if (FD && FD->getDeclName().isIdentifier())
    Name = FD->getName();

  // A callee clang guessed (`scale_valeu`, "did you mean ...?").
  if (auto *Callee =
          dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts()))
    if (std::string Why = correctedName(Callee); !Why.empty()) {
      evalCallArgs(C);
      return AbsValue::unknown(Why);
    }
  if (auto *OC = dyn_cast<CXXOperatorCallExpr>(C))
    if (auto V = assignmentOperatorCall(OC))
      return *V;
  if (auto CG = cooperativeGroupsCall(C))
    return *CG;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    if (auto V = systemMemberCall(MC))
      return *V;
  if (!Name.empty()) {
    if (auto R = memoryIntrinsic(C, Name))
      return *R;
    if (auto R = integerBuiltin(C, Name))
      return *R;
  }
  AbsValue Result;
  if (inlineCall(C, /*WantLValue=*/false, &Result, nullptr))
    return Result;
  evalCallArgs(C);
  return AbsValue::unknown(Name.empty() ? "result of a call"
                                        : "result of `" + Name.str() + "`");
}

std::optional<AbsValue>
Interpreter::Impl::assignmentOperatorCall(const CXXOperatorCallExpr *OC) {
  const FunctionDecl *FD = OC->getDirectCallee();
  OverloadedOperatorKind OK = OC->getOperator();
  bool Assign = OK == OO_Equal;
  bool Compound = OK == OO_PlusEqual || OK == OO_MinusEqual ||
                  OK == OO_StarEqual || OK == OO_SlashEqual ||
                  OK == OO_PercentEqual || OK == OO_AmpEqual ||
                  OK == OO_PipeEqual || OK == OO_CaretEqual ||
                  OK == OO_LessLessEqual || OK == OO_GreaterGreaterEqual;
  if (!(Assign || Compound) || OC->getNumArgs() != 2 ||
      !(!FD || isSystem(FD->getLocation()) || FD->isTrivial() ||
        FD->isDefaulted()))
    return std::nullopt;
  LValue L = evalLValue(OC->getArg(0));
  QualType T = OC->getArg(0)->getType().getUnqualifiedType();
  const Expr *RHS = OC->getArg(1);
  AbsValue V;
  if (Assign) {
    if (RHS->isGLValue() && !isDim3Like(RHS->getType())) {
      LValue R = evalLValue(RHS);
      V = read(R, RHS, RHS->getType().getUnqualifiedType());
    } else {
      V = eval(RHS);
    }
  } else {
    read(L, OC->getArg(0), T);
    if (RHS->isGLValue()) {
      LValue R = evalLValue(RHS);
      read(R, RHS, RHS->getType().getUnqualifiedType());
    } else {
      eval(RHS);
    }
    V = AbsValue::unknown("result of a compound assignment");
  }
  write(L, V, OC->getArg(0), T);
  return V;
}

std::optional<AbsValue>
Interpreter::Impl::systemMemberCall(const CXXMemberCallExpr *MC) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  if (!MD || !isSystem(MD->getLocation()))
    return std::nullopt;
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (!Obj || !Obj->isGLValue())
    return std::nullopt;
  LValue L = evalLValue(Obj);
  QualType T = Obj->getType().getUnqualifiedType();
  if (L.K == LValue::Memory) {
    record(AccessKind::Load, L, Obj, T);
    if (!MD->isConst())
      record(AccessKind::Store, L, Obj, T);
  }
  for (unsigned I = 0; I < MC->getNumArgs(); ++I)
    eval(MC->getArg(I));
  return AbsValue::unknown("result of `" + MD->getNameAsString() + "`");
}

std::optional<AbsValue> Interpreter::Impl::clampCommonCase(const CallExpr *C,
                                                           bool Max,
                                                           const AbsValue &A,
                                                           const AbsValue &B) {
  // The size: one side the same for every lane, of parameters and
  // constants only (`C - 1`, `n`, `0`); the index: the other side, which
  // the lanes, a loop's counter or the block's position move.
  auto IsSize = [&](const LaneVec &V) {
    if (!V.isUniform())
      return false;
    for (const Poly::Term &T : V.uniform().terms())
      for (SymbolId S : T.Mono)
        if (Syms.get(S).Kind != SymbolKind::Param)
          return false;
    return true;
  };
  // (Not a uniform value of the launch's sizes, `gridDim.x * blockDim.x`:
  // which side is the smaller is no edge case there.)
  auto IsIndex = [&](const LaneVec &V) {
    if (!V.isUniform())
      return true;
    for (const Poly::Term &T : V.uniform().terms())
      for (SymbolId S : T.Mono)
        switch (Syms.get(S).Kind) {
        case SymbolKind::BlockIdx:
        case SymbolKind::WarpPos:
        case SymbolKind::LoopVar:
        case SymbolKind::LoopIter:
          return true;
        default:
          break;
        }
    return false;
  };
  bool ASize = IsSize(A.Val), BSize = IsSize(B.Val);
  if (ASize == BSize || !IsIndex((ASize ? B : A).Val))
    return std::nullopt;
  const AbsValue &Index = ASize ? B : A;
  const Poly &Size = (ASize ? A : B).Val.uniform();
  std::optional<int64_t> Constant = Size.asConstant();
  // An upper clamp, `min(n - 1, i)`: below a runtime or large size. A lower
  // clamp, `max(0, i - 1)`: past a small constant. Either way the index,
  // everywhere but at the data's edge. Other clamps are not guessed.
  bool Upper = !Max && (!Constant || *Constant > int64_t(WarpSize));
  bool Lower = Max && Constant && *Constant <= int64_t(WarpSize);
  if (!Upper && !Lower)
    return std::nullopt;
  const Expr *IndexExpr = C->getArg(ASize ? 1 : 0);
  AbsValue V = Index;
  addAssumption(V.Assumed,
                {Assumption::Kind::CommonCaseClamp, text(C),
                 "`" + text(C) + "` taken as `" + text(IndexExpr) +
                     "` for every lane: a clamp that binds only at the " +
                     (Upper ? "end" : "start") +
                     " of the data, taken in its common case (in range)"});
  return V;
}

std::optional<AbsValue>
Interpreter::Impl::integerBuiltin(const CallExpr *C, llvm::StringRef Name) {
  if (llvm::is_contained(
          {"min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax"},
          Name) &&
      C->getNumArgs() == 2 && C->getType()->isIntegerType()) {
    AbsValue A = eval(C->getArg(0)), B = eval(C->getArg(1));
    if (A.isInt() && B.isInt()) {
      bool Max = Name.contains("max");
      AbsValue Lt = compare(BO_LT, A.Val, B.Val);
      if (Lt.isInt())
        if (auto M = truth(Lt.Val))
          return Max ? select(*M, B, A) : select(*M, A, B);
      if (auto V = clampCommonCase(C, Max, A, B))
        return *V;
    }
    return AbsValue::unknown("min/max not decidable per lane");
  }
  if (llvm::is_contained({"__mul24", "__umul24"}, Name) && C->getNumArgs() == 2)
    return binaryInt(BO_Mul, eval(C->getArg(0)), eval(C->getArg(1)), C);
  return std::nullopt;
}

} // namespace cal

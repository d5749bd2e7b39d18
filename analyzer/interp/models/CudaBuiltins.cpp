//===- CudaBuiltins.cpp ---------------------------------------------------===//
//
// The CUDA built-ins the interpreter models: threadIdx, blockIdx,
// blockDim, gridDim, dim3 and the memory intrinsics (__ldg, __stcs,
// atomics). Cooperative groups: CooperativeGroups.cpp.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

SymbolId Interpreter::Impl::builtinSymbol(llvm::StringRef Var, int Dim) {
  std::string Name = (Var + "." + llvm::StringRef("xyz").substr(Dim, 1)).str();
  auto It = Opaque.find("builtin:" + Name);
  if (It != Opaque.end())
    return It->second;
  SymbolInfo Info;
  Info.Name = Name;
  Info.Kind = Var == "blockIdx" ? SymbolKind::BlockIdx : SymbolKind::GridDim;
  Info.Rank = Var == "blockIdx" ? 0 + Dim : 20 + Dim;
  Info.Min = Var == "blockIdx" ? 0 : 1;
  // A constant grid bounds both: blockIdx below it, gridDim itself.
  if (Grid && (*Grid)[Dim] >= 1) {
    Info.Max = Var == "blockIdx" ? (*Grid)[Dim] - 1 : (*Grid)[Dim];
    if (Var == "gridDim")
      Info.Min = Info.Max;
  }
  SymbolId S = Syms.add(Info);
  Opaque["builtin:" + Name] = S;
  return S;
}

AbsValue Interpreter::Impl::builtinVar(const Expr *Base,
                                       llvm::StringRef Member) {
  auto *D = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  if (auto *OV = dyn_cast<OpaqueValueExpr>(Base->IgnoreParenImpCasts()))
    D = dyn_cast<DeclRefExpr>(OV->getSourceExpr()->IgnoreParenImpCasts());
  if (!D)
    return AbsValue::unknown("unknown builtin");
  llvm::StringRef Var = D->getDecl()->getName();
  int Dim = llvm::StringSwitch<int>(Member)
                .Case("x", 0)
                .Case("y", 1)
                .Case("z", 2)
                .Default(-1);
  if (Dim < 0)
    return AbsValue::unknown("unknown builtin");
  if (Var == "threadIdx")
    return AbsValue::integer(W.Tid[Dim]);
  if (Var == "blockDim")
    return AbsValue::integer(W.BlockDim[Dim]);
  if (Var == "blockIdx" || Var == "gridDim")
    return AbsValue::integer(Poly::symbol(builtinSymbol(Var, Dim)));
  return AbsValue::unknown("unknown builtin");
}

bool Interpreter::Impl::isDim3Like(QualType T) {
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD)
    return false;
  llvm::StringRef N = RD->getName();
  return N == "dim3" || N == "uint3";
}

AbsValue Interpreter::Impl::dim3Value(QualType T,
                                      const std::array<AbsValue, 3> &XYZ) {
  const RecordDecl *RD = T->getAsRecordDecl();
  AbsValue V;
  V.K = AbsValue::Struct;
  V.Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
  if (!RD)
    return AbsValue::unknown("dim3");
  for (const FieldDecl *F : RD->fields()) {
    int Dim = llvm::StringSwitch<int>(F->getName())
                  .Case("x", 0)
                  .Case("y", 1)
                  .Case("z", 2)
                  .Default(-1);
    if (Dim >= 0)
      (*V.Fields)[F] = XYZ[Dim];
  }
  return V;
}

std::optional<LaneVec> Interpreter::Impl::linearTid() {
  auto YX = LaneVec::zip(W.Tid[1], LaneVec(W.BlockDim[0]), Poly::mul);
  auto BxBy = Poly::mul(W.BlockDim[0], W.BlockDim[1]);
  if (!YX || !BxBy)
    return std::nullopt;
  auto ZXY = LaneVec::zip(W.Tid[2], LaneVec(*BxBy), Poly::mul);
  if (!ZXY)
    return std::nullopt;
  auto S = LaneVec::zip(W.Tid[0], *YX, Poly::add);
  if (!S)
    return std::nullopt;
  return LaneVec::zip(*S, *ZXY, Poly::add);
}

std::optional<AbsValue>
Interpreter::Impl::memoryIntrinsic(const CallExpr *C, llvm::StringRef Name) {
  if (C->getNumArgs() == 0 || !C->getArg(0)->getType()->isPointerType())
    return std::nullopt;
  AccessKind Kind;
  if (llvm::is_contained(
          {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"}, Name))
    Kind = AccessKind::Load;
  else if (llvm::is_contained({"__stcg", "__stcs", "__stwt", "__stwb"}, Name))
    Kind = AccessKind::Store;
  else if (Name.starts_with("atomic") &&
           llvm::is_contained({"atomicAdd", "atomicSub", "atomicExch",
                               "atomicMin", "atomicMax", "atomicInc",
                               "atomicDec", "atomicCAS", "atomicAnd",
                               "atomicOr", "atomicXor"},
                              Name.split('_').first))
    Kind = AccessKind::Atomic;
  else
    return std::nullopt;
  AbsValue Ptr = eval(C->getArg(0));
  for (unsigned I = 1; I < C->getNumArgs(); ++I)
    eval(C->getArg(I));
  QualType T = C->getArg(0)->getType()->getPointeeType();
  LValue L = memoryAt(Ptr, T, "pointer unknown");
  if (L.K == LValue::Memory)
    record(Kind, L, C, T.getUnqualifiedType(), C->getArg(0));
  if (Kind == AccessKind::Load && L.K == LValue::Memory && L.Offset &&
      T->isIntegerType() && L.Offset->isUniform() &&
      !mentionsWarpSymbol(L.Offset->uniform()))
    return AbsValue::integer(Poly::symbol(opaqueSymbol(
        "load:" + L.Region->Name + "@" + Syms.str(L.Offset->uniform()), text(C),
        {&L.Offset->uniform()})));
  return AbsValue::unknown("value loaded from memory");
}

} // namespace cal

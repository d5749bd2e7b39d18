//===- CudaBuiltins.cpp ---------------------------------------------------===//
//
// The CUDA built-ins the interpreter models: threadIdx, blockIdx,
// blockDim, gridDim, dim3, cooperative groups' ranks and the memory
// intrinsics (__ldg, __stcs, atomics).
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

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
  if (Var == "blockIdx" || Var == "gridDim") {
    std::string Name = (Var + "." + Member).str();
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
    auto It = Opaque.find("builtin:" + Name);
    SymbolId S;
    if (It != Opaque.end()) {
      S = It->second;
    } else {
      S = Syms.add(Info);
      Opaque["builtin:" + Name] = S;
    }
    return AbsValue::integer(Poly::symbol(S));
  }
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
Interpreter::Impl::cooperativeGroupsCall(const CallExpr *MC,
                                         const CXXMethodDecl *MD) {
  if (!MD)
    return std::nullopt;
  // The group is the object's type (thread_block_tile<32>), whichever
  // base class declares the method (tile<N, void> inherits
  // meta_group_rank from thread_group_base).
  const CXXRecordDecl *RD = MD->getParent();
  const Expr *Obj = nullptr;
  if (auto *M = dyn_cast<CXXMemberCallExpr>(MC))
    Obj = M->getImplicitObjectArgument();
  else if (auto *ME =
               dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParenImpCasts()))
    Obj = ME->getBase();
  if (Obj) {
    QualType OT = Obj->IgnoreParenBaseCasts()->getType();
    if (OT->isPointerType())
      OT = OT->getPointeeType();
    if (const CXXRecordDecl *ORD = OT->getAsCXXRecordDecl())
      if (ORD->getName() == "thread_block" ||
          ORD->getName().starts_with("thread_block_tile"))
        RD = ORD;
  }
  if (!RD)
    return std::nullopt;
  llvm::StringRef Class = RD->getName(), Method = MD->getName();
  bool Block = Class == "thread_block";
  bool Tile = Class.starts_with("thread_block_tile") ||
              Class.starts_with("__static_size_thread_block_tile_base") ||
              Class.starts_with("__static_size_tile_base") ||
              Class.starts_with("__static_parent_thread_block_tile_base") ||
              Class.starts_with("__single_warp_thread_block_tile");
  if (!Block && !Tile)
    return std::nullopt;
  if (Block && Method == "thread_index") {
    std::array<AbsValue, 3> XYZ;
    for (int D = 0; D < 3; ++D)
      XYZ[D] = AbsValue::integer(W.Tid[D]);
    return dim3Value(MC->getType(), XYZ);
  }
  if (Method == "thread_rank" || Method == "meta_group_rank") {
    auto Lin = linearTid();
    if (!Lin)
      return AbsValue::unknown("thread rank");
    if (Block)
      return AbsValue::integer(*Lin);
    // thread_block_tile<N>: rank within the tile, or the tile's index.
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
    const CXXRecordDecl *Cur = RD;
    while (!Spec && Cur) {
      const CXXRecordDecl *Next = nullptr;
      for (const CXXBaseSpecifier &B : Cur->bases())
        if (auto *BR = B.getType()->getAsCXXRecordDecl()) {
          Next = BR;
          if ((Spec = dyn_cast<ClassTemplateSpecializationDecl>(BR)))
            break;
        }
      Cur = Next;
    }
    if (!Spec || Spec->getTemplateArgs().size() == 0 ||
        Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
      return AbsValue::unknown("tile size unknown");
    int64_t N = Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
    auto R = Method == "thread_rank" ? modulo(*Lin, N) : divide(*Lin, N);
    if (!R)
      return AbsValue::unknown("tile rank");
    return AbsValue::integer(*R);
  }
  return std::nullopt;
}

std::optional<AbsValue>
Interpreter::Impl::memoryIntrinsic(const CallExpr *C, llvm::StringRef Name) {
  if (C->getNumArgs() == 0 || !C->getArg(0)->getType()->isPointerType())
    return std::nullopt;
  AccessKind Kind;
  if (nameIn(Name, {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"}))
    Kind = AccessKind::Load;
  else if (nameIn(Name, {"__stcg", "__stcs", "__stwt", "__stwb"}))
    Kind = AccessKind::Store;
  else if (Name.starts_with("atomic") &&
           nameIn(Name.split('_').first,
                  {"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                   "atomicMax", "atomicInc", "atomicDec", "atomicCAS",
                   "atomicAnd", "atomicOr", "atomicXor"}))
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

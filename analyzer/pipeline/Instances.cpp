//===- Instances.cpp -----------------------------------------------------===//
//
// The warps walked: the display warp (named thread indices), one symbolic
// warp standing for the block, or the block's warps one by one.
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

namespace cal {
namespace pipeline {

using namespace clang;

llvm::DenseMap<const ParmVarDecl *, AbsValue>
KernelAnalysis::paramsFor(const WarpInstance &W) const {
  auto P = Params;
  for (const ParmVarDecl *PD : KC.Shape.BlockDimXParams)
    P[PD] = AbsValue::integer(W.BlockDim[0]);
  return P;
}

WarpInstance KernelAnalysis::displayInstance() {
  WarpInstance W;
  W.Display = true;
  W.Active = 1;
  static const char *Dim[] = {"x", "y", "z"};
  for (int D = 0; D < 3; ++D) {
    SymbolInfo T;
    T.Name = std::string("threadIdx.") + Dim[D];
    T.Kind = SymbolKind::ThreadIdx;
    T.Rank = 10 + D;
    T.Min = 0;
    if (KC.Shape.Dim) {
      T.Max = (*KC.Shape.Dim)[D] - 1;
      W.BlockDim[D] = Poly((*KC.Shape.Dim)[D]);
    } else {
      SymbolInfo B;
      B.Name = std::string("blockDim.") + Dim[D];
      B.Kind = SymbolKind::BlockDim;
      B.Rank = 15 + D;
      B.Min = 1;
      W.BlockDim[D] = Poly::symbol(Syms.add(B));
    }
    W.Tid[D] = LaneVec(Poly::symbol(Syms.add(T)));
  }
  return W;
}

/// Unknown block: blockDim.x = 32*bw, the warp's x position a symbol.
/// Known block with blockDim.x a multiple of 32, or 32 a multiple of
/// blockDim.x: one symbolic warp stands for all.
std::optional<WarpInstance> KernelAnalysis::symbolicInstance() {
  WarpInstance W;
  auto Sym = [&](const char *Name, SymbolKind K, std::optional<int64_t> Min,
                 std::optional<int64_t> Max) -> Poly {
    if (Min && Max && *Min == *Max)
      return Poly(*Min);
    SymbolInfo I;
    I.Name = Name;
    I.Kind = K;
    I.Min = Min;
    I.Max = Max;
    I.Rank = 18;
    SymbolId S = Syms.add(I);
    if (K == SymbolKind::WarpPos)
      W.WarpSymbols.push_back(S);
    return Poly::symbol(S);
  };
  std::array<Poly, WarpSize> X, Y;
  if (!KC.Shape.Dim) {
    Poly Bw = Sym("blockDim.x/32", SymbolKind::BlockDim, 1, std::nullopt);
    W.BlockDim[0] = *Poly::scale(Bw, 32);
    W.BlockDim[1] = Sym("blockDim.y", SymbolKind::BlockDim, 1, std::nullopt);
    W.BlockDim[2] = Sym("blockDim.z", SymbolKind::BlockDim, 1, std::nullopt);
    Poly Wx = Sym("(threadIdx.x / 32)", SymbolKind::WarpPos, 0, std::nullopt);
    for (unsigned L = 0; L < WarpSize; ++L)
      X[L] = *Poly::add(*Poly::scale(Wx, 32), Poly(L));
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = Sym("threadIdx.y", SymbolKind::WarpPos, 0, std::nullopt);
    W.Tid[2] = Sym("threadIdx.z", SymbolKind::WarpPos, 0, std::nullopt);
    return W;
  }
  const Dim3 &D = *KC.Shape.Dim;
  for (int I = 0; I < 3; ++I)
    W.BlockDim[I] = Poly(D[I]);
  if (D[0] % 32 == 0) {
    Poly Wx = Sym("(threadIdx.x / 32)", SymbolKind::WarpPos, 0, D[0] / 32 - 1);
    for (unsigned L = 0; L < WarpSize; ++L)
      X[L] = *Poly::add(*Poly::scale(Wx, 32), Poly(L));
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = Sym("threadIdx.y", SymbolKind::WarpPos, 0, D[1] - 1);
    W.Tid[2] = Sym("threadIdx.z", SymbolKind::WarpPos, 0, D[2] - 1);
    return W;
  }
  if (32 % D[0] == 0 && (D[0] * D[1]) % 32 == 0) {
    int64_t Rows = 32 / D[0];
    std::string WyName = "(threadIdx.y / " + std::to_string(Rows) + ")";
    Poly Wy = Sym(WyName.c_str(), SymbolKind::WarpPos, 0, D[1] / Rows - 1);
    for (unsigned L = 0; L < WarpSize; ++L) {
      X[L] = Poly(L % D[0]);
      Y[L] = *Poly::add(*Poly::scale(Wy, Rows), Poly(L / D[0]));
    }
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = LaneVec::perLane(Y);
    W.Tid[2] = Sym("threadIdx.z", SymbolKind::WarpPos, 0, D[2] - 1);
    return W;
  }
  return std::nullopt;
}

/// Every warp of the block, with concrete thread indices; for an unknown
/// block, its first warp.
std::vector<WarpInstance> KernelAnalysis::concreteInstances() {
  std::vector<WarpInstance> Out;
  if (!KC.Shape.Dim) {
    WarpInstance W;
    SymbolInfo Bw;
    Bw.Name = "blockDim.x/32";
    Bw.Kind = SymbolKind::BlockDim;
    Bw.Min = 1;
    W.BlockDim[0] = *Poly::scale(Poly::symbol(Syms.add(Bw)), 32);
    for (int D = 1; D < 3; ++D) {
      SymbolInfo B;
      B.Name = D == 1 ? "blockDim.y" : "blockDim.z";
      B.Kind = SymbolKind::BlockDim;
      B.Min = 1;
      W.BlockDim[D] = Poly::symbol(Syms.add(B));
    }
    std::array<Poly, WarpSize> X;
    for (unsigned L = 0; L < WarpSize; ++L)
      X[L] = Poly(L);
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = Poly(0);
    W.Tid[2] = Poly(0);
    Out.push_back(W);
    return Out;
  }
  const Dim3 &D = *KC.Shape.Dim;
  int64_t Threads = D[0] * D[1] * D[2];
  int64_t Warps = (Threads + 31) / 32;
  for (int64_t Wi = 0; Wi < Warps; ++Wi) {
    WarpInstance W;
    for (int I = 0; I < 3; ++I)
      W.BlockDim[I] = Poly(D[I]);
    std::array<Poly, WarpSize> T[3];
    W.Active = 0;
    for (unsigned L = 0; L < WarpSize; ++L) {
      int64_t Tid = Wi * 32 + L;
      if (Tid < Threads)
        W.Active |= 1u << L;
      int64_t C = std::min(Tid, Threads - 1);
      T[0][L] = Poly(C % D[0]);
      T[1][L] = Poly((C / D[0]) % D[1]);
      T[2][L] = Poly(C / (D[0] * D[1]));
    }
    for (int I = 0; I < 3; ++I)
      W.Tid[I] = LaneVec::perLane(T[I]);
    Out.push_back(W);
  }
  return Out;
}

void KernelAnalysis::walk(const WarpInstance &W, std::vector<RawAccess> &Out,
                          bool *NeedConcrete) {
  auto I = std::make_unique<Interpreter>(Ctx, Syms, W, *Result.Regions, Out);
  if (!Opts.Padding.empty())
    I->setPadding(&Opts.Padding);
  I->setOnlyPaddedArrays(Opts.OnlyPaddedArrays);
  if (!Opts.Rewrites.empty())
    I->setRewrites(&Opts.Rewrites);
  I->setPointerOffsets(&KC.Shape.PointerOffsets);
  I->setGrid(KC.Shape.Grid);
  if (!Opts.CompileErrors.empty())
    I->setCompileErrors(&Opts.CompileErrors);
  I->setBudget(&Meter);
  if (!Recipes.Arrays.empty() && !W.Display)
    I->setRowRecipes(&Recipes);
  I->run(KC.Decl, paramsFor(W));
  for (const clang::VarDecl *VD : I->arraysMissedByIteratedLoops())
    MissedByIteratedLoops.insert(VD);
  if (NeedConcrete)
    *NeedConcrete = I->needsConcreteWarps();
  if (W.Display)
    DisplayInterp = std::move(I);
}

} // namespace pipeline
} // namespace cal

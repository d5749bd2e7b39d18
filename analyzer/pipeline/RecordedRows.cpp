//===- RecordedRows.cpp ---------------------------------------------------===//
//
// A padding search (shared-bank-conflict's fix) asks for the facts of a
// shared array's accesses with its rows padded by P elements, for P = 1, 2
// ... until every access is conflict-free. Padding moves each element by
// P * element size * its row, and nothing else: the index values, the
// loops, the active lanes are those of the walk without padding. So the walks
// record, for each element of the arrays worth it, the row it is in, per
// lane (the interpreter keeps the values of the row's index expressions,
// Interpreter::setRowRecipes):
//
//   a[i][j]          float a[R][C]          row = i
//   a3[i][j][k]      float a3[4][8][32]     row = 8*i + j
//   As[r * BM + c]   1-D, rows of BM        row = r    (rowPaddingRewrites
//                                                      reads BM as BM + P)
//
// and a padding's facts are the stages after the walks (field loads merged,
// siblings, the warp model over the base's residues, emitted widths) run on
// the recorded accesses moved by P * size * row: the same code on the same
// numbers as a walk under that padding, without the walk.
//
// The analysis's walk is the search's only where no loop was run iteration
// by iteration without naming the array: a padding search's walk runs such
// a loop symbolically (Loops.cpp, OnlyPadded), and what follows it may
// differ (a reduction's `for (s = 1; s < 32; s *= 2)` before the staged
// copy). Then the rows are recorded once in a walk of the search's own, at
// padding 0 (RecordedWalks::SearchWalks), and every padding is priced from
// that walk: one walk instead of one (or two) per padding.
//
// A padding goes back to walking the kernel again for each candidate (the
// caller's fallback: paddedFacts returns std::nullopt) where the rows are
// not recorded:
//   - an element reached otherwise than by the subscript of an element use
//     in the kernel's body: through a reference bound to it, or in a called
//     function (an array declared there, or a __shared__ variable of the
//     file);
//   - a 1-D row layout whose stride operand is not an integer (the rewrite
//     leaves that use as it is);
//   - the kernel's analysis (or the search's own walk) stopped (budget).
// Arrays used other than element by element (pointers into them, sizeof)
// are never padded (paddingSafe, findRowLayout), and record nothing. Nor
// is the data-dependence of a row a reason: a row loaded from memory is a
// symbol like any other, and the padded offsets go through the warp model
// as the walk's would. Element sizes do not matter either:
// `*(float4 *)&a[i][j]` moves as a[i][j] does.
//
//===----------------------------------------------------------------------===//

#include "analyzer/pipeline/KernelAnalysis.h"

#include "analyzer/LayoutSearch.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace cal {

void sortAccesses(clang::ASTContext &Ctx, AnalysisResult &R);

namespace pipeline {

using namespace clang;

namespace {

/// The shared arrays of constant size that \p Body names, in order of first
/// mention.
std::vector<const VarDecl *> sharedArrays(const ASTContext &Ctx,
                                          const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ASTContext &Ctx;
    std::vector<const VarDecl *> Out;
    llvm::SmallPtrSet<const VarDecl *, 8> Seen;
    explicit Finder(const ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (VD && VD->hasAttr<CUDASharedAttr>() && !VD->hasExternalStorage() &&
          Ctx.getAsConstantArrayType(VD->getType()) && Seen.insert(VD).second)
        Out.push_back(VD);
      return true;
    }
  } F(Ctx);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Out;
}

/// The sizes of \p T's constant dimensions, outermost first.
std::vector<int64_t> dimensions(const ASTContext &Ctx, QualType T) {
  std::vector<int64_t> Dims;
  while (const auto *CA = Ctx.getAsConstantArrayType(T)) {
    Dims.push_back(CA->getSize().getSExtValue());
    T = CA->getElementType();
  }
  return Dims;
}

/// `a[i][j]...`: the row of each element use of \p VD, Dims.size() >= 2
/// deep, as the interpreter's elementSize() pads it: index k of n moves by
/// the product of the dimensions between it and the innermost, per element
/// of padding. False when a use is not an element.
bool subscriptRows(const VarDecl *VD, const std::vector<int64_t> &Dims,
                   const Stmt *Body, RowRecipes &Out) {
  unsigned Rank = Dims.size();
  std::vector<std::pair<const ArraySubscriptExpr *, RowRecipes::Terms>> Rows;
  bool Elements = true;
  forEachArrayUse(Body, VD, Rank, [&](const ArrayUse &U) {
    if (U.K != ArrayUse::Element) {
      Elements = false;
      return false;
    }
    // The indices, innermost dimension first.
    std::vector<const Expr *> Indices;
    const Expr *At = U.Subscript;
    while (const auto *A = dyn_cast<ArraySubscriptExpr>(At)) {
      Indices.push_back(A->getIdx());
      At = A->getBase()->IgnoreParenImpCasts();
    }
    if (Indices.size() != Rank) {
      Elements = false;
      return false;
    }
    RowRecipes::Terms Terms;
    int64_t Factor = 1;
    for (unsigned K = 1; K < Rank; ++K) { // dimension Rank-1-K
      Terms.push_back({Indices[K], Factor});
      Factor *= Dims[Rank - 1 - K];
    }
    Rows.push_back({U.Subscript, std::move(Terms)});
    return true;
  });
  if (!Elements || Rows.empty())
    return false;
  for (auto &[A, Terms] : Rows)
    Out.Rows[A] = std::move(Terms);
  return true;
}

/// `As[r * BM + c]`: the row operand of each use of a 1-D row layout, where
/// rowPaddingRewrites reads every stride operand as `BM + P`.
bool layoutRows(ASTContext &Ctx, const VarDecl *VD, const FunctionDecl *Kernel,
                RowRecipes &Out) {
  std::optional<RowLayout> L = findRowLayout(Ctx, VD, Kernel);
  if (!L)
    return false;
  for (const RowLayout::Use &U : L->Uses)
    if (!U.StrideOperand->getType()->isIntegerType())
      return false;
  for (const RowLayout::Use &U : L->Uses)
    Out.Rows[U.Subscript] = {{U.Row, 1}};
  return true;
}

} // namespace

RowRecipes rowRecipes(ASTContext &Ctx, const FunctionDecl *Kernel,
                      const VarDecl *Only) {
  RowRecipes R;
  const Stmt *Body = Kernel ? Kernel->getBody() : nullptr;
  if (!Body)
    return R;
  for (const VarDecl *VD : sharedArrays(Ctx, Body)) {
    if (Only && VD != Only)
      continue;
    std::vector<int64_t> Dims = dimensions(Ctx, VD->getType());
    bool Recorded = Dims.size() >= 2 ? subscriptRows(VD, Dims, Body, R)
                                     : layoutRows(Ctx, VD, Kernel, R);
    if (Recorded)
      R.Arrays.push_back(VD);
  }
  return R;
}

void KernelAnalysis::planRowRecording() {
  // The rows are recorded without padding: in the analysis, or in a walk of
  // a padding search's own made to record one array's (paddedFacts).
  if (!Opts.RecordRows || !Opts.Rewrites.empty() || Opts.FirstWarpOnly)
    return;
  if (!Opts.OnlyPaddedArrays) {
    if (Opts.Padding.empty())
      Recipes = rowRecipes(Ctx, KC.Decl);
    return;
  }
  if (Opts.Padding.size() == 1 && Opts.Padding.begin()->second == 0)
    Recipes = rowRecipes(Ctx, KC.Decl, Opts.Padding.begin()->first);
}

void KernelAnalysis::keepRecordedRows(const MetricWalks &MW) {
  if (Recipes.Arrays.empty())
    return;
  auto Rec = std::make_shared<RecordedWalks>();
  Rec->KC = KC;
  Rec->Syms = Syms;
  Rec->Regions = Result.Regions;
  Rec->Instances = MW.Instances;
  Rec->Weights = MW.Weights;
  Rec->ShapeAssumptions = ShapeAssumptions;
  Rec->ConcreteWarps = ConcreteWarps;
  for (const VarDecl *VD : Recipes.Arrays)
    if (MissedByIteratedLoops.count(VD))
      Rec->NotTheSearchWalk.insert(VD);
  auto Recorded = [&](const RawAccess &A) -> const VarDecl * {
    const auto *VD = dyn_cast_or_null<VarDecl>(A.Region ? A.Region->Decl
                                                        : nullptr);
    return VD && llvm::is_contained(Recipes.Arrays, VD) ? VD : nullptr;
  };
  for (const std::vector<RawAccess> &Walk : MW.Walks) {
    Rec->Walks.emplace_back();
    for (const RawAccess &A : Walk) {
      const VarDecl *VD = Recorded(A);
      if (!VD)
        continue;
      if (A.Offset && !A.Row)
        Rec->NotRecorded.try_emplace(
            VD, "an element reached otherwise than by its subscript (a "
                "reference, a called function): its row is not recorded");
      Rec->Walks.back().push_back(A);
    }
  }
  for (const VarDecl *VD : Recipes.Arrays)
    if (!Rec->NotRecorded.count(VD))
      Rec->Recorded.insert(VD);
  Rec->Recipes = std::move(Recipes);
  Recipes = RowRecipes();
  Result.Kernels[KernelIndex].Rows = std::move(Rec);
}

AnalysisResult KernelAnalysis::replayPadded(ASTContext &Ctx,
                                            const KernelInfo &Kernel,
                                            const RecordedWalks &Rec,
                                            const VarDecl *Array, int64_t Pad,
                                            bool FirstWarpOnly) {
  AnalysisResult R;
  R.Regions = Rec.Regions;
  R.Kernels.push_back(Kernel);
  R.Kernels.back().Rows.reset();
  R.Kernels.back().ConcreteWarps = Rec.ConcreteWarps;
  // The options of the padding search's own walk (what aggregate() and the
  // facts read of them).
  AnalysisOptions Opts;
  Opts.Padding = {{Array, Pad}};
  Opts.OnlyPaddedArrays = true;
  Opts.FirstWarpOnly = FirstWarpOnly;
  Opts.RecordRows = false;
  Opts.Budget = AnalysisBudget{0, 0};
  KernelAnalysis KA(Ctx, Rec.KC, 0, R, Opts);
  KA.Syms = Rec.Syms;
  KA.ShapeAssumptions = Rec.ShapeAssumptions;
  KA.ConcreteWarps = Rec.ConcreteWarps;
  // The walks the padded walk would make: every warp, or (a quick test of
  // a block walked warp by warp) its first; each access of the array moved
  // by the padding of the rows before it.
  QualType Elem = Array->getType();
  while (const auto *CA = Ctx.getAsConstantArrayType(Elem))
    Elem = CA->getElementType();
  int64_t Move = Pad * Ctx.getTypeSizeInChars(Elem).getQuantity();
  size_t Walks =
      Rec.ConcreteWarps && FirstWarpOnly ? std::min<size_t>(1, Rec.Walks.size())
                                         : Rec.Walks.size();
  MetricWalks MW;
  for (size_t WI = 0; WI < Walks; ++WI) {
    MW.Walks.emplace_back();
    MW.Instances.push_back(Rec.Instances[WI]);
    MW.Weights.push_back(Rec.Weights[WI]);
    for (const RawAccess &A : Rec.Walks[WI]) {
      if (!A.Region || A.Region->Decl != Array)
        continue;
      RawAccess P = A;
      if (P.Offset && P.Row) {
        auto By = P.Row->map([&](const Poly &X) { return Poly::scale(X, Move); });
        std::optional<LaneVec> Moved;
        if (By)
          Moved = LaneVec::zip(*P.Offset, *By, Poly::add);
        if (Moved) {
          P.Offset = std::move(*Moved);
        } else {
          P.Offset.reset();
          P.UnknownWhy = "offset overflows 64 bits";
        }
      }
      MW.Walks.back().push_back(std::move(P));
    }
  }
  for (auto &Walk : MW.Walks)
    mergeFieldLoads(Ctx, Walk);
  std::vector<AccessKey> Order;
  std::map<AccessKey, Aggregate> ByKey = KA.aggregate(MW, Order);
  for (const AccessKey &K : Order)
    R.Accesses.push_back(KA.factsOf(ByKey[K], MW.Weights, nullptr));
  sortAccesses(Ctx, R);
  computeEmittedWidths(Ctx, R);
  return R;
}

} // namespace pipeline
} // namespace cal

//===- LayoutSearch.h - A shared array's layout, rewritten and re-analyzed -===//
//
// A rewrite of a shared array's layout is offered only after the analyzer
// has computed what it gives (issue 17: a pad that leaves the conflict, or a
// vector store that would fault, is not offered). This file finds the
// layout in the source and answers "what are the facts under this rewrite":
//
//  - A one-dimensional array indexed as rows: every use is `A[idx]`, each
//    idx a sum with one term `row * S` of the same constant S (the row
//    stride, in elements), the other terms the column:
//        As[(innerColA * 4 + 0) * BM + innerRowA]     row stride BM
//        As[dotIdx * BM + threadRow * TM + i]          row stride BM
//    Padding it is `S` read as `S + P` in every index (and the declared
//    size `BM * BK` as `(BM + P) * BK`).
//  - An XOR swizzle: the column read as `col ^ (row % W)` in every index
//    (1-D: the column terms; 2-D `a[r][c]`: the last subscript).
//
// The rewrites are expressions built in the ASTContext from the access's own
// subexpressions and evaluated by the interpreter in place of the originals
// (AnalysisOptions::Rewrites): the same warp model, emitted widths and
// alignment as every other fact. judgeLayout() compares the array's
// accesses before and after.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_LAYOUTSEARCH_H
#define CUDA_ACCESS_LINT_ANALYZER_LAYOUTSEARCH_H

#include "analyzer/Analyzer.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

/// One reference to an array in a kernel's body, as a new layout of the
/// array (padding, a swizzle) sees it.
struct ArrayUse {
  enum Kind {
    /// `a[i][j]` with every subscript: read, written, or its address cast
    /// and dereferenced at once (`*reinterpret_cast<float4 *>(&a[i][j])`).
    Element,
    /// In sizeof (alignof ...), of the array or of a row of it: a new
    /// layout changes it.
    Sizeof,
    /// Fewer subscripts: a pointer into it, the array handed on.
    NotElement,
    /// `&a[i][j]` kept as a pointer, not dereferenced at once.
    PointerKept,
  };
  Kind K = NotElement;
  const clang::DeclRefExpr *Ref = nullptr;
  /// The outermost subscript (Element, PointerKept).
  const clang::ArraySubscriptExpr *Subscript = nullptr;
};

/// Calls \p Visit with every reference to \p Array (of \p Rank constant
/// dimensions) in \p Body, in source order, until \p Visit returns false.
void forEachArrayUse(const clang::Stmt *Body, const clang::VarDecl *Array,
                     unsigned Rank,
                     llvm::function_ref<bool(const ArrayUse &)> Visit);

/// How a one-dimensional shared array's indices lay it out as rows.
struct RowLayout {
  const clang::VarDecl *Array = nullptr;
  int64_t Stride = 0; ///< elements per row
  int64_t Size = 0;   ///< declared elements
  struct Use {
    const clang::ArraySubscriptExpr *Subscript = nullptr;
    /// `BM` in `(...) * BM`: the operand that is the row stride.
    const clang::Expr *StrideOperand = nullptr;
    /// `(innerColA * 4 + 0)`: the row.
    const clang::Expr *Row = nullptr;
    /// The other terms of the index (the column), as written.
    std::vector<const clang::Expr *> Column;
  };
  std::vector<Use> Uses;
  /// The factor of the declared size that is the row stride, written as
  /// the stride operands are (`BM` in `As[BM * BK]`); null when none.
  const clang::Expr *SizeFactor = nullptr;
  /// Every stride operand is spelled the same (`BM`), outside macro bodies.
  bool SameSpelling = false;
  std::string StrideText; ///< `BM`
};

/// The row layout of \p Array in \p Kernel's body; std::nullopt with \p Why
/// when its uses are not all of that form.
std::optional<RowLayout> findRowLayout(clang::ASTContext &Ctx,
                                       const clang::VarDecl *Array,
                                       const clang::FunctionDecl *Kernel,
                                       std::string *Why = nullptr);

/// The rewrites that read every row stride of \p L as `S + Pad`.
std::map<const clang::Expr *, const clang::Expr *>
rowPaddingRewrites(clang::ASTContext &Ctx, const RowLayout &L, int64_t Pad);

/// The rewrites that read each index of \p L as
/// `row * S + (column ^ (row % Width))`.
std::map<const clang::Expr *, const clang::Expr *>
rowSwizzleRewrites(clang::ASTContext &Ctx, const RowLayout &L, int64_t Width);

/// The rewrites that read the last subscript of every use of the 2-D array
/// \p Array as `col ^ (row % Width)`; empty when a use is not `a[r][c]`.
std::map<const clang::Expr *, const clang::Expr *>
swizzle2DRewrites(clang::ASTContext &Ctx, const clang::VarDecl *Array,
                  const clang::FunctionDecl *Kernel, int64_t Width);

/// The facts of \p Array's accesses in kernel configuration \p Kernel under
/// \p Rewrites and \p Pad (elements added to the innermost dimension).
AnalysisResult analyzeLayout(
    clang::ASTContext &Ctx, const AnalysisOptions &Opts,
    const KernelInfo &Kernel, const clang::VarDecl *Array,
    const std::map<const clang::Expr *, const clang::Expr *> &Rewrites,
    int64_t Pad = 0, bool FirstWarpOnly = false);

/// The facts of \p Array's accesses in kernel configuration \p Kernel of
/// \p R with its rows padded by \p Pad elements -- the innermost dimension
/// of an array of two dimensions or more, as analyzeKernel() under
/// AnalysisOptions::Padding gives them (FirstWarpOnly alike); with \p Rows,
/// the 1-D layout of \p Array in that configuration, its row stride, as
/// analyzeLayout() under rowPaddingRewrites() gives them -- computed from
/// the rows the walks recorded, without walking the kernel again
/// (analyzer/pipeline/RecordedRows.cpp). The same numbers; std::nullopt
/// where the rows are not recorded (paddingSource), for the caller to
/// analyze again. \p Opts: the analysis's options, for the one walk of
/// the search's own that some arrays need (counted in
/// R.PaddingSearchWalks).
std::optional<AnalysisResult>
paddedFacts(clang::ASTContext &Ctx, const AnalysisOptions &Opts,
            const AnalysisResult &R, size_t Kernel, const clang::VarDecl *Array,
            int64_t Pad, bool FirstWarpOnly = false,
            const RowLayout *Rows = nullptr);

/// Where paddedFacts() prices a padding of \p Array in \p Kernel from.
enum class PaddingSource {
  /// The rows the analysis's walks recorded.
  AnalysisRows,
  /// The rows of one walk of the search's own (padding 0), made once: a
  /// loop the analysis ran iteration by iteration does not name the array,
  /// and the search's walks run it symbolically.
  SearchWalkRows,
  /// None: the rows are not recorded (\p Why says why); analyze again.
  Reanalysis,
};
PaddingSource paddingSource(const AnalysisResult &R, size_t Kernel,
                            const clang::VarDecl *Array,
                            const RowLayout *Rows = nullptr,
                            std::string *Why = nullptr);

/// How the array's accesses fare under a layout, against the facts before.
struct LayoutOutcome {
  /// Every access known, every vector access aligned, no access worse:
  /// not more wavefronts per warp, not more instructions (merged loads
  /// stay merged).
  bool Valid = false;
  std::string Why; ///< when not valid: the first access that is worse
  bool ConflictFree = false;
  double WavefrontsBefore = 0, WavefrontsAfter = 0; ///< per warp, summed
  AnalysisResult After;
};

/// The instructions of \p F per warp: its executions (which count a merged
/// run's instructions, not its elements); where a trip count is unknown,
/// its share of one execution of its run (2 LDS.128 for 8 loads: 1/4).
double instructionsPerWarp(const AccessFacts &F);

/// The access of \p R that is \p F under a rewrite (the same expression,
/// kind, piece and call stack); null when absent.
const AccessFacts *sameAccess(const AnalysisResult &R, const AccessFacts &F);

/// \p Replaced: accesses the rewrite replaces by others (scalar stores
/// that become one vector store), left out of the comparison.
LayoutOutcome judgeLayout(const AnalysisResult &Before, size_t Kernel,
                          const clang::VarDecl *Array, AnalysisResult After,
                          const std::vector<const clang::Expr *> &Replaced = {});

/// The declaration's identity across template instantiations.
clang::SourceLocation arrayKey(const clang::VarDecl *VD);

} // namespace cal

#endif

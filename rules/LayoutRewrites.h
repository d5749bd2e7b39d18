//===- LayoutRewrites.h - Shared-array rewrites, checked before offered ---===//
//
// The rewrites shared-bank-conflict offers for a shared array, each planned
// over every kernel configuration that accesses the array and re-analyzed
// before it is printed (analyzer/LayoutSearch.h): a rewrite that leaves the
// access as it is, or makes another access worse, is not offered.
//
//  - padding a one-dimensional array's row stride (`(...) * BM + ...`):
//    the smallest pad that makes every access conflict-free with no access
//    worse (merged 16-byte loads stay merged), machine-applicable when the
//    stride and the declared size are written with the same constant;
//  - an XOR swizzle of the column by the row, in the array's own index
//    terms, where no padding does;
//  - one vector store for a vector's parts stored one by one
//    (`Bs[... + 0] = tmp.x; ... + 3] = tmp.w;`), only where it is aligned,
//    else with the padding that makes it aligned.
//
// Each fix states its after-numbers (Fix::After, and "after: ..." in its
// description).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_LAYOUTREWRITES_H
#define CUDA_ACCESS_LINT_RULES_LAYOUTREWRITES_H

#include "analyzer/LayoutSearch.h"
#include "rules/Rule.h"

#include <map>
#include <optional>
#include <string>

namespace cal {

/// A layout rewrite of one array, for every configuration that uses it.
struct LayoutPlan {
  enum class Kind { None, Pad, RowPad, Swizzle };
  Kind K = Kind::None;
  int64_t Amount = 0; ///< pad in elements, or the swizzle's width
  bool ConflictFree = false;
  /// Why nothing is offered (Kind::None).
  std::string Why;
  /// The facts of the array's accesses under the rewrite, per kernel
  /// configuration.
  std::map<size_t, AnalysisResult> After;
  /// One-dimensional arrays: the row layout in each configuration.
  std::map<size_t, RowLayout> Rows;
};

/// Every kernel configuration with an access to the declaration \p Key and
/// the VarDecl it has there.
std::map<size_t, const clang::VarDecl *>
configurationsOf(const RuleContext &Ctx, clang::SourceLocation Key);

/// The smallest padding of a 1-D array's row stride that makes it better.
LayoutPlan planRowPadding(const RuleContext &Ctx,
                          const std::map<size_t, const clang::VarDecl *> &C);

/// The XOR swizzle of the column by the row (1-D row layouts and 2-D
/// arrays) that makes it better.
LayoutPlan planSwizzle(const RuleContext &Ctx,
                       const std::map<size_t, const clang::VarDecl *> &C);

/// The fix that applies \p Plan, for the finding at \p F: std::nullopt when
/// the plan does not make this access better.
std::optional<Fix> layoutFix(const RuleContext &Ctx, const LayoutPlan &Plan,
                             const AccessFacts &F, const clang::VarDecl *VD);

/// One vector store for the scalar stores of a vector's parts that \p F is
/// one of, when aligned (or with the padding that aligns it) and better.
std::optional<Fix> vectorStoreFix(const RuleContext &Ctx, const AccessFacts &F,
                                  const clang::VarDecl *VD);

/// "after: conflict-free, 4 wavefronts per STS.128 (now 2-way, 2 per STS)",
/// and the figures as FixAfter.
std::string afterText(const AccessFacts &Before, const AccessFacts &After);
FixAfter afterOf(const AccessFacts &After);

} // namespace cal

#endif

//===- Suggest.h - Code for the suggested rewrites ------------------------===//
//
// Rewrites shared by several rules: reading a thread's run with 16-byte
// vector loads, staging a block's rows through padded shared memory,
// swapping the roles of the thread and loop indices. The code is built from
// the user's own expressions and shown as a suggestion; it is never applied
// by --fix.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_SUGGEST_H
#define CUDA_ACCESS_LINT_RULES_SUGGEST_H

#include "rules/Rule.h"

#include <optional>
#include <string>

namespace cal {

/// The 16-byte type that carries elements of \p Elem ("float4", "uint4",
/// "double2", "int4"), and how many elements it holds.
struct VectorType {
  std::string Name;
  unsigned Elements = 0;
};
std::optional<VectorType> vectorTypeFor(const clang::ASTContext &Ctx,
                                        clang::QualType Elem, unsigned Bytes);

/// The innermost loop statement around an access, if it is a for-loop.
const clang::ForStmt *innermostFor(const AccessFacts &F);

/// `for (int c = 0; c < V; c += K)`: the loop's header with its step
/// replaced; std::nullopt when the header is not of that form.
std::optional<std::string> loopHeaderWithStep(const RuleContext &Ctx,
                                              const clang::ForStmt *Loop,
                                              unsigned Step);

/// The vectorized form of the access: a loop over the thread's run in
/// 16-byte pieces.
Fix vectorizeSuggestion(const RuleContext &Ctx, const AccessFacts &F);

/// Staging through padded shared memory: the block copies its rows with
/// coalesced loads, then each thread reads its run from shared memory.
Fix stageSuggestion(const RuleContext &Ctx, const AccessFacts &F);

/// Swapping the thread and loop indices (striped), for order-free loops.
std::optional<Fix> interchangeSuggestion(const RuleContext &Ctx,
                                         const AccessFacts &F);

/// The smallest padding, in elements, of a row of \p RowElems elements of
/// \p ElemBytes bytes that makes lanes reading rows lane-apart, one element
/// each, conflict-free.
unsigned conflictFreePad(unsigned RowElems, unsigned ElemBytes);

/// The warp model's figures for the access rewritten with \p Bytes per
/// lane, its lanes where they are now or (\p Striped) \p Bytes apart:
/// sectors and lines per request, requests per warp, and "after: ..." for
/// the fix's description.
std::pair<FixAfter, std::string> rewrittenFigures(const AccessFacts &F,
                                                  unsigned Bytes, bool Striped,
                                                  double RequestsBefore,
                                                  double RequestsAfter);

/// "32 bytes", "6.2%" ...
std::string percent(double Fraction);
std::string number(double V);

} // namespace cal

#endif

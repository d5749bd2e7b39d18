//===- Suppression.h - NOLINT comments, as clang-tidy reads them ----------===//
//
//   x = a[i];  // NOLINT                     every rule, this line
//   x = a[i];  // NOLINT(blocked-stride)     that rule, this line
//   // NOLINTNEXTLINE(blocked-stride, misaligned-access)
//   // NOLINTBEGIN(shared-bank-conflict) ... // NOLINTEND(shared-bank-conflict)
//
// Rule names may carry the "cuda-" module prefix and may be globs ("*").
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_SUPPRESSION_H
#define CUDA_ACCESS_LINT_RULES_SUPPRESSION_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

namespace cal {

/// True when a NOLINT comment suppresses \p Rule at \p Loc (its expansion
/// line).
bool isSuppressed(const clang::SourceManager &SM, clang::SourceLocation Loc,
                  llvm::StringRef Rule);

} // namespace cal

#endif

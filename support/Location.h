//===- Location.h - Source positions as users see them --------------------===//

#ifndef CUDA_ACCESS_LINT_SUPPORT_LOCATION_H
#define CUDA_ACCESS_LINT_SUPPORT_LOCATION_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace cal {

/// A position in a file: where a macro's expansion is, for a location in a
/// macro (the line the user wrote).
struct Position {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0; ///< 1-based, in bytes
  unsigned Offset = 0; ///< 0-based byte offset in the file
  bool valid() const { return Line != 0; }
};

/// A path relative to the working directory when it lies below it (what
/// code-scanning and review tools expect), else as it is.
std::string displayPath(llvm::StringRef Path);

Position positionOf(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// The position of the last character of the token at \p Loc.
Position endPositionOf(const clang::SourceManager &SM,
                       const clang::LangOptions &LO, clang::SourceLocation Loc);

} // namespace cal

#endif

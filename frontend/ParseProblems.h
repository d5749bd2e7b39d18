//===- ParseProblems.h - Which parse errors threaten the lint -------------===//
//
// A .cu file is host code and kernels in one translation unit. The lint
// reads only the kernels and what they use: the device and host-device
// functions they call, the types and variables they name. A clang error
// anywhere else (a host function calling a library the machine lacks, a
// header only the host side includes) changes no fact about an access.
//
// classifyParseErrors() tells the two apart after the parse: an error
// touches the kernels when it lies inside the source of a kernel or of
// anything a kernel uses (computed transitively from every __global__
// function outside system headers, template patterns included), or when a
// kernel the preprocessor saw (`__global__` expanded in the file) is missing
// from the AST: then the error may have swallowed it, and every error
// counts.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_PARSEPROBLEMS_H
#define CUDA_ACCESS_LINT_FRONTEND_PARSEPROBLEMS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace cal {

struct ErrorClassification {
  /// Per error, in the order given: it lies in a kernel or in what one uses
  /// (an invalid location counts as touching).
  std::vector<bool> TouchesKernel;
  /// A `__global__` the preprocessor expanded outside system headers has no
  /// declaration around it in the AST.
  bool KernelLost = false;

  bool anyTouches() const {
    if (KernelLost)
      return true;
    for (bool B : TouchesKernel)
      if (B)
        return true;
    return false;
  }
};

/// \p ErrorLocs: where each error was reported. \p GlobalExpansions: where
/// the `__global__` macro was expanded (the preprocessor's view of the
/// kernels).
ErrorClassification
classifyParseErrors(clang::ASTContext &Ctx,
                    llvm::ArrayRef<clang::SourceLocation> ErrorLocs,
                    llvm::ArrayRef<clang::SourceLocation> GlobalExpansions);

} // namespace cal

#endif

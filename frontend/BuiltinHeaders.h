//===- BuiltinHeaders.h - Headers compiled into the tool ------------------===//
//
// frontend/cuda_prelude/ holds headers that are compiled into the binary and
// served to the parse from a virtual directory, so the tool needs no files
// beside it:
//  - cuda_access_lint_prelude.h and the stub CUDA headers (cuda_runtime.h,
//    cuda_fp16.h, ...): a minimal CUDA environment for machines without a
//    CUDA toolkit;
//  - cuda_access_lint_supplement.h: declarations nvcc provides and clang's
//    CUDA headers lack (the cache-hint stores, ...), force-included when a
//    toolkit is used;
//  - fallback/: stand-ins for host headers that nvcc's host compiler finds
//    and clang has none of (GCC's omp.h), searched after every other
//    include directory.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_BUILTINHEADERS_H
#define CUDA_ACCESS_LINT_FRONTEND_BUILTINHEADERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace cal {

struct BuiltinHeader {
  llvm::StringRef Name;     ///< path relative to the include dir
  llvm::StringRef Contents;
};

/// Every embedded header.
llvm::ArrayRef<BuiltinHeader> builtinHeaders();

/// The virtual directory the headers are served from.
inline constexpr llvm::StringLiteral BuiltinIncludeDir =
    "/__cuda_access_lint__/include";
inline constexpr llvm::StringLiteral PreludeHeader =
    "cuda_access_lint_prelude.h";
inline constexpr llvm::StringLiteral SupplementHeader =
    "cuda_access_lint_supplement.h";
/// Stand-ins for host headers clang lacks (omp.h), searched after every
/// other include directory (-idirafter).
inline constexpr llvm::StringLiteral FallbackDir = "fallback";

} // namespace cal

#endif

//===- CudaToolkit.h - Finding the CUDA toolkit the parse uses ------------===//
//
// The parse uses a CUDA toolkit's headers when there is one, so that code
// nvcc accepts parses as it does under nvcc. Where none exists, the tool still
// works, on a small built-in CUDA prelude (see BuiltinHeaders.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_CUDATOOLKIT_H
#define CUDA_ACCESS_LINT_FRONTEND_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace cal {

struct CudaToolkit {
  std::string Root;       ///< e.g. /usr/local/cuda-13.0
  int Version = 0;        ///< CUDA_VERSION from cuda.h, e.g. 13000; 0 if unread
  std::string CcclInclude; ///< <root>/include/cccl when it exists (CUDA >= 13)
};

/// True when \p Root looks like a CUDA toolkit (it has cuda_runtime.h).
bool isCudaToolkit(llvm::StringRef Root);

/// Reads the toolkit at \p Root; fails when it is not one.
llvm::Expected<CudaToolkit> readCudaToolkit(llvm::StringRef Root);

/// Finds a toolkit: CUDA_PATH, CUDA_HOME, the directory above the nvcc that
/// \p NvccHint names (from a compile command; may be empty), the nvcc on PATH,
/// /usr/local/cuda. std::nullopt when there is none.
std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef NvccHint);

} // namespace cal

#endif

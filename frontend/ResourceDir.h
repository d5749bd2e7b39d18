//===- ResourceDir.h - clang's resource directory, found at run time ------===//
//
// The parse needs clang's own headers (the CUDA wrappers, stddef.h ...),
// which live in its resource directory. Nothing is baked in at build time,
// so an installed tree can be moved: the first of these that holds the
// CUDA wrapper header is used
//   1. <the binary's directory>/../lib/clang/<major>  (a bundled copy),
//   2. <the directory of the libclang-cpp this process loaded>/clang/<major>
//      (Debian: /usr/lib/llvm-22/lib/clang/22, libclang-common-22-dev),
//   3. what clang's driver derives from clang++-<major> on PATH.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_RESOURCEDIR_H
#define CUDA_ACCESS_LINT_FRONTEND_RESOURCEDIR_H

#include <string>

namespace cal {

/// The resource directory; empty when none is found.
const std::string &clangResourceDir();

} // namespace cal

#endif

//===- PreambleWriter.h - A preamble's PCH, streamed to a file ------------===//
//
// clang's PrecompiledPreamble::Build serializes the whole PCH into memory
// before anything is written: at the end of the preamble's parse the process
// holds its AST and, beside it, the PCH (47 MB for a file including CUB).
// This builds the same PCH (the same invocation changes, the same
// TU_Prefix action, the same PreambleCallbacks at the same points) with an
// ASTWriter whose bitstream goes to the file as each block is finished, so
// only the block being written is held. The bytes are those Build writes
// (tested: PreambleWriterTest).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_PREAMBLEWRITER_H
#define CUDA_ACCESS_LINT_FRONTEND_PREAMBLEWRITER_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>

namespace llvm {
class MemoryBuffer;
}
namespace clang {
class CompilerInvocation;
class DiagnosticsEngine;
class PCHContainerOperations;
class PreambleCallbacks;
struct PreambleBounds;
} // namespace clang

namespace cal {

/// Writes the PCH of \p Main's first \p Bounds.Size bytes, parsed under \p
/// Inv, to \p Path (created or truncated). An error when the preamble could
/// not be parsed or written; diagnostics go to \p Diags, as with
/// PrecompiledPreamble::Build.
llvm::Error writePreamblePch(
    const clang::CompilerInvocation &Inv, const llvm::MemoryBuffer &Main,
    const clang::PreambleBounds &Bounds, clang::DiagnosticsEngine &Diags,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> Ops,
    clang::PreambleCallbacks &Callbacks, llvm::StringRef Path);

} // namespace cal

#endif

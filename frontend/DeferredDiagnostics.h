//===- DeferredDiagnostics.h - CUDA's deferred diagnostics, read on demand -*-
// C++ -*-===//
//
// In CUDA, an error in a __host__ __device__ function (a call of a host
// function, say) is deferred: clang records it (Sema::DeviceDeferredDiags)
// and, at the end of the translation unit, walks the call graph from every
// function it recorded as a root (Sema::DeclsToCheckForDeferredDiags),
// emitting the deferred errors of the functions reached that are emitted
// for the device (Sema::emitDeferredDiags). A precompiled preamble carries
// its roots: 4,125 functions for cuda_runtime.h, cuda_fp16.h and
// cooperative_groups.h. emitDeferredDiags first has the external source read
// them all back from the PCH, declarations, types and bodies (45% of a
// relint of bench/lsp_relint.py's file), and then returns at once when no
// error was deferred, which is the usual case.
//
// So the parse's external source reads the roots only when the walk will
// run: when an error was deferred (or OpenMP is on, where the walk also
// checks other things). In every case clang does what it did, minus reading
// declarations that nothing uses: the same diagnostics and the same AST for
// the analysis (tests: PreambleCache.DeferredErrorsReachedFromThePreamble*).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_DEFERREDDIAGNOSTICS_H
#define CUDA_ACCESS_LINT_FRONTEND_DEFERREDDIAGNOSTICS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"

namespace clang {
class ExternalSemaSource;
class Sema;
} // namespace clang

namespace cal {

/// Makes \p Own (the parse's own external source) Sema's external source,
/// as Sema::addExternalSource would, behind a multiplexer that reads the
/// roots of the deferred diagnostics' walk from the sources added later
/// (the PCH's reader) only when the walk will run. Called from the
/// consumer's SemaConsumer::InitializeSema, before the reader adds itself.
void addExternalSourceReadingDeferredRootsOnDemand(
    clang::Sema &S, llvm::IntrusiveRefCntPtr<clang::ExternalSemaSource> Own);

/// How many times, in this process, no external source was asked for the
/// roots because no error was deferred (for tests).
unsigned deferredRootReadsSkipped();

} // namespace cal

#endif

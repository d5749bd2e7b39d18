//===- PreambleReads.h - What the end of a parse reads of a preamble -*- C++
//-*-===//
//
// At the end of the translation unit Sema has its external source, the
// preamble's PCH reader, read back lists of declarations the preamble
// recorded, and reads each declaration, its type and often its body. Two of
// them are read for output that cannot appear in most parses:
//
// - The roots of CUDA's deferred diagnostics. An error in a __host__
//   __device__ function (a call of a host function, say) is deferred: clang
//   records it (Sema::DeviceDeferredDiags) and, at the end, walks the call
//   graph from every function it recorded as a root
//   (Sema::DeclsToCheckForDeferredDiags), emitting the deferred errors of the
//   functions reached that are emitted for the device
//   (Sema::emitDeferredDiags). The preamble of cuda_runtime.h, cuda_fp16.h
//   and cooperative_groups.h carries 4,125 roots; emitDeferredDiags reads
//   them all, then returns at once when no error was deferred (and OpenMP is
//   off), the usual case: 45% of a relint of bench/lsp_relint.py's file.
//   They are read only when an error was deferred.
// - The file-scoped declarations still unused (static functions and
//   variables of the headers), read to warn of them (-Wunused-function and
//   the like). Under -w, which every parse on a preamble has (the tool
//   parses without one when clang's warnings are asked for), each of those
//   warnings is ignored, even one made an error. They are read only when
//   warnings are not all ignored.
//
// Otherwise clang does what it did: the same diagnostics, and the same AST
// for the analysis, less declarations nothing reads (tests:
// PreambleReads.*, PreambleCache.DeferredErrorsReachedFromThePreamble*).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_PREAMBLEREADS_H
#define CUDA_ACCESS_LINT_FRONTEND_PREAMBLEREADS_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"

namespace clang {
class ExternalSemaSource;
class Sema;
} // namespace clang

namespace cal {

/// Makes \p Own (the parse's own external source) Sema's external source,
/// as Sema::addExternalSource would, behind a multiplexer that has the
/// sources added later (the PCH's reader) read the two lists above only
/// when they can matter. Called from the consumer's
/// SemaConsumer::InitializeSema, before the reader adds itself.
void addExternalSourceReadingOnDemand(
    clang::Sema &S, llvm::IntrusiveRefCntPtr<clang::ExternalSemaSource> Own);

/// How many times, in this process, no external source was asked for the
/// roots because no error was deferred (for tests).
unsigned deferredRootReadsSkipped();
/// The same for the file-scoped declarations still unused, under -w.
unsigned unusedDeclReadsSkipped();

} // namespace cal

#endif

//===- PreambleReads.cpp --------------------------------------------------===//

#include "frontend/PreambleReads.h"

#include "clang/Sema/MultiplexExternalSemaSource.h"
#include "clang/Sema/Sema.h"

#include <atomic>

namespace cal {

namespace {

std::atomic<unsigned> Skipped{0};
std::atomic<unsigned> UnusedSkipped{0};

/// Sema's external sources (MultiplexExternalSemaSource forwards each call
/// to each of them, in order), save two reads whose result would not be
/// used (PreambleReads.h).
class ReadsOnDemand : public clang::MultiplexExternalSemaSource {
public:
  ReadsOnDemand(clang::Sema &S,
                llvm::IntrusiveRefCntPtr<clang::ExternalSemaSource> A,
                llvm::IntrusiveRefCntPtr<clang::ExternalSemaSource> B)
      : MultiplexExternalSemaSource(std::move(A), std::move(B)), S(S) {}

  void ReadDeclsToCheckForDeferredDiags(
      llvm::SmallSetVector<clang::Decl *, 4> &Decls) override {
    // Sema::emitDeferredDiags, its only caller, reads them and then returns
    // when `(DeviceDeferredDiags.empty() && !LangOpts.OpenMP) ||
    // DeclsToCheckForDeferredDiags.empty()`.
    if (S.DeviceDeferredDiags.empty() && !S.getLangOpts().OpenMP) {
      // Counted when no source was asked, this multiplexer being Sema's.
      if (S.ExternalSource.get() == this)
        ++Skipped;
      return;
    }
    MultiplexExternalSemaSource::ReadDeclsToCheckForDeferredDiags(Decls);
  }

  void ReadUnusedFileScopedDecls(
      llvm::SmallVectorImpl<const clang::DeclaratorDecl *> &Decls) override {
    // Sema::ActOnEndOfTranslationUnit, their only reader, reads them to
    // warn of those still unused (warn_unused_function and the like). Under
    // -w each of those warnings is ignored: none is an error by default,
    // and -w ignores them even when -Werror or a pragma makes them errors
    // (DiagnosticIDs::getDiagnosticSeverity).
    if (S.getDiagnostics().getIgnoreAllWarnings()) {
      if (S.ExternalSource.get() == this)
        ++UnusedSkipped;
      return;
    }
    MultiplexExternalSemaSource::ReadUnusedFileScopedDecls(Decls);
  }

private:
  clang::Sema &S;
};

} // namespace

void addExternalSourceReadingOnDemand(
    clang::Sema &S, llvm::IntrusiveRefCntPtr<clang::ExternalSemaSource> Own) {
  if (S.ExternalSource) {
    // Not expected (nothing adds one before the consumer): keep clang's way.
    S.addExternalSource(std::move(Own));
    return;
  }
  // A multiplexer holds at least two sources: the second answers nothing
  // (ExternalSemaSource's defaults). The PCH's reader, added next, is
  // appended to this multiplexer (Sema::addExternalSource), after \p Own, as
  // it would be to the one clang makes.
  S.ExternalSource = llvm::makeIntrusiveRefCnt<ReadsOnDemand>(
      S, std::move(Own),
      llvm::makeIntrusiveRefCnt<clang::ExternalSemaSource>());
}

unsigned deferredRootReadsSkipped() { return Skipped.load(); }

unsigned unusedDeclReadsSkipped() { return UnusedSkipped.load(); }

} // namespace cal

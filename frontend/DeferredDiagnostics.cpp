//===- DeferredDiagnostics.cpp --------------------------------------------===//

#include "frontend/DeferredDiagnostics.h"

#include "clang/Sema/MultiplexExternalSemaSource.h"
#include "clang/Sema/Sema.h"

#include <atomic>

namespace cal {

namespace {

std::atomic<unsigned> Skipped{0};

/// Sema's external sources (MultiplexExternalSemaSource forwards each call
/// to each of them, in order), save the reading of the roots when
/// Sema::emitDeferredDiags would return right after it.
class DeferredRootsOnDemand : public clang::MultiplexExternalSemaSource {
public:
  DeferredRootsOnDemand(clang::Sema &S,
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

private:
  clang::Sema &S;
};

} // namespace

void addExternalSourceReadingDeferredRootsOnDemand(
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
  S.ExternalSource = llvm::makeIntrusiveRefCnt<DeferredRootsOnDemand>(
      S, std::move(Own),
      llvm::makeIntrusiveRefCnt<clang::ExternalSemaSource>());
}

unsigned deferredRootReadsSkipped() { return Skipped.load(); }

} // namespace cal

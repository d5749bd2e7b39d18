//===- ParseAdjustments.h - Where the parse departs from clang's -*- C++
//-*-===//
//
// The frontend's parse is clang's, with a few departures that keep it
// nvcc's reading of the code and its cost below clang's: errors clang gives
// where nvcc accepts the code (NvccDifferences below), typo correction off
// in host code, and the bodies of host library functions skipped.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_PARSEADJUSTMENTS_H
#define CUDA_ACCESS_LINT_FRONTEND_PARSEADJUSTMENTS_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Sema/ExternalSemaSource.h"

#include <vector>

namespace clang {
class Decl;
class DeclContext;
class LookupResult;
class Scope;
class Sema;
class SourceManager;
} // namespace clang

namespace cal {

/// Code nvcc accepts and clang 22 rejects, where clang's parse recovers to
/// what the lint needs. Neither headers nor flags can close these:
///  - a `__shared__` object with a constructor (`__shared__ cuda::barrier<>
///    bar;`): nvcc ignores the dynamic initialization (a warning), clang
///    rejects it and marks the variable invalid, which drops every statement
///    that names it. Outside templates the variable is made valid again as
///    soon as its declaration is done (the next token), so what follows
///    parses as under nvcc; in a template, whose instantiation checks the
///    initializer again with no such moment, the check is deferred
///    (SharedInTemplates.h);
///  - an error inside an inline asm statement's parentheses (`%globaltimer`
///    with one `%`, operands without a comma between them): nvcc hands the
///    text to ptxas, clang checks it as GCC does and drops the statement. The
///    lint never reads asm, so nothing it analyzes is lost.
namespace nvcc_differences {

/// True when \p Loc lies inside the parentheses of an inline asm statement
/// (`asm`, `__asm__`, `asm volatile (...)`), by the text of its file.
bool insideInlineAsm(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// Makes the `__shared__` variables declared at \p Pending valid again,
/// once they are in scope (see above).
void revalidateSharedVariables(clang::Sema &S,
                               std::vector<clang::SourceLocation> &Pending);

} // namespace nvcc_differences

/// Clang's typo correction, off where it cannot help the lint. After an
/// unknown name clang looks for the closest declared one (Sema::CorrectTypo:
/// every identifier of the translation unit, each candidate looked up and
/// checked), and with a heavy host header set and host code whose library
/// header is missing, that search costs more than the whole parse. The tool
/// goes on after such errors where clang would stop (a missing header is not
/// fatal, no error limit), so it would pay for it on every unknown name of
/// the host code. In the body of a host-only function, and in any function
/// of a system header, a correction changes nothing the lint reads: the
/// kernels and what they use are device code, and an error there is only
/// summed up (ParseProblems.h). In device and host-device code, and at file
/// scope (a `__device__` variable's type), the correction stays: it is
/// clang's message when the error is shown, and its recovery keeps a kernel
/// analyzable.
class HostTypoCorrection : public clang::ExternalSemaSource {
public:
  /// Follows the parse into and out of function bodies: called for each
  /// token (cheap unless the context changed since the last call) and, as
  /// Sema's external source, by every unqualified lookup that found nothing,
  /// just before clang would look for a correction. Not covered: the bodies
  /// of inline member functions of host classes, which clang parses later
  /// from saved tokens (the token watcher does not see those, and there the
  /// correction still runs, as in clang).
  void update(clang::Sema &S);

  void InitializeSema(clang::Sema &S) override { Sema = &S; }
  void ForgetSema() override { Sema = nullptr; }
  bool LookupUnqualified(clang::LookupResult &, clang::Scope *) override {
    if (Sema)
      update(*Sema);
    return false;
  }

private:
  static bool offIn(clang::Sema &S, clang::DeclContext *DC);
  clang::Sema *Sema = nullptr;
  clang::DeclContext *Last = nullptr;
  bool Disabled = false;
};

/// Whether the parse skips \p D's body: a host-only function (no
/// `__device__`, no `__global__`; constexpr functions are host-device) in a
/// system header. A kernel's analysis needs the declarations of the
/// toolkit's and the C++ library's host code, never their bodies: device
/// code cannot call them, the interpreter does not follow calls into system
/// headers, and an error in them is only summed up. Bodies clang cannot
/// skip (constexpr, a deduced return type) are parsed as always. Device,
/// host-device and kernel bodies, and everything in the project's own
/// headers, are parsed.
bool skipsBody(const clang::SourceManager &SM, clang::Decl *D);

} // namespace cal

#endif

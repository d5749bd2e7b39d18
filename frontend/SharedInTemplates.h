//===- SharedInTemplates.h - __shared__ objects in templates -*- C++ -*-===//
//
// nvcc accepts `__shared__ cuda::barrier<...> bar;` (and `__shared__ T acc[N]`
// of a class with a constructor) with a warning: it ignores the dynamic
// initialization. clang rejects it ("initialization is not supported for
// __shared__ variables") and marks the variable invalid, which drops every
// statement that names it. Outside templates Frontend.cpp makes the variable
// valid again at the next token. In a template the check runs again when the
// template is instantiated, where no such moment exists (the check marks the
// instantiated variable invalid, and the statements naming it fail).
//
// So, in a template's pattern, such a variable is made, for the parse, an
// automatic local without the attribute (clang does not check an automatic
// variable's initializer), marked with an annotation that instantiation copies;
// once the translation unit is done, every variable with the mark gets back
// its `__shared__` attribute and static storage, before anything reads it.
// The mark is an attribute of the AST, so it is kept in a precompiled
// preamble too.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_SHAREDINTEMPLATES_H
#define CUDA_ACCESS_LINT_FRONTEND_SHAREDINTEMPLATES_H

namespace clang {
class ASTContext;
class Decl;
class SourceManager;
} // namespace clang

namespace cal {

/// Defers the initializer check of the `__shared__` variables of class (or
/// dependent) type in the templates under \p D, a top-level declaration just
/// parsed (system headers are left alone). Returns whether it changed one.
bool deferSharedInitChecks(clang::Decl *D, const clang::SourceManager &SM);

/// Gives the variables deferSharedInitChecks marked, in patterns and in
/// instantiations, their `__shared__` attribute and static storage back.
void restoreDeferredShared(clang::ASTContext &Ctx);

} // namespace cal

#endif

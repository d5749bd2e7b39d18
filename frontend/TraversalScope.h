//===- TraversalScope.h - What the whole-TU walks see of a preamble -*- C++
//-*-===//
//
// The analysis walks the whole translation unit (analyzer/KernelModel.cpp
// for kernels, launches and calls; interp/HostGlobals.cpp for the globals'
// writers; the parent map of ASTContext::getParents). On a precompiled
// preamble each declaration such a walk reaches is read back from the PCH,
// function bodies included: for cuda_runtime.h, cuda_fp16.h and
// cooperative_groups.h that is most of a relint's time (1.27 of 2.15 billion
// instructions on bench/lsp_relint.py's file), spent on declarations the
// walks then ignore, because they are in system headers.
//
// So, as clangd does for its ASTs (ParsedAST sets the traversal scope to the
// main file's declarations), the traversal scope (ASTContext::
// setTraversalScope, which RecursiveASTVisitor's TraverseDecl of the
// translation unit and the parent map follow) leaves out the top-level
// declarations that come from the preamble, lie in a system header, and hold
// nothing the walks take from a system header. What they take from one: a
// kernel (a CUB kernel the project launches is analyzed) and a launch (`<<<`
// in a system template may launch the project's kernel); calls, globals and
// functions there are skipped by each walk itself (inSystemOrPrelude), and
// instantiating a template adds no kernel or launch its pattern does not
// hold. Which system declarations hold one is found when the preamble is
// built, from its whole AST in memory, and stored with it
// (systemDeclsHoldingKernels); a declaration parsed now, not read from the
// preamble, is always kept. The walks see everything they used, in the same
// order: the findings are the same, byte for byte (tests/golden).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_TRAVERSALSCOPE_H
#define CUDA_ACCESS_LINT_FRONTEND_TRAVERSALSCOPE_H

#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace cal {

/// The top-level declarations of system headers under which a kernel or a
/// kernel launch is declared (in a template's pattern or an instantiation),
/// each as "<file>:<offset>" of its location, sorted. Called on the
/// preamble's AST when it is built.
std::vector<std::string> systemDeclsHoldingKernels(clang::ASTContext &Ctx);

/// Sets \p Ctx's traversal scope to its top-level declarations, in order,
/// less those read from the preamble that lie in a system header and are
/// not in \p Holders (sorted, systemDeclsHoldingKernels of that preamble).
void limitTraversalScope(clang::ASTContext &Ctx,
                         const std::vector<std::string> &Holders);

} // namespace cal

#endif

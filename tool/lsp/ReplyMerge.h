//===- ReplyMerge.h - clangd's replies with ours merged in ----------------===//
//
// The clangd proxy (ClangdProxy.h) answers some requests from clangd and from
// the linter at once: the client sees one reply. These build it from the two
// JSON results.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_REPLYMERGE_H
#define CUDA_ACCESS_LINT_TOOL_LSP_REPLYMERGE_H

#include "llvm/Support/JSON.h"

namespace cal::lsp {

/// clangd's `initialize` result with what the linter serves added: hovers,
/// inlay hints, and code actions of the kinds `quickfix` and
/// `refactor.rewrite` beside clangd's own kinds.
void addOurCapabilities(llvm::json::Object &InitializeResult);

/// A hover: ours alone when clangd has none, else our card after clangd's
/// text, in clangd's markup kind.
llvm::json::Value mergedHover(const llvm::json::Value &Theirs,
                              const llvm::json::Value &Ours);

/// Code actions or inlay hints: clangd's, then ours.
llvm::json::Value mergedArrays(const llvm::json::Value &Theirs,
                               const llvm::json::Value &Ours);

} // namespace cal::lsp

#endif

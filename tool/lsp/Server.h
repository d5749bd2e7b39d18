//===- Server.h - The language server: documents, requests, results -------===//
//
// The protocol thread (LLVM's JSONTransport and MessageHandler) hands each
// message to a Session (tool/lsp/Session.h), which keeps the documents,
// lints the current text on its worker a debounce interval after the last
// change and answers hover, inlay hints and code actions from the lint of
// the current text. Every message out goes through the MessageHandler,
// whose lock serializes the transport's writes from both threads.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_SERVER_H
#define CUDA_ACCESS_LINT_TOOL_LSP_SERVER_H

#include "frontend/Frontend.h"
#include "tool/Lint.h"

#include <cstdio>

namespace cal::lsp {

/// Serves LSP on \p In / \p Out until `exit` or the end of the input.
/// Returns the process's exit status: 0 after shutdown and exit, 1 when the
/// client exited (or went away) without shutdown, as the protocol says.
int serve(std::FILE *In, llvm::raw_ostream &Out, FrontendOptions Base,
          LintSettings Settings);

} // namespace cal::lsp

#endif

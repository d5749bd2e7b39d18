//===- Server.h - The language server: documents, requests, results -------===//
//
// The protocol thread (LLVM's JSONTransport) keeps each open document's
// text and version and answers requests; a LintWorker lints the current
// text a debounce interval after the last change. A lint's result is kept
// and published only while its version is the document's; requests that
// need the facts of the current text (hover, inlay hints, code actions)
// wait for its lint rather than answer from an older one, so an edit is
// never computed against text it was not computed for. Every message out
// goes through the MessageHandler, whose lock serializes the transport's
// writes from both threads.
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

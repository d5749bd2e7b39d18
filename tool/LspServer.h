//===- LspServer.h - cuda-access-lint --lsp -------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSPSERVER_H
#define CUDA_ACCESS_LINT_TOOL_LSPSERVER_H

#include "frontend/Frontend.h"
#include "tool/Lint.h"

namespace cal {

/// Serves the Language Server Protocol on stdin/stdout until the client
/// says exit (the exit status: 0 after shutdown, else 1). \p Base:
/// compile-command options (-p, --, --cuda-path ...).
int runLspServer(FrontendOptions Base, LintSettings Settings);

} // namespace cal

#endif

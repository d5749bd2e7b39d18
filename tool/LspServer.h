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

/// --clangd: clangd (\p ClangdPath; empty: clangd-22, else clangd) with
/// \p ClangdArgs, its session relayed on stdin/stdout and this tool's
/// answers merged in (tool/lsp/ClangdProxy.h).
int runClangdProxy(FrontendOptions Base, LintSettings Settings,
                   std::string ClangdPath, std::vector<std::string> ClangdArgs);

} // namespace cal

#endif

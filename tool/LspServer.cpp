//===- LspServer.cpp - cuda-access-lint --lsp -----------------------------===//
//
// A language server that runs beside clangd (clangd cannot load plugins):
// the findings of the editor's current text as diagnostics, linted a
// debounce interval after each change on a worker thread; the padding fix
// as a quick fix and the suggested rewrites as previews; the analyzer's
// facts at each access on hover and, when asked for, as inlay hints. The
// pieces live in tool/lsp/: Server (the protocol), Session (documents,
// lints and answers; the clangd proxy's too), LintWorker
// (debounce, the thread), DocumentLint (one lint as LSP records), Positions
// (UTF-8/16/32 columns); one diagnostic per place is report/Grouping's.
//
// JSON-RPC and the protocol types are LLVM's own (llvm/Support/LSP), as
// mlir-lsp-server uses them.
//
//===----------------------------------------------------------------------===//

#include "tool/LspServer.h"

#include "tool/lsp/ClangdProxy.h"
#include "tool/lsp/Server.h"

#include "llvm/Support/raw_ostream.h"

namespace cal {

int runLspServer(FrontendOptions Base, LintSettings Settings) {
  return lsp::serve(stdin, llvm::outs(), std::move(Base), std::move(Settings));
}

int runClangdProxy(FrontendOptions Base, LintSettings Settings,
                   std::string ClangdPath, std::vector<std::string> ClangdArgs) {
  lsp::ClangdProxyOptions O;
  O.ClangdPath = std::move(ClangdPath);
  O.ClangdArgs = std::move(ClangdArgs);
  return lsp::serveClangdProxy(stdin, llvm::outs(), std::move(Base),
                               std::move(Settings), std::move(O));
}

} // namespace cal

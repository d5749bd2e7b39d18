//===- ClangdProxy.h - clangd with this tool's findings in its session ----===//
//
// `cuda-access-lint --clangd` stands in for clangd's binary: it starts the
// real clangd (clangd-22, else clangd on PATH) on the translated compile
// database (--export-compile-commands's, so clangd parses nvcc projects: of
// -p, else of the workspace root or its build/, else of the first CUDA
// file opened, clangd then started again on it),
// relays the LSP session both ways unchanged, and merges this tool's
// answers into clangd's for CUDA documents:
//  - publishDiagnostics: clangd's and the findings of the lint of the
//    current text (source "cuda-access-lint", the rule id as code); clang's
//    errors are clangd's to report;
//  - codeAction and inlayHint: clangd's and ours; hover: our access card
//    after clangd's; initialize: both servers' capabilities.
// Our side is a Session (tool/lsp/Session.h) on its own worker; a request is
// answered with what clangd says and what the lint of the current text
// says, never waiting for a lint. When clangd exits before shutdown, the
// client is told (window/showMessage) and clangd is restarted (initialize
// and the open documents sent again), a few times at most. clangd dies with
// the proxy (PR_SET_PDEATHSIG), and exit is passed on and waited for.
//
// Framing is LLVM's (llvm/Support/LSP's JSONTransport and its input).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_CLANGDPROXY_H
#define CUDA_ACCESS_LINT_TOOL_LSP_CLANGDPROXY_H

#include "frontend/Frontend.h"
#include "tool/Lint.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>
#include <vector>

namespace cal::lsp {

struct ClangdProxyOptions {
  /// clangd's binary; empty: clangd-22, else clangd, on PATH.
  std::string ClangdPath;
  /// Passed to clangd after the options the proxy adds.
  std::vector<std::string> ClangdArgs;
  /// How many times clangd is started again after it exits unasked.
  unsigned MaxRestarts = 3;
};

/// The clangd binary \p O names, or the default one found on PATH; empty
/// when there is none.
std::string findClangd(const ClangdProxyOptions &O);

/// Relays LSP between \p In / \p Out and clangd until `exit` or the end of
/// the input. Returns the process's exit status (0 after shutdown and exit,
/// 1 otherwise, 3 when clangd cannot be found).
int serveClangdProxy(std::FILE *In, llvm::raw_ostream &Out,
                     FrontendOptions Base, LintSettings Settings,
                     ClangdProxyOptions O);

} // namespace cal::lsp

#endif

//===- clangd_main.cpp - cuda-access-clangd -------------------------------===//
//
// A clangd for editors: `cuda-access-lint --clangd -- <arguments>`, every
// argument clangd's (an editor's clangd.arguments), so the binary can be
// named wherever a clangd binary is (VS Code's clangd.path, eglot, lspconfig).
// This tool's own settings come from its configuration files.
//
//===----------------------------------------------------------------------===//

#include "tool/Driver.h"

#include <vector>

int main(int argc, const char **argv) {
  std::vector<const char *> Args = {argc > 0 ? argv[0] : "cuda-access-clangd",
                                    "--clangd", "--"};
  for (int I = 1; I < argc; ++I)
    Args.push_back(argv[I]);
  return cal::runDriver(static_cast<int>(Args.size()), Args.data());
}

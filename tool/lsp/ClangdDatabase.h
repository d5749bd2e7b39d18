//===- ClangdDatabase.h - The compilation database clangd is given --------===//
//
// The clangd proxy (ClangdProxy.h) finds a project's compile_commands.json
// where clangd would, and gives clangd a translation of it: each nvcc
// command as the clang command the linter parses with
// (frontend/CompileCommandsExport.h), so that clangd understands the CUDA
// files the way the linter does.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_CLANGDDATABASE_H
#define CUDA_ACCESS_LINT_TOOL_LSP_CLANGDDATABASE_H

#include "frontend/Frontend.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace cal::lsp {

/// \p Dir and \p Dir/build, those of them that hold a compile_commands.json,
/// in that order (as clangd looks in each directory above a file).
std::vector<std::string> databaseDirsAt(llvm::StringRef Dir);

/// The build directory of the workspace: `-p` when given, else the first
/// databaseDirsAt() of the `initialize` request's root (the current
/// directory without one); empty when there is none.
std::string rootDatabase(const FrontendOptions &Base,
                         const llvm::json::Object *InitParams);

/// The database of \p BuildDir translated for clangd, written under the
/// user's cache (one per build directory); std::nullopt, logged, when it
/// cannot be.
std::optional<std::string> translateDatabase(const FrontendOptions &Base,
                                             llvm::StringRef BuildDir);

} // namespace cal::lsp

#endif

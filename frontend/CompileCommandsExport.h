//===- CompileCommandsExport.h - A compile database clangd can read -------===//
//
// CMake's compile_commands.json for CUDA targets holds nvcc commands, on
// which clangd stops (`unknown argument: '--generate-code=...'`). This
// writes the database with each CUDA file's command translated as the tool
// translates it for its own parse (CompilerFlags: nvcc's flags to clang's,
// the arch it picks, the CUDA toolkit it finds), minus what only the tool's
// own parse needs (device side only, -fsyntax-only, its resource directory,
// the built-in prelude, -w); the other entries (C++ files) are kept as they
// are. Pointing clangd at the directory (--compile-commands-dir, or
// CompilationDatabase in .clangd) makes clangd parse nvcc projects.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_COMPILECOMMANDSEXPORT_H
#define CUDA_ACCESS_LINT_FRONTEND_COMPILECOMMANDSEXPORT_H

#include "frontend/Frontend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cal {

/// The command clangd should use, from the one the tool parses with.
std::vector<std::string>
clangdCommandFrom(llvm::ArrayRef<std::string> AnalysisCommand);

/// Writes \p OutDir/compile_commands.json (atomically; the directory is
/// created) for the files \p FE lints, keeping the non-CUDA entries of the
/// database at \p BuildPath (the -p directory; empty: none). Refuses to
/// overwrite the database it reads.
llvm::Error exportCompileCommands(Frontend &FE, llvm::StringRef BuildPath,
                                  llvm::StringRef OutDir);

} // namespace cal

#endif

//===- Launcher.h - --launcher: lint inside the build, then compile -------===//
//
//   set(CMAKE_CUDA_COMPILER_LAUNCHER cuda-access-lint;--launcher;ccache)
//
// CMake (or any build system with compiler launchers) runs
// `cuda-access-lint [options] --launcher [ccache] nvcc <flags> -c f.cu -o f.o`:
// the tool lints f.cu with that exact command (launchers before the
// compiler left out), prints the findings on stderr as a compiler prints
// warnings, then runs the whole command as given, so ccache, sccache or a
// distributed build still serves the compile. The build fails for the lint
// only under --warnings-as-errors.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LAUNCHER_H
#define CUDA_ACCESS_LINT_TOOL_LAUNCHER_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cal {

/// ccache, sccache, distcc, icecc, buildcache: they run the compiler given
/// after them.
bool isCompilerLauncher(llvm::StringRef Program);

/// The CUDA source a compile command compiles (a .cu, or a C++ file after
/// `-x cu`), if any.
std::optional<std::string> sourceOfCommand(const std::vector<std::string> &Cmd);

/// Runs the command as given; its exit status (127 when it cannot run).
int runCompiler(const std::vector<std::string> &Cmd);

} // namespace cal

#endif

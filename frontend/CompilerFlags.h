//===- CompilerFlags.h - nvcc/clang command lines to a device-side parse --===//
//
// A compile command, as a build database records it, names nvcc (what CMake
// writes for CUDA targets) or a clang/gcc-style driver. The analyzer needs one
// clang command line that parses the file device-side for one GPU arch. This
// translates instead of failing: nvcc-only flags become their clang spelling
// (-gencode/-arch -> the arch list, -Xcompiler a,b -> a b, -rdc=true ->
// -fgpu-rdc, --options-file F -> F's contents) or are dropped (code
// generation, ptxas, linking, diagnostics numbering), and what clang would not
// understand either is dropped with a note rather than made a parse error.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_COMPILERFLAGS_H
#define CUDA_ACCESS_LINT_FRONTEND_COMPILERFLAGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cal {

/// The flags of one compile command, translated for clang.
struct TranslatedFlags {
  /// Flags that clang's driver accepts, in their original order, without the
  /// compiler name, the input file, the output and the compile-mode flags
  /// (-c, -o, -M*), and without any arch selection.
  std::vector<std::string> Flags;
  /// GPU archs the command builds real code for, as "sm_XX", in order of
  /// appearance, without duplicates ("compute_XX" is mapped to "sm_XX").
  std::vector<std::string> Archs;
  /// Input files named on the command line.
  std::vector<std::string> Inputs;
  /// Flags that were dropped because neither nvcc's table here nor clang's
  /// driver knows them (what a user may want to be told about).
  std::vector<std::string> Unknown;
  /// True when the command names nvcc.
  bool IsNvcc = false;
};

/// True when \p Compiler (argv[0] of a compile command) is nvcc.
bool isNvcc(llvm::StringRef Compiler);

/// Translates \p CommandLine (argv[0] first) into flags for clang.
/// \p Directory is the command's working directory, used to find
/// --options-file files given with relative paths. Fails only when an options
/// file cannot be read or a flag is missing its value.
llvm::Expected<TranslatedFlags>
translateCompilerFlags(llvm::ArrayRef<std::string> CommandLine,
                       llvm::StringRef Directory);

/// Maps an nvcc arch spelling ("sm_90", "compute_90", "sm_90a", "90") to the
/// clang --offload-arch spelling ("sm_90", "sm_90a"); "" when it names no
/// single arch ("native", "all", "all-major").
std::string normalizeArch(llvm::StringRef Arch);

} // namespace cal

#endif

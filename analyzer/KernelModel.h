//===- KernelModel.h - The kernels of a translation unit and their blocks -===//
//
// Every __global__ function with a body, and every instantiation of a
// template kernel separately (the same line can be fine in one instantiation
// and wasteful in another). Each gets the block shape it runs with, from, in
// order of precedence:
//   1. the command line (--block-dim=[kernel=]X[,Y[,Z]]),
//   2. an annotation comment on or just above the kernel:
//        // cuda-access-lint: block-dim=16,16
//   3. launch sites in the same translation unit (k<<<grid, block, smem,
//      stream>>>, cudaLaunchKernel, cudaLaunchKernelEx), evaluated on the
//      host side (analyzer/HostLaunch.h: constants, dim3 values and struct
//      members, arrays, globals filled in a setup function, helpers, the
//      enclosing function's parameters from its calls, loop counters,
//      function pointers): one configuration per distinct shape, named with
//      the host scenario it came from,
//   4. __launch_bounds__(N): an N x 1 x 1 block, stated as an assumption,
//   5. a template argument named as a block size (BLOCK_SIZE, THREADS,
//      kBlockDim, ...): X = its value, stated as an assumption,
// else the default assumption: blockDim.x a multiple of 32, y and z unknown.
// The launches also say what the kernel's integer parameters are when every
// launch in the file passes the same constant for one (`permute<<<g,
// 256>>>(..., 32)`), or its own block size (`k<<<g, bs>>>(..., bs)`: the
// parameter is blockDim.x); both are stated with the shape. Integer
// parameters that stay unknown take the user's assumed value of that name
// (--assume M=4096, or sgemm:M=4096 for one kernel), stated.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_KERNELMODEL_H
#define CUDA_ACCESS_LINT_ANALYZER_KERNELMODEL_H

#include "analyzer/Assumption.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cal {

using Dim3 = std::array<int64_t, 3>;

/// --block-dim: Kernel empty = every kernel; a name without template
/// arguments matches all instantiations.
struct BlockDimSetting {
  std::string Kernel;
  Dim3 Dim = {1, 1, 1};
};

/// Parses "X[,Y[,Z]]" or "XxYxZ", optionally prefixed "kernel=".
std::optional<BlockDimSetting> parseBlockDimSetting(llvm::StringRef Text,
                                                    std::string &Error);

struct AssumedValue; // analyzer/HostLaunch.h

/// A value the user assumed (--assume) that a configuration uses.
struct AssumedUse {
  std::string Name;
  int64_t Value = 0;
  std::string Source; ///< where it was given: "--assume", the config file
  std::string Where;  ///< what it stands for: "parameter", "host code at f.cu:12"
};

struct BlockShape {
  std::optional<Dim3> Dim; ///< unknown: the default assumption
  /// The grid of the launch the shape came from, when it is constant.
  std::optional<Dim3> Grid;
  std::string Source; ///< where the shape comes from, for people
  /// Assumptions the shape itself rests on (and the parameters below).
  AssumptionList Assumptions;
  /// Integer parameters that every launch in the file passes the same
  /// constant for, with that constant.
  std::vector<std::pair<const clang::ParmVarDecl *, int64_t>> ConstParams;
  /// Integer parameters that every launch passes its block size (x) for
  /// (`k<<<g, block_size>>>(..., block_size)`): blockDim.x inside.
  std::vector<const clang::ParmVarDecl *> BlockDimXParams;
  /// Pointer parameters that every launch passes the same constant number
  /// of bytes past an allocation's start for (`k<<<g, b>>>(d_in + 3)`).
  std::vector<std::pair<const clang::ParmVarDecl *, int64_t>> PointerOffsets;
  /// The user's assumed values the configuration rests on.
  std::vector<AssumedUse> AssumedValues;
};

struct KernelConfig {
  const clang::FunctionDecl *Decl = nullptr; ///< the instantiation
  std::string Name;                          ///< "row_product<256, 16>"
  BlockShape Shape;
};

/// The kernels defined in files that \p Include accepts, one configuration
/// per (instantiation, block shape).
std::vector<KernelConfig>
findKernels(clang::ASTContext &Ctx,
            const std::vector<BlockDimSetting> &Settings,
            const std::function<bool(clang::SourceLocation)> &Include,
            const std::vector<AssumedValue> &Assumed);

/// "256", "16x16", "8x8x4".
std::string dimText(const Dim3 &D);

/// The kernel's name as reported: with template arguments for an
/// instantiation.
std::string kernelName(const clang::FunctionDecl *FD);

} // namespace cal

#endif

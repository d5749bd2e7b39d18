//===- FlopCount.h - Floating-point arithmetic a kernel's thread does -----===//
//
// The compute side of the cost model (CostModel.h): the floating-point
// operations one thread of a kernel executes, counted on the AST. Each
// statement counts once per iteration of the loops around it: the trip count
// the analyzer found for the loop (a loop with an access in it), else the
// loop's header when it is constant (`for (int i = 0; i < TM; ++i)` in an
// instantiation, `for (int off = 1; off < 256; off *= 2)`), else the loop is
// unknown and its body counts once (the count is then a lower bound:
// Complete is false). Calls of functions with a body are counted
// through (device functions nvcc inlines). Both branches of a condition count
// (an upper bound where they are exclusive).
//
// What is counted, by precision (float, double; half and bfloat16 arithmetic
// is through intrinsics and is not counted): `a * b + c`, `c + a * b`,
// `c - a * b`, `c += a * b` as one fused multiply-add (nvcc contracts them
// into FFMA / DFMA by default); other `*` `*=` as multiplies, `+ - += -=` as
// adds; divisions apart. Integer arithmetic (addresses, loop counters) is not
// counted.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_FLOPCOUNT_H
#define CUDA_ACCESS_LINT_ANALYZER_FLOPCOUNT_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace cal {

struct FlopCount {
  // Per thread, one launch.
  double Fma32 = 0, Mul32 = 0, Add32 = 0, Div32 = 0;
  double Fma64 = 0, Mul64 = 0, Add64 = 0, Div64 = 0;
  /// Array subscripts evaluated (`a[i]`, read or written, registers
  /// included): with the operations above, a measure of the code's size
  /// once its loops are unrolled.
  double Subscripts = 0;
  /// Every loop around a counted operation had a known trip count.
  bool Complete = true;
  std::vector<std::string> Unknown; ///< the loops without one (`for k`)

  /// Floating-point operations (an FMA is two), all precisions.
  double flops() const {
    return 2 * (Fma32 + Fma64) + Mul32 + Add32 + Div32 + Mul64 + Add64 + Div64;
  }
};

/// Counts the arithmetic of one thread of \p Kernel. \p Trips: the trip
/// counts the analyzer found, by loop statement.
FlopCount countFlops(const clang::FunctionDecl *Kernel,
                     const std::map<const clang::Stmt *, int64_t> &Trips);

/// The same for one statement \p S (a loop's body) of a function in \p Ctx.
FlopCount countFlopsIn(const clang::Stmt *S, clang::ASTContext &Ctx,
                       const std::map<const clang::Stmt *, int64_t> &Trips);

} // namespace cal

#endif

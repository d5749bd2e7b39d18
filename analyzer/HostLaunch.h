//===- HostLaunch.h - Launch configurations from a TU's host code --------===//
//
// What the host code of a translation unit says about a launch: which
// kernel it calls and the values of its grid, block and arguments, as far
// as the source allows (implemented in analyzer/interp/Host*.cpp, see
// interp/HostImpl.h):
//
//   - the enclosing function's statements before the launch: declarations,
//     assignments to locals, their members and array elements, branches
//     and switches whose condition is then known;
//   - global variables and arrays filled in setup functions
//     (`block[1][0] = dim3(4, 64);` in setDerivativeParameters()): the
//     values the one host function that assigns them leaves, stated;
//   - the enclosing function's parameters, from the arguments of every host
//     call of it the translation unit holds (`runTest(1)`, a helper called
//     with `dim3(16, 16)`), a few callers deep;
//   - the counters of loops around the launch with constant bounds
//     (`for (fp = 0; fp < 2; fp++) fpDeriv[fp]<<<grid[d][fp], ...>>>`);
//   - function pointers and tables of them (`fpDeriv[0] = derivative_y`);
//   - values the user assumed (--assume M=4096) for what stays unknown.
//
// Each combination of parameter values and loop counters is one scenario;
// each scenario that reaches the launch gives one outcome.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_HOSTLAUNCH_H
#define CUDA_ACCESS_LINT_ANALYZER_HOSTLAUNCH_H

#include "analyzer/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cal {

/// --assume NAME=VALUE: a runtime value the user gives, for every kernel
/// (Kernel empty) or one (a name without template arguments matches every
/// instantiation).
struct AssumedValue {
  std::string Kernel;
  std::string Name;
  int64_t Value = 0;
  std::string Source; ///< "--assume", "config file .cuda-access-lint.yaml"
};

/// Parses "M=4096,N=4096" or "sgemm:M=4096,K=512" (the kernel prefix applies
/// to each item after it); appends to \p Out.
bool parseAssumedValues(llvm::StringRef Text, const std::string &Source,
                        std::vector<AssumedValue> &Out, std::string &Error);

/// One way a launch runs.
struct HostOutcome {
  const clang::FunctionDecl *Callee = nullptr; ///< null: not resolved
  std::vector<AbsValue> Values;                ///< one per expression asked
  /// The scenario: "dimension = 1, fp = 0" (empty: none needed).
  std::string Bindings;
  /// What the values rest on: globals as a setup function leaves them,
  /// values assumed by the user.
  AssumptionList Notes;
  /// The user's assumed values that were used.
  std::vector<const AssumedValue *> Assumed;
};

class HostCode {
public:
  HostCode(clang::ASTContext &Ctx, const std::vector<AssumedValue> &Assumed);
  ~HostCode();

  /// A call in host code (a helper that launches, a runner called with
  /// constant sizes): where the enclosing function's arguments come from.
  void addCall(const clang::CallExpr *C, const clang::FunctionDecl *Enclosing);

  /// The outcomes of evaluating \p Exprs at \p At in \p Enclosing, and of
  /// resolving \p Callee (a function pointer expression; null: the kernel is
  /// \p Direct). \p Direct names the kernel whose assumed values apply
  /// before the callee is resolved.
  std::vector<HostOutcome> evaluate(const clang::FunctionDecl *Enclosing,
                                    const clang::Stmt *At,
                                    const clang::Expr *Callee,
                                    const clang::FunctionDecl *Direct,
                                    llvm::ArrayRef<const clang::Expr *> Exprs);

  struct Data;

private:
  std::unique_ptr<Data> D;
};

} // namespace cal

#endif

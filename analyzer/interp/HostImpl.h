//===- HostImpl.h - Host code at launch sites, private to interp/Host* ---===//
//
// The launch configurations' host code (analyzer/HostLaunch.h), in files by
// concern:
//
//   interp/HostExec.cpp       host statements to the launch: declarations,
//                             assignments, known branches and switches
//   interp/HostMemory.cpp     host memory: array elements, function
//                             pointers, globals and assumed values read;
//                             evalHostExpr
//   interp/HostGlobals.cpp    the globals: their initial values, the one
//                             host function that assigns each
//   interp/HostScenarios.cpp  a launch's scenarios: the enclosing
//                             function's parameters from its call sites,
//                             constant loops around it
//   interp/HostAssume.cpp     --assume NAME=VALUE parsing
//
// Only those files include this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_INTERP_HOSTIMPL_H
#define CUDA_ACCESS_LINT_ANALYZER_INTERP_HOSTIMPL_H

#include "analyzer/HostLaunch.h"
#include "analyzer/interp/InterpImpl.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cal {

/// What host statements stored: array elements and function pointers, the
/// globals as their setup function leaves them, the user's assumptions.
struct HostMemory {
  /// (array, byte offset, canonical type) -> value.
  std::map<std::tuple<const clang::ValueDecl *, int64_t, const void *>,
           AbsValue>
      Cells;
  /// Function pointers: (variable or array, byte offset) -> function.
  std::map<std::pair<const clang::ValueDecl *, int64_t>,
           const clang::FunctionDecl *>
      Fns;
  /// Arrays whose elements are not known (assigned at an unknown index,
  /// handed to a call).
  std::set<const clang::ValueDecl *> Poisoned;
  /// Global variables (not arrays) as the setup function leaves them.
  llvm::DenseMap<const clang::VarDecl *, AbsValue> GlobalVars;
  /// Globals: where their values come from, stated when one is read.
  std::map<const clang::ValueDecl *, Assumption> GlobalNotes;
  /// In the order they are first read, so that the notes come out in the
  /// same order on every run (not in the order of the pointers).
  llvm::SetVector<const clang::ValueDecl *> GlobalsRead;
  const std::vector<AssumedValue> *Assumed = nullptr;
  /// The kernel whose per-kernel assumptions apply (empty: global only).
  std::string Kernel;
  std::vector<const AssumedValue *> AssumedUsed;
  /// Loop counters bound by the scenario.
  llvm::DenseMap<const clang::VarDecl *, AbsValue> Scenario;
  bool Returned = false;
  bool Unreachable = false;
};

namespace host {

/// A global of host code: not a parameter, a static local or a device,
/// constant or shared variable.
bool isHostGlobal(const clang::VarDecl *VD);

/// \p E without full-expression wrappers and parentheses.
const clang::Expr *stripFull(const clang::Expr *E);

/// The variable an lvalue expression is rooted in: `a[i][j].x` -> a.
const clang::VarDecl *rootVar(const clang::Expr *E);

/// `a = e` or a trivial (defaulted) operator= of a class: LHS and RHS.
std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
plainAssignment(const clang::Expr *E);

/// Calls \p Fn with the variable each lvalue that \p S may write is rooted
/// in (null where none): assigned, incremented, its address taken, an array
/// decaying to a pointer (not as a subscript's base); with \p RefArguments,
/// also those handed to a non-const reference parameter of a call.
void forEachWritten(const clang::Stmt *S, bool RefArguments,
                    llvm::function_ref<void(const clang::VarDecl *)> Fn);

/// "4", "(16, 16, 1)", "{...}" or "?".
std::string valueText(const AbsValue &V);

/// A constant integer, or a struct all of whose fields are known.
bool knownValue(const AbsValue &V);

/// An interpreter's state for host code: no thread context (threadIdx etc.
/// are unknown symbols).
struct HostInterp {
  SymbolTable Syms;
  WarpInstance W;
  std::deque<MemRegion> Regions;
  std::vector<RawAccess> Out;
  HostMemory Mem;

  HostInterp();
};

/// Binds every local of \p Body declared once and never modified to its
/// initializer, in declaration order.
template <typename ImplT> void bindLocals(ImplT &I, const clang::Stmt *Body) {
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Modified;
  I.collectModified(Body, Modified);
  std::function<void(const clang::Stmt *)> Bind = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (auto *DS = llvm::dyn_cast<clang::DeclStmt>(S)) {
      for (const clang::Decl *D : DS->decls())
        if (auto *VD = llvm::dyn_cast<clang::VarDecl>(D))
          if (!Modified.count(VD) && VD->getInit() &&
              !VD->getType()->isReferenceType() &&
              !VD->getType()->isArrayType() && !I.Env.count(VD))
            I.Env[VD] = I.eval(VD->getInit());
      return;
    }
    if (llvm::isa<clang::Expr>(S))
      return;
    for (const clang::Stmt *C : S->children())
      Bind(C);
  };
  Bind(Body);
}

} // namespace host

struct HostCode::Data {
  clang::ASTContext &Ctx;
  const std::vector<AssumedValue> &Assumed;
  std::map<const clang::FunctionDecl *,
           std::vector<
               std::pair<const clang::CallExpr *, const clang::FunctionDecl *>>>
      Calls;
  bool GlobalsDone = false;
  HostMemory Globals;

  static constexpr unsigned MaxDepth = 3;
  static constexpr size_t MaxScenarios = 64;
  static constexpr size_t MaxCallSites = 16;
  static constexpr int64_t MaxLoopValues = 32;

  Data(clang::ASTContext &C, const std::vector<AssumedValue> &A)
      : Ctx(C), Assumed(A) {}

  bool isSystem(clang::SourceLocation Loc) const;

  //===--------------------------------------------------------------------===//
  // interp/HostGlobals.cpp
  //===--------------------------------------------------------------------===//

  /// The global variables that each host function may write.
  using WriterMap = std::map<const clang::VarDecl *,
                             std::vector<const clang::FunctionDecl *>>;

  /// The globals, as the one host function that assigns each leaves it.
  void computeGlobals();

  /// Globals: their initializers' values.
  void initialValues(llvm::ArrayRef<const clang::VarDecl *> Vars);

  /// Runs the writer \p FD once over its body, from \p Initial, and keeps
  /// what it leaves in each global it alone writes.
  void runWriter(const clang::FunctionDecl *FD, const HostMemory &Initial,
                 const WriterMap &Writers);

  /// A global several functions assign: which ran last is not known.
  void forgetGlobal(const clang::VarDecl *VD);

  /// \p VD as one writer leaves it: its memory \p After, its variables
  /// \p Env.
  void adoptGlobal(const clang::VarDecl *VD, const HostMemory &After,
                   const llvm::DenseMap<const clang::VarDecl *, AbsValue> &Env);

  //===--------------------------------------------------------------------===//
  // interp/HostScenarios.cpp
  //===--------------------------------------------------------------------===//

  /// A variable to enumerate, each value with its text for the scenario.
  struct Choice {
    const clang::VarDecl *VD;
    bool Param;
    std::vector<std::pair<AbsValue, std::string>> Values;
  };

  std::vector<HostOutcome>
  evaluate(const clang::FunctionDecl *Enclosing, const clang::Stmt *At,
           const clang::Expr *Callee, const clang::FunctionDecl *Direct,
           llvm::ArrayRef<const clang::Expr *> Exprs, unsigned Depth);

  /// The outcomes of a call's argument (parameterChoices): each is asked
  /// for every launch of the called function, its callers run each time.
  std::map<std::tuple<const clang::FunctionDecl *, const clang::Stmt *,
                      const clang::Expr *, unsigned>,
           std::vector<HostOutcome>>
      ArgumentOutcomes;

  /// The values of \p Enclosing's parameters in \p Deps, from its calls.
  void parameterChoices(const clang::FunctionDecl *Enclosing,
                        const std::set<const clang::VarDecl *> &Deps,
                        unsigned Depth, std::vector<Choice> &Choices);

  /// The counters in \p Deps of constant loops around \p At.
  void loopChoices(const clang::FunctionDecl *Enclosing, const clang::Stmt *At,
                   const std::set<const clang::VarDecl *> &Deps,
                   std::vector<Choice> &Choices);

  /// One scenario (value \p Pick[K] of each choice K): its outcome, none
  /// when it does not reach \p At.
  std::optional<HostOutcome>
  runScenario(const clang::FunctionDecl *Enclosing, const clang::Stmt *At,
              const clang::Expr *Callee, const clang::FunctionDecl *Direct,
              llvm::ArrayRef<const clang::Expr *> Exprs,
              const std::vector<Choice> &Choices,
              const std::vector<size_t> &Pick);
};

} // namespace cal

#endif

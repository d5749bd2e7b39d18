//===- LoopModel.h - What the interpreter knows of a loop -------*- C++ -*-===//
//
// Private to analyzer/interp/: a loop's parts, its shape (the counter, the
// variables that advance with it, the trip count) as LoopShape.cpp finds it
// once before the body is walked, and the state of the walk (Loops.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_INTERP_LOOPMODEL_H
#define CUDA_ACCESS_LINT_ANALYZER_INTERP_LOOPMODEL_H

#include "analyzer/Values.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cal {
namespace interp {

/// `v += e`, `v -= e`, `++v`, `v++`, `v = v + e`: the variable and the
/// increment expression (nullptr for +-1), with the sign.
struct LinearUpdate {
  const clang::VarDecl *VD = nullptr;
  const clang::Expr *Delta = nullptr;
  int Sign = 1;
};

/// A trip count's range over the lanes (and warps).
/// (Members initialized: GCC 12 otherwise warns that an optional pair's
/// fields may be used uninitialized.)
struct TripBounds {
  int64_t Min = 0, Max = 0;
};

/// A loop's trip count: exact when every lane (of every warp) runs the
/// loop as often; else, when known, its range over the lanes.
struct TripCount {
  std::optional<int64_t> Exact;
  std::optional<TripBounds> Range;
};

/// A loop statement's parts: for, while and do loops alike (a while or
/// do loop has no increment, a do loop no condition variable).
struct LoopParts {
  const clang::Stmt *Loop = nullptr;
  const clang::Expr *Cond = nullptr;
  const clang::Expr *Inc = nullptr;
  const clang::Stmt *Body = nullptr;
  const clang::DeclStmt *CondVar = nullptr;
  /// The statement around it that carries its attributes (`#pragma
  /// unroll`), when it has one.
  const clang::AttributedStmt *Attributes = nullptr;
};

/// What a loop's header and body say before the body is walked: what it
/// modifies, its counter and the variables that advance with it, its
/// trip count.
struct LoopShape {
  /// Variables the condition, body or increment modify.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> Modified;
  /// Variables the body modifies.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> BodyModified;
  /// The counter: advanced linearly by the increment only, an integer
  /// first, else a pointer (`for (; p < end; p += 256)`); its value on
  /// entry and its step.
  const clang::VarDecl *IV = nullptr;
  std::optional<AbsValue> IVStart, IVStep;
  /// The other variables the increment advances (`++k, p += 256`).
  std::vector<LinearUpdate> IncLinear;
  /// Linear updates at the top level of the body, each variable once
  /// (none when a `continue` may skip them).
  std::vector<LinearUpdate> BodyLinear;
  /// Without a counter in the increment: a while/do loop's counter,
  /// advanced once at the top level of the body, that the condition
  /// bounds (`while (c < n) { ...; ++c; }`).
  const clang::VarDecl *BodyCounter = nullptr;
  /// The counter's trip count (the body counter's when it has one).
  TripCount Trip;
};

/// A loop while its body is walked once with the iteration as a symbol.
struct LoopWalk {
  LoopShape Shape;
  /// The loop's symbol: the iteration count, or in the display walk the
  /// counter itself (DisplayVar).
  SymbolId Sym = 0;
  bool DisplayVar = false;
  /// What the other variables advance by: the iteration count.
  Poly KIter;
  /// The loop's trip count when exact (the counter's, or found by
  /// counting a geometric counter).
  std::optional<int64_t> Trip;
  /// The variable named as the loop's counter ("" when none).
  std::string VarName;
  /// The values on entry of the variables the loop modifies.
  std::vector<std::pair<const clang::VarDecl *, AbsValue>> Entry;
  /// The variables advanced linearly besides the counter, with their step.
  std::vector<std::pair<const clang::VarDecl *, AbsValue>> Linear;
  /// Integers updated other than linearly that stay the same for every
  /// lane (`cur = 1 - cur`).
  std::vector<const clang::VarDecl *> Uniform;

  AbsValue entryValue(const clang::VarDecl *VD) const;
};

/// `s *= 2`, `s = s / 2`, `s >>= 1`: a counter scaled by a constant in
/// the increment (not modified in the body).
struct GeometricUpdate {
  const clang::VarDecl *VD = nullptr;
  clang::BinaryOperatorKind Op = clang::BO_Comma;
  int64_t K = 0;
};

} // namespace interp
} // namespace cal

#endif

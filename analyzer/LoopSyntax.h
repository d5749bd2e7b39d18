//===- LoopSyntax.h - How a loop counter is written -------------*- C++ -*-===//
//
// The syntax of a counter's update, shared by the interpreter's loop model
// (analyzer/interp/LoopShape.cpp: linear and geometric counters) and the
// compiler's view of a trip count (analyzer/EmittedWidth.cpp: compilerTrip).
// What the operand's value is, is each caller's question.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_LOOPSYNTAX_H
#define CUDA_ACCESS_LINT_ANALYZER_LOOPSYNTAX_H

#include "clang/AST/Expr.h"

#include <optional>

namespace cal {

/// The variable \p E names (through parentheses and implicit casts), if it
/// names one.
const clang::VarDecl *namedVar(const clang::Expr *E);

/// `++v`, `v--` (Op BO_Add / BO_Sub, no operand), `v op= e` (Op the
/// compound assignment's operator: `v += e` is BO_Add), `v = v op e`, and
/// `v = e + v`.
struct CounterUpdate {
  const clang::VarDecl *VD = nullptr;
  clang::BinaryOperatorKind Op = clang::BO_Add;
  const clang::Expr *Operand = nullptr;
};
std::optional<CounterUpdate> counterUpdate(const clang::Stmt *S);

} // namespace cal

#endif

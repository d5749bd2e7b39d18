//===- Interpreter.h - Abstract interpretation of one kernel, one warp ----===//
//
// Walks a kernel's body once for one warp instance (which threadIdx each of
// the 32 lanes has), keeping every integer and pointer as a LaneVec, and
// records each memory access it meets: the array, the memory space, load or
// store, the bytes per lane, the 32 lanes' byte offsets and the loops around
// it.
//
// Loops are walked once, with the loop's iteration number as a symbol: the
// induction variable becomes Start + Step*k, variables advanced by a
// loop-invariant amount become v0 + delta*k, and anything else modified in
// the loop becomes unknown. Branches whose condition is known per lane narrow
// the active lanes; other branches are taken by the whole warp.
// User __device__ functions are inlined (bounded depth); functions from
// system headers are not (their reference arguments count as reads at the
// call).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_INTERPRETER_H
#define CUDA_ACCESS_LINT_ANALYZER_INTERPRETER_H

#include "analyzer/Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace cal {

enum class AccessKind { Load, Store, Atomic };
const char *accessKindName(AccessKind K);

/// Which threadIdx each lane has, and the block's dimensions.
struct WarpInstance {
  std::array<LaneVec, 3> Tid;
  std::array<Poly, 3> BlockDim;
  LaneMask Active = AllLanes;
  /// Share of the block's warps this instance stands for.
  double Weight = 1.0;
  /// The display instance: threadIdx, blockDim and loop variables are named
  /// symbols, only lane 0 matters; it yields the readable symbolic forms.
  bool Display = false;
  /// Symbols for the warp's position in the block: an inexact operation on
  /// them means the warps must be enumerated concretely.
  std::vector<SymbolId> WarpSymbols;
};

/// A loop around an access, as the access saw it.
struct LoopRef {
  const clang::Stmt *Loop = nullptr;
  /// The statement around it that carries its attributes (`#pragma
  /// unroll`), when it has one: its parent in the AST.
  const clang::AttributedStmt *Attributes = nullptr;
  /// The iteration-count symbol (metric instances) or the loop variable's
  /// symbol (display instance).
  SymbolId Sym = 0;
  std::string VarName;
  /// The trip count, when the same for every lane and the loop cannot be
  /// left early.
  std::optional<int64_t> Trip;
  /// Bounds on the trip count over the lanes (and warps), when known: the
  /// header's count for a loop that a break/return may leave early is an
  /// upper bound only.
  std::optional<int64_t> TripMin, TripMax;
  /// Lane-uniform symbols that stand for a variable's value in the current
  /// iteration (`cur = 1 - cur`): they change from one iteration to the
  /// next by an unknown amount.
  std::vector<SymbolId> Varying;
  /// Its iterations were evaluated one by one, and only the first ones (the
  /// trip count is unknown): no symbol stands for the iteration, so the
  /// addresses' move from one iteration to the next is not known.
  bool IterationsApart = false;
};

struct RawAccess {
  const clang::Expr *E = nullptr;
  /// Call sites of inlined functions, outermost first.
  std::vector<const clang::Expr *> CallStack;
  AccessKind Kind = AccessKind::Load;
  const MemRegion *Region = nullptr;
  std::string Array;    ///< base variable as written
  clang::QualType Type; ///< the type moved by one lane
  unsigned Bytes = 0;
  /// A struct copied in several instructions (pieces of its alignment, at
  /// most 16 bytes): this one's index and their count; Bytes is the piece.
  unsigned Piece = 0, Pieces = 1;
  /// Byte offsets from the region's base; unset when unknown.
  std::optional<LaneVec> Offset;
  std::string UnknownWhy;
  /// Assumptions the address rests on (from the values it was computed
  /// from).
  AssumptionList Assumptions;
  LaneMask Active = AllLanes;
  std::vector<LoopRef> Loops; ///< outermost first
  double Weight = 1.0;
  /// Display instance only: the index's source subexpression that makes
  /// adjacent lanes non-adjacent (e.g. `tx * V`), if found.
  const clang::Expr *StrideTerm = nullptr;
  /// For an element of an array whose rows are recorded (RowRecipes), the
  /// row it is in, per lane: padding each row by P elements moves the
  /// access by P * element size * Row bytes. Unset when not recorded.
  std::optional<LaneVec> Row;
};

/// Where the interpreter records the row of each element of some shared
/// arrays (analyzer/pipeline/RecordedRows.cpp decides which), so that a
/// padding of their rows can be priced from the walk without walking again.
/// For the outermost subscript of each element use, the index expressions
/// whose values, each times its factor, sum to the row:
///
///   a[i][j]       of float a[R][C]        row = i
///   a3[i][j][k]   of float a3[4][8][32]   row = 8*i + j
///   As[r * BM + c]  (a 1-D row layout)    row = r
struct RowRecipes {
  using Terms = llvm::SmallVector<std::pair<const clang::Expr *, int64_t>, 2>;
  llvm::DenseMap<const clang::ArraySubscriptExpr *, Terms> Rows;
  /// The arrays they subscript.
  llvm::SmallVector<const clang::VarDecl *, 4> Arrays;
};

class BudgetMeter;

class Interpreter {
public:
  Interpreter(clang::ASTContext &Ctx, SymbolTable &Syms,
              const WarpInstance &Warp, std::deque<MemRegion> &Regions,
              std::vector<RawAccess> &Out);
  ~Interpreter();

  /// Hypothetical padding: the innermost dimension of these arrays is taken
  /// as larger by the given number of elements (for the padding fix-it).
  void setPadding(const std::map<const clang::VarDecl *, int64_t> *Padding);
  /// Only the padded arrays' accesses matter (a padding search): loops that
  /// do not name them are not run iteration by iteration.
  void setOnlyPaddedArrays(bool Only);
  /// Hypothetical rewrites of the source: each key expression is evaluated
  /// as its value (built by the caller in the ASTContext, from the key's
  /// own subexpressions: `BM` as `BM + 4`, a column `c` as `c ^ (r % 8)`);
  /// inside its replacement the key is itself.
  void setRewrites(
      const std::map<const clang::Expr *, const clang::Expr *> *Rewrites);
  /// Record the rows of these subscripts in RawAccess::Row.
  void setRowRecipes(const RowRecipes *Recipes);
  /// The arrays of the row recipes that a loop run iteration by iteration
  /// does not name: a padding search's walk (setOnlyPaddedArrays) runs that
  /// loop symbolically, so the rows recorded here are not what it would see.
  const llvm::SmallPtrSetImpl<const clang::VarDecl *> &
  arraysMissedByIteratedLoops() const;
  /// Pointer parameters that start this many bytes past their allocation.
  void setPointerOffsets(
      const std::vector<std::pair<const clang::ParmVarDecl *, int64_t>>
          *Offsets);

  /// The launch's grid, when the configuration has one constant grid:
  /// gridDim is that size and blockIdx below it (a grid-stride loop's step
  /// and trip count are then known).
  void setGrid(const std::optional<std::array<int64_t, 3>> &Grid);

  /// Where clang reported errors in the translation unit (ParsedFile's
  /// ErrorLocs): statements it dropped there are not silently skipped.
  void setCompileErrors(const std::vector<clang::SourceLocation> *Errors);

  /// Ticks \p Meter while evaluating; once it is spent, stops (the accesses
  /// recorded so far stay, the rest of the body is not evaluated).
  void setBudget(BudgetMeter *Meter);

  /// Evaluates \p Kernel's body. Integer parameters become the symbols given
  /// in \p ParamSymbols (shared by every instance of one analysis).
  void run(const clang::FunctionDecl *Kernel,
           const llvm::DenseMap<const clang::ParmVarDecl *, AbsValue> &Params);

  /// The display walk's readable forms name `x % t` by a symbol R and
  /// `x / t` by a symbol Q; rewrites t*Q + R back into x where a form has
  /// both (`T*C*(idx / T) + C*(idx % T)` is `C*idx`).
  Poly simplifyDivMod(const Poly &P) const;

  /// True when an operation on the warp-position symbols could not be done
  /// exactly: the caller should enumerate the block's warps concretely.
  bool needsConcreteWarps() const;

  /// Evaluates a host-side expression with no thread context (launch
  /// configurations): constants, constexpr, locals initialized once, dim3.
  /// With \p At (the statement the expression is part of, a launch), the
  /// straight-line assignments before it in the enclosing function are
  /// followed too (`block_size = 32; k<<<g, block_size>>>`); a variable
  /// assigned in a branch or loop before it is unknown.
  static AbsValue evalHostExpr(clang::ASTContext &Ctx, const clang::Expr *E,
                               const clang::FunctionDecl *Enclosing,
                               const clang::Stmt *At = nullptr);

private:
  friend class HostCode;
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace cal

#endif

//===- InterpImpl.h - The interpreter's engine, private to analyzer/ -----===//
//
// struct Interpreter::Impl: one class, its state in one block, its methods
// defined in files by concern (as clang's ExprEngine is):
//
//   analyzer/Interpreter.cpp            the public interface, helpers
//   analyzer/interp/Expressions.cpp     rvalues: eval(), a visitor with one
//                                       transfer function per expression kind
//   analyzer/interp/Arithmetic.cpp      integer operators on lane vectors (the
//                                       pure part: analyzer/LaneArith.h)
//   analyzer/interp/Memory.cpp          lvalues, memory, access records
//   analyzer/interp/Calls.cpp           inlining, calls not inlined
//   analyzer/interp/CompileErrors.cpp   code that does not compile: clang's
//                                       recovery expressions, invalid
//                                       declarations, dropped statements
//   analyzer/interp/models/CudaBuiltins.cpp  threadIdx & co., memory
//                                       intrinsics
//   analyzer/interp/models/CooperativeGroups.cpp  cooperative groups as
//                                       values: ranks, sizes, partitions
//   analyzer/interp/Statements.cpp      statements, if, switch, return
//   analyzer/interp/LoopShape.cpp       a loop's counter, updates, trip count
//   analyzer/interp/Loops.cpp           loops in phases, symbolic or
//                                       iteration by iteration
//   analyzer/interp/Host*.cpp           host code at launch sites (their
//                                       own private header: HostImpl.h)
//
// Only those files include this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_INTERP_INTERPIMPL_H
#define CUDA_ACCESS_LINT_ANALYZER_INTERP_INTERPIMPL_H

#include "analyzer/Budget.h"
#include "analyzer/Interpreter.h"
#include "analyzer/LaneArith.h"
#include "analyzer/SourceText.h"
#include "analyzer/WarpModel.h"
#include "analyzer/interp/ImplTypes.h"
#include "analyzer/interp/LValue.h"
#include "analyzer/interp/LoopModel.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"
#include <numeric>
#include <set>

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cal {

struct HostMemory; // interp/HostImpl.h

struct Interpreter::Impl {
  using LValue = interp::LValue;
  using DiscardAccesses = interp::DiscardAccesses;

  //===--------------------------------------------------------------------===//
  // Types
  //===--------------------------------------------------------------------===//

  // The engine's own records (interp/ImplTypes.h).
  using Frame = interp::Frame;
  using DivModIdentity = interp::DivModIdentity;
  using Snapshot = interp::Snapshot;
  using RefMemberMap = interp::RefMemberMap;
  using DroppedStmt = interp::DroppedStmt;
  using CallBindings = interp::CallBindings;

  // The loop model's types (interp/LoopModel.h).
  using LinearUpdate = interp::LinearUpdate;
  using TripBounds = interp::TripBounds;
  using TripCount = interp::TripCount;
  using LoopParts = interp::LoopParts;
  using LoopShape = interp::LoopShape;
  using LoopWalk = interp::LoopWalk;
  using GeometricUpdate = interp::GeometricUpdate;

  //===--------------------------------------------------------------------===//
  // State
  //===--------------------------------------------------------------------===//

  clang::ASTContext &Ctx;
  SymbolTable &Syms;
  const WarpInstance &W;
  std::deque<MemRegion> &Regions;
  std::vector<RawAccess> &Out;
  llvm::DenseMap<const clang::VarDecl *, AbsValue> Env;
  llvm::DenseMap<const clang::VarDecl *, LValue> Refs;
  RefMemberMap RefMembers;
  llvm::DenseMap<const clang::ValueDecl *, const MemRegion *> RegionOf;
  LaneMask Active;
  std::vector<LoopRef> Loops;
  std::vector<const clang::Expr *> CallStack;
  std::vector<Frame> Frames;
  bool NeedConcrete = false;
  /// Branches on a condition not decided per lane (a comparison with the
  /// loop's counter, a loaded value, the block's position) that were taken
  /// as if every active lane ran both sides; what the accesses under them
  /// then rest on, stated with each.
  unsigned UndecidedConds = 0;
  /// Operators inside a loop that were not exact for every lane, with a
  /// lane-dependent operand (`(threadRow * TM) ^ ((k / 4) * 16)`): the
  /// loop's own counter may be what keeps them symbolic.
  unsigned InexactInLoop = 0;
  AssumptionList CondNotes;
  /// Branches not decided per lane around the statement being run: the
  /// active lanes are not known there (coalesced_threads()). Nor are they
  /// after such a branch that may leave (a return, a break), in the rest of
  /// the function: why not, then.
  unsigned UndecidedDepth = 0;
  std::string ActiveInexact;
  /// Loops evaluated iteration by iteration run at most this many times.
  static constexpr unsigned MaxConcreteIterations = 32;
  /// While > 0, results are not used for masks or addresses (loop
  /// conditions): an inexact comparison there needs no concrete warps.
  unsigned Unused = 0;
  std::map<std::string, SymbolId> Opaque;
  /// Display instance: the multiplications whose one side varies with the
  /// thread and whose other side is a constant other than 1.
  llvm::DenseMap<const clang::Expr *, int64_t> ThreadScaledMuls;
  static constexpr unsigned MaxInlineDepth = 8;
  const std::map<const clang::VarDecl *, int64_t> *Padding = nullptr;
  bool OnlyPadded = false;
  /// Hypothetical rewrites (Interpreter::setRewrites), and those being
  /// evaluated now (where the key stands for itself).
  const std::map<const clang::Expr *, const clang::Expr *> *Rewrites = nullptr;
  llvm::SmallPtrSet<const clang::Expr *, 4> RewritesActive;
  const std::vector<std::pair<const clang::ParmVarDecl *, int64_t>>
      *PointerOffsets = nullptr;
  /// The rows to record (Interpreter::setRowRecipes); the last value of
  /// each of their index expressions, kept as it is evaluated (unset again
  /// when the subscript they belong to is entered); the recipes' arrays
  /// that a loop run iteration by iteration does not name.
  const RowRecipes *Recipes = nullptr;
  llvm::DenseMap<const clang::Expr *, std::optional<LaneVec>> RowTermValues;
  llvm::SmallPtrSet<const clang::VarDecl *, 4> MissedByIteratedLoops;
  /// The launch's grid, when constant (Interpreter::setGrid).
  std::optional<std::array<int64_t, 3>> Grid;
  /// The kernel configuration's budget: once spent, nothing more is
  /// evaluated (statements are skipped, expressions are unknown).
  BudgetMeter *Budget = nullptr;
  std::vector<DivModIdentity> Identities;
  /// Evaluating an if statement's condition (a branch, not a value: a
  /// clamp `(i == 0) ? i : i - 1` keeps its own common-case rule).
  bool InIfCondition = false;
  /// The attributed statement being run (its sub-statement's attributes).
  const clang::AttributedStmt *AroundStmt = nullptr;
  /// Where clang reported errors (Interpreter::setCompileErrors), and the
  /// statements it dropped in each compound statement, found once.
  const std::vector<clang::SourceLocation> *CompileErrors = nullptr;
  llvm::DenseSet<clang::SourceLocation> ErrorAt;
  llvm::DenseMap<const clang::CompoundStmt *, std::vector<DroppedStmt>> Dropped;
  /// Host code (launch configurations, interp/HostImpl.h): what host
  /// statements stored in arrays, globals and function pointers, and the
  /// values the user assumed; null in kernels.
  HostMemory *Host = nullptr;

  Impl(clang::ASTContext &C, SymbolTable &S, const WarpInstance &Wi,
       std::deque<MemRegion> &R, std::vector<RawAccess> &O)
      : Ctx(C), Syms(S), W(Wi), Regions(R), Out(O), Active(Wi.Active) {}

  //===--------------------------------------------------------------------===//
  // Interpreter.cpp
  //===--------------------------------------------------------------------===//

  bool budgetSpent();

  std::string text(const clang::Expr *E) const;

  bool isSystem(clang::SourceLocation Loc) const;

  std::optional<int64_t> sizeOf(clang::QualType T) const;

  /// A symbol for a value the polynomials cannot express, the same for the
  /// same key. \p From are the polynomials it is a function of: when they
  /// move with an enclosing loop, so does the symbol (it is marked as
  /// changing from one iteration to the next by an unknown amount).
  SymbolId opaqueSymbol(const std::string &Key, const std::string &Name,
                        std::initializer_list<const Poly *> From = {});

  bool mentionsWarpSymbol(const Poly &P) const;

  bool mentionsWarpSymbol(const LaneVec &V) const;

  /// Interval of a polynomial's value from the symbols' ranges.
  std::optional<std::pair<int64_t, int64_t>> range(const Poly &P) const {
    return valueRange(P, Syms);
  }

  /// A value that does not depend on the lane but cannot be written as a
  /// polynomial: an opaque symbol, the same for the same inputs.
  AbsValue uniformOpaque(const std::string &Key, const clang::Expr *E,
                         std::initializer_list<const Poly *> From = {});

  Snapshot snapshot() const;

  void restore(const Snapshot &S);

  /// An integer that is the same for every lane (of any warp position).
  bool isUniformInt(const AbsValue &V) const;

  //===--------------------------------------------------------------------===//
  // interp/Arithmetic.cpp
  //===--------------------------------------------------------------------===//

  /// (S + c_L) / K and (S + c_L) % K when the lanes share a symbolic,
  /// warp-uniform part S whose coefficients are multiples of g, g divides
  /// K, and the lanes' constants c_L fall in one window [g*q, g*q + g):
  /// then S + g*q = K*D + g*O with D, O the same for every lane, and the
  /// lane's remainder is g*O + (c_L - g*q) < K. `x % W` with
  /// x = 32*blockIdx.x + lane is exact this way (non-negative values, as
  /// indices are).
  std::optional<std::pair<LaneVec, LaneVec>> divModSplit(const LaneVec &A,
                                                         int64_t K);

  /// `x / t` and `x % t` by a lane-uniform symbolic `t` (a runtime row
  /// length): q is a symbol, the same for the warp's lanes, and r is
  /// x - t*q exactly, so that `t*(x / t) + x % t` comes out as x (llm.c's
  /// `out + b*T*C + t*C` with b = idx / T, t = idx % T). When x differs
  /// between lanes, sharing q rests on an assumption, carried by the
  /// symbol: the warp's consecutive values do not straddle a multiple of t
  /// (t large, as runtime sizes are taken to be). The lanes' values must
  /// share their symbolic part (differ by constants).
  std::optional<AbsValue> divModSymbolic(const LaneVec &X, const LaneVec &Y,
                                         const clang::Expr *E, bool Rem);

  std::optional<LaneVec> divide(const LaneVec &A, int64_t K);

  std::optional<LaneVec> modulo(const LaneVec &A, int64_t K);

  AbsValue binaryInt(clang::BinaryOperatorKind Op, const AbsValue &A,
                     const AbsValue &B, const clang::Expr *E);

  AbsValue binaryIntImpl(clang::BinaryOperatorKind Op, const AbsValue &A,
                         const AbsValue &B, const clang::Expr *E);

  /// The arithmetic and bitwise operators, exact for every lane, or
  /// std::nullopt.
  std::optional<LaneVec> exactBinary(clang::BinaryOperatorKind Op,
                                     const LaneVec &X, const LaneVec &Y,
                                     const clang::Expr *E);

  /// `&&`, `||` lane by lane (one side may decide every lane alone).
  AbsValue logicalLanes(clang::BinaryOperatorKind Op, const LaneVec &X,
                        const LaneVec &Y);

  /// An operator not exact for every lane: a lane-uniform symbol when both
  /// sides are lane-uniform, else unknown (and the warp needs concrete
  /// instances when a warp symbol is involved).
  AbsValue inexactBinary(clang::BinaryOperatorKind Op, const LaneVec &X,
                         const LaneVec &Y, const clang::Expr *E);

  bool mentionsThread(const LaneVec &V) const;

  /// Whether a value changes with an enclosing loop's iteration (its
  /// symbol, or a value that moves with it).
  bool movesWithLoop(const LaneVec &V) const;

  std::optional<LaneVec> bitAnd(const LaneVec &X, const LaneVec &Y);

  /// Per-lane truth of a value (analyzer/LaneArith.h).
  std::optional<LaneMask> truth(const LaneVec &V) const { return laneTruth(V); }

  /// `y == 0` with y = 4*blockIdx.y + threadIdx.y: the lanes differ by
  /// known amounts but the part they share (the block's position, a runtime
  /// value) is not known. Equality holds, in the blocks where it holds at
  /// all, for one class of lanes that agree with each other; taken as the
  /// class of the first active lane, and stated.
  std::optional<AbsValue> equalityByLaneClass(clang::BinaryOperatorKind Op,
                                              const LaneVec &X,
                                              const LaneVec &Y);

  /// `i < n`, `i + 3 < n`, `i >= n` with i the thread's index and n a
  /// runtime value (or the block's position in i): a bound. The lanes are
  /// in range in every block but the grid's last: taken in that common case
  /// (true for `i < n`, false for `i >= n`), the same for every lane, and
  /// stated. Not for a comparison with a loop's counter or the block's size
  /// (`tx <= m`, `tid < blockDim.x / 2`: the lanes split), which stays
  /// undecided.
  std::optional<AbsValue> boundCommonCase(clang::BinaryOperatorKind Op,
                                          const LaneVec &X, const LaneVec &Y);

  AbsValue compare(clang::BinaryOperatorKind Op, const LaneVec &X,
                   const LaneVec &Y);

  //===--------------------------------------------------------------------===//
  // interp/Memory.cpp
  //===--------------------------------------------------------------------===//

  const MemRegion *regionFor(const clang::ValueDecl *D, MemSpace Space);

  /// A kernel parameter of struct type (`Params p`): its pointer fields
  /// point into global objects of their own (cudaMalloc'ed, 256-byte
  /// aligned, as pointer parameters are), its integer fields are symbols the
  /// same for the whole grid, nested structs likewise (bounded depth).
  AbsValue paramStruct(clang::QualType T, const std::string &Path,
                       unsigned Depth);

  /// The base variable of an access, as written.
  std::string arrayName(const clang::Expr *E) const;

  void record(AccessKind Kind, const LValue &LV, const clang::Expr *E,
              clang::QualType T, const clang::Expr *IndexHint = nullptr);

  /// The row of the element \p E accesses, from the values its subscript's
  /// recipe recorded (Interpreter::setRowRecipes); unset when none.
  std::optional<LaneVec> recordedRow(const clang::Expr *E) const;

  const clang::Expr *findStrideTerm(const clang::Expr *E) const;

  /// A pointer whose offset is no longer known keeps the object it points
  /// into: accesses through it are still recorded (with unknown addresses).
  static AbsValue unknownPointer(const AbsValue &Old, std::string Why);

  LValue memoryAt(const AbsValue &Ptr, clang::QualType T,
                  const std::string &Why);

  LValue evalLValue(const clang::Expr *E);

  /// The lvalue of a cast of an lvalue (no-op, derived-to-base, bit cast).
  LValue castLValue(const clang::CastExpr *CE);

  /// `a[i]`: the base pointer offset by the index.
  LValue subscriptLValue(const clang::ArraySubscriptExpr *A);

  /// `s.f`, `p->f`, and static members.
  LValue memberLValue(const clang::MemberExpr *M);

  /// The object of the member function being run, when \p E is `this`
  /// (through derived-to-base and no-op casts); null otherwise, or when the
  /// object is not known.
  const LValue *thisObject(const clang::Expr *E) const;

  /// The offset in bytes of the base-class subobject that declares \p Parent
  /// within an object of type \p Object (0 for the class itself or an
  /// unrelated type); std::nullopt through a virtual or ambiguous base.
  std::optional<int64_t> baseOffset(clang::QualType Object,
                                    const clang::RecordDecl *Parent) const;

  /// The lvalue of an expression already evaluated for its side effects.
  LValue evalLValueNoEffects(const clang::Expr *E);

  LValue lvalueOfVar(const clang::VarDecl *VD, const clang::Expr *At);

  LValue lvalueOfDecl(const clang::DeclRefExpr *D);

  /// The size of \p ElemT, a sub-array (or element) of the region's
  /// declared array, under the hypothetical padding of its innermost
  /// dimension.
  std::optional<int64_t> elementSize(clang::QualType ElemT, const MemRegion *R);

  LValue offsetBy(const AbsValue &Base, const AbsValue &Idx,
                  clang::QualType ElemT, const clang::Expr *IdxExpr);

  LValue fieldOf(const LValue &Base, const clang::FieldDecl *FD,
                 clang::QualType T);

  AbsValue readVar(const LValue &L);

  void writeVar(const LValue &L, AbsValue V);

  /// Reads an lvalue (recording a load when it is memory).
  AbsValue read(const LValue &L, const clang::Expr *AccessExpr,
                clang::QualType T);

  void write(const LValue &L, AbsValue V, const clang::Expr *AccessExpr,
             clang::QualType T, AccessKind Kind = AccessKind::Store);

  //===--------------------------------------------------------------------===//
  // interp/Expressions.cpp
  //===--------------------------------------------------------------------===//

  AbsValue constantOf(const clang::Expr *E);

  /// A temporary materialized from a prvalue (a call's struct), under
  /// parentheses and implicit casts.
  static bool isTemporary(const clang::Expr *E);

  AbsValue evalPseudo(const clang::PseudoObjectExpr *PO);

  AbsValue castValue(const clang::CastExpr *CE);

  /// An lvalue read (CK_LValueToRValue): a constant's value, the value of
  /// the side of `c ? a : b` each lane takes, or a load.
  AbsValue readValue(const clang::CastExpr *CE);

  /// An array decayed to a pointer to its first element.
  AbsValue decayArray(const clang::CastExpr *CE);

  /// A cast between integer types: the value when it fits, the low bits for
  /// an unsigned destination, else unknown.
  AbsValue integralCast(const clang::CastExpr *CE);

  AbsValue pointerArith(clang::BinaryOperatorKind Op, const AbsValue &Ptr,
                        const AbsValue &Int, clang::QualType Pointee);

  AbsValue evalBinary(const clang::BinaryOperator *B);

  AbsValue evalUnary(const clang::UnaryOperator *U);

  AbsValue evalConditional(const clang::AbstractConditionalOperator *C);

  /// `W = (i == 0) ? c : c - 1`: an equality between a thread's position
  /// (threadIdx, the warp's place, blockIdx) and a bound that holds only at
  /// the edge of the block or grid. Per lane where the ranges decide it;
  /// elsewhere it is taken in its common case (an equality false, an
  /// inequality true), which is stated with every access that uses the
  /// value. A condition of other values (a parameter switch) is no edge.
  std::optional<AbsValue> edgeConditional(const clang::Expr *CondE,
                                          const AbsValue &T, const AbsValue &F);

  /// Lane-wise selection: lanes in \p Mask take \p T, the others \p F.
  AbsValue select(LaneMask Mask, const AbsValue &T, const AbsValue &F);

  AbsValue evalConstruct(const clang::CXXConstructExpr *CE);

  /// The value of an expression (its accesses recorded): a visitor with
  /// one transfer function per expression kind (ExprTransfer).
  AbsValue eval(const clang::Expr *E);
  /// eval() past the hypothetical rewrites and the row recipes.
  AbsValue evalNode(const clang::Expr *E);
  struct ExprTransfer;

  /// An expression that contains code that does not compile (clang's
  /// recovery expressions): its parts that compiled evaluated, the value
  /// unknown with that reason when the error makes it so.
  AbsValue evalWithErrors(const clang::Expr *E);

  //===--------------------------------------------------------------------===//
  // interp/Calls.cpp
  //===--------------------------------------------------------------------===//

  void evalCallArgs(const clang::CallExpr *C);

  /// Runs a user's constructor (one with a body, not a copy or a move) on
  /// \p Object, a local variable being declared: its base and member
  /// initializers, then its body, as a member function runs on its object.
  /// False when it is not run (the caller evaluates the expression).
  bool runConstructor(const LValue &Object, const clang::CXXConstructExpr *CE);

  /// Inlines a call to a user function with a body. Returns false when the
  /// call is not inlined.
  bool inlineCall(const clang::CallExpr *C, bool WantLValue, AbsValue *Result,
                  LValue *LResult);

  /// A call's arguments evaluated for the callee's parameters, and the
  /// object of a member call (interp/ImplTypes.h).
  CallBindings bindArguments(const clang::CallExpr *C,
                             const clang::FunctionDecl *Def);

  /// The definition of \p FD when a call to it may be inlined (a user's
  /// function with a body, within the depth, not recursive); else null.
  const clang::FunctionDecl *inlinable(const clang::FunctionDecl *FD) const;

  /// Runs \p Body as the inlined \p Def, called at \p Site: its parameters
  /// and object bound for the time; the frame it leaves (its returns).
  Frame runInlined(const clang::FunctionDecl *Def, bool ReturnsRef,
                   CallBindings B, const clang::Expr *Site,
                   llvm::function_ref<void()> Body);

  /// Binds a parameter to its argument: a reference to the argument's
  /// lvalue (not a temporary's), else its value.
  void bindParameter(const clang::ParmVarDecl *PD, const clang::Expr *Arg,
                     CallBindings &B);

  /// What an inlined call returned: its value (the same on every return,
  /// else unknown) or the lvalue of a reference returned on one path.
  void returnedValue(const Frame &F, AbsValue *Result, LValue *LResult);

  AbsValue evalCall(const clang::CallExpr *C);

  /// `a = b`, `a += b` through an operator that is the built-in one (a
  /// system type's, trivial or defaulted): a write of `a` (and a read for
  /// the compound forms); std::nullopt for any other operator call.
  std::optional<AbsValue>
  assignmentOperatorCall(const clang::CXXOperatorCallExpr *OC);

  /// A conversion or other member of a system type called on an object in
  /// memory: a read of that object (a write too when not const).
  std::optional<AbsValue> systemMemberCall(const clang::CXXMemberCallExpr *MC);

  /// `min(n - 1, i)` and `max(0, i - 1)` that the lanes do not decide (a
  /// runtime size, a loop's counter): the index, in its common case, and
  /// stated; std::nullopt for any other min or max.
  std::optional<AbsValue> clampCommonCase(const clang::CallExpr *C, bool Max,
                                          const AbsValue &A, const AbsValue &B);

  /// min/max and __mul24 on integers.
  std::optional<AbsValue> integerBuiltin(const clang::CallExpr *C,
                                         llvm::StringRef Name);

  //===--------------------------------------------------------------------===//
  // interp/CompileErrors.cpp: code that does not compile
  //===--------------------------------------------------------------------===//

#include "analyzer/interp/CompileErrorsMembers.inc"

  //===--------------------------------------------------------------------===//
  // interp/models/*.cpp: CUDA's built-ins, cooperative groups
  //===--------------------------------------------------------------------===//

#include "analyzer/interp/models/ModelMembers.inc"

  //===--------------------------------------------------------------------===//
  // interp/Statements.cpp
  //===--------------------------------------------------------------------===//

  /// Variables a statement may modify.
  void collectModified(const clang::Stmt *S,
                       llvm::SmallPtrSetImpl<const clang::VarDecl *> &Out);

  bool alwaysReturns(const clang::Stmt *S) const;

  void execDecl(const clang::DeclStmt *DS);

  /// Two values of one variable (or member) after two paths: the same,
  /// per lane (\p TakeA), a symbol (a uniform branch), member by member
  /// for a struct, else unknown. \p Key names the merge's symbol.
  AbsValue mergedValue(const AbsValue &A, const AbsValue &B,
                       std::optional<LaneMask> TakeA,
                       const clang::Stmt *UniformBranch, const std::string &Key,
                       const std::string &Name);

  void mergeInto(llvm::DenseMap<const clang::VarDecl *, AbsValue> &A,
                 const llvm::DenseMap<const clang::VarDecl *, AbsValue> &B,
                 std::optional<LaneMask> TakeA,
                 const clang::Stmt *UniformBranch = nullptr);

  /// An if statement whose condition every lane shares and decides the
  /// same way: only the side taken is run. False when the lanes split.
  bool execIfDecided(const clang::IfStmt *If, LaneMask Taken,
                     size_t NotesBefore);

  void execIf(const clang::IfStmt *If);

  /// Whether \p E evaluates to the same value for every lane: constants,
  /// blockIdx/blockDim/gridDim, parameters and variables with lane-uniform
  /// values (or in \p U), combined by operators without side effects.
  bool uniformExpr(const clang::Expr *E,
                   const llvm::SmallPtrSetImpl<const clang::VarDecl *> &U);

  void exec(const clang::Stmt *S);

  /// `for (x : range)`: what the body modifies is unknown before and after.
  void execRangeFor(const clang::CXXForRangeStmt *F);

  /// A switch: every case walked; what the body assigns is unknown after.
  void execSwitch(const clang::SwitchStmt *Sw);

  /// A return: the value (or the lvalue returned by reference) kept for
  /// the inlined call's frame.
  void execReturn(const clang::ReturnStmt *R);

  //===--------------------------------------------------------------------===//
  // interp/LoopShape.cpp
  //===--------------------------------------------------------------------===//

  std::optional<LinearUpdate> linearUpdate(const clang::Stmt *S) const;

  /// Whether \p E mentions \p VD.
  static bool mentionsVar(const clang::Stmt *E, const clang::VarDecl *VD);

  /// A `continue` of this loop (not of a nested one).
  static bool continues(const clang::Stmt *S, bool Nested = false);

  /// A return or goto, or a break (with \p Continue, a continue too) of
  /// this loop, not of a nested loop or switch, in \p S.
  static bool exits(const clang::Stmt *S, bool Continue, bool InLoop = false,
                    bool InSwitch = false);

  /// A break, continue, return or goto that leaves this loop's iteration
  /// early.
  static bool jumpsOut(const clang::Stmt *S);

  /// A break, return or goto that leaves this loop before its header says
  /// (a `continue` only ends the iteration).
  static bool leavesEarly(const clang::Stmt *S);

  /// The increments of a for-loop's increment expression (`i++`, `i += s`,
  /// `i++, j += 2`).
  void incrementsOf(const clang::Expr *Inc,
                    std::vector<LinearUpdate> &Out) const;

  /// The delta of a linear update, evaluated now; std::nullopt if it uses a
  /// variable modified in the loop.
  std::optional<AbsValue>
  deltaOf(const LinearUpdate &U,
          const llvm::SmallPtrSetImpl<const clang::VarDecl *> &Modified);

  /// The loop's counter, the variables that advance with it and its trip
  /// count (execLoop's first phase).
  LoopShape loopShape(const LoopParts &L);

  /// Linear updates at the top level of \p Body, each variable once (none
  /// when a `continue` may skip them).
  std::vector<LinearUpdate> bodyLinearUpdates(const clang::Stmt *Body);

  /// The counter advanced by the increment, and the other variables it
  /// advances; its trip count.
  void findCounter(LoopShape &S, const LoopParts &L);

  /// A step's value, the same for every lane: a constant, or symbols whose
  /// ranges hold one value (the grid's size under a constant grid).
  std::optional<int64_t> knownStep(const AbsValue &D) const;

  /// Without a counter in the increment: a counter the body advances that
  /// the condition bounds, and its trip count.
  void findBodyCounter(LoopShape &S, const LoopParts &L);

  /// `iv <op> bound` or `bound <op> iv`: the comparison as `iv <op> bound`
  /// and the bound.
  static std::optional<
      std::pair<clang::BinaryOperatorKind, const clang::Expr *>>
  counterComparison(const clang::Expr *Cond, const clang::VarDecl *IV);
  /// `IV + Offset` (or `Offset + IV`, `IV - Offset`) compared with a bound
  /// that does not depend on IV: the comparison and the bound; \p Subtract
  /// says whether Offset is subtracted from the bound (for `+`).
  static std::optional<
      std::pair<clang::BinaryOperatorKind, const clang::Expr *>>
  offsetComparison(const clang::Expr *Cond, const clang::VarDecl *IV,
                   const clang::Expr *&Offset, bool &Subtract);

  /// Trip count of `for (iv = Start; iv <op> Bound; iv += Step)`.
  TripCount tripCount(const clang::Expr *Cond, const clang::VarDecl *IV,
                      const AbsValue &Start, int64_t Step);

  TripCount tripCountOf(clang::BinaryOperatorKind Op, const AbsValue &Start,
                        const AbsValue &Bound, int64_t Step);

  std::optional<GeometricUpdate> geometricUpdate(
      const clang::Expr *Inc,
      const llvm::SmallPtrSetImpl<const clang::VarDecl *> &BodyModified);

  /// `for (s = 1; s < N; s *= 2)`, `for (s = N / 2; s > 0; s >>= 1)`: a
  /// counter scaled by a constant in the increment, with constant start and
  /// bound: the trip count by counting (the reductions' and scans' loops).
  /// \p Start is the counter's value on entry.
  std::optional<std::pair<const clang::VarDecl *, int64_t>> geometricTrip(
      const LoopParts &L,
      const llvm::SmallPtrSetImpl<const clang::VarDecl *> &BodyModified,
      llvm::function_ref<AbsValue(const clang::VarDecl *)> Start);

  SymbolId loopSymbol(const std::string &Name, std::optional<int64_t> Trip,
                      SymbolKind Kind, int64_t Start = 0, int64_t Step = 1);

  //===--------------------------------------------------------------------===//
  // interp/Loops.cpp
  //===--------------------------------------------------------------------===//

  /// Runs a loop iteration by iteration when its condition is the same
  /// constant for every lane at each test (and it has no break, continue or
  /// return), at most MaxConcreteIterations times; the accesses of its body
  /// are recorded once per iteration (the analyzer averages their facts, as
  /// Nsight Compute averages over requests) and say so. Leaves the state as
  /// it was and returns false when it cannot.
  ///
  /// With \p CertainPrefix, a loop whose counter is scaled by a constant
  /// (`for (s = 1; s < blockDim.x; s *= 2)`) and whose bound, the same for
  /// every lane, stops deciding the condition is kept for the iterations
  /// that run whatever the bound is (at least the first: keepCertainPrefix).
  bool concreteIterations(const LoopParts &L, bool CertainPrefix = false);
  /// A loop was run iteration by iteration: the recorded arrays it does not
  /// name (Interpreter::arraysMissedByIteratedLoops).
  void noteIteratedLoop(const LoopParts &L);

  /// Whether \p Cond, the condition of \p L at a test, ends the certain
  /// iterations: unknown, the same for every lane, with \p G's counter
  /// known.
  bool certainPrefixEnds(const LoopParts &L, const GeometricUpdate &G,
                         const AbsValue &Cond);

  /// Keeps the iterations run so far (\p Values: the counter's value in
  /// each; none: the first is run now, as the one that runs whenever the
  /// loop does) and says so with each of their accesses, recorded from
  /// \p Mark; the loop stands around them with an unknown trip count, and
  /// what it modifies is unknown after it.
  void keepCertainPrefix(const LoopParts &L, const GeometricUpdate &G,
                         std::vector<int64_t> &Values, size_t Mark);

  /// A loop, in phases: its shape (counter, trip count), iteration by
  /// iteration when the counter is not linear, else one walk of the body
  /// with the iteration as a symbol (entry, the lane-uniform variables, the
  /// walk, iteration by iteration after all when the counter splits the
  /// lanes), then the variables' values after it.
  void execLoop(const clang::Stmt *Loop, const clang::Stmt *Init,
                const clang::Expr *Cond, const clang::Expr *Inc,
                const clang::Stmt *Body,
                const clang::DeclStmt *CondVar = nullptr);

  /// \p Start advanced \p By times by \p Delta (integers, or pointers by
  /// elements), with their assumptions.
  AbsValue advance(const AbsValue &Start, const AbsValue &Delta,
                   const Poly &By);

  /// The loop's symbol (and, in the display walk, the iteration's).
  void loopSymbols(LoopWalk &Wk);

  /// Everything modified in the loop is unknown on entry to the body,
  /// except what advances linearly with the iteration count.
  void enterBody(LoopWalk &Wk);

  /// The loop's record for the accesses in its body (trip count, counter's
  /// name), pushed on Loops.
  void pushLoopRef(const LoopParts &L, LoopWalk &Wk);

  /// Integers updated other than linearly (`cur = 1 - cur`, `s >>= 1`)
  /// that stay the same for every lane: a warp-uniform symbol each, fresh
  /// for the loop, when a trial walk of the body with them as symbols
  /// leaves every one of them lane-uniform (repeated until no candidate
  /// fails: a failing one is unknown, which is not uniform).
  void findUniform(const LoopParts &L, LoopWalk &Wk);

  /// One pass over the loop's condition, body and increment.
  void runIteration(const LoopParts &L);

  /// A branch in the body that the loop's counter decides per lane
  /// (`if (tx <= m)`): with a small constant trip count, the loop is run
  /// iteration by iteration instead, each with its own active lanes.
  /// Returns false (the symbolic walk's state kept) when it is not.
  bool iterateInstead(const LoopParts &L, const LoopWalk &Wk,
                      const Snapshot &BeforeLoop, unsigned UndecidedBefore);

  /// The variables the same for every lane through the loop: the uniform
  /// ones, and the counters that start and step uniformly.
  llvm::SmallPtrSet<const clang::VarDecl *, 8>
  uniformThroughLoop(const LoopWalk &Wk);

  /// The variables' values after the loop.
  void leaveLoop(const LoopParts &L, const LoopWalk &Wk);

  //===--------------------------------------------------------------------===//
  // interp/HostExec.cpp, interp/HostMemory.cpp
  //===--------------------------------------------------------------------===//

  /// Host code before a launch: walks the path from \p S to \p At,
  /// executing the straight-line statements before it (declarations,
  /// assignments to locals) and taking every variable that something else
  /// (a branch, a loop, a call through a pointer) may change as unknown.
  static bool containsStmt(const clang::Stmt *S, const clang::Stmt *At);

  void forgetModified(const clang::Stmt *S);

  void followTo(const clang::Stmt *S, const clang::Stmt *At);

  /// Runs a host statement as far as it is understood: declarations,
  /// assignments to variables, their members and array elements (stored in
  /// Host), branches and switches whose condition is known; anything else
  /// makes what it may change unknown.
  void hostExec(const clang::Stmt *S);

  /// `x = e`, `a[i][j] = e`, `s.m = e` (also a class's trivial operator=),
  /// `x += e`: false when \p E is none of them.
  bool hostAssign(const clang::Expr *E);

  void hostDecl(const clang::DeclStmt *DS);

  bool hostSwitch(const clang::SwitchStmt *S);

  /// Forgets what \p S may change: variables, and arrays it assigns or
  /// hands to a call.
  void hostForget(const clang::Stmt *S);

  /// A value of type \p T initialized by \p Init (an initializer list of a
  /// struct: its fields).
  AbsValue hostInitValue(clang::QualType T, const clang::Expr *Init);

  /// Stores \p Init's values into array \p D from byte \p Off.
  void hostInitArray(const clang::ValueDecl *D, int64_t Off, clang::QualType T,
                     const clang::Expr *Init);

  void hostStore(const clang::ValueDecl *D, int64_t Off, clang::QualType T,
                 const AbsValue &V);

  /// The function a function-pointer expression designates, when known.
  const clang::FunctionDecl *hostFunction(const clang::Expr *E);

  /// Host memory (Memory: an element of a host array) or a global / assumed
  /// variable (Var) that the environment does not know.
  AbsValue hostLoad(const LValue &L, clang::QualType T);
  std::optional<AbsValue> hostReadVar(const LValue &L);
};

} // namespace cal

#endif

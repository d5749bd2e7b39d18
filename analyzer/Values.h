//===- Values.h - Abstract values of the kernel interpreter ---------------===//
//
// The interpreter evaluates a kernel once per warp instance, for all 32 lanes
// at once. A value is a LaneVec: one Poly per lane, or one Poly shared by all
// lanes when the value does not depend on the lane (the common case, kept
// compact). Symbols (SymbolTable) stand for everything that is the same for
// the whole warp but unknown: blockIdx.x, a kernel parameter, a loop
// variable, the warp's position in the block.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_VALUES_H
#define CUDA_ACCESS_LINT_ANALYZER_VALUES_H

#include "analyzer/Assumption.h"
#include "analyzer/Poly.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cal {

constexpr unsigned WarpSize = 32;
using LaneMask = uint32_t;
constexpr LaneMask AllLanes = 0xffffffffu;

enum class SymbolKind {
  BlockIdx,  ///< blockIdx.x/y/z
  BlockDim,  ///< blockDim.x/y/z when the block shape is unknown
  GridDim,   ///< gridDim.x/y/z
  ThreadIdx, ///< threadIdx.x/y/z (only in the display instance)
  WarpPos,   ///< the warp's position in the block (lane-uniform part of tid)
  Param,     ///< an integer kernel parameter
  LoopVar,   ///< a loop variable with a lane-uniform constant start
  LoopIter,  ///< the iteration count of a loop
  Opaque,    ///< a lane-uniform value the interpreter cannot name otherwise
};

struct SymbolInfo {
  std::string Name;
  SymbolKind Kind;
  /// The symbol's value is known to be a multiple of Divisor (>= 1).
  int64_t Divisor = 1;
  /// Inclusive range, where known.
  std::optional<int64_t> Min, Max;
  /// For loop symbols: the values it takes are Start + Step*k, k < Trip.
  std::optional<int64_t> Start, Step, Trip;
  /// Print order in symbolic forms (lower first).
  int Rank = 50;
  /// An assumption the symbol stands for, stated with every fact using it.
  std::optional<cal::Assumption> Assumed;
};

class SymbolTable {
public:
  SymbolId add(SymbolInfo Info) {
    Syms.push_back(std::move(Info));
    return static_cast<SymbolId>(Syms.size() - 1);
  }
  const SymbolInfo &get(SymbolId S) const { return Syms[S]; }
  SymbolInfo &get(SymbolId S) { return Syms[S]; }
  size_t size() const { return Syms.size(); }
  std::string str(const Poly &P, int64_t FactorOut = 1) const;

private:
  std::vector<SymbolInfo> Syms;
};

/// One value per lane, or one for all lanes.
class LaneVec {
public:
  LaneVec() : V(1) {}
  /*implicit*/ LaneVec(Poly P) : V{std::move(P)} {}
  static LaneVec perLane(std::array<Poly, WarpSize> Lanes);

  bool isUniform() const { return V.size() == 1; }
  const Poly &lane(unsigned L) const { return V.size() == 1 ? V[0] : V[L]; }
  const Poly &uniform() const { return V[0]; }
  /// A constant shared by all lanes.
  std::optional<int64_t> asConstant() const {
    if (!isUniform())
      return std::nullopt;
    return V[0].asConstant();
  }
  bool operator==(const LaneVec &O) const;

  /// Applies \p F lane by lane (once when both are uniform).
  template <typename F>
  static std::optional<LaneVec> zip(const LaneVec &A, const LaneVec &B, F Fn) {
    if (A.isUniform() && B.isUniform()) {
      std::optional<Poly> R = Fn(A.uniform(), B.uniform());
      if (!R)
        return std::nullopt;
      return LaneVec(std::move(*R));
    }
    std::array<Poly, WarpSize> Out;
    for (unsigned L = 0; L < WarpSize; ++L) {
      std::optional<Poly> R = Fn(A.lane(L), B.lane(L));
      if (!R)
        return std::nullopt;
      Out[L] = std::move(*R);
    }
    return perLane(std::move(Out));
  }
  template <typename F> std::optional<LaneVec> map(F Fn) const {
    if (isUniform()) {
      std::optional<Poly> R = Fn(uniform());
      if (!R)
        return std::nullopt;
      return LaneVec(std::move(*R));
    }
    std::array<Poly, WarpSize> Out;
    for (unsigned L = 0; L < WarpSize; ++L) {
      std::optional<Poly> R = Fn(lane(L));
      if (!R)
        return std::nullopt;
      Out[L] = std::move(*R);
    }
    return perLane(std::move(Out));
  }

private:
  llvm::SmallVector<Poly, 1> V;
};

enum class MemSpace { Global, Shared, Constant, Local, Unknown };
const char *spaceName(MemSpace S);

/// The object a pointer points into.
struct MemRegion {
  MemSpace Space = MemSpace::Unknown;
  const clang::ValueDecl *Decl = nullptr; ///< parameter or variable
  std::string Name;                       ///< as declared
  /// The base address is a multiple of BaseAlign bytes.
  int64_t BaseAlign = 1;
  /// The alignment is assumed (cudaMalloc), not proven.
  bool AlignAssumed = false;
  /// For arrays declared in the kernel (shared), the declared type.
  clang::QualType DeclType;
};

struct GroupValue;

/// An abstract value: an integer, a pointer, a small struct, or unknown.
struct AbsValue {
  enum Kind { Unknown, Int, Pointer, Struct } K = Unknown;
  /// Int: the value. Pointer: the byte offset from the region's base.
  LaneVec Val;
  const MemRegion *Region = nullptr;
  /// Pointer: the type it points to.
  clang::QualType Pointee;
  /// Struct: field values (dim3, uint3, small local structs).
  std::shared_ptr<std::map<const clang::FieldDecl *, AbsValue>> Fields;
  /// Struct: a cooperative group (interp/models/CooperativeGroups.cpp).
  std::shared_ptr<const GroupValue> Group;
  /// Why the value is unknown (shown with --explain).
  std::string Why;
  /// Assumptions the value rests on (a per-lane condition taken in its
  /// common case ...): stated with every access whose address uses it.
  AssumptionList Assumed;

  /// Adds \p O's assumptions to this value's.
  AbsValue &assuming(const AbsValue &O) {
    addAssumptions(Assumed, O.Assumed);
    return *this;
  }

  static AbsValue unknown(std::string Why = "") {
    AbsValue V;
    V.Why = std::move(Why);
    return V;
  }
  static AbsValue integer(LaneVec Val) {
    AbsValue V;
    V.K = Int;
    V.Val = std::move(Val);
    return V;
  }
  static AbsValue pointer(const MemRegion *R, LaneVec Off, clang::QualType T) {
    AbsValue V;
    V.K = Pointer;
    V.Region = R;
    V.Val = std::move(Off);
    V.Pointee = T;
    return V;
  }
  bool isUnknown() const { return K == Unknown; }
  bool isInt() const { return K == Int; }
  bool isPointer() const { return K == Pointer; }
  bool sameAs(const AbsValue &O) const;
};

/// A cooperative group (cooperative_groups::thread_block, a tile of one, a
/// coalesced group, the grid): where it came from, from which its members
/// follow for the lane that asks (interp/models/CooperativeGroups.cpp). A
/// 32-thread tile of a 256-thread block: thread_rank() `tid % 32`, size()
/// 32, meta_group_rank() `tid / 32`, meta_group_size() 8.
struct GroupValue {
  enum Kind { Block, Tile, Coalesced, Grid } K = Block;
  /// Tile: the group it partitions and its size.
  std::shared_ptr<const GroupValue> Parent;
  int64_t TileSize = 0;
  /// Coalesced: the lanes active where it was made.
  LaneMask Lanes = AllLanes;
  /// Why its members are unknown (all of them), or only its place among
  /// its parent's partitions (meta_group_rank(), meta_group_size()).
  std::string Why, MetaWhy;

  bool operator==(const GroupValue &O) const;
};

} // namespace cal

#endif

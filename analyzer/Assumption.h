//===- Assumption.h - What a fact rests on, as a typed record -------------===//
//
// Every fact the analyzer states that it could not prove carries the
// assumptions it rests on: the block shape a hint gave, a parameter's value
// that the launch passes, a base alignment taken from cudaMalloc, a branch
// taken in its common case. Each is one record: its kind (what a rule or a
// test asks about), the name it is about (a parameter, an array, a loop's
// condition), and the sentence for people that output/ writes as it is:
//
//   Kind             Subject   Message
//   ParameterValue   d4        `d4` = 32: the launch at k.cu:52 passes it
//   BaseAlignment    in        `in` assumed 256-byte aligned (as cudaMalloc
//                              returns)
//   OffsetAlignment  s         alignment of `s` unknown; its offset assumed
//                              a multiple of 32 bytes
//
// Lists of them keep the order they were found in and each record once
// (equal kind, subject and message).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_ASSUMPTION_H
#define CUDA_ACCESS_LINT_ANALYZER_ASSUMPTION_H

#include <string>
#include <vector>

namespace cal {

struct Assumption {
  enum class Kind {
    // The launch configuration (kernels[].assumptions).
    /// A block shape taken from a hint: `__launch_bounds__(N)`, a template
    /// argument named as a block size.
    BlockShape,
    /// No shape known: blockDim.x taken as a multiple of 32.
    BlockShapeUnknown,
    /// An integer parameter that every launch passes the same constant for.
    ParameterValue,
    /// An integer parameter that every launch passes its block size for.
    ParameterBlockSize,
    /// A pointer parameter that every launch passes a constant number of
    /// bytes past an allocation's start.
    PointerOffset,
    /// A value the user gave (`--assume`, `Assume` in a configuration file),
    /// for a parameter or for a variable of the launch's host code.
    UserValue,
    /// A global the launch's host code reads, as its one setup function
    /// leaves it.
    HostGlobal,
    /// Only the block's first warp was evaluated (warps one by one, with no
    /// known block shape).
    FirstWarpOnly,

    // The address of an access.
    /// An array's base taken as aligned (256 bytes: as cudaMalloc returns).
    BaseAlignment,
    /// An array's base alignment not known: taken as 32-byte aligned.
    BaseAlignmentUnknown,
    /// A symbolic term of the offset whose alignment is not known (a runtime
    /// row pitch, a parameter): taken as a multiple of 32 bytes.
    OffsetAlignmentUnknown,
    /// Lanes a symbolic distance apart: the distance taken as large (each in
    /// its own sectors).
    LargeDistance,
    /// `x / t` taken as the same for every lane of a warp.
    WarpUniformQuotient,

    // Conditions.
    /// A condition the block's position or a runtime value decides as well
    /// as the lane: taken for the lanes that agree with the first active one.
    LaneClass,
    /// A bound the block's position or a runtime value decides: taken in its
    /// common case (in range).
    CommonCaseBound,
    /// A clamp the lanes do not decide, `min(n - 1, i)` against a runtime
    /// size or `max(0, i - 1)`: taken as its index (in range).
    CommonCaseClamp,
    /// An equality the lanes do not decide: taken as false (it holds only at
    /// the edge of the block or grid).
    EdgeCondition,
    /// A condition not decided per lane: every active lane taken through the
    /// branch.
    UndecidedBranch,

    // Loops.
    /// A loop evaluated iteration by iteration: the facts are averages.
    LoopIterations,
    /// A loop analyzed for its first, certain iterations only.
    LoopPrefix,
    /// A footprint taken over 32 iterations of a loop of unknown trip count.
    FootprintIterations,
    /// A loop of constant trip count with no pragma taken as fully unrolled.
    FullUnroll,
  };

  Kind K;
  /// What it is about, as written in the source: a parameter's or an
  /// array's name, a loop's or a branch's condition, the names of several
  /// terms ("`M`, `N`" without the quotes: "M, N"); empty when nothing.
  std::string Subject;
  /// The sentence for people, whole: what the outputs write.
  std::string Message;

  bool operator==(const Assumption &O) const {
    return K == O.K && Subject == O.Subject && Message == O.Message;
  }
  bool operator!=(const Assumption &O) const { return !(*this == O); }
};

using AssumptionList = std::vector<Assumption>;

/// Appends \p A to \p L unless an equal record is there.
void addAssumption(AssumptionList &L, Assumption A);
/// Appends each of \p From that \p L does not hold, in order.
void addAssumptions(AssumptionList &L, const AssumptionList &From);
/// Whether \p L holds a record of kind \p K.
bool hasAssumption(const AssumptionList &L, Assumption::Kind K);
/// The kind's name, for dumps and tests: "parameter-value".
const char *assumptionKindName(Assumption::Kind K);

} // namespace cal

#endif

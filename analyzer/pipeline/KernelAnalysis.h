//===- KernelAnalysis.h - One kernel configuration's analysis ---*- C++ -*-===//
//
// Private to analyzer/: the stages of analyze() for one kernel
// configuration (Analyzer.cpp runs them in order):
//
//   Analyzer.cpp             run(): parameters, the display walk, the metric
//                            walks, aggregation, each access's facts
//   pipeline/Instances.cpp   the warps walked: the display warp, one
//                            symbolic warp, or the block's warps one by one
//   pipeline/Measure.cpp     one access in one warp: lane offsets, the warp
//                            model over the base's residues, loops,
//                            footprint
//   pipeline/Siblings.cpp    field loads merged into one vector load;
//                            hand-unrolled runs and neighbours
//   pipeline/OrderFree.cpp   whether a loop's iterations may run in any order
//   pipeline/RecordedRows.cpp  the rows of shared arrays' elements, recorded
//                            in the walks; a padding's facts from them
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_PIPELINE_KERNELANALYSIS_H
#define CUDA_ACCESS_LINT_ANALYZER_PIPELINE_KERNELANALYSIS_H

#include "analyzer/Analyzer.h"
#include "analyzer/WarpModel.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>
#include <vector>

namespace cal {
namespace pipeline {

constexpr int64_t MaxEnumeratedIterations = 256;
constexpr size_t MaxResidueCombinations = 4096;
constexpr int64_t MaxFootprintIterations = 64;
constexpr int64_t MaxFootprintShifts = 1024;

using AccessKey = std::tuple<const clang::Expr *, AccessKind,
                             std::vector<const clang::Expr *>, unsigned>;

/// Both accesses are in the same iteration of the same loops.
inline bool sameLoops(const RawAccess &A, const RawAccess &B) {
  if (A.Loops.size() != B.Loops.size())
    return false;
  for (size_t I = 0; I < A.Loops.size(); ++I)
    if (A.Loops[I].Loop != B.Loops[I].Loop || A.Loops[I].Sym != B.Loops[I].Sym)
      return false;
  return true;
}

inline AccessKey keyOf(const RawAccess &A) {
  return {A.E, A.Kind, A.CallStack, A.Piece};
}

/// The metrics of one access in one warp instance.
struct InstanceMetrics {
  bool Known = false;
  std::string Why;
  double Sectors = 0, SectorsMin = 0, SectorsMax = 0;
  double Lines = 0, Partial = 0;
  double BytesUsed = 0;
  double Wavefronts = 0, IdealWavefronts = 0;
  bool HasBanks = false;
  unsigned AlignedCases = 0, MisalignedCases = 0, Cases = 0;
  bool ResidueExact = true;
  /// The inexact part of the run's start includes a computed or loaded
  /// value: assuming it a multiple of 32 bytes proves nothing.
  bool ResidueDataDependent = false;
  std::set<int64_t> MisalignValues;
  unsigned VecAligned = 0, VecMisaligned = 0;
  std::optional<std::array<int64_t, WarpSize>> LaneOffsets;
  std::optional<int64_t> LaneStride;
  unsigned Groups = 1;
  std::string LaneStrideText;
  std::optional<int64_t> Contiguous;
  std::optional<double> Footprint;
  std::optional<bool> RunStart16;
  unsigned RunModulus = 1;
  int64_t RunResidue = 0;
  /// The same with loop K and every loop inside it at their first
  /// iteration, for each enclosing loop K (RunModulusAt[K]; the innermost's
  /// is RunModulus): where a run that goes along loop K starts.
  std::vector<std::pair<unsigned, int64_t>> RunModulusAt;
  std::vector<LoopFact> Loops;
  AssumptionList Assumptions;
  /// The run's start is known up to one kernel parameter times a constant
  /// (per warp, where the walk stands for several), the rest aligned
  /// (offsetAlignment()): the parameter and the warps' shares (alignedIf()).
  struct ParamCondition {
    SymbolId Param;
    std::vector<AlignmentShare> Shares;
  };
  std::optional<ParamCondition> AlignedIfParam;
  unsigned ActiveLanes = 0;
  /// Warps of the block whose lanes compute the same addresses for this
  /// access at the same time (sameAddressWarps).
  double SameAddressWarps = 1;
};

struct ResidueCase {
  int64_t Residue;
  double Weight;
};

/// The values \p S takes modulo \p Mod, with their frequencies. Terms that
/// are not loop counters with known trip counts (a parameter times an odd
/// number, an opaque load) make the result inexact: they are taken as 0,
/// named in \p Unknown (and given in \p UnknownTerms).
std::vector<ResidueCase> residues(const Poly &S, const SymbolTable &Syms,
                                  int64_t Mod, bool &Exact,
                                  std::vector<std::string> &Unknown,
                                  bool *DataDependent = nullptr,
                                  std::vector<Poly::Term> *UnknownTerms =
                                      nullptr);

/// What an access's alignment rests on where it is known up to a kernel
/// parameter `s`: "alignment of `s` unknown; the run starts on a 32-byte
/// boundary only if `s % 8 == 0`, taken to hold".
Assumption offsetConditionAssumption(const std::string &Param,
                                     int64_t Modulus);

/// Whether a loop's iterations may run in any order: every variable from
/// outside the loop that it writes is only accumulated with a commutative
/// operator (+=, *=, min/max, ...) and read nowhere else in it, and it
/// stores nothing to memory except per-thread arrays (OrderFree.cpp).
bool isOrderFree(const clang::Stmt *Loop);

/// Loads of adjacent fields of one aligned struct or vector element in the
/// same iteration (`f[i].x + f[i].y + f[i].z + f[i].w` on a float4) are one
/// vector load to nvcc (ld.global.v4.f32): when the fields read cover a run
/// of 2, 4, 8 or 16 bytes that starts at a multiple of its size within the
/// element, and the element's alignment covers the run, with no store to the
/// same object between them, they become one access of that run, at the
/// first field read.
void mergeFieldLoads(clang::ASTContext &Ctx, std::vector<RawAccess> &Raw);

/// What one kernel configuration's analysis keeps so that a padding of a
/// shared array's rows is priced without walking the kernel again
/// (RecordedRows.cpp): the metric walks' accesses of the arrays whose rows
/// were recorded, each with its lanes' rows (RawAccess::Row), and what
/// their facts were computed with.
struct RecordedWalks {
  KernelConfig KC;
  SymbolTable Syms;
  /// Owns the regions the accesses point to.
  std::shared_ptr<std::deque<MemRegion>> Regions;
  /// Per metric walk, the recorded arrays' accesses in walk order, before
  /// field loads are merged; the walks' warps and weights.
  std::vector<std::vector<RawAccess>> Walks;
  std::vector<WarpInstance> Instances;
  std::vector<double> Weights;
  AssumptionList ShapeAssumptions;
  bool ConcreteWarps = false;
  RowRecipes Recipes;
  /// The arrays whose every access has its rows: a padding's facts are
  /// computed from them. The others, with why not.
  llvm::SmallPtrSet<const clang::VarDecl *, 4> Recorded;
  std::map<const clang::VarDecl *, std::string> NotRecorded;
  /// Of the recorded arrays, those that a loop run iteration by iteration
  /// does not name: a padding search's walk runs that loop symbolically, so
  /// it is not this walk. Their rows are recorded once in a walk of the
  /// search's own (padding 0), kept here, and the paddings priced from it.
  llvm::SmallPtrSet<const clang::VarDecl *, 4> NotTheSearchWalk;
  mutable std::map<const clang::VarDecl *,
                   std::shared_ptr<const RecordedWalks>>
      SearchWalks;
};

/// Which rows a walk of \p Kernel records: of each shared array of constant
/// size that it indexes only element by element (forEachArrayUse), with two
/// dimensions or more (the innermost dimension's rows), or one dimension
/// laid out as rows (findRowLayout); of \p Only alone when given.
RowRecipes rowRecipes(clang::ASTContext &Ctx, const clang::FunctionDecl *Kernel,
                      const clang::VarDecl *Only = nullptr);

class KernelAnalysis {
public:
  KernelAnalysis(clang::ASTContext &Ctx, const KernelConfig &KC,
                 size_t KernelIndex, AnalysisResult &Result,
                 const AnalysisOptions &Opts)
      : Ctx(Ctx), KC(KC), KernelIndex(KernelIndex), Result(Result), Opts(Opts),
        Meter(Opts.Budget) {}

  /// The stages, in order; the facts of every access appended to Result.
  void run();

  /// The facts of \p Array's accesses with its rows padded by \p Pad
  /// elements, from \p Rec's walks: the stages after the walks, on the
  /// recorded accesses moved by Pad * element size * row. As run() under
  /// AnalysisOptions::Padding (or the row stride's rewrite) would give them,
  /// where \p Rec records \p Array (RecordedWalks::Recorded).
  static AnalysisResult replayPadded(clang::ASTContext &Ctx,
                                     const KernelInfo &Kernel,
                                     const RecordedWalks &Rec,
                                     const clang::VarDecl *Array, int64_t Pad,
                                     bool FirstWarpOnly);

private:
  //===--------------------------------------------------------------------===//
  // Types
  //===--------------------------------------------------------------------===//

  struct PolyHash {
    size_t operator()(const Poly &P) const { return P.hash(); }
  };
  using PolySet = std::unordered_set<Poly, PolyHash>;
  struct Sibling {
    unsigned Run = 1;   ///< accesses in the hand-unrolled run
    unsigned Index = 0; ///< this one's position in it
    const clang::Expr *Neighbour = nullptr;
  };
  /// The metric walks: the warps walked, each walk's accesses, and its
  /// weight in the averages.
  struct MetricWalks {
    std::vector<std::vector<RawAccess>> Walks;
    std::vector<WarpInstance> Instances;
    std::vector<double> Weights;
  };
  /// One access's metrics in every walk.
  struct Aggregate {
    const RawAccess *First = nullptr;
    double Weight = 0;
    std::vector<std::pair<InstanceMetrics, double>> Parts;
    unsigned Run = 1;
    unsigned Index = 0;
    const clang::Expr *Neighbour = nullptr;
    /// Times a warp ran it outside the loops its facts name (a loop
    /// evaluated iteration by iteration records it once each), summed over
    /// the walks with their weights.
    double Occurrences = 0;
    /// Per part: the executions its record stands for, the trips of the
    /// loops it names multiplied (none when one has no trip count). A loop
    /// one warp walks with a symbol and another iteration by iteration
    /// (`(threadRow * TM) ^ ((k / 4) * 16)` is exact for warp 0 only)
    /// leaves parts that stand for different counts.
    std::vector<std::optional<double>> Executions;
    /// Whether the parts name different loops (see Executions).
    bool mixedLoops() const;
    /// Mixed parts weigh what they stand for: a part per iteration counts
    /// once, a part with the loop as a symbol as many times as its trips.
    void weighByExecutions();
  };
  /// An aggregate's metrics summed over the walks with their weights.
  struct PartSums {
    double W = 0, Sec = 0, Lines = 0, Partial = 0, Bytes = 0, Wave = 0,
           Ideal = 0, SameWarps = 0;
    unsigned Aligned = 0, Misaligned = 0, VecOk = 0, VecBad = 0;
    bool ResidueExact = true, HasBanks = true, DataDependent = false;
    std::set<int64_t> Mis;
    /// The parts' conditions on a parameter (InstanceMetrics::AlignedIfParam)
    /// together: CondOk while every part whose start is inexact has one, on
    /// the same parameter; their shares weighted by the parts' weights, a
    /// part with an exact start a share the parameter does not move.
    bool CondOk = true;
    std::optional<SymbolId> CondParam;
    std::vector<AlignmentShare> CondShares;
    std::optional<double> Foot;
  };

  //===--------------------------------------------------------------------===//
  // State
  //===--------------------------------------------------------------------===//

  clang::ASTContext &Ctx;
  const KernelConfig &KC;
  size_t KernelIndex;
  AnalysisResult &Result;
  const AnalysisOptions &Opts;
  SymbolTable Syms;
  llvm::DenseMap<const clang::ParmVarDecl *, AbsValue> Params;
  AssumptionList ShapeAssumptions;
  bool ConcreteWarps = false;
  BudgetMeter Meter;
  /// The display walk's interpreter (for its readable forms).
  std::unique_ptr<Interpreter> DisplayInterp;
  /// The warp instance whose walk is being measured.
  const WarpInstance *CurWarp = nullptr;
  /// Per access of the walk being measured: the lane-0 offsets of the
  /// accesses of the same array, kind and iteration whose lanes lie alike
  /// (a lane-uniform distance from it), the access's own included.
  std::vector<PolySet> UniformGroups;
  std::map<const RawAccess *, size_t> UniformGroupOf;
  /// isOrderFree() of each loop statement, asked once per loop (not once
  /// per access, loop and walk).
  std::map<const clang::Stmt *, bool> OrderFreeLoops;
  /// The rows the metric walks record (RecordedRows.cpp), and the arrays
  /// of them that a loop run iteration by iteration does not name.
  RowRecipes Recipes;
  llvm::SmallPtrSet<const clang::VarDecl *, 4> MissedByIteratedLoops;

  //===--------------------------------------------------------------------===//
  // Analyzer.cpp: the stages of run()
  //===--------------------------------------------------------------------===//

  /// Integer parameters as symbols; the constants every launch passes.
  void bindParameters();
  /// One symbolic warp, or (when an operation on the warp's position is
  /// not exact) the block's warps; false when the budget ran out (the
  /// kernel then stopped).
  bool metricWalks(const std::vector<RawAccess> &Display, MetricWalks &MW);
  /// Each access of each walk measured, by access (in \p Order, first seen
  /// first).
  std::map<AccessKey, Aggregate> aggregate(const MetricWalks &MW,
                                           std::vector<AccessKey> &Order);
  /// An access's facts from its metrics in every walk and, when the display
  /// walk saw it, \p Shown's readable form.
  AccessFacts factsOf(const Aggregate &G, const std::vector<double> &Weights,
                      const RawAccess *Shown);
  void tripBoundsOverWarps(const Aggregate &G, AccessFacts &F) const;
  PartSums sumParts(const Aggregate &G, AccessFacts &F) const;
  /// Lane offsets, stride and layout (when every walk agrees).
  void laneFacts(const Aggregate &G, AccessFacts &F) const;
  /// Sectors, lines and bytes per request; bank wavefronts.
  void requestFacts(const Aggregate &G, const PartSums &S,
                    AccessFacts &F) const;
  /// The parts' condition on a parameter (AccessFacts::AlignedIf), and the
  /// assumption that states it.
  void alignmentCondition(const PartSums &S, AccessFacts &F) const;
  /// Result.Accesses from \p First on (one configuration's): an array read
  /// at different multiples of a parameter by different accesses has it for
  /// a row pitch in each (AlignmentCondition::RowPitch).
  void rowsAcrossAccesses(size_t First);
  /// Proven alignment, or what the stated assumptions give.
  void alignmentFacts(const Aggregate &G, const PartSums &S,
                      AccessFacts &F) const;
  /// Per-thread contiguity, run starts, footprint.
  void contiguityFacts(const Aggregate &G, const PartSums &S,
                       AccessFacts &F) const;
  void executionsPerWarp(const Aggregate &G, const std::vector<double> &Weights,
                         AccessFacts &F, bool Mixed) const;
  /// The readable form of the offset and its warp-uniform part.
  void readableForm(const RawAccess &Shown, AccessFacts &F) const;
  /// The where-and-what of \p A's facts (no metrics).
  AccessFacts describe(const RawAccess &A) const;
  /// The budget is spent: the accesses the walks saw, with unknown
  /// addresses, and the kernel marked as stopped.
  void stop(const std::vector<std::vector<RawAccess>> &Walks);

  //===--------------------------------------------------------------------===//
  // pipeline/RecordedRows.cpp
  //===--------------------------------------------------------------------===//

  /// Whether the metric walks record rows (not in a padding search's own
  /// walks), and which.
  void planRowRecording();
  /// The recorded arrays' accesses of the metric walks (before field loads
  /// are merged), kept in the kernel's KernelInfo::Rows.
  void keepRecordedRows(const MetricWalks &MW);

  //===--------------------------------------------------------------------===//
  // pipeline/Instances.cpp
  //===--------------------------------------------------------------------===//

  WarpInstance displayInstance();
  std::optional<WarpInstance> symbolicInstance();
  std::vector<WarpInstance> concreteInstances();
  /// The parameters' values for one walk.
  llvm::DenseMap<const clang::ParmVarDecl *, AbsValue>
  paramsFor(const WarpInstance &W) const;
  void walk(const WarpInstance &W, std::vector<RawAccess> &Out,
            bool *NeedConcrete);

  //===--------------------------------------------------------------------===//
  // pipeline/Measure.cpp
  //===--------------------------------------------------------------------===//

  InstanceMetrics measure(const RawAccess &A);
  /// The warp's request: lane offsets from lane \p Ref, lanes a symbolic
  /// distance apart in groups of their own (the symbols in \p
  /// LargeSymbols); false (M.Why set) when there is none.
  bool laneRequest(const RawAccess &A, unsigned Ref, WarpRequest &Req,
                   std::set<std::string> &LargeSymbols, InstanceMetrics &M);
  /// What the address rests on: the values it was computed from, and the
  /// symbols it names that stand for an assumption.
  void addressAssumptions(const RawAccess &A, InstanceMetrics &M) const;
  /// One group: the lane offsets and stride; several: how they lie.
  void laneLayout(const RawAccess &A, const WarpRequest &Req,
                  const std::set<std::string> &LargeSymbols,
                  InstanceMetrics &M);
  /// The values the run's start takes modulo 32 bytes, with what the
  /// base's alignment rests on; the terms whose alignment is not known in
  /// \p Unknown (taken as 0).
  std::vector<ResidueCase> baseResidues(const RawAccess &A, const Poly &Base,
                                        InstanceMetrics &M,
                                        std::vector<Poly::Term> &Unknown);
  /// The warp model's cost, averaged over the residues.
  void requestCosts(const RawAccess &A, const WarpRequest &Req,
                    const std::vector<ResidueCase> &Cases, InstanceMetrics &M);
  /// What the terms \p Unknown of the run's start rest on: where they are
  /// one kernel parameter times a constant and the rest is aligned, the
  /// condition on the parameter (M.AlignedIfParam); stated as an assumption.
  void offsetAlignment(const RawAccess &A, const WarpRequest &Req,
                       const Poly &Base,
                       const std::vector<ResidueCase> &Cases,
                       const std::vector<Poly::Term> &Unknown,
                       InstanceMetrics &M);
  /// That condition, where there is one: the one unknown term a kernel
  /// parameter times a constant (per warp: or times the warp's position in
  /// the block), and every case of the rest aligned.
  std::optional<InstanceMetrics::ParamCondition>
  parameterCondition(const RawAccess &A, const WarpRequest &Req,
                     const Poly &Base, const std::vector<ResidueCase> &Cases,
                     const std::vector<Poly::Term> &Unknown,
                     const InstanceMetrics &M) const;
  void runStartAligned16(const RawAccess &A, const WarpRequest &Req,
                         const Poly &Base, InstanceMetrics &M);
  void runStartModulus(const RawAccess &A, const WarpRequest &Req,
                       const Poly &Base, InstanceMetrics &M);
  /// Of a global load in the symbolic walk: how many warps of the block
  /// compute the same lane addresses (the product of the ranges of the
  /// warp-position symbols the address does not name); 1 otherwise.
  double sameAddressWarps(const RawAccess &A) const;
  /// How the address moves per iteration of \p L.
  LoopFact loopFact(const RawAccess &A, const LoopRef &L);
  /// Bytes used over sectors fetched across the loop nest.
  void footprint(const RawAccess &A, const WarpRequest &Req, const Poly &Base,
                 const std::vector<ResidueCase> &Cases, InstanceMetrics &M);
  std::vector<int64_t> footprintShifts(const RawAccess &A,
                                       const std::vector<size_t> &Moving,
                                       InstanceMetrics &M);
  /// A loop stride that is symbolic but the same for every lane: when it is a
  /// positive multiple of the block's (and the grid's) sizes only -- a
  /// block-stride `i += blockDim.x` or a grid-stride `i += blockDim.x *
  /// gridDim.x` loop with an unknown block, or `i += 256 * gridDim.x` with a
  /// known one -- how many block-wide runs of the access it spans at most, and
  /// whether it is a whole number of 32-lane runs.
  void blockStride(const RawAccess &A, const Poly &Stride, LoopFact &F);
  /// The stride term \p T (in elements of \p Bytes) as block and grid
  /// sizes (`4*blockDim.x*gridDim.x`); std::nullopt when it names another
  /// symbol or a block size more often than the block has it.
  std::optional<std::string> blockSizeText(const Poly::Term &T, unsigned Bytes,
                                           const Monomial &ThreadSyms) const;
  /// Of a stride of several block-wide runs, how many accesses of the same
  /// iteration take (StrideCoveredRuns).
  void coveredRuns(const RawAccess &A, const Poly::Term &T,
                   int64_t ThreadsCoeff, LoopFact &F) const;
  /// How lanes a symbolic distance apart are laid out, for people: every
  /// adjacent pair the same symbolic distance (`C` elements: lanes on
  /// different rows), or runs of lanes a constant stride apart whose runs are
  /// a symbolic distance apart (16 lanes 32 bytes apart, the next 16 on the
  /// row `8*N` elements further).
  void describeLaneGroups(const RawAccess &A, const WarpRequest &Req,
                          InstanceMetrics &M);
  int64_t elementSizeOf(const RawAccess &A) const;

  //===--------------------------------------------------------------------===//
  // pipeline/Siblings.cpp
  //===--------------------------------------------------------------------===//

  /// An access of A's uniform group lies \p D (nonzero) bytes from it.
  bool hasUniformSibling(const RawAccess &A, const Poly &D) const;
  /// Accesses of one array in the same iteration whose lanes' addresses are
  /// exactly one access apart (x[4*i], x[4*i+1], ...): hand-unrolled runs;
  /// and, for each access, a neighbour in the same iteration a few bytes away
  /// (a stencil's in[i-1], in[i], in[i+1]).
  ///
  /// Two accesses are a lane-uniform distance apart exactly when their lanes
  /// lie alike relative to lane 0 (B(l) - B(0) == A(l) - A(0) for every lane
  /// l), and a constant distance apart when, besides, their lane-0 offsets
  /// differ only in the constant term. So the accesses are grouped by that
  /// shape and then by the symbolic part of lane 0, and each question is a
  /// look-up in its group: linear in the accesses, where comparing every pair
  /// was quadratic (thousands of accesses in a kernel took minutes and
  /// gigabytes).
  void linkSiblings(const std::vector<RawAccess> &Raw,
                    std::map<const RawAccess *, Sibling> &Out);
  struct SiblingIndex;
  /// The walk's accesses by shape and constant group; the uniform groups.
  void indexSiblings(const std::vector<RawAccess> &Raw, SiblingIndex &X);
  /// Access \p I's neighbour and hand-unrolled run.
  Sibling siblingOf(const std::vector<RawAccess> &Raw, size_t I,
                    SiblingIndex &X) const;
};

} // namespace pipeline
} // namespace cal

#endif

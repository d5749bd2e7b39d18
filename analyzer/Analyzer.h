//===- Analyzer.h - Facts about every memory access of a translation unit -===//
//
// The one thing rules/ and output/ read. For each kernel configuration
// (instantiation x block shape) and each memory access in it, AccessFacts
// holds what the warp model says, and what it assumed to say it:
//
//   X[row * N + tx * V + c]   (bf16, 256 threads, V = 16)
//     symbolic                  2*(4096*blockIdx.x + 16*threadIdx.x + c)
//     bytes_per_lane            2
//     lane stride               32 bytes
//     sectors_per_request       32      (each lane in its own sector)
//     sector_utilization        0.0625  (64 bytes used of 1024 fetched)
//     per_thread_contiguous     32      (c walks 16 elements)
//     footprint_utilization     1.0     (the loop uses every fetched byte)
//
// Facts that depend on an assumption (block shape, base alignment, a
// symbolic stride taken as large) carry it in Assumptions. Where the lanes'
// addresses are unknown (a gather through loaded indices), the metrics are
// absent and UnknownReason says why.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_ANALYZER_H
#define CUDA_ACCESS_LINT_ANALYZER_ANALYZER_H

#include "analyzer/Budget.h"
#include "analyzer/EmittedWidth.h"
#include "analyzer/Interpreter.h"
#include "analyzer/KernelModel.h"
#include "analyzer/HostLaunch.h"
#include "analyzer/Values.h"

#include "clang/AST/ASTContext.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cal {

struct KernelInfo;
namespace pipeline {
struct RecordedWalks;
} // namespace pipeline

struct AnalysisOptions {
  std::vector<BlockDimSetting> BlockDims;
  /// --assume: runtime values the user gives (kernel parameters, host
  /// variables of the launch configurations).
  std::vector<AssumedValue> Assumed;
  /// Which kernels to analyze, by the location of their definition.
  std::function<bool(clang::SourceLocation)> IncludeKernel;
  /// Asked before each kernel configuration is analyzed: false skips it
  /// (another translation unit of the run analyzes it).
  std::function<bool(const KernelInfo &)> ClaimKernel;
  /// Hypothetical padding of arrays' innermost dimension, in elements (what
  /// a padding fix would give).
  std::map<const clang::VarDecl *, int64_t> Padding;
  /// Facts only for the accesses of the arrays in Padding (what a padding
  /// search needs: the other accesses are unchanged by it).
  bool OnlyPaddedArrays = false;
  /// Hypothetical rewrites of index expressions (Interpreter::setRewrites):
  /// what a suggested layout would give, checked before it is offered
  /// (analyzer/LayoutSearch.h).
  std::map<const clang::Expr *, const clang::Expr *> Rewrites;
  /// Walk only the block's first warp when the warps are walked one by one
  /// (a quick test: a conflict there is a conflict of the block's average).
  bool FirstWarpOnly = false;
  /// Record, in each kernel configuration, the rows of the elements of its
  /// shared arrays (KernelInfo::Rows), so that a padding of their rows is
  /// priced without walking the kernel again (LayoutSearch.h, paddedFacts).
  bool RecordRows = true;
  /// What each kernel configuration's analysis may spend.
  AnalysisBudget Budget;
  /// Where clang reported errors in the translation unit: a statement it
  /// dropped there leaves what it may assign unknown
  /// (interp/CompileErrors.cpp).
  std::vector<clang::SourceLocation> CompileErrors;
};

struct KernelInfo {
  const clang::FunctionDecl *Decl = nullptr;
  std::string Name;
  BlockShape Shape;
  /// Warps evaluated one by one (an operation was not exact symbolically).
  bool ConcreteWarps = false;
  /// Set when the analysis did not finish: "budget exceeded (time: 5 s)".
  /// The accesses it saw are then reported with unknown addresses.
  std::string Stopped;
  /// The walks' accesses of its shared arrays with their rows, for a
  /// padding search (AnalysisOptions::RecordRows); null when none.
  std::shared_ptr<const pipeline::RecordedWalks> Rows;
};

enum class AlignmentFact { Aligned, Misaligned, Varies, Unknown };

/// Where the alignment of the warp's run rests on one kernel parameter times
/// a known constant (in each warp), the rest of its offset aligned: the run
/// starts on a 32-byte boundary iff Variable % Modulus == 0.
///
///   in[i + s]          floats, 256 threads    s % 8 == 0   (else 5 sectors
///                                                           per request, not 4)
///   in[i + 4 * s]      floats                 s % 2 == 0
///   in[i + s]          chars                  s % 32 == 0
///   in[y * p + x]      32 x 8, warp w on row  p % 8 == 0   (from the odd
///                      y = 8 * blockIdx.y + w                rows)
///
/// Over the block's warps, the strictest: the least common multiple of
/// their moduli (analyzer/WarpModel.h, alignedIf).
struct AlignmentCondition {
  std::string Variable;
  int64_t Modulus = 1;
  /// Sectors per request when it does not hold (averaged over the warps and
  /// iterations as SectorsPerRequest is): the fewest and the most over the
  /// values of Variable that fail it; equal when they all cost the same (5
  /// for a 128-byte run of floats).
  double SectorsIfNotMin = 0, SectorsIfNotMax = 0;
  /// No lane's address faults (is off a multiple of its size) iff Variable
  /// % VectorModulus == 0; 1: no value faults. A float4 from `in + s`:
  /// s % 4 == 0 (s % 8 == 0 aligns the run); SectorsIfNot* are over the
  /// failing values that do not fault.
  int64_t VectorModulus = 1;
  /// The block's warps start at different multiples of Variable (a runtime
  /// row pitch, the warps on different rows), or the kernel's accesses of
  /// the array do (rows read by different statements or inlined calls:
  /// `in[x]`, `in[x + w]`, `in[x + 2 * w]`), not all at the same (a shift).
  bool RowPitch = false;
  /// The bytes one unit of Variable moves the run's start by, over the
  /// access's instances (distinct, nonzero; `in[i + 4 * s]` over floats:
  /// 16).
  std::vector<int64_t> Multiples;
  /// "s % 8 == 0"
  std::string text() const;
};
std::string alignmentConditionText(const std::string &Variable,
                                   int64_t Modulus);

/// A loop around an access.
struct LoopFact {
  const clang::Stmt *Loop = nullptr;
  /// The statement around it that carries its `#pragma unroll`, if any
  /// (LoopRef::Attributes).
  const clang::AttributedStmt *Attributes = nullptr;
  std::string VarName;
  /// The trip count, when the same for every lane and the loop cannot be
  /// left early (a break or return makes the header's count a bound).
  std::optional<int64_t> Trip;
  /// Bounds on the trip count over the lanes, when known.
  std::optional<int64_t> TripMin, TripMax;
  /// Bytes this access's address moves per iteration (the same for every
  /// lane), when known.
  std::optional<int64_t> StrideBytes;
  /// A stride that is the same for every lane and a multiple of the block
  /// or grid size (`i += blockDim.x`, `i += blockDim.x * gridDim.x`, or a
  /// constant with a known block): at most this many block-wide runs of the
  /// access (stride / (bytes per lane x threads per block [x the grid sizes
  /// it names])); unset otherwise.
  std::optional<double> StrideBlockRuns;
  /// That stride is a whole number of 32-lane runs of the access (with an
  /// unknown block: under the assumption that blockDim.x is a multiple of
  /// 32).
  bool StrideWholeWarps = false;
  /// The stride as a readable form, when it is symbolic (`4*blockDim.x`).
  std::string StrideSymbolic;
  /// Of a stride of several block-wide runs (StrideBlockRuns > 1), how many
  /// of them accesses of the same array in the same iteration take (this
  /// one included: `x[i]` and `x[i + blockDim.x]` take 2).
  unsigned StrideCoveredRuns = 1;
  /// The iterations can run in any order: the loop only accumulates into
  /// scalars with commutative operators and stores nothing to memory.
  bool OrderFree = false;
};

/// The vector rewrite an access's pattern admits (analyzer/VectorRewrite.h).
enum class VectorForm {
  /// The thread's hand-unrolled neighbours (`in[i]`, `in[i + 1]` ...) become
  /// one 16-byte (8-byte) access at the same lanes.
  Run,
  /// A loop whose step the block's (or the grid's) threads fill: each lane
  /// takes 16 bytes per iteration, lanes 16 bytes apart, in 1/K of the
  /// iterations (K = 16 / element size).
  Striped,
  /// The same with a step of the warp's own run (`c = lane; c += 32`).
  WarpStride,
  /// A loop that copies rows far apart (a tile loaded 8 rows a step by a
  /// 32 x 8 block): K iterations' rows in one instruction, lanes 16 bytes
  /// apart within each row's run, in 1/K of the iterations.
  Tile,
  /// One element per thread outside any loop (an elementwise kernel): each
  /// thread takes K adjacent elements, the launch has K times fewer blocks.
  OnePerThread,
};
const char *vectorFormName(VectorForm F);

/// What the cost model predicts of an access rewritten with vector
/// accesses, together with the accesses the same rewrite changes (the other
/// accesses of the loop, or of the kernel, that move the same way).
struct VectorizedFacts {
  VectorForm Form = VectorForm::Run;
  unsigned BytesPerLane = 16; ///< of the rewritten access (8: a run of 8-15)
  /// The rewritten group, indices into AnalysisResult::Accesses in source
  /// order; Lead is where one finding for the group belongs.
  std::vector<size_t> Group;
  size_t Lead = 0;
  /// This access's requests per warp, before and after; unknown executions
  /// (a trip count): per execution of the loops around it.
  double RequestsBefore = 0, RequestsAfter = 0;
  bool ExecutionsKnown = false;
  double LinesAfter = 0, SectorsAfter = 0; ///< per request
  /// OnePerThread: the launch's blocks after the rewrite.
  std::optional<double> BlocksAfter;
  /// The kernel's predicted time, as it is and rewritten (seconds), when
  /// the prediction is complete; else what it misses.
  std::optional<double> TimeBefore, TimeAfter;
  std::vector<std::string> Missing;
  /// The prediction's regime (KernelPrediction::Regime): where the data fit
  /// in the L2 ("small data: ..."), the ranking the times give may not hold.
  std::string Regime;
  /// For people: how the loop's requests tile the data.
  std::string Why;

  /// TimeBefore / TimeAfter, when both are known.
  std::optional<double> gain() const {
    if (!TimeBefore || !TimeAfter || *TimeAfter <= 0)
      return std::nullopt;
    return *TimeBefore / *TimeAfter;
  }
};

struct AccessFacts {
  // Where and what.
  const clang::Expr *E = nullptr;
  std::vector<const clang::Expr *> CallStack;
  size_t Kernel = 0; ///< index into AnalysisResult::Kernels
  std::string Array;
  const MemRegion *Region = nullptr;
  MemSpace Space = MemSpace::Global;
  AccessKind Kind = AccessKind::Load;
  clang::QualType Type;
  /// Bytes one lane moves in this instruction: for a struct that nvcc
  /// copies in pieces (of its alignment, at most 16 bytes), one piece; the
  /// struct's pieces are separate accesses, Piece of Pieces.
  unsigned BytesPerLane = 0;
  unsigned Piece = 0, Pieces = 1;
  unsigned ActiveLanes = 0;
  LaneMask ActiveMask = 0;

  // The lanes' addresses.
  bool AddressKnown = false;
  std::string UnknownReason;
  /// Byte offset of each active lane from the lowest-numbered active lane,
  /// when all lanes are a constant distance apart.
  std::optional<std::array<int64_t, WarpSize>> LaneOffsets;
  /// The distance between adjacent lanes when it is the same for all.
  std::optional<int64_t> LaneStrideBytes;
  /// Lanes fall into this many groups a symbolic distance apart (1: all
  /// exact).
  unsigned LaneGroups = 1;
  /// With several groups, how the lanes lie, for people: "adjacent lanes
  /// are `C` elements apart (a runtime stride)", or "the lanes come in runs
  /// of 16, adjacent lanes 32 bytes (8 elements) apart within a run and each
  /// run `8*N` elements after the previous one"; empty when irregular.
  std::string LaneLayout;

  // Per instruction.
  std::optional<double> SectorsPerRequest;
  /// Distinct 128-byte lines per request (L1 tag lookups).
  std::optional<double> LinesPerRequest;
  /// Sectors a request covers only in part (for stores: merged in L2).
  std::optional<double> PartialSectorsPerRequest;
  /// Distinct bytes one request moves.
  std::optional<double> BytesPerRequest;
  /// Global loads: warps of the block whose lanes read the same addresses
  /// in the same iteration (the address does not depend on the warp's place
  /// in the block): the L1 fetches their sectors once for all of them.
  double SameAddressWarps = 1;
  unsigned SectorsMin = 0, SectorsMax = 0;
  std::optional<double> SectorUtilization;
  /// Sectors the same bytes would need if packed and aligned.
  std::optional<double> IdealSectors;
  AlignmentFact Alignment = AlignmentFact::Unknown;
  /// Offset of the warp's run past a 32-byte boundary, when the same in
  /// every case (for misaligned runs).
  std::optional<int64_t> MisalignBytes;
  /// When Alignment is unknown because a term's alignment is (a runtime row
  /// pitch): the alignment under the stated assumption that such terms are
  /// multiples of 32 bytes, and how far off a boundary the run then starts.
  AlignmentFact AssumedAlignment = AlignmentFact::Unknown;
  std::optional<int64_t> AssumedMisalignBytes;
  /// When Alignment is unknown because of one kernel parameter (`in[i +
  /// s]`) and the run is aligned when it is a multiple of 32 bytes: the
  /// condition on the parameter.
  std::optional<AlignmentCondition> AlignedIf;
  /// Every lane's address is a multiple of its access size (false: a
  /// vector access that faults).
  std::optional<bool> VectorAligned;
  std::optional<double> WavefrontsPerRequest;
  std::optional<double> IdealWavefronts;
  std::optional<double> BankConflictWays;

  // Across the innermost loop.
  std::vector<LoopFact> Loops; ///< outermost first
  std::optional<int64_t> PerThreadContiguousBytes;
  std::optional<double> FootprintUtilization;
  /// Other accesses of the same array, same iteration, that continue this
  /// lane's run (unrolled by hand): their count including this one.
  unsigned SiblingRun = 1;
  unsigned SiblingIndex = 0; ///< this access's place in that run
  /// A load of the same array in the same iteration less than a sector
  /// away (a stencil's neighbour): it shares this access's sectors.
  const clang::Expr *Neighbour = nullptr;
  /// At the innermost loop's first iteration, every lane's address is a
  /// multiple of 16 bytes (what a 16-byte vector load of the thread's run
  /// needs); unset when not known.
  std::optional<bool> RunStartAligned16;
  /// The element index of the warp-uniform part of the address
  /// (`4096*blockIdx.x`), for suggested code.
  std::string BaseElementIndex;

  // For people.
  std::string Symbolic;
  /// The index subexpression that spreads adjacent lanes apart (`tx * V`).
  const clang::Expr *StrideTerm = nullptr;
  AssumptionList Assumptions;
  /// Executions of this access per warp (product of known trip counts).
  std::optional<double> ExecutionsPerWarp;

  // The instruction ptxas emits for it (analyzer/EmittedWidth.h).
  /// Every lane's address at the innermost loop's first iteration is
  /// RunStartResidue modulo RunStartModulus (16, 8, 4, 2 or 1), with the
  /// array's base where ptxas puts it (shared arrays at 16 bytes).
  unsigned RunStartModulus = 1;
  int64_t RunStartResidue = 0;
  /// (modulus, residue) of the run's start at the first iteration of loop K
  /// of Loops and of every loop inside it, for each K; the same for every
  /// walk, else (1, 0). EmittedWidth reads it for a run along an enclosing
  /// loop.
  std::vector<std::pair<unsigned, int64_t>> RunStartModulusAt;
  EmittedWidth Emitted;

  // What the cost model predicts of it rewritten with vector accesses
  // (analyzer/VectorRewrite.h); unset where its pattern admits none.
  std::optional<VectorizedFacts> Vectorized;
};

struct AnalysisResult {
  std::vector<KernelInfo> Kernels;
  std::vector<AccessFacts> Accesses; ///< in source order
  /// Owns the regions the facts point to.
  std::shared_ptr<std::deque<MemRegion>> Regions;
  /// The paddings the rules priced over this result: from the recorded rows
  /// (paddedFacts), or by analyzing the kernel again (--time-phases).
  mutable unsigned PaddingsFromRows = 0, PaddingsReanalyzed = 0;
  /// The walks made to record rows for them (paddedFacts).
  mutable unsigned PaddingSearchWalks = 0;
};

AnalysisResult analyze(clang::ASTContext &Ctx, const AnalysisOptions &Opts);

/// The facts of one kernel configuration only (as analyze() reports it).
AnalysisResult analyzeKernel(clang::ASTContext &Ctx, const KernelInfo &Kernel,
                             const AnalysisOptions &Opts);

const char *alignmentName(AlignmentFact A);

} // namespace cal

#endif

//===- EmittedWidth.h - The instruction ptxas emits for an access -*- C++
//-*-===//
//
// The source says `regN[i] = Bs[dotIdx * BN + threadCol * TN + i]`, eight
// 4-byte loads per thread; ptxas emits two LDS.128. The GPU serves what was
// emitted: 16-byte accesses per quarter-warp, 8-byte per half-warp, so bank
// conflicts (and requests) are those of the merged instruction. The rule,
// learned from ptxas (nvcc 13, sm_90; docs/emitted-width.md, probes in
// validate/probes/emitted_width.cu):
//
//  - Shared memory, 4- and 8-byte elements: a thread's run of adjacent
//    elements is merged when the run is unrolled (an innermost loop with a
//    constant trip count that nvcc unrolls fully and that steps by one
//    element, or adjacent statements such as `.x .y .z .w`), into naturally
//    aligned pieces of at most 16 bytes, as far as the run's start modulo 16
//    is provable (the same for every lane, with the array at a 16-byte
//    boundary, where ptxas puts shared arrays): t*8 + i (floats) -> two
//    LDS.128; t*6 + i -> two LDS.64; t*5 + i or an unknown offset -> scalars.
//    A load run starting 4 bytes past a 16-byte boundary with 12 bytes left
//    is read as one 16-byte load of the aligned piece (the word before is
//    read too).
//  - 1- and 2-byte elements and global memory: not merged by ptxas (only a
//    pointer of known alignment, `__builtin_assume_aligned`, is merged, and
//    that already in the PTX). Other spaces: as written.
//
// computeEmittedWidths() sets AccessFacts::Emitted and, for merged shared
// accesses, recomputes wavefronts and conflict degree on the emitted
// instruction (the source-level figures stay in Emitted.Source*).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_EMITTEDWIDTH_H
#define CUDA_ACCESS_LINT_ANALYZER_EMITTEDWIDTH_H

#include "analyzer/Assumption.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class AttributedStmt;
class Stmt;
} // namespace clang

namespace cal {

struct AnalysisResult;
struct MemRegion;

struct EmittedWidth {
  /// Bytes per lane of the instruction this access is part of (0: not
  /// computed, the address is unknown).
  unsigned Bytes = 0;
  /// Its SASS opcode: LDS, LDS.64, LDS.128, STS..., LDG.E..., STG.E...
  std::string Opcode;
  /// The thread's run this access belongs to: source accesses (elements)
  /// and the instructions ptxas emits for them.
  unsigned RunAccesses = 1;
  unsigned RunInstructions = 1;
  /// The widths of those instructions, in order (bytes).
  std::vector<unsigned> RunWidths;
  /// For people: "8 loads merged into 2 LDS.128: the run starts 16-byte
  /// aligned", or why not merged.
  std::string Why;
  /// Whether it rests on an assumption (a loop taken as fully unrolled).
  std::optional<cal::Assumption> Assumed;
  /// The figures of the access as written, where merging changed them.
  std::optional<double> SourceWavefrontsPerRequest, SourceIdealWavefronts,
      SourceBankConflictWays;
};

/// The largest G in {16, 8, 4, 2, 1}, at most \p BaseAlign, for which every
/// address in \p Addrs has the same residue modulo G; and that residue.
std::pair<unsigned, int64_t> commonResidue(const std::vector<int64_t> &Addrs,
                                           int64_t BaseAlign);

/// The base alignment ptxas works with: shared arrays at 16 bytes (it lays
/// them out), other regions as declared or assumed.
int64_t ptxasBaseAlign(const MemRegion &R);

/// A loop's trip count as nvcc sees it: from the kernel's code alone (its
/// constants and template arguments), not from what the analyzer adds to it
/// (the launch's block and grid, the arguments' values at a launch site).
/// `for (i = tid; i < N; i += blockDim.x * gridDim.x)` has 8 trips under a
/// launch of 32 blocks of 256 threads for N = 65536; nvcc compiles one loop
/// for every launch, and its SASS has one LDG per iteration.
enum class CompilerTrip {
  /// Start, bound and step are constant expressions: nvcc knows the count.
  Constant,
  /// The step is constant, the start or the bound is not: nvcc counts the
  /// trips at run time (and may unroll by a factor, with a remainder).
  Runtime,
  /// The step is not constant (`i += blockDim.x * gridDim.x`): nvcc cannot
  /// count the trips, and does not unroll the loop.
  Uncounted,
  /// A header of another form (a while loop, several counters): not judged;
  /// the analyzer's trip count is taken for nvcc's.
  NotJudged,
};
CompilerTrip compilerTrip(const clang::ASTContext &Ctx,
                          const clang::Stmt *Loop);
const char *compilerTripName(CompilerTrip T);

/// How a loop is unrolled: the number of consecutive iterations in one
/// unrolled body (the trip count when fully unrolled; 1 when not), and the
/// assumption it rests on ("" when a pragma says so).
struct UnrollFact {
  int64_t Factor = 1;
  std::optional<cal::Assumption> Assumed;
  std::string Pragma; ///< "#pragma unroll", "#pragma unroll 1", ...
  /// The trip count as nvcc sees it (compilerTrip).
  CompilerTrip Trip = CompilerTrip::NotJudged;
};
/// \p Attributes: the statement around \p Loop that carries its attributes
/// (LoopFact::Attributes), where its `#pragma unroll` is.
UnrollFact unrollOf(clang::ASTContext &Ctx, const clang::Stmt *Loop,
                    std::optional<int64_t> Trip,
                    const clang::AttributedStmt *Attributes);

/// The pieces a run of \p RunBytes bytes starting at residue \p Residue
/// modulo \p Modulus is emitted as: (start relative to the run, width).
std::vector<std::pair<int64_t, unsigned>> splitRun(int64_t RunBytes,
                                                   unsigned ElemBytes,
                                                   unsigned Modulus,
                                                   int64_t Residue, bool Load);

void computeEmittedWidths(clang::ASTContext &Ctx, AnalysisResult &R);

} // namespace cal

#endif

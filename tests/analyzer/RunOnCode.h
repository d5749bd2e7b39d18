//===- RunOnCode.h - The analyzer in-process on a snippet -----------------===//
//
// Parses a CUDA snippet (on the built-in prelude, in memory), runs the
// analyzer over its kernels and keeps what a test asserts on, copied out
// of the AST while it is alive.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TESTS_ANALYZER_RUNONCODE_H
#define CUDA_ACCESS_LINT_TESTS_ANALYZER_RUNONCODE_H

#include "analyzer/Analyzer.h"
#include "analyzer/CostModel.h"
#include "frontend/Frontend.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace cal::test {

/// One access record, as the facts say (no AST pointers).
/// The options the tool analyzes a parsed file with: its own kernels (not
/// its headers'), and where clang reported errors.
AnalysisOptions mainFileOptions(const clang::ASTContext &Ctx,
                                const ParsedFile &Info);

struct SnippetAccess {
  std::string Kernel, Array;
  AccessKind Kind = AccessKind::Load;
  MemSpace Space = MemSpace::Global;
  unsigned Line = 0;
  unsigned BytesPerLane = 0, ActiveLanes = 0;
  bool AddressKnown = false;
  std::string UnknownReason, Symbolic;
  std::optional<std::array<int64_t, WarpSize>> LaneOffsets;
  std::optional<int64_t> LaneStrideBytes;
  std::optional<double> SectorsPerRequest, BankConflictWays,
      WavefrontsPerRequest, ExecutionsPerWarp;
  std::vector<LoopFact> Loops; ///< Loop pointers are dead: do not follow
  AssumptionList Assumptions;
  std::optional<AlignmentCondition> AlignedIf;
  double ExcessCost = 0; ///< accessExcessCost
  double SameAddressWarps = 1;
  std::optional<VectorizedFacts> Vectorized;
};

struct SnippetKernel {
  std::string Name;
  std::optional<Dim3> Block, Grid;
  KernelPrediction Prediction;
};

struct SnippetResult {
  bool Parsed = false;
  std::string Log; ///< the frontend's and clang's messages
  std::vector<SnippetKernel> Kernels;
  std::vector<SnippetAccess> Accesses;

  /// The accesses of \p Array (of \p Kind when given), in source order.
  std::vector<SnippetAccess>
  of(const std::string &Array,
     std::optional<AccessKind> Kind = std::nullopt) const;
  /// The one access of \p Array (of \p Kind); a test failure if there is
  /// not exactly one.
  SnippetAccess one(const std::string &Array,
                    std::optional<AccessKind> Kind = std::nullopt) const;
};

/// Runs the analyzer on \p Code (a .cu file's text; cuda_runtime.h is the
/// built-in prelude's), with \p Args after the defaults (-std=c++17).
SnippetResult runOnCode(const std::string &Code,
                        const std::vector<std::string> &Args = {});

} // namespace cal::test

#endif

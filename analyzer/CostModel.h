//===- CostModel.h - A kernel's predicted time from its accesses' facts ---===//
//
// What the measurements of DESIGN.md §3 and validate/ say the time of a
// memory-bound kernel on an H200 follows, in three budgets that overlap:
//
//   DRAM:  the bytes that must cross the memory bus. Each access moves its
//          requests x distinct bytes per request; where lanes leave holes
//          that no iteration fills (a gather of every other element), the
//          whole sectors cross (bytes / footprint utilization).
//   L1:    per request, one tag lookup per 128-byte line for global memory
//          (blocked bf16 at V = 16, 32, 64: 8, 16, 32 lines per request and
//          time in the same ratio), one cycle per wavefront for shared
//          memory, and an L2 merge for every sector a store only covers in
//          part (a naive transpose's scattered 4-byte stores).
//   issue: global requests themselves (2-byte striped loads run ~15% under
//          16-byte ones with the same bytes and lines).
//
//   time = (T_dram^5 + T_L1^5 + T_issue^5)^(1/5)
//
// a soft maximum: the budgets overlap, but not perfectly (an 8-way conflicted
// staging buffer costs more than its wavefronts alone when the load phase and
// the consume phase are separated by a barrier). The constants are the H200's:
// 4.25 TB/s is its measured copy bandwidth; the L1 rate (250 G units/s, about
// one per clock per SM at 1.9 GHz over 132 SMs), the request rate and the
// exponent were fitted to the validate/ run of 2026-11-29 (74 kernels), where
// tau stays at or above 0.82 from exponent 4 to 6 and rates within 10% (see
// validate/README.md). Memory-level parallelism (docs/cost-model.md): the
// DRAM bytes of the loads a warp has in flight before first use (unrolled
// loops, hand-unrolled siblings) x resident warps (threads, blocks, static
// shared memory, a register estimate, __launch_bounds__) over a 460 ns
// latency bound the read rate (Little's law), folded with the DRAM time by
// a soft maximum of exponent 2: both fitted to validate-mlp-probe's copy
// sweep of 2026-12-02 (28 points, rms log error 0.07). The prediction states its regime: the ranking holds
// when the data is well beyond the 60 MB L2 and there are more than twice as
// many blocks as SMs (the guide's regime table).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_COSTMODEL_H
#define CUDA_ACCESS_LINT_ANALYZER_COSTMODEL_H

#include "analyzer/Analyzer.h"

#include <string>
#include <vector>

namespace cal {

struct H200 {
  static constexpr double DramBytesPerSecond = 4.25e12;
  static constexpr double L1UnitsPerSecond = 2.5e11;
  static constexpr double RequestsPerSecond = 6.25e10;
  static constexpr double PartialStoreSectorWeight = 1.5;
  static constexpr double SectorWeight = 0.1;
  static constexpr double Overlap = 5.0; ///< the soft maximum's exponent
  static constexpr int SMs = 132;
  static constexpr double L2Bytes = 60e6;
  // Memory-level parallelism (docs/cost-model.md; validate-mlp-probe).
  static constexpr double LoadLatency = 460e-9; ///< seconds, Little's law
  static constexpr double LatencyOverlap = 2.0;
  static constexpr double MaxUnrolledLoads = 128;
  static constexpr double ThreadsPerSM = 2048, BlocksPerSM = 32;
  static constexpr double SharedBytesPerSM = 233472;
  static constexpr double SharedReservedPerBlock = 1024;
  static constexpr double RegistersPerSM = 65536, BaseRegisters = 16;
};

struct KernelPrediction {
  /// The whole kernel could be counted (grid, trip counts, addresses known).
  bool Complete = false;
  std::vector<std::string> Missing; ///< what kept it from being complete
  double Blocks = 0, WarpsPerBlock = 0;
  // Totals over the launch.
  double GlobalRequests = 0, GlobalLines = 0, GlobalSectors = 0;
  double PartialStoreSectors = 0, SharedRequests = 0, SharedWavefronts = 0;
  double DramBytes = 0;
  /// Bytes of DRAM loads one warp has in flight before it uses them, and the
  /// warps an SM holds at once.
  double BytesInFlightPerWarp = 0, ResidentWarpsPerSM = 0;
  // Seconds.
  double DramTime = 0, L1Time = 0, IssueTime = 0, LatencyTime = 0, Time = 0;
  std::string Regime;
};

KernelPrediction predictKernel(const AnalysisResult &R, size_t Kernel);

/// What one access costs a warp over what the same bytes would cost
/// coalesced and conflict-free, in the L1 budget's units (128-byte lines
/// looked up, sector weight, partial store sectors, shared wavefronts),
/// times its executions per warp (once when a trip count is unknown). What
/// review formats rank findings by; 0 when the addresses are unknown.
double accessExcessCost(const AccessFacts &F);

} // namespace cal

#endif

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
#include "analyzer/FlopCount.h"

#include <string>
#include <vector>

namespace cal {

struct H200 {
  static constexpr double DramBytesPerSecond = 4.25e12;
  static constexpr double L1UnitsPerSecond = 2.5e11;
  static constexpr double RequestsPerSecond = 6.25e10;
  /// L1 units per partial store sector (an L2 merge): 1.5 from the
  /// 2026-11-29 fit, 1.6 since store_blocked16<2> and store_blocked4<8>
  /// (validate/results/2026-12-02-h200-sgemm-store: 11-12% over 1.5).
  static constexpr double PartialStoreSectorWeight = 1.6;
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
  // Compute (docs/cost-model.md): 128 FP32 and 64 FP64 lanes per SM at the
  // 1.98 GHz boost clock the validate runs hold (nvidia-smi during timing).
  static constexpr double Clock = 1.98e9;
  static constexpr double Fp32LaneOpsPerSecond = SMs * 128 * Clock;
  static constexpr double Fp64LaneOpsPerSecond = SMs * 64 * Clock;
  /// FP32 issue and the L1 (shared wavefronts) share the warp schedulers'
  /// issue slots: they overlap less than the memory budgets. Exponent 2 fits
  /// the four register-tiled SGEMM kernels (blocktile2d, vectorized, pad,
  /// async: within 8%; 1.5 over-predicts them by 10-20%, 3 under-predicts
  /// by up to 9%) of validate/results/2026-12-02-h200-sgemm-store.
  static constexpr double ComputeOverlap = 2.0;
  /// DRAM moves 64-byte bursts: a sector whose neighbour in its burst no
  /// access touches costs the burst (store_strided<32>: one float per
  /// 128-byte line runs at the time of 64 bytes a sector each way, though
  /// the counters count 32).
  static constexpr double DramBurstBytes = 64;
  /// Blocks the SMs start and retire per second (store_contiguous: 2^20
  /// blocks of 256 threads, one store each, 634 us whatever the bytes).
  static constexpr double BlocksPerSecond = 1.65e9;
  static constexpr double LaunchOverhead = 2e-6; ///< seconds per launch
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
  /// Of the DRAM bytes: those of stores to sectors no access of the launch
  /// fills whole, which the L2 reads from DRAM before it writes them back.
  double StoreFillBytes = 0;
  /// Floating-point arithmetic over the launch (FlopCount.h: per thread x
  /// threads), and FLOP per DRAM byte.
  FlopCount Flops;
  double TotalFlops = 0, ArithmeticIntensity = 0;
  // Seconds.
  double DramTime = 0, L1Time = 0, IssueTime = 0, LatencyTime = 0;
  double SharedTime = 0;  ///< the shared wavefronts' part of L1Time
  double ComputeTime = 0; ///< FP32 and FP64 issue
  double BlockTime = 0;   ///< blocks started and retired
  double Time = 0;        ///< the soft maximum + the launch overhead
  /// The largest budget: "dram", "latency", "l1" (global lines, partial
  /// store sectors), "shared" (wavefronts), "fp32", "issue" (requests),
  /// "blocks"; empty when not complete.
  std::string Bound;
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

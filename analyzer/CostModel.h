//===- CostModel.h - A kernel's predicted time from its accesses' facts ---===//
//
// What the measurements of DESIGN.md §3 and validate/ say the time of a
// memory-bound kernel on an H200 follows, in budgets that overlap:
//
//   DRAM:  the bytes that must cross the memory bus. Each access moves its
//          requests x distinct bytes per request; where lanes leave holes
//          that no iteration fills (a gather of every other element), the
//          whole sectors cross (bytes / footprint utilization). The L1
//          serves what a warp's earlier iterations fetched, and what the
//          other warps of its block fetch in the same iteration (an address
//          the same in every warp: AccessFacts::SameAddressWarps).
//   L1:    per request, one tag lookup per 128-byte line for global memory
//          (blocked bf16 at V = 16, 32, 64: 8, 16, 32 lines per request and
//          time in the same ratio), one cycle per wavefront for shared
//          memory.
//   L2:    stores: a write request per line a warp's store writes, and a
//          merge for every sector a store only covers in part (a naive
//          transpose's scattered 4-byte stores).
//   issue: requests that leave the SM: loads that need a sector the L1 does
//          not hold, and stores (2-byte striped loads run ~15% under
//          16-byte ones with the same bytes and lines).
//
//   time = (T_dram^E + T_L1^E + T_L2^E + T_issue^E + ...)^(1/E)
//
// a soft maximum: the budgets overlap, but not perfectly (an 8-way conflicted
// staging buffer costs more than its wavefronts alone when the load phase and
// the consume phase are separated by a barrier). The constants are the H200's
// (struct H200 says which were measured, and which fitted on what).
// Memory-level parallelism (docs/cost-model.md): the DRAM bytes of the loads
// a warp has in flight before first use (unrolled loops, the part of a long
// loop that ptxas unrolls, hand-unrolled siblings) x resident warps (threads,
// blocks, static shared memory, a register estimate, __launch_bounds__) over
// a 460 ns latency bound the read rate (Little's law), folded with the DRAM
// time by a soft maximum of exponent 2: both fitted to validate-mlp-probe's
// copy sweep of 2026-12-02 (28 points, rms log error 0.07). The prediction
// states its regime: the ranking holds when the data is well beyond the 60 MB
// L2 and there are more than twice as many blocks as SMs (the guide's regime
// table).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_COSTMODEL_H
#define CUDA_ACCESS_LINT_ANALYZER_COSTMODEL_H

#include "analyzer/Analyzer.h"
#include "analyzer/FlopCount.h"

#include <string>
#include <vector>

namespace cal {

/// The constants below marked "fitted" were fitted together, by least
/// squares on log time, on the calibration subset of validate/ (report.py's
/// CALIBRATION_*: the 74 kernels of workloads 1 and 2, the transposes and the
/// 1-D copies; store_contiguous, store_float4, store_blocked16<2>,
/// store_blocked4<8>; the four SGEMM kernels ComputeOverlap was set on); the
/// other SGEMM and store kernels are held out (docs/cost-model.md).
struct H200 {
  /// Reads and writes (the validate copies' measured peak); a kernel that
  /// reads nothing from DRAM writes at the write stream's rate
  /// (store_float4: 4.64 TB/s), the bus never turning round.
  static constexpr double DramBytesPerSecond = 4.25e12;
  static constexpr double DramWriteBytesPerSecond = 4.65e12;
  /// L1 units (128-byte lines looked up, shared wavefronts) per second: one
  /// per clock per SM at 1.9 GHz over 132 SMs (fitted: 2.49e11). Sectors cost
  /// nothing beyond their line: 2-byte blocked loads at 4 sectors a line
  /// (V = 16) and 1 (V = 64) run at the same 258 G lines/s.
  static constexpr double L1UnitsPerSecond = 2.5e11;
  /// Requests that leave the SM (L1 misses and stores) per second (fitted:
  /// 7.04e10; 2-byte striped loads run ~15% under 16-byte ones with the
  /// same bytes and lines).
  static constexpr double MissRequestsPerSecond = 7.0e10;
  /// The L2's store work: a unit per sector a store writes in part (merged
  /// into the L2's copy) and StoreLineWeight per 128-byte line a warp's
  /// store writes (one L2 write request each) (fitted: 1.57e11 and 1.42;
  /// store_blocked4<8>, store_blocked16<2>, a naive transpose's scattered
  /// 4-byte stores, 2-byte blocked stores).
  static constexpr double L2StoreUnitsPerSecond = 1.6e11;
  static constexpr double StoreLineWeight = 1.4;
  /// The soft maximum's exponent (fitted: 3.82).
  static constexpr double Overlap = 3.8;
  /// The memory budgets overlap the SM's own work (the L1, FP32 issue) at
  /// Overlap only when the SM holds enough independent work: the exponent
  /// between them falls to OverlapFloor (the latency and compute pairs'
  /// exponent) with the cube of the share of OverlapWarps resident warps;
  /// for shared wavefronts behind a block barrier, of OverlapBlocks resident
  /// blocks (the row products of validate/, docs/cost-model.md, "Overlap
  /// and occupancy").
  static constexpr double OverlapFloor = 2.0;
  static constexpr double OverlapWarps = 64, OverlapBlocks = 8;
  /// A memory-bound kernel's shared wavefronts behind a block barrier hide
  /// better the more blocks an SM holds beyond OverlapBlocks, with its warps
  /// all resident: the exponent grows by this share of itself per
  /// OverlapBlocks more blocks, times the cube of the warps' share (fitted
  /// on w1 and w2's staged rows, 0.2 to 0.35 give the same order).
  static constexpr double OverlapPerBlocks = 0.25;
  static constexpr int SMs = 132;
  static constexpr double L2Bytes = 60e6;
  // Memory-level parallelism (docs/cost-model.md; validate-mlp-probe).
  static constexpr double LoadLatency = 460e-9; ///< seconds, Little's law
  static constexpr double LatencyOverlap = 2.0;
  /// The address range the resident warps work through (validate-span-
  /// probe, docs/cost-model.md, "The resident warps' range"): a DRAM-bound
  /// copy at the same bytes in flight slows by RangeSlope of the DRAM time
  /// each time that range doubles beyond RangeBase, copy_float4's (64 warps
  /// an SM x 132 SMs x 512 bytes a warp), times the kernel's ReadWriteMix: a
  /// read stream alone barely slows (the probe's read rows). Measured on an
  /// H100 (three runs, 0.0126, 0.0112 and 0.0111:
  /// validate/tools/fit_range_slope.py); the H200 (2026-12-06-h200-span)
  /// grows at the same 1.1% a doubling after a step of about 3% at the first
  /// doubling, which the model lacks (docs/cost-model.md).
  static constexpr double RangeBase = 64.0 * 132 * 512;
  static constexpr double RangeSlope = 0.0116;
  /// A warp's loads in flight with this many bytes or more between them
  /// count as separate places, each widening the range as much as the
  /// bytes read (regionsInFlight). Bounded by calibration kernels to 1-64 KB
  /// (w1_striped<512,8>, copy2d); the H200's probe: 2-4 KB apart cost, 8 KB
  /// or more apart do not (docs/cost-model.md).
  static constexpr int64_t RegionGapBytes = 2048;
  static constexpr double MaxUnrolledLoads = 128;
  /// Iterations of a long loop (no pragma) that ptxas puts in one body.
  static constexpr int64_t PartialUnroll = 16;
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
  /// blocks of 256 threads, one store each, 634 us whatever the bytes;
  /// fitted: 1.66e9).
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
  /// Global requests that leave the SM: loads that need a sector the L1
  /// does not hold (an earlier iteration of the warp, or another warp of
  /// the block in the same iteration, fetched the others), and every store.
  double MissRequests = 0;
  /// 128-byte lines the warps' stores write (L2 write requests).
  double StoreLines = 0;
  double DramBytes = 0, DramReadBytes = 0;
  /// Bytes of DRAM loads one warp has in flight before it uses them, and the
  /// warps an SM holds at once.
  double BytesInFlightPerWarp = 0, ResidentWarpsPerSM = 0;
  /// The range of addresses the resident warps work through: the DRAM bytes
  /// a warp reads over its life x the warps resident at once x
  /// RegionsInFlight (at most the launch's); and the factor it costs the
  /// DRAM budget (1 up to RangeBase, and for a kernel that only reads or
  /// only writes).
  double ResidentRangeBytes = 0, DramRangeFactor = 1;
  /// The places apart a warp's loads in flight touch, the loads' mean
  /// weighted by their DRAM bytes (1: one run).
  double RegionsInFlight = 1;
  /// 2 x the smaller of the DRAM bytes read and written over the DRAM bytes:
  /// 1 for a copy, 0 for a kernel that only reads or only writes.
  double ReadWriteMix = 0;
  /// A block-wide barrier (__syncthreads, a group's sync) in the kernel or
  /// a function it calls: its warps wait for each other, so a block, not a
  /// warp, is what overlaps memory with the SM's work.
  bool BlockBarrier = false;
  /// The soft maximum's exponent between the memory budgets and the SM's
  /// own (H200::OverlapFloor .. Overlap).
  double MemCoreOverlap = 0;
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
  double L2Time = 0;      ///< the L2's store work
  double ComputeTime = 0; ///< FP32 and FP64 issue
  double BlockTime = 0;   ///< blocks started and retired
  double Time = 0;        ///< the soft maximum + the launch overhead
  /// The largest budget: "dram", "latency", "l1" (global lines), "l2"
  /// (stores: lines written and partial sectors), "shared" (wavefronts),
  /// "fp32", "issue" (requests that leave the SM), "blocks"; empty when not
  /// complete.
  std::string Bound;
  std::string Regime;
};

/// \p Flops: one thread's arithmetic, when the caller has it (a rewrite of
/// the accesses that keeps the arithmetic: analyzer/VectorRewrite.h); else
/// counted on the kernel's AST.
KernelPrediction predictKernel(const AnalysisResult &R, size_t Kernel,
                               const FlopCount *Flops = nullptr);

/// What one access costs a warp over what the same bytes would cost
/// coalesced and conflict-free, in the L1 budget's units (128-byte lines
/// looked up, shared wavefronts; a store's lines and partial sectors in the
/// L2, at their time in L1 units), times its executions per warp (once when
/// a trip count is unknown). What review formats rank findings by; 0 when
/// the addresses are unknown.
double accessExcessCost(const AccessFacts &F);

} // namespace cal

#endif

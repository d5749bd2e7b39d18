//===- CostModel.cpp ------------------------------------------------------===//

#include "analyzer/CostModel.h"
#include "analyzer/EmittedWidth.h"
#include "analyzer/Values.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

namespace cal {

namespace {

/// Which barriers a walk looks for.
enum class Barrier {
  /// Any that keeps a thread's loads on either side of it apart:
  /// `__syncthreads*`, `__syncwarp`, `__barrier*`, a group's `sync`,
  /// `__pipeline_wait*`.
  Any,
  /// One the whole block waits at (not `__syncwarp`, not a pipeline wait).
  BlockWide,
};

bool isBarrier(const clang::FunctionDecl *FD, Barrier Kind) {
  const clang::IdentifierInfo *II = FD->getIdentifier();
  if (!II)
    return false;
  llvm::StringRef N = II->getName();
  if (N.starts_with("__syncthreads") || N.starts_with("__barrier") ||
      N == "sync")
    return true;
  return Kind == Barrier::Any &&
         (N == "__syncwarp" || N.starts_with("__pipeline_wait"));
}

/// A barrier of \p Kind in \p S, or in the bodies of the functions it calls
/// down to \p Depth levels. A barrier in a loop's body: iterations on
/// either side of it cannot have their loads in flight together, however
/// the loop is unrolled (Depth 0, the loop's own statements).
bool hasBarrier(const clang::Stmt *S, Barrier Kind = Barrier::Any,
                int Depth = 0) {
  if (!S)
    return false;
  if (const auto *CE = llvm::dyn_cast<clang::CallExpr>(S))
    if (const clang::FunctionDecl *FD = CE->getDirectCallee())
      if (isBarrier(FD, Kind) ||
          (Depth > 0 && hasBarrier(FD->getBody(), Kind, Depth - 1)))
        return true;
  for (const clang::Stmt *C : S->children())
    if (hasBarrier(C, Kind, Depth))
      return true;
  return false;
}

/// Consecutive iterations of a loop that nvcc does not unroll whole that
/// end up in one body of the SASS, their loads issued together: a
/// `#pragma unroll N` says N; without a pragma, ptxas unrolls a loop of a
/// known trip count by 16 when 16 divides it (sgemm_naive and
/// sgemm_coalesced of validate/, 4096 trips: 32 LDG per body for 2 loads),
/// by the largest power of two that divides it otherwise, as long as the
/// unrolled body keeps at most MaxUnrolledLoads of the access (\p Inner
/// per iteration); 1 under `#pragma unroll 1` or with a barrier in the
/// body. Where only the launch gives the trip count (compilerTrip): a loop
/// nvcc cannot count (a step of `blockDim.x * gridDim.x`) is not unrolled
/// (validate/'s copy_gridstride: one LDG per iteration in the SASS); one it
/// counts at run time is unrolled with a remainder, by a factor that
/// follows its body's size: 16 for a load and an add (the row sums of
/// fixtures/rules/missing-vectorization: 28 and 29 LDG, 16 and the
/// remainder's), 4 for a load and a store (copy_warpstride: 4 LDG). The
/// model takes PartialUnroll, at most the trip count: the larger of the
/// two, so that a gain of wider loads is never over-stated.
double partialUnroll(clang::ASTContext *Ctx, const LoopFact &L, double Inner) {
  if (!Ctx || !L.Loop || !L.Trip || hasBarrier(L.Loop))
    return 1;
  UnrollFact U = unrollOf(*Ctx, L.Loop, L.Trip, L.Attributes);
  if (!U.Pragma.empty())
    return double(std::max<int64_t>(1, U.Factor));
  if (U.Trip == CompilerTrip::Uncounted)
    return 1;
  if (U.Trip == CompilerTrip::Runtime) {
    int64_t Factor = std::min<int64_t>(H200::PartialUnroll, *L.Trip);
    while (Factor > 1 && Inner * double(Factor) > H200::MaxUnrolledLoads)
      Factor /= 2;
    return double(std::max<int64_t>(1, Factor));
  }
  int64_t Factor = H200::PartialUnroll;
  while (Factor > 1 && (*L.Trip % Factor != 0 ||
                        Inner * double(Factor) > H200::MaxUnrolledLoads))
    Factor /= 2;
  return double(Factor);
}

/// Whether nvcc unrolls loop \p L whole with \p Inner executions of the
/// access per iteration: a known trip count that nvcc knows too (not one
/// only the launch gives: compilerTrip), at most MaxUnrolledLoads in all.
bool unrolledWhole(clang::ASTContext *Ctx, const LoopFact &L, double Inner) {
  if (!L.Trip || *L.Trip <= 0 ||
      Inner * double(*L.Trip) > H200::MaxUnrolledLoads)
    return false;
  if (!Ctx || !L.Loop)
    return true;
  CompilerTrip T = compilerTrip(*Ctx, L.Loop);
  return T == CompilerTrip::Constant || T == CompilerTrip::NotJudged;
}

/// The loops around an access whose iterations one thread has in flight
/// together, innermost outward: \p Visit(L, Times) for each loop nvcc
/// unrolls whole (known trips, at most MaxUnrolledLoads executions in all;
/// Times its trip count) and then for the first it does not (Times the part
/// of it ptxas unrolls: partialUnroll; the grid-stride copy of validate/,
/// `#pragma unroll 1`, keeps one iteration in flight). Returns that first
/// loop not unrolled whole (null: none): loads in flight together share it.
template <typename VisitFn>
const clang::Stmt *walkLoopsInFlight(clang::ASTContext *Ctx,
                                     const AccessFacts &F, VisitFn Visit) {
  double N = 1;
  for (auto L = F.Loops.rbegin(); L != F.Loops.rend(); ++L) {
    if (!unrolledWhole(Ctx, *L, N)) {
      Visit(*L, partialUnroll(Ctx, *L, N));
      return L->Loop;
    }
    Visit(*L, double(*L->Trip));
    N *= double(*L->Trip);
  }
  return nullptr;
}

/// How many executions of an access one thread has in flight at once: the
/// product of walkLoopsInFlight's counts.
double loadsInFlight(clang::ASTContext *Ctx, const AccessFacts &F) {
  double N = 1;
  walkLoopsInFlight(Ctx, F,
                    [&](const LoopFact &, double Times) { N *= Times; });
  return N;
}

/// The innermost loop not unrolled whole (null: none): loads in flight
/// together share it.
const clang::Stmt *phaseOf(clang::ASTContext *Ctx, const AccessFacts &F) {
  return walkLoopsInFlight(Ctx, F, [](const LoopFact &, double) {});
}

/// The places apart that one warp's executions of a load in flight
/// together touch: the lanes' pieces of one execution (their byte offsets,
/// where constant), repeated at each loop's stride for the iterations in
/// flight together (walkLoopsInFlight).
/// A piece starts a new place when RegionGapBytes or more that no lane
/// touches lie between it and the piece before: a 2-D copy's four rows
/// 64 KB apart are 4, a striped copy's four float4 runs a block's width
/// (4 KB) apart are 4; copy_stripe4's four float runs 1 KB apart, or a
/// 512-thread block's eight bf16 runs 1 KB apart, are one. Lanes a symbolic
/// distance apart count one place a group; a loop with no constant stride
/// adds none.
double regionsInFlight(clang::ASTContext *Ctx, const AccessFacts &F) {
  std::vector<int64_t> Starts;
  if (F.LaneOffsets) {
    for (unsigned L = 0; L < WarpSize; ++L)
      if (F.ActiveMask & (LaneMask(1) << L))
        Starts.push_back((*F.LaneOffsets)[L]);
  }
  if (Starts.empty())
    Starts.push_back(0);
  double Groups = F.LaneOffsets ? 1 : std::max(1u, F.LaneGroups);
  walkLoopsInFlight(Ctx, F, [&](const LoopFact &L, double Times) {
    if (!L.StrideBytes)
      return;
    size_t N = Starts.size();
    for (int64_t K = 1; K < int64_t(Times) && Starts.size() < 4096; ++K)
      for (size_t I = 0; I < N; ++I)
        Starts.push_back(Starts[I] + K * *L.StrideBytes);
  });
  std::sort(Starts.begin(), Starts.end());
  double Places = 1;
  for (size_t I = 1; I < Starts.size(); ++I)
    if (Starts[I] - (Starts[I - 1] + F.BytesPerLane) >= H200::RegionGapBytes)
      ++Places;
  return Places * Groups;
}

} // namespace

namespace {

/// Warps per block and blocks of the launch; what is missing when unknown.
void countShape(const KernelInfo &K, KernelPrediction &P) {
  P.Complete = true;
  if (K.Shape.Dim) {
    const Dim3 &D = *K.Shape.Dim;
    P.WarpsPerBlock = std::ceil(double(D[0] * D[1] * D[2]) / WarpSize);
  } else {
    P.Complete = false;
    P.Missing.push_back("block shape");
  }
  if (K.Shape.Grid) {
    const Dim3 &G = *K.Shape.Grid;
    P.Blocks = double(G[0]) * double(G[1]) * double(G[2]);
  } else {
    P.Complete = false;
    P.Missing.push_back("grid size");
  }
}

/// What the accesses of one kernel add up to besides the prediction's
/// totals: the bytes in flight per phase, the shared arrays, the loops'
/// trip counts and the DRAM bytes read.
struct AccessTally {
  /// Bytes in flight per warp, per phase (the loads of one not-unrolled
  /// loop, or of the straight-line code).
  std::map<const clang::Stmt *, double> PhaseBytes;
  std::set<const MemRegion *> SharedArrays;
  std::map<const clang::Stmt *, int64_t> Trips;
  double ReadBytes = 0;
  /// The DRAM read bytes times the places apart each load's warp touches
  /// at once (regionsInFlight): over ReadBytes, the loads' mean.
  double RegionReadBytes = 0;
};

/// The DRAM bytes of one global access over the launch (\p Requests of
/// them); a store's fill reads are added to P.StoreFillBytes.
double dramBytesOf(const AccessFacts &F, const KernelInfo &K, double Requests,
                   KernelPrediction &P) {
  double Bytes = Requests * F.BytesPerRequest.value_or(0);
  // Holes between lanes at a constant stride that the loop never fills
  // stay holes for every warp: whole sectors cross the bus.
  // (Accesses of the same iteration that continue each lane's run --
  // hand-unrolled neighbours, the other pieces of a struct -- fill them.)
  int64_t Filled = int64_t(F.SiblingRun) * F.BytesPerLane;
  bool PermanentHoles = F.LaneGroups == 1 && F.LaneStrideBytes &&
                        std::abs(*F.LaneStrideBytes) > Filled &&
                        F.FootprintUtilization &&
                        *F.FootprintUtilization < 0.99;
  if (!PermanentHoles || *F.FootprintUtilization <= 0)
    return Bytes;
  Bytes /= *F.FootprintUtilization;
  // A store's partial sectors that nothing fills: the L2 reads each from
  // DRAM to merge it, then writes it back whole (store_strided<8>,
  // store_blocked16<1>: DRAM reads = writes = 32 bytes per sector). Only
  // in a 1-D block, where the other warps continue the lanes' stride and
  // leave the same holes; in a 2-D block the warps of other rows may fill
  // them (a naive transpose's stores: DRAM sees each byte once).
  bool OneDimBlock =
      K.Shape.Dim && (*K.Shape.Dim)[1] == 1 && (*K.Shape.Dim)[2] == 1;
  if (F.Kind == AccessKind::Store && OneDimBlock) {
    if (std::abs(*F.LaneStrideBytes) >= H200::DramBurstBytes)
      Bytes *= H200::DramBurstBytes / 32; // of a 32-byte sector
    P.StoreFillBytes += Bytes;
    Bytes *= 2;
  }
  return Bytes;
}

/// One access's requests, sectors, wavefronts and DRAM bytes, added to the
/// prediction's totals (or what keeps it from being counted).
void countAccess(const AccessFacts &F, const KernelInfo &K, double Warps,
                 KernelPrediction &P, AccessTally &T) {
  for (const LoopFact &L : F.Loops)
    if (L.Loop && L.Trip)
      T.Trips.emplace(L.Loop, *L.Trip);
  if (F.Space == MemSpace::Local)
    return;
  if (!F.ExecutionsPerWarp) {
    P.Complete = false;
    P.Missing.push_back("trip count of a loop around `" + F.Array + "`");
    return;
  }
  if (!F.AddressKnown) {
    P.Complete = false;
    P.Missing.push_back("addresses of `" + F.Array + "`");
    return;
  }
  double Requests = *F.ExecutionsPerWarp * Warps;
  if (F.Space == MemSpace::Shared) {
    T.SharedArrays.insert(F.Region);
    P.SharedRequests += Requests;
    P.SharedWavefronts += Requests * F.WavefrontsPerRequest.value_or(1);
    return;
  }
  P.GlobalRequests += Requests;
  P.GlobalLines += Requests * F.LinesPerRequest.value_or(0);
  P.GlobalSectors += Requests * F.SectorsPerRequest.value_or(0);
  double Bytes = dramBytesOf(F, K, Requests, P);
  if (F.Kind != AccessKind::Load) {
    P.PartialStoreSectors += Requests * F.PartialSectorsPerRequest.value_or(0);
    P.StoreLines += Requests * F.LinesPerRequest.value_or(0);
    P.MissRequests += Requests; // the L1 writes through
    P.DramBytes += Bytes;
    return;
  }
  // Warps of the block that read the same sectors in the same iteration
  // share one fetch. Of a warp's own sectors, those an earlier iteration
  // fetched are hits: the share of a request's sectors that are new is its
  // sector utilization over the loop nest's (2-byte blocked loads at V =
  // 16: the first of 16 iterations fetches every sector). A request that
  // needs a sector from the L2 is a miss.
  double Share = std::max(1.0, F.SameAddressWarps);
  Bytes /= Share;
  double New = 1;
  if (F.SectorUtilization && F.FootprintUtilization &&
      *F.FootprintUtilization > 0)
    New = std::min(1.0, *F.SectorUtilization / *F.FootprintUtilization);
  P.MissRequests += Requests * New / Share;
  P.DramBytes += Bytes;
  P.DramReadBytes += Bytes;
  T.ReadBytes += Bytes;
  clang::ASTContext *Ctx = K.Decl ? &K.Decl->getASTContext() : nullptr;
  T.PhaseBytes[phaseOf(Ctx, F)] += Bytes / Requests * loadsInFlight(Ctx, F);
  T.RegionReadBytes += Bytes * regionsInFlight(Ctx, F);
}

/// The static shared memory of a block: the sizes of the shared arrays its
/// accesses name.
double staticSharedBytes(const KernelInfo &K,
                         const std::set<const MemRegion *> &Arrays) {
  double Bytes = 0;
  if (!K.Decl)
    return Bytes;
  clang::ASTContext &Ctx = K.Decl->getASTContext();
  for (const MemRegion *M : Arrays)
    if (M && !M->DeclType.isNull() && M->DeclType->isConstantSizeType() &&
        !M->DeclType->isIncompleteType())
      Bytes += double(Ctx.getTypeSizeInChars(M->DeclType).getQuantity());
  return Bytes;
}

/// Resident warps per SM: threads, blocks, static shared memory, registers
/// (__launch_bounds__'s minimum blocks, else an estimate: a base plus the
/// loaded values a thread holds).
double residentWarpsPerSM(const KernelInfo &K, const KernelPrediction &P,
                          const std::set<const MemRegion *> &SharedArrays) {
  double Threads = P.WarpsPerBlock * WarpSize;
  double ByThreads = std::floor(H200::ThreadsPerSM / Threads);
  double ByShared =
      std::floor(H200::SharedBytesPerSM / (staticSharedBytes(K, SharedArrays) +
                                           H200::SharedReservedPerBlock));
  double Regs = std::min(255.0, H200::BaseRegisters +
                                    P.BytesInFlightPerWarp / WarpSize / 4);
  double RegsPerWarp = std::ceil(Regs * WarpSize / 256) * 256;
  double ByRegs = std::floor(std::floor(H200::RegistersPerSM / RegsPerWarp) /
                             P.WarpsPerBlock);
  double BlocksPerSM =
      std::min({H200::BlocksPerSM, ByThreads, ByShared, ByRegs});
  if (K.Decl)
    if (const auto *LB = K.Decl->getAttr<clang::CUDALaunchBoundsAttr>())
      if (const clang::Expr *MinB = LB->getMinBlocks())
        if (auto V = MinB->getIntegerConstantExpr(K.Decl->getASTContext()))
          if (V->getExtValue() > 0)
            BlocksPerSM = std::max(
                BlocksPerSM,
                std::min({double(V->getExtValue()), ByThreads, ByShared}));
  return std::max(1.0, BlocksPerSM) * P.WarpsPerBlock;
}

/// Arithmetic: per thread from the AST, times the threads of the launch;
/// the FP32 and FP64 issue time.
void countCompute(const KernelInfo &K,
                  const std::map<const clang::Stmt *, int64_t> &Trips,
                  const FlopCount *Flops, KernelPrediction &P) {
  P.Flops = Flops ? *Flops : countFlops(K.Decl, Trips);
  // A loop of unknown trip around arithmetic only (no access in it, no
  // constant header): its body counts once, the compute budget is then a
  // lower bound (FlopCount::Complete says so), the prediction stands.
  double Threads = P.WarpsPerBlock * WarpSize * P.Blocks;
  if (K.Shape.Dim)
    Threads =
        double((*K.Shape.Dim)[0] * (*K.Shape.Dim)[1] * (*K.Shape.Dim)[2]) *
        P.Blocks;
  P.TotalFlops = P.Flops.flops() * Threads;
  if (P.DramBytes > 0)
    P.ArithmeticIntensity = P.TotalFlops / P.DramBytes;
  const FlopCount &C = P.Flops;
  P.ComputeTime =
      Threads *
      ((C.Fma32 + C.Mul32 + C.Add32 + C.Div32) / H200::Fp32LaneOpsPerSecond +
       (C.Fma64 + C.Mul64 + C.Add64 + C.Div64) / H200::Fp64LaneOpsPerSecond);
}

/// The soft maximum's exponent between the memory budgets (\p Mem) and the
/// SM's own work (\p Core): Overlap when the SM holds OverlapWarps warps
/// (the L1's global line lookups, FP32 issue) and, for shared wavefronts
/// behind a block barrier, OverlapBlocks blocks; towards OverlapFloor with
/// the cube of the share held; the L1's two parts weighted by their time.
/// Beyond OverlapBlocks blocks, a kernel whose memory is the larger budget
/// hides its shared phases further (OverlapPerBlocks): while one block is
/// between its barriers, the others' loads keep the bus busy, as long as
/// the SM's warps are all there to issue them.
double memCoreOverlap(const KernelPrediction &P, double Mem, double Core) {
  double WarpsPerSM = std::min(P.ResidentWarpsPerSM,
                               P.WarpsPerBlock * P.Blocks / H200::SMs);
  auto Cube = [](double Share) {
    Share = std::clamp(Share, 0.0, 1.0);
    return Share * Share * Share;
  };
  auto Exponent = [&](double Share) {
    return H200::OverlapFloor +
           (H200::Overlap - H200::OverlapFloor) * Cube(Share);
  };
  double WarpShare = WarpsPerSM / H200::OverlapWarps;
  double ByWarps = Exponent(WarpShare);
  if (!(P.L1Time > 0) || !(P.SharedTime > 0) || P.WarpsPerBlock <= 0)
    return ByWarps;
  double Shared = ByWarps;
  if (P.BlockBarrier) {
    double Blocks = WarpsPerSM / P.WarpsPerBlock;
    Shared = Exponent(Blocks / H200::OverlapBlocks);
    if (Mem > Core && Blocks > H200::OverlapBlocks)
      Shared *= 1 + H200::OverlapPerBlocks *
                        (Blocks / H200::OverlapBlocks - 1) * Cube(WarpShare);
  }
  double SharedPart = std::min(1.0, P.SharedTime / P.L1Time);
  return (1 - SharedPart) * ByWarps + SharedPart * Shared;
}

/// Each budget's time, and the time: their soft maximum plus the launch
/// overhead.
void combineBudgets(KernelPrediction &P) {
  // A kernel that reads nothing from DRAM (not even to fill the sectors its
  // stores write in part) streams its writes.
  bool WritesOnly = P.DramReadBytes == 0 && P.StoreFillBytes == 0;
  P.DramTime = P.DramBytes / (WritesOnly ? H200::DramWriteBytesPerSecond
                                         : H200::DramBytesPerSecond) *
               P.DramRangeFactor;
  P.SharedTime = P.SharedWavefronts / H200::L1UnitsPerSecond;
  P.L1Time = (P.GlobalLines + P.SharedWavefronts) / H200::L1UnitsPerSecond;
  P.L2Time = (H200::StoreLineWeight * P.StoreLines + P.PartialStoreSectors) /
             H200::L2StoreUnitsPerSecond;
  P.IssueTime = P.MissRequests / H200::MissRequestsPerSecond;
  P.BlockTime = P.Blocks / H200::BlocksPerSecond;
  double E = H200::Overlap;
  // The bus and the latency overlap less than the other budgets (the
  // probe's sweep follows a soft maximum of exponent 2).
  double Mem = std::pow(std::pow(P.DramTime, H200::LatencyOverlap) +
                            std::pow(P.LatencyTime, H200::LatencyOverlap),
                        1.0 / H200::LatencyOverlap);
  // The L1 and the FP32 pipes are fed by the same issue slots.
  double Core = std::pow(std::pow(P.L1Time, H200::ComputeOverlap) +
                             std::pow(P.ComputeTime, H200::ComputeOverlap),
                         1.0 / H200::ComputeOverlap);
  double M = P.MemCoreOverlap = memCoreOverlap(P, Mem, Core);
  double MemCore = std::pow(std::pow(Mem, M) + std::pow(Core, M), 1.0 / M);
  P.Time = std::pow(std::pow(MemCore, E) + std::pow(P.L2Time, E) +
                        std::pow(P.IssueTime, E) + std::pow(P.BlockTime, E),
                    1.0 / E) +
           H200::LaunchOverhead;
}

/// The largest budget's name, and the regime the prediction holds in.
void boundAndRegime(KernelPrediction &P) {
  if (P.Complete) {
    double L1Global = P.L1Time - P.SharedTime;
    std::pair<double, const char *> Budgets[] = {
        {P.DramTime, "dram"},     {P.LatencyTime, "latency"},
        {L1Global, "l1"},         {P.L2Time, "l2"},
        {P.SharedTime, "shared"}, {P.ComputeTime, "fp32"},
        {P.IssueTime, "issue"},   {P.BlockTime, "blocks"}};
    P.Bound = std::max_element(std::begin(Budgets), std::end(Budgets),
                               [](const auto &A, const auto &B) {
                                 return A.first < B.first;
                               })
                  ->second;
  }
  if (!P.Complete)
    P.Regime = "unknown";
  else if (P.DramBytes < H200::L2Bytes)
    P.Regime = "small data: fits in the 60 MB L2, launch overhead and cache "
               "state dominate; the ranking may not hold";
  else if (P.Blocks < 2 * H200::SMs)
    P.Regime = "few blocks: fewer than twice the SM count, load width "
               "matters more than the model says";
  else
    P.Regime = "bandwidth-saturated";
}

} // namespace

KernelPrediction predictKernel(const AnalysisResult &R, size_t Kernel,
                               const FlopCount *Flops) {
  KernelPrediction P;
  const KernelInfo &K = R.Kernels[Kernel];
  countShape(K, P);
  double Warps = P.WarpsPerBlock * P.Blocks;
  AccessTally T;
  for (const AccessFacts &F : R.Accesses)
    if (F.Kernel == Kernel)
      countAccess(F, K, Warps, P, T);
  for (const auto &[Phase, B] : T.PhaseBytes)
    P.BytesInFlightPerWarp = std::max(P.BytesInFlightPerWarp, B);
  if (P.WarpsPerBlock > 0)
    P.ResidentWarpsPerSM = residentWarpsPerSM(K, P, T.SharedArrays);
  // Little's law: the loads a launch keeps in flight, over the latency they
  // wait, bound the rate at which it reads.
  double ResidentWarps =
      std::min(Warps, P.ResidentWarpsPerSM * double(H200::SMs));
  double InFlight = ResidentWarps * P.BytesInFlightPerWarp;
  if (T.ReadBytes > 0 && InFlight > 0)
    P.LatencyTime = T.ReadBytes * H200::LoadLatency / InFlight;
  // The range the resident warps read through: each warp's DRAM reads over
  // its life (a grid-stride loop's whole share of the array, a 4-deep
  // striped loop's four rows) side by side. A read stream alone barely pays
  // for it (the span probe's read rows): it costs in the measure reads and
  // writes share the bus.
  double Reads = P.DramReadBytes + P.StoreFillBytes;
  if (P.DramBytes > 0)
    P.ReadWriteMix =
        2 * std::min(Reads, std::max(0.0, P.DramBytes - Reads)) / P.DramBytes;
  if (T.ReadBytes > 0 && Warps > 0 && ResidentWarps > 0) {
    // A warp whose loads in flight lie in several places apart spreads the
    // resident warps' reads as a range that many times wider would.
    P.RegionsInFlight = T.RegionReadBytes / T.ReadBytes;
    P.ResidentRangeBytes = std::min(T.ReadBytes, ResidentWarps * T.ReadBytes /
                                                     Warps * P.RegionsInFlight);
    P.DramRangeFactor =
        1 + H200::RangeSlope * P.ReadWriteMix *
                std::max(0.0, std::log2(P.ResidentRangeBytes / H200::RangeBase));
  }
  countCompute(K, T.Trips, Flops, P);
  P.BlockBarrier =
      K.Decl && hasBarrier(K.Decl->getBody(), Barrier::BlockWide, 3);
  combineBudgets(P);
  boundAndRegime(P);
  return P;
}

double accessExcessCost(const AccessFacts &F) {
  if (!F.AddressKnown)
    return 0;
  double Units = 0;
  if (F.Space == MemSpace::Shared) {
    Units = F.WavefrontsPerRequest.value_or(1) - F.IdealWavefronts.value_or(1);
  } else {
    double Ideal = F.IdealSectors.value_or(F.SectorsPerRequest.value_or(0));
    double ExtraLines = F.LinesPerRequest.value_or(0) - std::ceil(Ideal / 4);
    Units = ExtraLines;
    // A store's extra lines and partial sectors are the L2's work: at its
    // time in L1 units.
    if (F.Kind != AccessKind::Load)
      Units += (H200::StoreLineWeight * ExtraLines +
                F.PartialSectorsPerRequest.value_or(0)) *
               (H200::L1UnitsPerSecond / H200::L2StoreUnitsPerSecond);
  }
  return std::max(0.0, Units) * F.ExecutionsPerWarp.value_or(1);
}

} // namespace cal

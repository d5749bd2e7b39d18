//===- BlockedStride.cpp - blocked-stride ---------------------------------===//
//
// Adjacent lanes more than one element apart: one instruction fetches
// sectors it does not use. Not a finding where the waste is recovered:
// lanes that already load 16 bytes each while the thread's loop consumes the
// rest of every sector (the fastest kernel measured; a store of that shape
// still is one: the L2 receives its sectors in parts), groups of lanes that
// fill whole sectors, or hand-unrolled neighbours that fill the gaps (that
// is missing-vectorization's case).
//
//===----------------------------------------------------------------------===//

#include "rules/BlockedStride.h"

#include "rules/RuleUtil.h"
#include "rules/Suggest.h"

#include "support/Location.h"

#include <cmath>

namespace cal {

namespace {

const char Bad[] = R"cu(// Each thread multiplies its own run of V elements of a row: for a fixed c,
// adjacent lanes are V elements apart.
constexpr int N = 4096, THREADS = 256, V = N / THREADS;

__global__ void row_product(const float *X, float *Out) {
  int row = blockIdx.x, tx = threadIdx.x;
  float acc = 1.f;
  for (int c = 0; c < V; ++c)
    acc *= X[row * N + tx * V + c];
  Out[row * THREADS + tx] = acc;
}

void launch(const float *X, float *Out, int rows) {
  row_product<<<rows, THREADS>>>(X, Out);
}
)cu";

const char Good[] = R"cu(// The same run, read 16 bytes per lane per instruction: the loop consumes
// the rest of every sector it touches.
constexpr int N = 4096, THREADS = 256, V = N / THREADS;

__global__ void row_product(const float *X, float *Out) {
  int row = blockIdx.x, tx = threadIdx.x;
  float acc = 1.f;
  for (int c = 0; c < V; c += 4) {
    float4 v = *reinterpret_cast<const float4 *>(&X[row * N + tx * V + c]);
    acc *= v.x * v.y * v.z * v.w;
  }
  Out[row * THREADS + tx] = acc;
}

void launch(const float *X, float *Out, int rows) {
  row_product<<<rows, THREADS>>>(X, Out);
}
)cu";

/// Adjacent lanes' byte ranges leave gaps.
bool lanesStrided(const AccessFacts &F) {
  if (F.LaneGroups > 1)
    return true;
  if (F.LaneStrideBytes)
    return std::abs(*F.LaneStrideBytes) > int64_t(F.BytesPerLane);
  if (!F.LaneOffsets)
    return false;
  // Irregular lane offsets: any gap between the sorted ranges.
  std::vector<int64_t> Offs;
  for (unsigned L = 0; L < WarpSize; ++L)
    Offs.push_back((*F.LaneOffsets)[L]);
  std::sort(Offs.begin(), Offs.end());
  for (size_t I = 1; I < Offs.size(); ++I)
    if (Offs[I] - Offs[I - 1] > int64_t(F.BytesPerLane))
      return true;
  return false;
}

/// Another access of the same kernel configuration, in an order-dependent
/// loop, that walks each thread's contiguous run with the lanes' runs tiling
/// the data (a prefix product's write-back `Y[tx * V + c] = run`): the
/// kernel depends on each thread owning that run, so the striped rewrite of
/// an order-free loop elsewhere (its totals feed the ordered pass) would
/// break it.
const AccessFacts *ownershipPinnedBy(const RuleContext &Ctx,
                                     const AccessFacts &F) {
  const clang::Stmt *Own = F.Loops.empty() ? nullptr : F.Loops.back().Loop;
  for (const AccessFacts &O : Ctx.Result.Accesses) {
    if (&O == &F || O.Kernel != F.Kernel || O.Loops.empty() ||
        O.Loops.back().Loop == Own || O.Loops.back().OrderFree ||
        !O.LaneStrideBytes || !O.PerThreadContiguousBytes)
      continue;
    int64_t Run = *O.PerThreadContiguousBytes;
    if (Run > int64_t(O.BytesPerLane) && std::abs(*O.LaneStrideBytes) == Run)
      return &O;
  }
  return nullptr;
}

} // namespace

const RuleInfo &BlockedStride::info() const {
  static const RuleInfo I{
      "blocked-stride",
      Severity::Warning,
      "Adjacent lanes are more than one element apart, so each instruction "
      "fetches 32-byte sectors it does not use.",
      "L1 and L2 move whole 32-byte sectors. When lane i reads element "
      "`tx * V + c`, adjacent lanes are V elements apart and each warp-wide "
      "load touches up to 32 sectors to use a few bytes of each. Measured on "
      "an H200 (bf16 row product, 65536 x 4096): element-by-element blocked "
      "reads fall from 3.75 TB/s at V = 8 to 0.52 TB/s at V = 128, against "
      "3.5 TB/s striped and 4.3 TB/s blocked with 16-byte loads; Nsight "
      "Compute counts 32 sectors per request blocked against 2 striped. A "
      "strided store (a naive transpose) costs the same: 0.51 against 3.59 "
      "TB/s tiled. Blocked 16-byte loads whose loop reads the rest of each "
      "sector are not a finding; blocked stores of that shape are: DRAM "
      "sees each byte once (the L2 merges the parts), but 16-byte stores 32 "
      "bytes apart, the next iteration writing the other half, ran at 1.9 "
      "TB/s against 4.6 TB/s contiguous, and 4-byte stores 32 bytes apart "
      "filled by an 8-trip loop at 0.48 TB/s (store_blocked16<2>, "
      "store_blocked4<8> in validate/). What to write instead depends on the per-thread run: "
      "16-byte vector loads when it is small, staging through padded shared "
      "memory when it is large (register pressure; the crossover was near "
      "128 bytes per thread), and swapping thread and loop indices only when "
      "the order of consumption does not matter. The sectors are those of "
      "the emitted instruction (docs/emitted-width.md): ptxas does not merge "
      "a thread's adjacent global accesses into a wider one, so the request "
      "is the access as written (a struct or vector element copied in "
      "pieces counts its pieces).",
      Bad,
      Good,
      {},
      "A suggested rewrite (vectorize, stage through shared memory, or "
      "interchange), shown as code; never applied automatically.",
      Applicability::Suggestion};
  return I;
}

void BlockedStride::check(const RuleContext &Ctx,
                          std::vector<Finding> &Out) const {
  for (const AccessFacts &F : Ctx.Result.Accesses) {
    if (F.Space != MemSpace::Global || F.Kind == AccessKind::Atomic ||
        !F.AddressKnown || F.ActiveLanes < 2 || !F.SectorsPerRequest ||
        !F.IdealSectors || !F.SectorUtilization || *F.IdealSectors <= 0)
      continue;
    if (!lanesStrided(F))
      continue;
    double Waste = *F.SectorsPerRequest / *F.IdealSectors;
    if (Waste < 1.5 || *F.SectorUtilization > 0.67)
      continue;
    // Recovered: 16 bytes per lane and the loop uses the rest of each sector.
    // Loads only: a store's partial sectors, though the loop fills them and
    // DRAM sees each byte once, still reach the L2 one part at a time
    // (validate/results/2026-12-02-h200-sgemm-store: store_blocked16<2>
    // 0.568 ms against 0.231 ms for the contiguous float4 store).
    bool FillsSectors = F.FootprintUtilization && *F.FootprintUtilization >= 0.95;
    if (F.BytesPerLane >= 16 && FillsSectors && F.Kind == AccessKind::Load)
      continue;
    // Recovered: hand-unrolled neighbours fill the gaps between lanes.
    if (F.SiblingRun > 1 && F.LaneStrideBytes &&
        int64_t(F.SiblingRun) * F.BytesPerLane >= std::abs(*F.LaneStrideBytes))
      continue;

    Finding R = makeFinding(Ctx, F, info());
    // One extra sector per request is what a misaligned run costs, which
    // measured as no loss (DESIGN.md section 3): a note, however large the
    // ratio looks when the ideal is a single sector.
    double Excess = *F.SectorsPerRequest - *F.IdealSectors;
    R.Sev = Waste >= 2 && Excess > 1.0 + 1e-9 ? Severity::Warning
                                              : Severity::Note;
    std::string Apart;
    if (F.LaneGroups > 1) {
      Apart = F.LaneLayout.empty() ? "the lanes are a runtime distance apart"
                                   : F.LaneLayout;
    } else if (F.LaneStrideBytes) {
      int64_t S = std::abs(*F.LaneStrideBytes);
      Apart = "adjacent lanes are " + std::to_string(S) + " bytes apart";
      if (S % F.BytesPerLane == 0)
        Apart += " (" + std::to_string(S / F.BytesPerLane) + " elements)";
    } else {
      Apart = "the lanes' addresses leave gaps";
    }
    if (F.StrideTerm) {
      // Inside a macro's body the term has no text of its own.
      std::string Term = Ctx.text(F.StrideTerm->getSourceRange());
      if (!Term.empty())
        Apart += " because of `" + Term + "`";
    }
    double UsedBytes = *F.SectorUtilization * 32 * *F.SectorsPerRequest;
    R.Message = "`" + F.Array + "`: " + Apart + "; each request touches " +
                number(*F.SectorsPerRequest) + " sectors to use " +
                number(UsedBytes) + " bytes (" +
                percent(*F.SectorUtilization) + " sector utilization, " +
                number(Waste) + "x the " + number(*F.IdealSectors) +
                (*F.IdealSectors == 1 ? " sector" : " sectors") +
                " of a contiguous request)";
    if (FillsSectors && !F.Loops.empty() && F.Kind == AccessKind::Load)
      R.Notes.push_back(
          "the loop does use every byte of the sectors it touches (footprint " +
          percent(*F.FootprintUtilization) +
          "): the cost is in L1 requests per instruction, not DRAM traffic");
    else if (FillsSectors && !F.Loops.empty())
      R.Notes.push_back(
          "the loop writes every byte of the sectors it touches (footprint " +
          percent(*F.FootprintUtilization) +
          "), so DRAM sees each byte once, but the L2 receives every sector in "
          "parts: measured on an H200, 16 bytes per lane 32 bytes apart with "
          "the next iteration writing the other half ran 2.5x slower than "
          "contiguous 16-byte stores of the same bytes (0.568 against 0.231 "
          "ms for 1 GiB)");

    // What to write instead.
    // A run as long as a loop of unknown trip count: contiguity is unset
    // though the loop steps by exactly the thread's run.
    bool Unbounded =
        !F.PerThreadContiguousBytes && !F.Loops.empty() &&
        F.Loops.back().StrideBytes &&
        std::abs(*F.Loops.back().StrideBytes) ==
            int64_t(F.SiblingRun) * F.BytesPerLane;
    int64_t Run = F.PerThreadContiguousBytes.value_or(F.BytesPerLane);
    bool Walks = Unbounded || Run > int64_t(F.BytesPerLane);
    if (Walks && (Unbounded || Run < 128) && F.BytesPerLane < 16)
      R.Fixes.push_back(vectorizeSuggestion(Ctx, F));
    else if (Walks)
      R.Fixes.push_back(stageSuggestion(Ctx, F));
    if (Walks) {
      const AccessFacts *Pin = ownershipPinnedBy(Ctx, F);
      if (Pin) {
        Position P = positionOf(Ctx.Ctx.getSourceManager(), Pin->E->getBeginLoc());
        R.Notes.push_back(
            "swapping the roles of the thread and loop indices (striped) "
            "would give each thread other elements than the contiguous run "
            "that the loop at line " + std::to_string(P.Line) + " (`" +
            Ctx.text(Pin->E->getSourceRange()) +
            "`) goes through in order: each thread has to keep its run");
      } else if (auto X = interchangeSuggestion(Ctx, F))
        R.Fixes.push_back(*X);
      else if (!F.Loops.empty() && !F.Loops.back().OrderFree)
        R.Notes.push_back("swapping the roles of the thread and loop indices "
                          "(striped) would change the order in which each "
                          "thread consumes its elements: this loop depends on "
                          "that order");
    } else {
      Fix X;
      X.Kind = FixKind::StageShared;
      X.Apply = Applicability::Suggestion;
      X.Description =
          "each thread touches one element here: stage a tile through shared "
          "memory so that both the global read and the global write go along "
          "rows (pad the tile, e.g. [32][33], to keep the shared accesses "
          "conflict-free)";
      if (F.Space == MemSpace::Global) {
        AccessFacts Rows = F;
        Rows.Alignment = AlignmentFact::Aligned;
        Rows.MisalignBytes.reset();
        double Exec = F.ExecutionsPerWarp.value_or(1);
        auto [A, T] = rewrittenFigures(Rows, F.BytesPerLane, true, Exec, Exec);
        X.After = A;
        X.Description += "; " + T;
      }
      R.Fixes.push_back(X);
    }
    addCommonNotes(Ctx, F, R);
    Out.push_back(std::move(R));
  }
}

} // namespace cal

//===- MisalignedAccess.cpp - misaligned-access ---------------------------===//
//
// A warp's contiguous run proven to start off a 32-byte boundary costs one
// extra sector per request; a vector access proven not to be a multiple of
// its size faults. A neighbouring load of the same array in the same
// iteration (a stencil) touches the same sectors: then it is a note.
//
//===----------------------------------------------------------------------===//

#include "rules/MisalignedAccess.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <tuple>

#include "rules/RuleUtil.h"
#include "rules/Suggest.h"

#include "clang/Basic/SourceManager.h"

namespace cal {

namespace {

const char Bad[] = R"cu(// Every warp's 128-byte run starts 4 bytes past a 32-byte boundary.
__global__ void shifted_copy(const float *in, float *out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k] = in[k + 1];
}

void launch(const float *in, float *out, int n) {
  shifted_copy<<<n / 256, 256>>>(in, out);
}
)cu";

const char Good[] = R"cu(// A shift by a whole sector (8 floats) keeps every run aligned.
__global__ void shifted_copy(const float *in, float *out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k] = in[k + 8];
}

void launch(const float *in, float *out, int n) {
  shifted_copy<<<n / 256, 256>>>(in, out);
}
)cu";

} // namespace

const RuleInfo &MisalignedAccess::info() const {
  static const RuleInfo I{
      "misaligned-access",
      Severity::Warning,
      "A warp's run proven to start off a 32-byte boundary (one extra sector "
      "per request; in some of its requests, by a compile-time row pitch or "
      "loop step that is not a multiple of 32 bytes: a note), or a vector "
      "access at an address proven not to be a multiple of its size (a "
      "fault); and, as a note, a run that starts on a boundary only under a "
      "condition on a kernel parameter (`in[i + s]` over floats: `s % 8 == "
      "0`), with the sectors per request when it fails.",
      "A contiguous warp run that does not start on a 32-byte boundary spills "
      "into one more sector: `in[k + 1]` over floats takes 5 sectors per "
      "request instead of 4 (Nsight Compute on an H200). It cost no "
      "measurable time in a plain copy (2.67 TB/s at a 4-byte and at a "
      "32-byte offset), because neighbouring warps share the sector in L1 "
      "and L2; it matters when that waste is not shared. A stencil's "
      "`in[i - 1]`, `in[i]`, `in[i + 1]` share their sectors, so there it is "
      "only a note. A vector access (float2, float4, int4, ...) at an "
      "address that is not a multiple of its size is not slow but wrong: it "
      "faults with a misaligned address error, so that is an error. Where "
      "the run's start rests on a kernel parameter times a constant, the "
      "rest aligned, the tool does not guess the value: it states the "
      "condition for the run to be aligned (a multiple of 32 bytes / "
      "gcd(the parameter's coefficient in bytes, 32): `s % 8` for floats, "
      "`s % 32` for chars, `s % 2` for `in[i + 4 * s]`) and what failing it "
      "costs; not for a runtime row pitch (`in[y * w + x]`, or rows that "
      "different statements read, `in[x + w]` and `in[x + 2 * w]`: nearly "
      "every 2-D kernel has one, by convention a multiple of 8 elements; a "
      "filter whose taps are a parameter apart reads the same way and is "
      "quiet too), nor where a "
      "failing value would make the access fault, nor where a neighbouring "
      "load shares the extra sector.",
      Bad,
      Good,
      {},
      "A suggestion to realign the run (shift the start, pad the row pitch "
      "to a multiple of 32 bytes); never applied automatically.",
      Applicability::Suggestion};
  return I;
}

/// The bytes the warp's lanes touch, when they form one contiguous run
/// (adjacent lanes one element apart; or lanes that repeat each other's
/// elements, as the two half-warps of a 16 x 16 block reading the same row):
/// then a sector more than the run needs is the run's misalignment.
static std::optional<int64_t> contiguousRunBytes(const AccessFacts &F) {
  if (F.LaneGroups != 1 || F.BytesPerLane == 0)
    return std::nullopt;
  if (F.LaneStrideBytes && *F.LaneStrideBytes == int64_t(F.BytesPerLane))
    return int64_t(F.ActiveLanes) * F.BytesPerLane;
  if (!F.LaneOffsets || F.ActiveLanes != WarpSize)
    return std::nullopt;
  std::vector<int64_t> Offsets(F.LaneOffsets->begin(), F.LaneOffsets->end());
  std::sort(Offsets.begin(), Offsets.end());
  Offsets.erase(std::unique(Offsets.begin(), Offsets.end()), Offsets.end());
  if (Offsets.size() < 2)
    return std::nullopt;
  for (size_t I = 1; I < Offsets.size(); ++I)
    if (Offsets[I] - Offsets[I - 1] != int64_t(F.BytesPerLane))
      return std::nullopt;
  return int64_t(Offsets.size()) * F.BytesPerLane;
}

/// A load in a loop that slides the warp's run by less than a sector (a
/// stencil's window `in[i + d]`): the neighbouring iterations read the
/// sectors of the misaligned ends too, as a neighbour in the same iteration
/// would.
static bool slidesBySubSector(const AccessFacts &F) {
  return F.Kind == AccessKind::Load && !F.Loops.empty() &&
         F.Loops.back().StrideBytes && *F.Loops.back().StrideBytes != 0 &&
         std::abs(*F.Loops.back().StrideBytes) < 32 &&
         !(F.Loops.back().Trip && *F.Loops.back().Trip < 2);
}

/// Where an access's place (its spelling, whatever the instantiation) and a
/// parameter go, the strictest modulus the configurations there need of it.
using StrictestConditions =
    std::map<std::tuple<unsigned, std::string, std::string>, int64_t>;

static std::tuple<unsigned, std::string, std::string>
conditionPlace(const RuleContext &Ctx, const AccessFacts &F) {
  clang::SourceLocation L =
      Ctx.Ctx.getSourceManager().getFileLoc(F.E->getBeginLoc());
  return {L.getRawEncoding(), F.Array, F.AlignedIf->Variable};
}

/// The run starts on a sector boundary only under a condition on a kernel
/// parameter (`in[i + s]`: s % 8 == 0), and costs more sectors when it does
/// not hold: a note with both. Quiet where the parameter is a runtime row
/// pitch (`in[y * w + x]`: nearly every 2-D kernel, whose pitches are
/// multiples of 8 elements by convention, as cudaMallocPitch makes them),
/// where a failing value would make the access fault (narrower than its size
/// past a boundary: the fault, not the sector, would be the news), where
/// every failing value costs nothing more, and where a neighbouring load
/// shares the extra sector (a stencil's window, in the same iteration or
/// the loop's next).
static void conditionNote(const RuleContext &Ctx, const AccessFacts &F,
                          const RuleInfo &Info,
                          const StrictestConditions &Strictest,
                          std::vector<Finding> &Out) {
  const AlignmentCondition &C = *F.AlignedIf;
  if (F.Space != MemSpace::Global || C.RowPitch || !F.SectorsPerRequest ||
      C.SectorsIfNotMin <= *F.SectorsPerRequest + 0.01 ||
      F.Neighbour != nullptr || slidesBySubSector(F) ||
      C.VectorModulus > 1)
    return;
  Finding R = makeFinding(Ctx, F, Info);
  R.Sev = Severity::Note;
  std::string Cost =
      std::abs(C.SectorsIfNotMax - C.SectorsIfNotMin) < 0.01
          ? number(C.SectorsIfNotMax)
          : number(C.SectorsIfNotMin) + " to " + number(C.SectorsIfNotMax);
  int64_t All = Strictest.at(conditionPlace(Ctx, F));
  R.Message = "`" + F.Array +
              "`: the run is sector-aligned only if `" + C.text() + "`" +
              (All != C.Modulus ? " (`" +
                                      alignmentConditionText(C.Variable, All) +
                                      "` in every configuration here)"
                                : std::string()) +
              "; otherwise " + Cost + " sectors per request instead of " +
              number(*F.SectorsPerRequest);
  if (std::abs(C.SectorsIfNotMax - C.SectorsIfNotMin) >= 0.01)
    R.Notes.push_back("how many more depends on `" + C.Variable + " % " +
                      std::to_string(C.Modulus) +
                      "`: the block's warps start at different multiples of "
                      "it, or the loop's iterations do");
  addCommonNotes(Ctx, F, R);
  Out.push_back(std::move(R));
}

void MisalignedAccess::check(const RuleContext &Ctx,
                             std::vector<Finding> &Out) const {
  StrictestConditions Strictest;
  for (const AccessFacts &F : Ctx.Result.Accesses)
    if (F.AlignedIf) {
      // Aligned in every configuration iff a multiple of each modulus.
      int64_t &M = Strictest[conditionPlace(Ctx, F)];
      M = M ? std::lcm(M, F.AlignedIf->Modulus) : F.AlignedIf->Modulus;
    }
  for (const AccessFacts &F : Ctx.Result.Accesses) {
    if (!F.AddressKnown || F.Space == MemSpace::Local)
      continue;
    if (F.AlignedIf) {
      conditionNote(Ctx, F, info(), Strictest, Out);
      continue;
    }
    // A vector access at an address not a multiple of its size: a fault.
    if (F.VectorAligned && !*F.VectorAligned && F.BytesPerLane > 1) {
      Finding R = makeFinding(Ctx, F, info());
      R.Sev = Severity::Error;
      R.Message = "`" + F.Array + "`: " + std::to_string(F.BytesPerLane) +
                  "-byte access at an address that is not a multiple of " +
                  std::to_string(F.BytesPerLane) +
                  ": it faults at run time (misaligned address)";
      Fix X;
      X.Kind = FixKind::Realign;
      X.Apply = Applicability::Suggestion;
      X.Description = "make the offset a multiple of " +
                      std::to_string(F.BytesPerLane) +
                      " bytes, or use a narrower access; after: every lane's "
                      "address a multiple of its size (no fault)";
      X.After = FixAfter{{{"vector_aligned", 1}}, ""};
      R.Fixes.push_back(X);
      addCommonNotes(Ctx, F, R);
      Out.push_back(std::move(R));
      continue;
    }
    // Proven off the sector grid in every request, or proven in some of
    // them (a compile-time row pitch or loop step that is not a multiple of
    // 32 bytes: rows y*1025 start 4*y bytes past a boundary).
    bool Always = F.Alignment == AlignmentFact::Misaligned;
    bool Sometimes = F.Alignment == AlignmentFact::Varies;
    // A neighbour a few bytes away in the same iteration (`tIn[c - 1]`
    // beside `tIn[c]`) cannot start on a 32-byte boundary as well: where the
    // common base's alignment is unknown (a runtime row pitch) and is taken
    // as a multiple of 32 bytes, this one is the run off the boundary.
    bool Relative = F.Alignment == AlignmentFact::Unknown &&
                    F.AssumedAlignment == AlignmentFact::Misaligned &&
                    F.AssumedMisalignBytes && F.Neighbour != nullptr;
    if (Relative)
      Always = true;
    std::optional<int64_t> RunBytes = contiguousRunBytes(F);
    if (F.Space != MemSpace::Global || !(Always || Sometimes) || !RunBytes ||
        F.ActiveLanes < 2 || !F.SectorsPerRequest || !F.IdealSectors ||
        *F.SectorsPerRequest <= *F.IdealSectors + 0.01)
      continue;
    Finding R = makeFinding(Ctx, F, info());
    bool Covered = F.Neighbour != nullptr;
    bool Sliding = !Covered && slidesBySubSector(F);
    // In some requests only: a fraction of a sector per request on average.
    R.Sev = Covered || Sliding || !Always ? Severity::Note : Severity::Warning;
    std::optional<int64_t> MisBytes =
        Relative ? F.AssumedMisalignBytes : F.MisalignBytes;
    std::string Off = MisBytes ? std::to_string(*MisBytes) + " bytes past"
                               : "off";
    if (Always)
      R.Message = "`" + F.Array + "`: the warp's " +
                  std::to_string(*RunBytes) + "-byte run starts " + Off + " a 32-byte boundary: " +
                  number(*F.SectorsPerRequest) +
                  " sectors per request instead of " + number(*F.IdealSectors);
    else
      R.Message = "`" + F.Array + "`: the warp's " +
                  std::to_string(*RunBytes) +
                  "-byte run starts off a 32-byte boundary in some of its "
                  "requests (a row pitch or loop step that is not a multiple "
                  "of 32 bytes): " +
                  number(*F.SectorsPerRequest) +
                  " sectors per request on average instead of " +
                  number(*F.IdealSectors);
    if (Sliding)
      R.Notes.push_back("the loop slides the run by " +
                        std::to_string(std::abs(*F.Loops.back().StrideBytes)) +
                        " bytes per iteration: the neighbouring iterations "
                        "read the extra sector too, so it costs little");
    if (Relative)
      R.Notes.push_back("the run's base is not known to be aligned and is "
                        "taken as a multiple of 32 bytes; `" +
                        Ctx.text(F.Neighbour->getSourceRange()) +
                        "` reads less than a sector away, a constant distance "
                        "from this run whenever the warp reads it, so the two "
                        "runs cannot both start on a boundary whatever the "
                        "base");
    if (Covered)
      R.Notes.push_back("`" + Ctx.text(F.Neighbour->getSourceRange()) +
                        "` reads the neighbouring bytes too (a constant "
                        "distance away): the extra sector is shared, so it "
                        "costs little");
    Fix X;
    X.Kind = FixKind::Realign;
    X.Apply = Applicability::Suggestion;
    X.Description = "start each warp's run on a 32-byte boundary: shift the "
                    "index by a whole sector (" +
                    std::to_string(32 / F.BytesPerLane) +
                    " elements) and handle the edge separately, or pad the "
                    "row pitch to a multiple of 32 bytes; after: " +
                    number(*F.IdealSectors) + " sectors per request (now " +
                    number(*F.SectorsPerRequest) + ")";
    X.After = FixAfter{{{"sectors_per_request", *F.IdealSectors}}, ""};
    R.Fixes.push_back(X);
    addCommonNotes(Ctx, F, R);
    Out.push_back(std::move(R));
  }
}

} // namespace cal

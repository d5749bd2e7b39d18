//===- MissingVectorization.cpp - missing-vectorization -------------------===//
//
// Global accesses of fewer than 16 bytes a lane that a vector rewrite would
// change (the analyzer's AccessFacts::Vectorized: hand-unrolled runs,
// striped, warp-stride and tile loops, one element per thread) are reported
// when the cost model predicts the kernel at least MinGain times faster with
// 16-byte accesses; a warning from WarningGain. Where the model cannot
// predict the kernel (grid, a trip count, an address unknown) nothing is
// said: no gain is guessed. Struct copies in pieces of a small alignment
// are reported apart (checkStructPieces).
//
//===----------------------------------------------------------------------===//

#include "rules/MissingVectorization.h"

#include "rules/RuleUtil.h"
#include "rules/Suggest.h"

#include "analyzer/CostModel.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

#include <cmath>

namespace cal {

namespace {

const char Bad[] =
    R"cu(// Four neighbours read and written one at a time: each of the four 4-byte
// stores of a warp writes a quarter of every sector it touches.
__global__ void scale4(const float *in, float *out, float k) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  float a = in[i];
  float b = in[i + 1];
  float c = in[i + 2];
  float d = in[i + 3];
  out[i] = k * a;
  out[i + 1] = k * b;
  out[i + 2] = k * c;
  out[i + 3] = k * d;
}

constexpr int N = 1 << 28; // 1 GiB of float

void launch(const float *in, float *out) {
  scale4<<<N / 1024, 256>>>(in, out, 2.f);
}
)cu";

const char Good[] =
    R"cu(// One 16-byte load and one 16-byte store per thread: whole sectors.
__global__ void scale4(const float4 *in, float4 *out, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  v.x *= k;
  v.y *= k;
  v.z *= k;
  v.w *= k;
  out[i] = v;
}

constexpr int N = 1 << 28; // 1 GiB of float

void launch(const float4 *in, float4 *out) {
  scale4<<<N / 1024, 256>>>(in, out, 2.f);
}
)cu";

const char Rationale[] =
    "The hardware's best case needs three things at once: contiguous lanes, a"
    " run that starts on a 32-byte boundary, and 16 bytes per lane per "
    "instruction (512 contiguous bytes, 16 full sectors per warp request). "
    "Narrower accesses take more instructions for the same bytes, which costs"
    " time only where instructions are what bounds the kernel: the rule asks "
    "the cost model (docs/cost-model.md). For each global access of fewer "
    "than 16 bytes a lane, the analyzer finds the 16-byte rewrite its pattern"
    " admits (JSON `accesses[].vectorized`, K = 16 / element size): a "
    "thread's hand-unrolled neighbours (`in[i]`, `in[i + 1]` ...) in one "
    "16-byte access (8 bytes for a run of 8 to 15); a striped or warp-stride "
    "loop with 16 bytes a lane in 1/K of the trips; a loop copying a tile's "
    "rows 8 apart with K trips' rows in one access (a copy only: the value "
    "stored is one load of the same trip); a kernel that gives each thread "
    "one element, with K elements a thread and K times fewer threads. It "
    "predicts the kernel's time on the H200 model with and without the "
    "rewrite, with the accesses one rewrite changes together (a loop's, a "
    "kernel's). The rule reports the rewrite at its first access when the "
    "predicted gain is MinGain (1.10) or more, a warning from WarningGain "
    "(1.4), and states it: `predicted 1.53x faster on the H200 model (the "
    "kernel 795.64 -> 521.73 us ...)`.\n\nHow the levels were set, from pairs "
    "measured on the H200 (validate/results/; validate/report.py prints the "
    "table): copy_float against copy_float4, its one-element-per-thread "
    "rewrite, measured 1.58-1.61x faster (predicted 1.53x: the rewrite "
    "predicts "
    "copy_float4's own time); store_contiguous against store_float4 2.74x "
    "(predicted 2.60x); copy_stripe4 against copy_stripe4_float4, a 4-deep "
    "striped loop, 0.96x (the float4 form is slower; the rewrite predicts "
    "1.01x, the pair 1.02x); copy_gridstride against copy_gridstride_float4,"
    " a grid-stride loop, 1.29-1.30x (predicted 1.29x: nvcc does not unroll a "
    "loop stepping by blockDim.x * gridDim.x, so the scalar copy has one "
    "load in flight per iteration). 1.10 lies above the model's largest error "
    "on "
    "these ratios (copy_stripe4's, 6%): the striped copy stays silent and the"
    " one-element copies fire. 1.4 lies between the measured gains of a third"
    " or more (1.58x, 2.74x: warnings) and the predicted 1.13-1.17x of 2-byte"
    " striped loops (notes: measured 1.16-1.21x). The other pairs, "
    "measured on the H200 (2026-12-06): the bf16 striped row product "
    "against its 16-byte form (w1_striped_vec) 1.04x at V = 8, where the "
    "rule is silent (predicted 1.098x), and 1.16x, 1.21x, 1.20x, 1.17x at "
    "V = 16, 32, 64, 128, where it fires (predicted 1.13-1.17x); the tile "
    "copy (copy2d_float4) 1.00x (predicted 1.01x, silent); the warp-stride "
    "copy (copy_warpstride_float4) 1.02x (predicted 1.02x, silent). On all "
    "eleven pairs the rule fires exactly where the measured gain is 1.10 "
    "or more (an H100, 2026-12-05, not the model's card, gives the same "
    "order with smaller gains: 1.04-1.08x for the striped row product)."
    "\n\nWhere the model cannot predict the "
    "kernel's time (the grid, the block, a trip count or an address unknown: "
    "the prediction's `missing`), the rule says nothing: measured, the "
    "16-byte form of a float copy runs 0.96x (copy_stripe4) to 1.58x "
    "(copy_float) as fast with the launch and the loads in flight, so the "
    "pattern alone does not decide, and no gain is guessed; `--assume` gives "
    "the model the sizes the source does not. Nor where the kernel's data fit"
    " in the 60 MB L2 (the model's small-data regime), where the guide "
    "measured the access patterns within noise of each other. The 16-byte "
    "form (float4, int4, uint4, double2) needs every lane's address to be a "
    "multiple of 16: the suggested rewrite says whether that is proven. "
    "Widths are those of the emitted instruction (docs/emitted-width.md): "
    "ptxas does not merge a thread's adjacent global accesses. A struct "
    "copied in pieces of its small alignment (four 1-byte loads of an RGBA8) "
    "is reported apart, by its instruction count, unless a system header "
    "declares it (cuRAND's states): its alignment is not the user's to "
    "change.";

} // namespace

const RuleInfo &MissingVectorization::info() const {
  static const RuleInfo I{
      "missing-vectorization",
      Severity::Warning,
      "Lanes are contiguous (or a thread's neighbours fill their gaps) but "
      "move fewer than 16 bytes per instruction, and the cost model predicts "
      "the kernel faster with 16-byte accesses.",
      Rationale,
      Bad,
      Good,
      {{"MinGain", "1.10",
        "Report a rewrite only when the cost model predicts the kernel at "
        "least this many times faster with it (Why says how 1.10 was set)."},
       {"WarningGain", "1.4",
        "From this predicted gain on, the finding is a warning; below it, a "
        "note (Why says how 1.4 was set)."}},
      "A suggested rewrite with 16-byte vector loads or stores, shown as "
      "code; never applied automatically (it changes the data layout the "
      "code assumes).",
      Applicability::Suggestion,
      {{"OneElementPerThread",
        "the cost model decides one-element-per-thread kernels now: they "
        "are reported where it predicts a gain of MinGain or more, whatever "
        "this option says"}}};
  return I;
}

/// A struct that nvcc copies in pieces of its (small) alignment: the same
/// bytes with the alignment raised to their size, up to 16, move in fewer
/// instructions (cuda-samples' alignedTypes: RGBA8 with alignment 1 is four
/// 1-byte loads, with __align__(4) one).
static bool checkStructPieces(const RuleContext &Ctx, const AccessFacts &F,
                              const RuleInfo &Info, std::vector<Finding> &Out) {
  if (F.Pieces <= 1)
    return false;
  if (F.Piece != 0 || F.Space != MemSpace::Global ||
      F.Kind == AccessKind::Atomic || F.BytesPerLane == 0)
    return true;
  int64_t Bytes = int64_t(F.Pieces) * F.BytesPerLane;
  int64_t Width = 1;
  while (Width < Bytes && Width < 16)
    Width *= 2;
  int64_t Padded = (Bytes + Width - 1) / Width * Width;
  int64_t Now = F.Pieces, Then = Padded / Width;
  if (Then >= Now)
    return true;
  // A type a system header declares (cuRAND's states, a toolkit's vector
  // types) is not the user's to align: nothing to suggest.
  if (const clang::RecordDecl *RD = F.Type->getAsRecordDecl()) {
    const clang::SourceManager &SM = Ctx.Ctx.getSourceManager();
    if (SM.isInSystemHeader(SM.getExpansionLoc(RD->getLocation())))
      return true;
  }
  // The type as written (`interval_gpu<double>`, not `class
  // interval_gpu<double>`); the declaration to change is its template's.
  clang::PrintingPolicy Policy(Ctx.Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  std::string Type = F.Type.getUnqualifiedType().getAsString(Policy);
  std::string Decl = Type, Keyword = "struct", Template;
  if (const auto *RD = F.Type->getAsCXXRecordDecl()) {
    Keyword = RD->isClass() ? "class" : "struct";
    if (const auto *S =
            llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(RD)) {
      Decl = S->getSpecializedTemplate()->getNameAsString();
      Template = "template <...> ";
    }
  }
  std::string What = F.Kind == AccessKind::Store ? "store" : "load";
  Finding R = makeFinding(Ctx, F, Info);
  bool Pads = Padded != Bytes;
  R.Sev = !Pads && Now >= 2 * Then ? Severity::Warning : Severity::Note;
  R.Message =
      "`" + F.Array + "`: each `" + Type + "` (" + std::to_string(Bytes) +
      " bytes) is " + (F.Kind == AccessKind::Store ? "written" : "read") +
      " as " + std::to_string(Now) + " " + std::to_string(F.BytesPerLane) +
      "-byte " + What + "s (the type is " + std::to_string(F.BytesPerLane) +
      "-byte aligned); aligned to " + std::to_string(Width) +
      " bytes it would take " + std::to_string(Then) + " " +
      std::to_string(Width) + "-byte " + What + (Then > 1 ? "s" : "") +
      (Pads ? " (padded to " + std::to_string(Padded) + " bytes: " +
                  percent(double(Padded - Bytes) / Bytes) + " more bytes moved)"
            : "");
  Fix X;
  X.Kind = FixKind::Vectorize;
  X.Apply = Applicability::Suggestion;
  X.Description = "declare `" + Decl + "` with __align__(" +
                  std::to_string(Width) + ") (changes its layout" +
                  (Pads ? " and size" : "") +
                  " for every user) so that nvcc copies it in " +
                  std::to_string(Width) + "-byte pieces";
  X.Code = Template + Keyword + " __align__(" + std::to_string(Width) + ") " +
           Decl + " { ... };";
  R.Fixes.push_back(X);
  addCommonNotes(Ctx, F, R);
  Out.push_back(std::move(R));
  return true;
}

namespace {

/// The kernel's data fit in the L2: the guide measured its access patterns
/// within noise of each other there (launch overhead and cache state
/// dominate), and the model does not rank them.
bool smallData(const VectorizedFacts &V) {
  return llvm::StringRef(V.Regime).starts_with("small data");
}

/// "1.58x": a gain, two decimals.
std::string gainText(double Gain) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.2fx", Gain);
  return Buf;
}

/// "4 -> 1 requests per warp", "2 requests per warp" ...
std::string requestsText(double N) {
  return number(N) + (number(N) == "1" ? " request" : " requests");
}

/// "predicted 1.58x faster on the H200 model (...)": the decision's
/// figures, for the message.
std::string predictedText(const AccessFacts &F, const VectorizedFacts &V) {
  double T0 = *V.TimeBefore * 1e6, T1 = *V.TimeAfter * 1e6;
  std::string S = "predicted " + gainText(*V.gain()) +
                  " faster on the H200 model (the kernel " + number(T0) +
                  " -> " + number(T1) + " us";
  if (V.Form == VectorForm::OnePerThread)
    return S + ", " + std::to_string(V.BytesPerLane / F.BytesPerLane) +
           "x fewer threads" +
           (V.BlocksAfter ? ": " + number(*V.BlocksAfter) + " blocks)"
                          : std::string(")"));
  return S + "): " +
         (V.ExecutionsKnown ? number(V.RequestsBefore) + " -> " +
                                  requestsText(V.RequestsAfter) + " per warp"
                            : number(V.RequestsBefore / V.RequestsAfter) +
                                  "x fewer requests") +
         " with " + std::to_string(V.BytesPerLane) + "-byte accesses";
}

/// The per-request figures under the rewrite, for the fix.
std::string perRequestText(const AccessFacts &F, const VectorizedFacts &V) {
  return number(F.LinesPerRequest.value_or(0)) + " -> " + number(V.LinesAfter) +
         " L1 lines (" + number(F.SectorsPerRequest.value_or(0)) + " -> " +
         number(V.SectorsAfter) + " sectors) per request";
}

FixAfter vectorizedAfter(const VectorizedFacts &V, bool Store) {
  FixAfter A;
  A.Instruction = std::string(Store ? "STG.E" : "LDG.E") +
                  (V.BytesPerLane == 16 ? ".128" : ".64");
  A.Numbers = {{"sectors_per_request", V.SectorsAfter},
               {"lines_per_request", V.LinesAfter},
               {"requests_per_warp", V.RequestsAfter}};
  if (V.TimeAfter)
    A.Numbers.push_back({"predicted_time_us", *V.TimeAfter * 1e6});
  return A;
}

/// "loads", "stores", "loads and stores": what the group's accesses are.
std::string groupKinds(const RuleContext &Ctx, const VectorizedFacts &V) {
  bool Loads = false, Stores = false;
  for (size_t I : V.Group) {
    const AccessFacts &O = Ctx.Result.Accesses[I];
    (O.Kind == AccessKind::Store ? Stores : Loads) = true;
  }
  return Loads && Stores ? "loads and stores" : Stores ? "stores" : "loads";
}

/// The group's other accesses (not the lead, not its merged siblings), as
/// notes at their places.
void noteOthers(const RuleContext &Ctx, const AccessFacts &F,
                const VectorizedFacts &V, Finding &R) {
  for (size_t I : V.Group) {
    const AccessFacts &O = Ctx.Result.Accesses[I];
    if (I == V.Lead || !O.Vectorized || O.E == F.E)
      continue;
    R.LocatedNotes.push_back(
        {O.E->getExprLoc(),
         std::string(O.Kind == AccessKind::Store ? "store" : "load") + " of `" +
             O.Array + "`, " + std::to_string(O.BytesPerLane) +
             " bytes per lane: rewritten with it (" +
             std::to_string(O.Vectorized->BytesPerLane) + " bytes per lane)"});
  }
}

/// "(and 2 more accesses of the loop likewise)".
std::string othersText(const RuleContext &Ctx, const AccessFacts &F,
                       const VectorizedFacts &V, const char *Where) {
  size_t N = 0;
  for (size_t I : V.Group)
    if (I != V.Lead && Ctx.Result.Accesses[I].Vectorized &&
        Ctx.Result.Accesses[I].E != F.E)
      ++N;
  if (N == 0)
    return "";
  return " (and " + std::to_string(N) + " more " +
         (N == 1 ? "access" : "accesses") + " of the " + Where + " likewise)";
}

} // namespace

namespace {

/// A hand-unrolled run: one vector access per 16 (8) bytes of it.
Finding runFinding(const RuleContext &Ctx, const RuleInfo &Info,
                   const AccessFacts &F, const VectorizedFacts &V) {
  Finding R = makeFinding(Ctx, F, Info);
  int64_t RunBytes = int64_t(F.SiblingRun) * F.BytesPerLane;
  unsigned Target = V.BytesPerLane;
  bool Store = F.Kind == AccessKind::Store;
  bool One = RunBytes <= Target;
  R.Message =
      "`" + F.Array + "`: " + std::to_string(F.SiblingRun) +
      " adjacent elements " + (Store ? "written" : "read") +
      " one at a time (" + std::to_string(F.BytesPerLane) +
      " bytes per lane per instruction); " + (One ? "one " : "") +
      std::to_string(Target) + "-byte " + (Store ? "store" : "load") +
      (One ? " per thread" : "s") + " would move them in " +
      (One ? std::string("1 instruction")
           : number(std::ceil(double(RunBytes) / Target)) + " instructions") +
      " instead of " + std::to_string(F.SiblingRun) + "; " +
      predictedText(F, V);
  R.Fixes.push_back(vectorizeSuggestion(Ctx, F));
  R.Fixes.back().After = vectorizedAfter(V, Store);
  return R;
}

/// A loop over the data (striped, warp-stride, a tile's rows): each lane
/// takes 16 bytes per iteration.
Finding loopFinding(const RuleContext &Ctx, const RuleInfo &Info,
                    const AccessFacts &F, const VectorizedFacts &V) {
  Finding R = makeFinding(Ctx, F, Info);
  const char *Loop = V.Form == VectorForm::Tile         ? "a loop copying rows"
                     : V.Form == VectorForm::WarpStride ? "a warp-stride loop"
                                                        : "a striped loop";
  R.Message = "`" + F.Array + "`: " + std::to_string(F.BytesPerLane) +
              (F.BytesPerLane == 1 ? " byte" : " bytes") +
              " per lane per instruction in " + Loop +
              othersText(Ctx, F, V, "loop") + "; 16-byte " +
              groupKinds(Ctx, V) + " would need " +
              number(double(V.BytesPerLane) / F.BytesPerLane) +
              "x fewer instructions; " + predictedText(F, V);
  bool Store = F.Kind == AccessKind::Store;
  auto VT = vectorTypeFor(Ctx.Ctx, F.Type, F.BytesPerLane);
  std::string VName = VT ? VT->Name : "uint4";
  std::string K = std::to_string(16 / F.BytesPerLane);
  Fix X;
  X.Kind = FixKind::Vectorize;
  X.Apply = Applicability::Suggestion;
  X.Description =
      (V.Form == VectorForm::Tile
           ? "give each lane " + K + " adjacent elements of a row through " +
                 VName + ", the block's lanes covering " + K +
                 " rows per instruction and the loop " + K + "x shorter"
           : "give each lane " + K +
                 " adjacent elements per iteration through " + VName) +
      " (index in units of " + VName +
      "; the element count must be a multiple of " + K +
      ", or handle the tail separately); " +
      ((F.RunStartAligned16 && *F.RunStartAligned16) ||
               F.Alignment == AlignmentFact::Aligned
           ? std::string("the base is proven 16-byte aligned")
           : std::string("needs the base 16-byte aligned (not proven here)")) +
      "; after: " + perRequestText(F, V) + ", " +
      requestsText(V.RequestsAfter) + " per warp instead of " +
      number(V.RequestsBefore);
  X.Code = "reinterpret_cast<" +
           std::string(Store || groupKinds(Ctx, V) != "loads" ? "" : "const ") +
           VName + " *>(" + F.Array + ")[...]";
  X.After = vectorizedAfter(V, Store);
  R.Fixes.push_back(X);
  if (!V.Why.empty())
    R.Notes.push_back(V.Why);
  return R;
}

/// One element per thread: each thread takes K adjacent ones, the launch
/// K times fewer threads.
Finding threadFinding(const RuleContext &Ctx, const RuleInfo &Info,
                      const AccessFacts &F, const VectorizedFacts &V) {
  Finding R = makeFinding(Ctx, F, Info);
  unsigned Per = V.BytesPerLane / F.BytesPerLane;
  auto VT = vectorTypeFor(Ctx.Ctx, F.Type, F.BytesPerLane);
  std::string VName = V.BytesPerLane == 16 && VT ? VT->Name
                      : V.BytesPerLane == 16     ? "uint4"
                                                 : "uint2";
  std::string Kinds = groupKinds(Ctx, V);
  bool ReadWrite = false;
  for (size_t I : V.Group)
    ReadWrite = ReadWrite || (Ctx.Result.Accesses[I].E == F.E &&
                              Ctx.Result.Accesses[I].Kind != F.Kind);
  R.Message = "`" + F.Array + "`: each thread " +
              (ReadWrite                     ? "reads and writes"
               : F.Kind == AccessKind::Store ? "writes"
                                             : "reads") +
              " one " + std::to_string(F.BytesPerLane) + "-byte element" +
              othersText(Ctx, F, V, "kernel") + ": " +
              std::to_string(WarpSize * F.BytesPerLane) +
              " bytes per warp instruction; with " + std::to_string(Per) +
              " adjacent elements per thread through " + VName +
              " each instruction moves " +
              std::to_string(WarpSize * V.BytesPerLane) + "; " +
              predictedText(F, V);
  Fix X;
  X.Kind = FixKind::Vectorize;
  X.Apply = Applicability::Suggestion;
  X.Description =
      "give each thread " + std::to_string(Per) +
      " adjacent elements through " + VName + " and launch " +
      std::to_string(Per) +
      "x fewer threads (the element count must be a multiple of " +
      std::to_string(Per) + ", or handle the tail separately); " +
      (F.Alignment == AlignmentFact::Aligned
           ? "the warp's run starts on a 32-byte boundary: every " + VName +
                 " is " + std::to_string(V.BytesPerLane) + "-byte aligned"
           : "needs `" + F.Array + "` " + std::to_string(V.BytesPerLane) +
                 "-byte aligned (not proven here)");
  X.Code = "reinterpret_cast<" + std::string(Kinds == "loads" ? "const " : "") +
           VName + " *>(" + F.Array +
           ")[i]  // i: the thread's index, now over " + VName + " elements";
  X.After = vectorizedAfter(V, F.Kind == AccessKind::Store);
  R.Fixes.push_back(X);
  return R;
}

} // namespace

void MissingVectorization::check(const RuleContext &Ctx,
                                 std::vector<Finding> &Out) const {
  double MinGain = Ctx.number(info(), "MinGain");
  double WarningGain = Ctx.number(info(), "WarningGain");
  const std::vector<AccessFacts> &All = Ctx.Result.Accesses;
  for (size_t I = 0; I < All.size(); ++I) {
    const AccessFacts &F = All[I];
    if (checkStructPieces(Ctx, F, info(), Out))
      continue;
    // One finding per rewrite, at its first access. Without a prediction
    // (the launch, a trip count or an address unknown) nothing is said.
    if (!F.Vectorized || F.Vectorized->Lead != I)
      continue;
    const VectorizedFacts &V = *F.Vectorized;
    std::optional<double> Gain = V.gain();
    if (!Gain || *Gain < MinGain || smallData(V))
      continue;
    Finding R = V.Form == VectorForm::Run ? runFinding(Ctx, info(), F, V)
                : V.Form == VectorForm::OnePerThread
                    ? threadFinding(Ctx, info(), F, V)
                    : loopFinding(Ctx, info(), F, V);
    R.Sev = *Gain >= WarningGain ? Severity::Warning : Severity::Note;
    noteOthers(Ctx, F, V, R);
    addCommonNotes(Ctx, F, R);
    Out.push_back(std::move(R));
  }
}

} // namespace cal

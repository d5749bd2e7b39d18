//===- MissingVectorization.cpp - missing-vectorization -------------------===//
//
// Lanes contiguous (or filled by hand-unrolled neighbours), but each moves
// fewer than 16 bytes per instruction while the thread handles several
// adjacent elements (its loop walks a run, or it reads neighbours one by
// one), or its loop strides over a row the block reads whole (striped).
//
//===----------------------------------------------------------------------===//

#include "rules/MissingVectorization.h"

#include "rules/RuleUtil.h"
#include "rules/Suggest.h"

#include "analyzer/CostModel.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecordLayout.h"

#include <cmath>

namespace cal {

namespace {

/// Whether a hand-unrolled run of \p RunBytes starting at \p E is adjacent
/// fields of one aggregate that the compiler already loads with one vector
/// instruction: nvcc merges `v.x + v.y + v.z + v.w` of a float4 (or of any
/// 16-byte-aligned struct) into one ld.v4, `p.x + p.y` of an 8-aligned pair
/// into ld.v2, when the run is a power of two of at most 16 bytes, starts at
/// a multiple of its size within the object and the object's alignment
/// covers it.
bool compilerMergesFields(const clang::ASTContext &Ctx, const clang::Expr *E,
                          int64_t RunBytes) {
  if (RunBytes > 16 || (RunBytes & (RunBytes - 1)) != 0)
    return false;
  const auto *M = llvm::dyn_cast<clang::MemberExpr>(E->IgnoreParenImpCasts());
  if (!M)
    return false;
  const auto *FD = llvm::dyn_cast<clang::FieldDecl>(M->getMemberDecl());
  if (!FD || FD->isBitField())
    return false;
  clang::QualType T = M->getBase()->getType();
  if (M->isArrow())
    T = T->getPointeeType();
  const clang::RecordDecl *RD = T.isNull() ? nullptr : T->getAsRecordDecl();
  if (!RD || !RD->getDefinition() || T->isIncompleteType() ||
      T->isDependentType())
    return false;
  int64_t Align = Ctx.getTypeAlignInChars(T).getQuantity();
  int64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
  int64_t Offset = Ctx.getASTRecordLayout(FD->getParent())
                       .getFieldOffset(FD->getFieldIndex()) /
                   Ctx.getCharWidth();
  return Align >= RunBytes && Offset % RunBytes == 0 &&
         Offset + RunBytes <= Size;
}

const char Bad[] = R"cu(// Four neighbours read one at a time: four 4-byte loads per thread.
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

void launch(const float *in, float *out, int n) {
  scale4<<<n / 1024, 256>>>(in, out, 2.f);
}
)cu";

const char Good[] = R"cu(// One 16-byte load and one 16-byte store per thread.
__global__ void scale4(const float4 *in, float4 *out, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  v.x *= k;
  v.y *= k;
  v.z *= k;
  v.w *= k;
  out[i] = v;
}

void launch(const float4 *in, float4 *out, int n) {
  scale4<<<n / 1024, 256>>>(in, out, 2.f);
}
)cu";

} // namespace

const RuleInfo &MissingVectorization::info() const {
  static const RuleInfo I{
      "missing-vectorization",
      Severity::Warning,
      "Lanes are contiguous but move fewer than 16 bytes per instruction "
      "while each thread handles several adjacent elements.",
      "The hardware's best case needs three things at once: contiguous "
      "lanes, a run that starts on a 32-byte boundary, and 16 bytes per lane "
      "per instruction (512 contiguous bytes, 16 full sectors per warp "
      "request). Narrower accesses need proportionally more instructions "
      "for the same bytes. Measured on an H200: a copy with one float per "
      "thread reaches 2.76 TB/s, with one float4 per thread 4.25 TB/s; a bf16 "
      "row product read 2 bytes per lane (striped) reaches 3.68 TB/s, read "
      "16 bytes per lane 4.26 TB/s. The 16-byte form (float4, int4, uint4, "
      "double2) needs every lane's address to be a multiple of 16: the "
      "finding says whether that is proven. Each finding states what the "
      "cost model (docs/cost-model.md) predicts for this access rewritten "
      "with 16-byte accesses, at its own element size and lane pattern: "
      "requests per warp, L1 lines and sectors per request, and the "
      "kernel's predicted time before and after where the launch is known. "
      "Widths are those of the emitted instruction (docs/emitted-width.md): "
      "ptxas does not merge a thread's adjacent global accesses, so a "
      "global run written element by element is emitted element by "
      "element (the rule reads global memory only).",
      Bad,
      Good,
      {{"OneElementPerThread", "false",
        "Also report a kernel that gives each thread one element of fewer "
        "than 16 bytes, outside any loop, with the warp's lanes contiguous "
        "(an elementwise kernel, a reduction's first load), as a note at its "
        "first such access: giving each thread 16 bytes (float4, 4x fewer "
        "threads) is the rewrite behind the measured 2.76 vs 4.25 TB/s. Off "
        "by default: it fires on nearly every elementwise kernel, and the "
        "rewrite changes the launch. Not for kernels whose threads already "
        "loop over the data, nor for gathers."}},
      "A suggested rewrite with 16-byte vector loads or stores, shown as "
      "code; never applied automatically (it changes the data layout the "
      "code assumes).",
      Applicability::Suggestion};
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
  std::string Type = F.Type.getUnqualifiedType().getAsString();
  std::string What = F.Kind == AccessKind::Store ? "store" : "load";
  Finding R = makeFinding(Ctx, F, Info);
  bool Pads = Padded != Bytes;
  R.Sev = !Pads && Now >= 2 * Then ? Severity::Warning : Severity::Note;
  R.Message = "`" + F.Array + "`: each `" + Type + "` (" +
              std::to_string(Bytes) + " bytes) is " +
              (F.Kind == AccessKind::Store ? "written" : "read") + " as " +
              std::to_string(Now) + " " + std::to_string(F.BytesPerLane) +
              "-byte " + What + "s (the type is " +
              std::to_string(F.BytesPerLane) + "-byte aligned); aligned to " +
              std::to_string(Width) + " bytes it would take " +
              std::to_string(Then) + " " + std::to_string(Width) + "-byte " +
              What + (Then > 1 ? "s" : "") +
              (Pads ? " (padded to " + std::to_string(Padded) + " bytes: " +
                          percent(double(Padded - Bytes) / Bytes) +
                          " more bytes moved)"
                    : "");
  Fix X;
  X.Kind = FixKind::Vectorize;
  X.Apply = Applicability::Suggestion;
  X.Description = "declare `" + Type + "` with __align__(" +
                  std::to_string(Width) + ") (changes its layout" +
                  (Pads ? " and size" : "") +
                  " for every user) so that nvcc copies it in " +
                  std::to_string(Width) + "-byte pieces";
  X.Code = "struct __align__(" + std::to_string(Width) + ") " + Type +
           " { ... };";
  R.Fixes.push_back(X);
  addCommonNotes(Ctx, F, R);
  Out.push_back(std::move(R));
  return true;
}

/// The other half of a compound assignment `a[i] += x`: a load and a store
/// of the same element at the same expression.
static const AccessFacts *compoundPartner(const RuleContext &Ctx,
                                          const AccessFacts &F) {
  for (const AccessFacts &O : Ctx.Result.Accesses)
    if (&O != &F && O.E == F.E && O.Kernel == F.Kernel &&
        O.CallStack == F.CallStack && O.Piece == F.Piece &&
        ((O.Kind == AccessKind::Store && F.Kind == AccessKind::Load) ||
         (O.Kind == AccessKind::Load && F.Kind == AccessKind::Store)))
      return &O;
  return nullptr;
}

/// A global load or store that moves one element of fewer than 16 bytes per
/// thread, outside any loop, with the warp's lanes contiguous: the kernel
/// hands each thread one element (an elementwise kernel, a reduction's first
/// load).
static bool oneElementPerThread(const AccessFacts &F) {
  return F.Space == MemSpace::Global && F.Kind != AccessKind::Atomic &&
         F.AddressKnown && F.BytesPerLane > 0 && F.BytesPerLane < 16 &&
         F.Pieces == 1 && F.LaneGroups == 1 && F.LaneStrideBytes &&
         *F.LaneStrideBytes == F.BytesPerLane && F.SiblingRun == 1 &&
         F.ActiveLanes == WarpSize && F.Loops.empty();
}

/// The kernel's threads already walk the data in a loop (some global
/// access's address moves from one iteration to the next): its single
/// accesses are a prologue or an epilogue, not the kernel's element mapping.
/// A gather (an address loaded from memory) is the kernel's cost: the
/// element mapping is not what to change first.
static bool threadsLoopOrGather(const RuleContext &Ctx, size_t Kernel) {
  for (const AccessFacts &O : Ctx.Result.Accesses)
    if (O.Kernel == Kernel && O.Space == MemSpace::Global) {
      if (!O.AddressKnown)
        return true;
      for (const LoopFact &L : O.Loops)
        if (!L.StrideBytes || *L.StrideBytes != 0)
          return true;
    }
  return false;
}

/// One element per thread (DESIGN.md: a copy with one float per thread
/// reaches 2.76 TB/s on an H200, with one float4 4.25): one note per kernel
/// configuration, at its first such access, naming the others.
static void checkOneElementPerThread(const RuleContext &Ctx,
                                     const RuleInfo &Info,
                                     std::vector<Finding> &Out) {
  std::vector<bool> Done(Ctx.Result.Kernels.size(), false);
  for (const AccessFacts &F : Ctx.Result.Accesses) {
    if (Done[F.Kernel] || !oneElementPerThread(F))
      continue;
    Done[F.Kernel] = true;
    if (threadsLoopOrGather(Ctx, F.Kernel))
      continue;
    std::vector<const AccessFacts *> Others;
    for (const AccessFacts &O : Ctx.Result.Accesses)
      if (&O != &F && O.Kernel == F.Kernel && oneElementPerThread(O) &&
          !(O.E == F.E && O.CallStack == F.CallStack))
        Others.push_back(&O);
    unsigned Per16 = 16 / F.BytesPerLane;
    auto VT = vectorTypeFor(Ctx.Ctx, F.Type, F.BytesPerLane);
    std::string V = VT ? VT->Name : "uint4";
    // The warp's run starting on a 32-byte boundary puts every group of
    // Per16 lanes on a 16-byte one: what the vector form needs of the base.
    bool Aligned16 = F.Alignment == AlignmentFact::Aligned;
    bool ReadWrite = compoundPartner(Ctx, F) != nullptr;
    Finding R = makeFinding(Ctx, F, Info);
    R.Sev = Severity::Note;
    R.Message =
        "`" + F.Array + "`: each thread " +
        (ReadWrite                       ? "reads and writes"
         : F.Kind == AccessKind::Store ? "writes"
                                       : "reads") +
        " one " +
        std::to_string(F.BytesPerLane) + "-byte element" +
        (Others.empty()
             ? std::string()
             : " (and " + std::to_string(Others.size()) + " more " +
                   (Others.size() == 1 ? "access" : "accesses") +
                   " of the kernel likewise)") +
        ": " + std::to_string(WarpSize * F.BytesPerLane) +
        " bytes per warp instruction; with " + std::to_string(Per16) +
        " adjacent elements per thread through " + V +
        " each instruction moves 512 (measured on an H200: a copy with one "
        "float per thread 2.76 TB/s, with one float4 4.25 TB/s)";
    Fix X;
    X.Kind = FixKind::Vectorize;
    X.Apply = Applicability::Suggestion;
    X.Description =
        "give each thread " + std::to_string(Per16) +
        " adjacent elements through " + V + " and launch " +
        std::to_string(Per16) + "x fewer threads (the element count must be "
        "a multiple of " + std::to_string(Per16) +
        ", or handle the tail separately); " +
        (Aligned16 ? std::string("the warp's run starts on a 32-byte "
                                 "boundary: every ") +
                         V + " is 16-byte aligned"
                   : std::string("needs `") + F.Array +
                         "` 16-byte aligned (not proven here)");
    X.Code = "reinterpret_cast<" +
             std::string(F.Kind == AccessKind::Load && !ReadWrite ? "const "
                                                                  : "") +
             V +
             " *>(" + F.Array + ")[i]  // i: the thread's index, now over " +
             V + " elements";
    R.Fixes.push_back(X);
    for (const AccessFacts *O : Others)
      R.LocatedNotes.push_back(
          {O->E->getExprLoc(),
           std::string(O->Kind == AccessKind::Store ? "store" : "load") +
               " of `" + O->Array + "`, one " +
               std::to_string(O->BytesPerLane) +
               "-byte element per thread"});
    addCommonNotes(Ctx, F, R);
    Out.push_back(std::move(R));
  }
}

/// The access rewritten with \p Target-byte vector accesses, and what the
/// cost model predicts of it (analyzer/CostModel.h): the figures a finding
/// states for this access's element size and pattern.
struct VectorizedFigures {
  AccessFacts After;
  double RequestsBefore = 0, RequestsAfter = 0; ///< per warp
  bool ExecKnown = false; ///< else per execution of the loops around it
  double LinesBefore = 0, LinesAfter = 0;       ///< per request
  double SectorsBefore = 0, SectorsAfter = 0;   ///< per request
  std::optional<KernelPrediction> KernelBefore, KernelAfter;
};

/// \p ThreadLevel: the thread's hand-unrolled run (\p F and its siblings)
/// becomes ceil(run / Target) vector accesses at the same lanes; else
/// (a loop over the data, lanes contiguous) each lane takes Target bytes,
/// lanes Target apart, in 1 / (Target / element) of the iterations.
static std::optional<VectorizedFigures>
vectorizedFigures(const RuleContext &Ctx, const AccessFacts &F, unsigned Target,
                  bool ThreadLevel, const AccessFacts *Partner) {
  if (!F.LaneOffsets || F.BytesPerLane == 0 || F.LaneGroups != 1)
    return std::nullopt;
  double K = double(Target) / F.BytesPerLane;
  int64_t RunBytes = int64_t(F.SiblingRun) * F.BytesPerLane;
  unsigned Pieces =
      ThreadLevel ? unsigned((RunBytes + Target - 1) / Target) : 1;
  int64_t Base = F.Alignment == AlignmentFact::Aligned ? 0
                 : F.MisalignBytes                     ? *F.MisalignBytes
                                                       : 0;
  WarpRequest Req;
  Req.BytesPerLane = Target;
  Req.Active = F.ActiveMask;
  for (unsigned L = 0; L < WarpSize; ++L)
    Req.Offset[L] = ThreadLevel ? (*F.LaneOffsets)[L] : int64_t(L) * Target;
  RequestCost C = costOf(Req, Base);
  VectorizedFigures V;
  V.After = F;
  AccessFacts &A = V.After;
  A.BytesPerLane = Target;
  A.SectorsPerRequest = C.Sectors;
  A.LinesPerRequest = C.Lines;
  A.PartialSectorsPerRequest = C.PartialSectors;
  A.BytesPerRequest = C.BytesUsed;
  A.SectorUtilization = C.Sectors ? double(C.BytesUsed) / (32.0 * C.Sectors) : 0;
  double Exec = F.ExecutionsPerWarp.value_or(1);
  if (ThreadLevel) {
    A.SiblingRun = Pieces;
    A.SiblingIndex = 0;
    A.ExecutionsPerWarp = Exec * Pieces;
  } else {
    A.LaneStrideBytes = Target;
    A.ExecutionsPerWarp = Exec / K;
  }
  V.ExecKnown = F.ExecutionsPerWarp.has_value();
  V.RequestsBefore = Exec * (ThreadLevel ? F.SiblingRun : 1);
  V.RequestsAfter = *A.ExecutionsPerWarp;
  V.LinesBefore = F.LinesPerRequest.value_or(0);
  V.LinesAfter = C.Lines;
  V.SectorsBefore = F.SectorsPerRequest.value_or(0);
  V.SectorsAfter = C.Sectors;
  // The kernel's prediction with this access (its siblings, and the other
  // half of `a[i] += x`) rewritten.
  KernelPrediction P0 = predictKernel(Ctx.Result, F.Kernel);
  if (!P0.Complete || !F.ExecutionsPerWarp)
    return V;
  AnalysisResult R;
  R.Kernels = Ctx.Result.Kernels;
  R.Regions = Ctx.Result.Regions;
  size_t Me = &F - Ctx.Result.Accesses.data();
  for (size_t I = 0; I < Ctx.Result.Accesses.size(); ++I) {
    const AccessFacts &O = Ctx.Result.Accesses[I];
    if (O.Kernel != F.Kernel)
      continue;
    if (ThreadLevel && I > Me && I < Me + F.SiblingRun)
      continue; // merged into the first
    if (&O == &F) {
      R.Accesses.push_back(A);
      continue;
    }
    if (Partner && &O == Partner) {
      AccessFacts PA = A;
      PA.Kind = O.Kind;
      PA.E = O.E;
      R.Accesses.push_back(PA);
      continue;
    }
    R.Accesses.push_back(O);
  }
  KernelPrediction P1 = predictKernel(R, F.Kernel);
  if (P1.Complete) {
    V.KernelBefore = P0;
    V.KernelAfter = P1;
  }
  return V;
}

/// "the model predicts ...": the figures of \p V, for a finding.
static std::string modelText(const VectorizedFigures &V, unsigned Target) {
  std::string Requests =
      V.ExecKnown ? number(V.RequestsBefore) + " -> " +
                        number(V.RequestsAfter) + " requests per warp"
                  : number(V.RequestsBefore / V.RequestsAfter) +
                        "x fewer requests";
  std::string S = "the model predicts for this access with " +
                  std::to_string(Target) + "-byte accesses: " + Requests +
                  ", " + number(V.LinesBefore) + " -> " +
                  number(V.LinesAfter) + " L1 lines (" +
                  number(V.SectorsBefore) + " -> " + number(V.SectorsAfter) +
                  " sectors) per request";
  if (V.KernelBefore && V.KernelAfter) {
    double T0 = V.KernelBefore->Time * 1e6, T1 = V.KernelAfter->Time * 1e6;
    S += "; the kernel " + number(T0) + " -> " + number(T1) + " us (" +
         (T1 > 0 ? number(T0 / T1) : std::string("?")) + "x)";
  } else {
    S += " (no kernel time: the launch is not fully known)";
  }
  return S;
}

static FixAfter vectorizedAfter(const VectorizedFigures &V, bool Store) {
  FixAfter A;
  A.Instruction = std::string(Store ? "STG.E" : "LDG.E") +
                  (V.After.BytesPerLane == 16 ? ".128" : ".64");
  A.Numbers = {{"sectors_per_request", V.SectorsAfter},
               {"lines_per_request", V.LinesAfter},
               {"requests_per_warp", V.RequestsAfter}};
  if (V.KernelAfter)
    A.Numbers.push_back({"predicted_time_us", V.KernelAfter->Time * 1e6});
  return A;
}

void MissingVectorization::check(const RuleContext &Ctx,
                                 std::vector<Finding> &Out) const {
  if (Ctx.flag(info(), "OneElementPerThread"))
    checkOneElementPerThread(Ctx, info(), Out);
  for (const AccessFacts &F : Ctx.Result.Accesses) {
    // `a[i] += x`: one finding, at the store, for the load and the store.
    const AccessFacts *Partner = compoundPartner(Ctx, F);
    if (Partner && F.Kind == AccessKind::Load)
      continue;
    if (checkStructPieces(Ctx, F, info(), Out))
      continue;
    if (F.Space != MemSpace::Global || F.Kind == AccessKind::Atomic ||
        !F.AddressKnown || F.BytesPerLane >= 16 || F.BytesPerLane == 0 ||
        F.LaneGroups != 1 || !F.LaneStrideBytes || F.ActiveLanes < 2)
      continue;
    int64_t Stride = *F.LaneStrideBytes;
    int64_t RunBytes = int64_t(F.SiblingRun) * F.BytesPerLane;
    // Lanes contiguous, or hand-unrolled neighbours fill the gaps exactly.
    bool Contiguous = Stride == F.BytesPerLane;
    bool Unrolled = F.SiblingRun > 1 && Stride == RunBytes;
    if (!Contiguous && !Unrolled)
      continue;
    // Report a hand-unrolled run once, at its first access.
    if (Unrolled && F.SiblingIndex != 0)
      continue;
    // Fields of an aligned vector or struct: already one vector load.
    if (Unrolled && compilerMergesFields(Ctx.Ctx, F.E, RunBytes))
      continue;

    // The thread's own run that a vector access could take whole: the
    // hand-unrolled neighbours of one iteration. (A loop that continues the
    // run walks into the next lane's elements, since the lanes are exactly
    // one run apart: a sliding window whose later pieces are not aligned for
    // every lane. Contiguous single elements whose thread also walks on --
    // a stencil's window `in[i + d]` -- overlap the same way: no vector
    // piece starts on its own boundary in every lane.)
    bool ThreadLevel = Unrolled;
    int64_t ThreadRun = RunBytes;
    std::string StripeNote;
    if (!ThreadLevel) {
      // The thread's loop handles several elements, and the warp's requests
      // of successive iterations tile the data (striped, block-stride,
      // grid-stride): the loop advances by a whole number of warp-wide runs
      // and no farther than the block's (or the grid's) threads reach.
      if (F.Loops.empty())
        continue;
      const LoopFact &L = F.Loops.back();
      int64_t Span = int64_t(F.ActiveLanes) * F.BytesPerLane;
      const KernelInfo &K = Ctx.Result.Kernels[F.Kernel];
      if (L.StrideBytes) {
        if (*L.StrideBytes <= 0 || Span == 0 || *L.StrideBytes % Span != 0)
          continue;
        int64_t BlockSpan =
            K.Shape.Dim ? (*K.Shape.Dim)[0] * (*K.Shape.Dim)[1] *
                              (*K.Shape.Dim)[2] * int64_t(F.BytesPerLane)
                        : 1024 * int64_t(F.BytesPerLane);
        if (*L.StrideBytes > BlockSpan * int64_t(L.StrideCoveredRuns))
          continue;
      } else if (L.StrideBlockRuns && L.StrideWholeWarps &&
                 F.ActiveLanes == WarpSize &&
                 *L.StrideBlockRuns <= double(L.StrideCoveredRuns)) {
        bool Grid = L.StrideSymbolic.find("gridDim") != std::string::npos;
        StripeNote = "the loop steps by " + L.StrideSymbolic + " bytes, " +
                     (*L.StrideBlockRuns > 1
                          ? "which the " + std::string(Grid ? "grid's" : "block's") +
                                " threads read whole with this and the "
                                "iteration's other accesses of `" +
                                F.Array + "`"
                          : "no farther than the " +
                                std::string(Grid ? "grid's" : "block's") +
                                " threads reach in one iteration") +
                     std::string(K.Shape.Dim ? ""
                                             : " (blockDim.x assumed a "
                                               "multiple of 32)") +
                     ": the warps' requests of successive iterations tile "
                     "the data";
      } else {
        continue;
      }
      // A loop the lanes run fewer than twice on average (an epilogue, a
      // tail over a few bins) leaves no instructions to save.
      if (L.Trip && *L.Trip < 2)
        continue;
      if (!L.Trip && L.TripMin && L.TripMax &&
          (*L.TripMin + *L.TripMax) < 4)
        continue;
    }
    // A vector piece has to fit in the thread's run.
    if (ThreadLevel && ThreadRun < 16 && !(ThreadRun >= 8 && ThreadRun % 8 == 0))
      continue;

    Finding R = makeFinding(Ctx, F, info());
    unsigned Target = ThreadLevel && ThreadRun < 16 ? 8 : 16;
    double Fewer = double(Target) / F.BytesPerLane;
    std::string What = Partner ? "loads and stores"
                       : F.Kind == AccessKind::Store ? "stores"
                                                     : "loads";
    if (Unrolled) {
      R.Sev = Target == 16 ? Severity::Warning : Severity::Note;
      R.Message = "`" + F.Array + "`: " + std::to_string(F.SiblingRun) +
                  " adjacent elements " +
                  (F.Kind == AccessKind::Store ? "written" : "read") +
                  " one at a time (" +
                  std::to_string(F.BytesPerLane) + " bytes per lane per " +
                  "instruction); " +
                  (RunBytes <= Target ? std::string("one ") : std::string()) +
                  std::to_string(Target) + "-byte " +
                  (F.Kind == AccessKind::Store ? "store" : "load") +
                  (RunBytes <= Target ? " per thread" : "s") +
                  " would move them " +
                  (RunBytes <= Target
                       ? "in 1 instruction instead of " +
                             std::to_string(F.SiblingRun)
                       : "in " + number(std::ceil(double(RunBytes) / Target)) +
                             " instructions instead of " +
                             std::to_string(F.SiblingRun));
    } else {
      R.Sev = Severity::Note;
      R.Message = "`" + F.Array + "`: " + std::to_string(F.BytesPerLane) +
                  (F.BytesPerLane == 1 ? " byte" : " bytes") +
                  " per lane per instruction in a loop over the data; " +
                  "16-byte " + What + " would need " + number(Fewer) +
                  "x fewer instructions";
    }
    auto Figures = vectorizedFigures(Ctx, F, Target, ThreadLevel, Partner);
    if (Figures)
      R.Message += "; " + modelText(*Figures, Target);
    if (ThreadLevel) {
      R.Fixes.push_back(vectorizeSuggestion(Ctx, F));
      if (Figures)
        R.Fixes.back().After =
            vectorizedAfter(*Figures, F.Kind == AccessKind::Store);
    } else {
      Fix X;
      X.Kind = FixKind::Vectorize;
      X.Apply = Applicability::Suggestion;
      auto VT = vectorTypeFor(Ctx.Ctx, F.Type, F.BytesPerLane);
      std::string V = VT ? VT->Name : "uint4";
      X.Description =
          "give each lane " + std::to_string(16 / F.BytesPerLane) +
          " adjacent elements per iteration through " + V +
          " (index in units of " + V + "; the element count must be a "
          "multiple of " +
          std::to_string(16 / F.BytesPerLane) +
          ", or handle the tail separately); " +
          ((F.RunStartAligned16 && *F.RunStartAligned16) ||
                   F.Alignment == AlignmentFact::Aligned
               ? std::string("the base is proven 16-byte aligned")
               : std::string("needs the base 16-byte aligned (not proven "
                             "here)"));
      X.Code = "reinterpret_cast<" +
               std::string(F.Kind == AccessKind::Load && !Partner ? "const "
                                                                  : "") +
               V + " *>(" + F.Array + ")[...]";
      if (Figures) {
        X.After = vectorizedAfter(*Figures, F.Kind == AccessKind::Store);
        X.Description += "; after: " + number(Figures->SectorsAfter) +
                         " sectors per request, " +
                         number(Figures->RequestsAfter) +
                         " requests per warp instead of " +
                         number(Figures->RequestsBefore);
      }
      R.Fixes.push_back(X);
    }
    if (!StripeNote.empty())
      R.Notes.push_back(StripeNote);
    addCommonNotes(Ctx, F, R);
    Out.push_back(std::move(R));
  }
}

} // namespace cal

//===- SharedBankConflict.cpp - shared-bank-conflict ----------------------===//
//
// A shared-memory access whose lanes hit the same bank at different words:
// the request is replayed once per word. The fix-it pads the array's
// innermost dimension by the smallest amount that makes every access to it
// conflict-free in every instantiation while keeping its vector accesses
// aligned -- found by asking the analyzer for the facts under each padding
// (RuleContext::padded: priced from the rows its walks recorded, without
// walking the kernel again, where it recorded them).
// Where no padding does, an XOR swizzle is suggested.
//
//===----------------------------------------------------------------------===//

#include "rules/SharedBankConflict.h"

#include "rules/LayoutRewrites.h"
#include "rules/RuleUtil.h"
#include "rules/Suggest.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace cal {

using namespace clang;

namespace {

const char Bad[] =
    R"cu(// Tiled transpose through a 32 x 32 tile: reading a column of the tile,
// lanes are 32 words apart and all hit the same bank.
#define TILE 32

__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch(const float *in, float *out, int n) {
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, 8)>>>(in, out, n);
}
)cu";

const char Good[] =
    R"cu(// One padding column makes the row stride 33 words: a column of the tile
// spreads over all 32 banks.
#define TILE 32

__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch(const float *in, float *out, int n) {
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, 8)>>>(in, out, n);
}
)cu";

constexpr int64_t MaxStaticShared = 48 * 1024;

/// Every use of \p VD in \p Body indexes it fully (`sh[a][b]`, possibly as
/// `*reinterpret_cast<T *>(&sh[a][b])`): then padding its innermost
/// dimension leaves every element where the code expects it.
bool paddingSafe(const VarDecl *VD, unsigned Rank, const Stmt *Body) {
  bool Safe = true;
  forEachArrayUse(Body, VD, Rank, [&](const ArrayUse &U) {
    Safe = U.K == ArrayUse::Element;
    return Safe;
  });
  return Safe;
}

unsigned arrayRank(const ASTContext &Ctx, QualType T) {
  unsigned R = 0;
  while (const auto *CA = Ctx.getAsConstantArrayType(T)) {
    ++R;
    T = CA->getElementType();
  }
  return R;
}

/// The source range of the innermost dimension's size (`TILE` in
/// `tile[TILE][TILE]`), as a file range; invalid inside a macro body.
CharSourceRange innermostSizeRange(const VarDecl *VD) {
  const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
  if (!TSI)
    return {};
  TypeLoc TL = TSI->getTypeLoc();
  std::optional<ArrayTypeLoc> Inner;
  while (true) {
    TL = TL.getUnqualifiedLoc();
    if (auto A = TL.getAs<ArrayTypeLoc>()) {
      Inner = A;
      TL = A.getElementLoc();
      continue;
    }
    break;
  }
  if (!Inner || !Inner->getSizeExpr())
    return {};
  const ASTContext &Ctx = VD->getASTContext();
  return Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Inner->getSizeExpr()->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
}

struct PadPlan {
  bool Computed = false;
  std::optional<unsigned> Pad; ///< elements
  std::string Why;             ///< why there is no machine-applicable pad
  CharSourceRange SizeRange;
  std::string NewSizeText;
  std::string DeclText; ///< the declaration after padding
  /// The padded array's accesses under the padding, per configuration.
  std::map<size_t, AnalysisResult> After;
};

/// Why the array's rows cannot be padded by a fix, whatever the padding;
/// empty when they can.
std::string paddingObstacle(const RuleContext &Ctx,
                            const std::map<size_t, const VarDecl *> &Configs,
                            PadPlan &Plan) {
  const VarDecl *Any = Configs.begin()->second;
  unsigned Rank = arrayRank(Ctx.Ctx, Any->getType());
  if (Rank < 2)
    return "a one-dimensional array has no row to pad: change the stride in "
           "the index instead";
  if (Any->hasExternalStorage())
    return "dynamic shared memory: pad the row pitch in the index";
  for (auto &[K, VD] : Configs)
    if (!paddingSafe(VD, Rank, Ctx.Result.Kernels[K].Decl->getBody()))
      return "`" + VD->getNameAsString() +
             "` is also used other than element by element (a pointer into "
             "it, sizeof), where padding would change the layout the code "
             "assumes";
  Plan.SizeRange = innermostSizeRange(Any);
  if (Plan.SizeRange.isInvalid())
    return "the array's size is written inside a macro";
  return "";
}

/// Whether padding the rows by \p Pad elements makes every access of every
/// configuration in \p Order conflict-free, none worse; their accesses
/// after it in \p After. The configuration that ruled it out moves to the
/// front of \p Order: most paddings fail on the same instantiation, so
/// each then costs one query.
bool paddingWorks(const RuleContext &Ctx, SourceLocation Key,
                  std::vector<std::pair<size_t, const VarDecl *>> &Order,
                  unsigned Pad, int64_t ElemBytes,
                  std::map<size_t, AnalysisResult> &After) {
  const ASTContext &AC = Ctx.Ctx;
  auto RuledOutBy = [&](size_t Idx) {
    std::rotate(Order.begin(), Order.begin() + Idx, Order.begin() + Idx + 1);
    After.clear();
    return false;
  };
  // A conflict in the first warp is one of the block: most paddings fail
  // there, at a fraction of the cost of every warp.
  auto Conflicts = [&](const AnalysisResult &R) {
    for (const AccessFacts &F : R.Accesses) {
      auto *FVD =
          dyn_cast_or_null<VarDecl>(F.Region ? F.Region->Decl : nullptr);
      if (FVD && arrayKey(FVD) == Key && F.AddressKnown && F.BankConflictWays &&
          *F.BankConflictWays > 1.0 + 1e-9)
        return true;
    }
    return false;
  };
  for (size_t Idx = 0; Idx < Order.size(); ++Idx) {
    auto [K, VD] = Order[Idx];
    int64_t Size = AC.getTypeSizeInChars(VD->getType()).getQuantity();
    QualType Row = VD->getType();
    int64_t Rows = 1;
    while (const auto *CA = AC.getAsConstantArrayType(Row)) {
      Row = CA->getElementType();
      if (AC.getAsConstantArrayType(Row))
        Rows *= CA->getSize().getSExtValue();
    }
    if (Size + Rows * Pad * ElemBytes > MaxStaticShared) {
      After.clear();
      return false;
    }
    if (Ctx.Result.Kernels[K].ConcreteWarps &&
        Conflicts(Ctx.padded(K, VD, Pad, /*FirstWarpOnly=*/true)))
      return RuledOutBy(Idx);
    // Every access conflict-free, none worse (a merged 16-byte load that
    // padding would split into scalars is worse).
    LayoutOutcome O = judgeLayout(Ctx.Result, K, VD, Ctx.padded(K, VD, Pad));
    if (!O.Valid || !O.ConflictFree)
      return RuledOutBy(Idx);
    After[K] = std::move(O.After);
  }
  return true;
}

PadPlan planPadding(const RuleContext &Ctx, SourceLocation Key) {
  PadPlan Plan;
  Plan.Computed = true;
  const ASTContext &AC = Ctx.Ctx;
  std::map<size_t, const VarDecl *> Configs = configurationsOf(Ctx, Key);
  if (Configs.empty()) {
    Plan.Why = "no access found";
    return Plan;
  }
  Plan.Why = paddingObstacle(Ctx, Configs, Plan);
  if (!Plan.Why.empty())
    return Plan;
  QualType Elem = Configs.begin()->second->getType();
  while (const auto *CA = AC.getAsConstantArrayType(Elem))
    Elem = CA->getElementType();
  int64_t ElemBytes = AC.getTypeSizeInChars(Elem).getQuantity();
  unsigned MaxPad = static_cast<unsigned>(
      std::max<int64_t>(1, 32 * 4 / std::max<int64_t>(1, ElemBytes)));
  std::vector<std::pair<size_t, const VarDecl *>> Order(Configs.begin(),
                                                        Configs.end());
  for (unsigned Pad = 1; Pad <= MaxPad && !Plan.Pad; ++Pad)
    if (paddingWorks(Ctx, Key, Order, Pad, ElemBytes, Plan.After))
      Plan.Pad = Pad;
  if (!Plan.Pad) {
    Plan.Why = "no padding up to " + std::to_string(MaxPad) +
               " elements makes every access conflict-free with its vector "
               "accesses aligned" +
               (Configs.size() > 1
                    ? std::string(" in all ") + std::to_string(Configs.size()) +
                          " instantiations that share this declaration"
                    : std::string());
    return Plan;
  }
  std::string Old = Lexer::getSourceText(Plan.SizeRange, AC.getSourceManager(),
                                         AC.getLangOpts())
                        .str();
  int64_t Literal;
  if (!llvm::StringRef(Old).trim().getAsInteger(10, Literal))
    Plan.NewSizeText = std::to_string(Literal + *Plan.Pad);
  else
    Plan.NewSizeText = Old + " + " + std::to_string(*Plan.Pad);
  return Plan;
}

} // namespace

const RuleInfo &SharedBankConflict::info() const {
  static const RuleInfo I{
      "shared-bank-conflict",
      Severity::Warning,
      "Lanes of a warp hit the same shared-memory bank at different words, "
      "so the request is replayed once per word.",
      "Shared memory has 32 banks of 4-byte words. A warp's request takes as "
      "many wavefronts as the largest number of distinct words that map to "
      "one bank (the same word read by several lanes is a broadcast); 8- and "
      "16-byte accesses are served per half- and quarter-warp (a half-warp of "
      "16-byte loads whose aligned quads of lanes each read one address goes "
      "in fewer: docs/emitted-width.md). A row stride "
      "of S words between lanes gives a gcd(S, 32)-way conflict, which is "
      "why power-of-two row lengths are the usual culprit. Measured on an "
      "H200: a tiled transpose through `float t[32][32]` takes 32.3 "
      "wavefronts per shared load and reaches 1.65 TB/s; through `t[32][33]` "
      "1.03 wavefronts and 3.59 TB/s. A bf16 staging buffer `[256][16]` is "
      "8-way, `[256][24]` 4-way, `[256][18]` conflict-free. The degree is "
      "that of the emitted instruction (docs/emitted-width.md): where ptxas "
      "merges a thread's adjacent 4-byte loads into an LDS.128 (an unrolled "
      "loop over `Bs[dotIdx * BN + threadCol * 8 + i]`), the request is "
      "served per quarter-warp and the degree is the LDS.128's (2-way there, "
      "as Nsight Compute measures, where the eight scalar loads as written "
      "would be 4-way). Every rewrite is re-analyzed before it is offered: "
      "the analyzer computes the facts of every access to the array under "
      "it, and the rewrite is offered only where this access gets better and "
      "no other access gets worse (more wavefronts, a merged load split "
      "into scalars, a vector access misaligned); its note states the "
      "result (\"after: conflict-free, 1 wavefront per STS\").",
      Bad,
      Good,
      {},
      "Pads the array's innermost dimension, or a one-dimensional array's "
      "row stride (`(...) * BM + ...`), by the smallest amount that makes "
      "every access to it conflict-free with none worse (machine-applicable "
      "where the declared size is written with the same constant); where no "
      "padding can, an XOR swizzle of the column by the row written in the "
      "array's own indices; scalar stores of a vector's parts become one "
      "vector store where it is aligned (or with the padding that aligns "
      "it). Each is offered only after re-analysis shows it better, with its "
      "after-numbers.",
      Applicability::MachineApplicable};
  return I;
}

void SharedBankConflict::check(const RuleContext &Ctx,
                               std::vector<Finding> &Out) const {
  std::map<SourceLocation, PadPlan> Plans;
  std::map<SourceLocation, LayoutPlan> Layouts;
  std::map<SourceLocation, bool> LayoutsDone;
  for (const AccessFacts &F : Ctx.Result.Accesses) {
    if (F.Space != MemSpace::Shared || !F.AddressKnown || !F.BankConflictWays ||
        *F.BankConflictWays < 1.5)
      continue;
    Finding R = makeFinding(Ctx, F, info());
    double Ways = *F.BankConflictWays;
    R.Sev = Ways >= 2 ? Severity::Warning : Severity::Note;
    std::string Why;
    // The gcd explains the degree when all 32 lanes take part and it is
    // what the warp gets (not an average over requests of different lanes).
    int64_t G = F.LaneStrideBytes && *F.LaneStrideBytes % 4 == 0
                    ? std::gcd(std::abs(*F.LaneStrideBytes) / 4, int64_t(32))
                    : 0;
    if (F.LaneStrideBytes && *F.LaneStrideBytes % 4 == 0 &&
        *F.LaneStrideBytes != 0 && F.BytesPerLane <= 4 &&
        F.ActiveLanes == WarpSize && std::abs(Ways - double(G)) < 1e-6) {
      int64_t Words = std::abs(*F.LaneStrideBytes) / 4;
      Why = ": adjacent lanes are " + std::to_string(Words) + " word" +
            (Words == 1 ? "" : "s") + " apart, and gcd(" +
            std::to_string(Words) +
            ", 32) = " + std::to_string(std::gcd(Words, int64_t(32))) +
            " lanes share each bank";
    }
    R.Message = "`" + F.Array + "`: " + number(Ways) + "-way bank conflict, " +
                number(*F.WavefrontsPerRequest) +
                " wavefronts per request instead of " +
                number(*F.IdealWavefronts) + Why;

    auto *VD = dyn_cast_or_null<VarDecl>(F.Region->Decl);
    if (VD) {
      SourceLocation Key = arrayKey(VD);
      PadPlan &Plan = Plans[Key];
      if (!Plan.Computed)
        Plan = planPadding(Ctx, Key);
      R.LocatedNotes.push_back(
          {VD->getLocation(), "`" + VD->getNameAsString() + "` declared here"});
      bool Offered = false;
      if (Plan.Pad) {
        Fix X;
        X.Kind = FixKind::Pad;
        X.Apply = Applicability::MachineApplicable;
        X.Description = "pad the innermost dimension of `" +
                        VD->getNameAsString() + "` by " +
                        std::to_string(*Plan.Pad) + " element" +
                        (*Plan.Pad == 1 ? "" : "s") +
                        ": every access to it becomes conflict-free";
        auto A = Plan.After.find(F.Kernel);
        const AccessFacts *After =
            A == Plan.After.end() ? nullptr : sameAccess(A->second, F);
        if (After) {
          X.Description += "; " + afterText(F, *After);
          X.After = afterOf(*After);
        }
        X.Edits.push_back({Plan.SizeRange, Plan.NewSizeText});
        R.Fixes.push_back(X);
        Offered = true;
      } else {
        // A one-dimensional array's row stride, else a swizzle; each
        // re-analyzed, offered only where it makes this access better.
        LayoutPlan &LP = Layouts[Key];
        if (!LayoutsDone[Key]) {
          LayoutsDone[Key] = true;
          auto Configs = configurationsOf(Ctx, Key);
          if (arrayRank(Ctx.Ctx, VD->getType()) == 1)
            LP = planRowPadding(Ctx, Configs);
          if (LP.K == LayoutPlan::Kind::None) {
            std::string PadWhy = LP.Why;
            LP = planSwizzle(Ctx, Configs);
            if (LP.K == LayoutPlan::Kind::None && !PadWhy.empty())
              LP.Why = PadWhy;
          }
          if (LP.K == LayoutPlan::Kind::None && Plan.Why.size() &&
              arrayRank(Ctx.Ctx, VD->getType()) > 1)
            LP.Why = Plan.Why;
        }
        if (auto X = layoutFix(Ctx, LP, F, VD)) {
          R.Fixes.push_back(*X);
          Offered = true;
        }
      }
      if (auto V = vectorStoreFix(Ctx, F, VD)) {
        R.Fixes.push_back(*V);
        Offered = true;
      }
      if (!Offered) {
        const LayoutPlan &LP = Layouts[Key];
        bool Searched = LP.Why.empty() || LP.Why.rfind("no candidate", 0) == 0;
        R.Notes.push_back(
            "no layout rewrite offered for `" + VD->getNameAsString() + "`: " +
            (Searched ? std::string("no padding or XOR swizzle, each "
                                    "re-analyzed, makes this access better "
                                    "without making another worse")
                      : LP.Why));
      }
    }
    addCommonNotes(Ctx, F, R);
    Out.push_back(std::move(R));
  }
}

} // namespace cal

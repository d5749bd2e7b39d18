//===- Analyzer.cpp -------------------------------------------------------===//
//
// For each kernel configuration:
//  1. the display walk (threadIdx, blockDim and loop variables as named
//     symbols) gives each access its readable symbolic offset;
//  2. the metric walk evaluates the 32 lanes of one symbolic warp (the
//     warp's position in the block is a symbol); if some operation on that
//     position is not exact (threadIdx.x / 64 ...), the block's warps are
//     enumerated concretely instead and the metrics averaged over them, as
//     Nsight Compute averages over requests;
//  3. each access's lane offsets go through the warp model (WarpModel.h) for
//     every value the base address can take modulo 32 bytes (a loop variable
//     may shift it), weighted by how often it takes it;
//  4. each access's metrics over the walks become its facts;
//  5. (analyze()) each access that a vector rewrite would change is priced
//     by the cost model with and without it (VectorRewrite.h).
//
// The stages are pipeline::KernelAnalysis's (analyzer/pipeline/).
//
//===----------------------------------------------------------------------===//

#include "analyzer/Analyzer.h"

#include "analyzer/VectorRewrite.h"
#include "analyzer/pipeline/KernelAnalysis.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cal {

using namespace clang;

const char *alignmentName(AlignmentFact A) {
  switch (A) {
  case AlignmentFact::Aligned:
    return "aligned";
  case AlignmentFact::Misaligned:
    return "misaligned";
  case AlignmentFact::Varies:
    return "varies";
  case AlignmentFact::Unknown:
    return "unknown";
  }
  return "unknown";
}

std::string alignmentConditionText(const std::string &Variable,
                                   int64_t Modulus) {
  return Variable + " % " + std::to_string(Modulus) + " == 0";
}

std::string AlignmentCondition::text() const {
  return alignmentConditionText(Variable, Modulus);
}

void sortAccesses(ASTContext &Ctx, AnalysisResult &R);

namespace pipeline {

void KernelAnalysis::run() {
  bindParameters();
  planRowRecording();
  // 1. The display walk: the readable forms (a padding search reads none).
  std::vector<RawAccess> Display;
  if (!Opts.OnlyPaddedArrays)
    walk(displayInstance(), Display, nullptr);
  if (Meter.spent())
    return stop({Display});
  mergeFieldLoads(Ctx, Display);
  std::map<AccessKey, const RawAccess *> DisplayByKey;
  for (const RawAccess &A : Display)
    DisplayByKey.emplace(keyOf(A), &A);
  // 2. The metric walks: one symbolic warp, or the block's warps.
  MetricWalks MW;
  if (!metricWalks(Display, MW))
    return;
  Result.Kernels[KernelIndex].ConcreteWarps = ConcreteWarps;
  keepRecordedRows(MW);
  // 3. Each access measured in each walk, aggregated by access.
  for (auto &Walk : MW.Walks)
    mergeFieldLoads(Ctx, Walk);
  std::vector<AccessKey> Order;
  std::map<AccessKey, Aggregate> ByKey = aggregate(MW, Order);
  // 4. The facts of each access.
  size_t First = Result.Accesses.size();
  for (const AccessKey &K : Order) {
    auto DI = DisplayByKey.find(K);
    Result.Accesses.push_back(factsOf(
        ByKey[K], MW.Weights, DI == DisplayByKey.end() ? nullptr : DI->second));
  }
  rowsAcrossAccesses(First);
}

/// An array read at different multiples of one parameter by different
/// accesses of the kernel (its rows, `in[x + k * w]` for several k, by
/// statement or inlined call) has that parameter for a row pitch in each of
/// them, as a loop over its rows or warps on different rows would.
void KernelAnalysis::rowsAcrossAccesses(size_t First) {
  std::map<std::pair<const MemRegion *, std::string>, std::vector<int64_t>>
      Multiples;
  auto KeyOf = [](const AccessFacts &F) {
    return std::make_pair(F.Region, F.AlignedIf->Variable);
  };
  for (size_t I = First; I < Result.Accesses.size(); ++I) {
    const AccessFacts &F = Result.Accesses[I];
    if (!F.AlignedIf || !F.Region)
      continue;
    std::vector<int64_t> &M = Multiples[KeyOf(F)];
    for (int64_t C : F.AlignedIf->Multiples)
      if (!llvm::is_contained(M, C))
        M.push_back(C);
  }
  for (size_t I = First; I < Result.Accesses.size(); ++I) {
    AccessFacts &F = Result.Accesses[I];
    if (F.AlignedIf && F.Region && Multiples[KeyOf(F)].size() > 1)
      F.AlignedIf->RowPitch = true;
  }
}

void KernelAnalysis::bindParameters() {
  // Integer parameters: one symbol each, shared by every walk.
  for (const ParmVarDecl *PD : KC.Decl->parameters()) {
    if (PD->getType()->isIntegerType()) {
      SymbolInfo I;
      I.Name = PD->getNameAsString();
      I.Kind = SymbolKind::Param;
      I.Rank = 30;
      Params[PD] = AbsValue::integer(Poly::symbol(Syms.add(I)));
    }
  }
  // What every launch in the file passes (stated with the shape).
  for (const auto &[PD, V] : KC.Shape.ConstParams)
    Params[PD] = AbsValue::integer(Poly(V));
}

bool KernelAnalysis::metricWalks(const std::vector<RawAccess> &Display,
                                 MetricWalks &MW) {
  bool NeedConcrete = false;
  if (auto W = symbolicInstance()) {
    MW.Walks.emplace_back();
    MW.Instances.push_back(*W);
    walk(*W, MW.Walks.back(), &NeedConcrete);
    MW.Weights.push_back(1.0);
    if (Meter.spent()) {
      stop({Display, MW.Walks.back()});
      return false;
    }
  } else {
    NeedConcrete = true;
  }
  if (!NeedConcrete)
    return true;
  MW.Walks.clear();
  MW.Instances.clear();
  MW.Weights.clear();
  ConcreteWarps = true;
  for (const WarpInstance &W : concreteInstances()) {
    MW.Walks.emplace_back();
    MW.Instances.push_back(W);
    walk(W, MW.Walks.back(), nullptr);
    MW.Weights.push_back(1.0);
    if (Meter.spent()) {
      MW.Walks.insert(MW.Walks.begin(), Display);
      stop(MW.Walks);
      return false;
    }
    if (Opts.FirstWarpOnly)
      break;
  }
  if (!KC.Shape.Dim)
    addAssumption(ShapeAssumptions,
                  {Assumption::Kind::FirstWarpOnly, "",
                   "evaluated for the block's first warp (an index operation "
                   "on the warp's position was not exact)"});
  return true;
}

std::map<AccessKey, KernelAnalysis::Aggregate>
KernelAnalysis::aggregate(const MetricWalks &MW,
                          std::vector<AccessKey> &Order) {
  std::map<AccessKey, Aggregate> ByKey;
  for (size_t WI = 0; WI < MW.Walks.size(); ++WI) {
    CurWarp = &MW.Instances[WI];
    std::map<const RawAccess *, Sibling> Runs;
    linkSiblings(MW.Walks[WI], Runs);
    for (const RawAccess &A : MW.Walks[WI]) {
      if (Opts.OnlyPaddedArrays) {
        auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(
            A.Region ? A.Region->Decl : nullptr);
        if (!VD || !Opts.Padding.count(VD))
          continue;
      }
      AccessKey K = keyOf(A);
      auto [It, New] = ByKey.try_emplace(K);
      Aggregate &G = It->second;
      if (New) {
        G.First = &A;
        Order.push_back(K);
      }
      G.Parts.push_back({measure(A), MW.Weights[WI]});
      G.Weight += MW.Weights[WI];
      G.Occurrences += MW.Weights[WI];
      std::optional<double> Execs = 1.0;
      for (const LoopRef &L : A.Loops)
        Execs = L.Trip && Execs ? std::optional<double>(*Execs * *L.Trip)
                                : std::nullopt;
      G.Executions.push_back(Execs);
      const Sibling &Sib = Runs[&A];
      if (Sib.Run >= G.Run) {
        G.Run = Sib.Run;
        G.Index = Sib.Index;
      }
      if (!G.Neighbour)
        G.Neighbour = Sib.Neighbour;
    }
  }
  return ByKey;
}

bool KernelAnalysis::Aggregate::mixedLoops() const {
  for (const auto &[M, Wt] : Parts)
    if (M.Loops.size() != Parts.front().first.Loops.size() ||
        !std::equal(M.Loops.begin(), M.Loops.end(),
                    Parts.front().first.Loops.begin(),
                    [](const LoopFact &X, const LoopFact &Y) {
                      return X.Loop == Y.Loop;
                    }))
      return true;
  return false;
}

void KernelAnalysis::Aggregate::weighByExecutions() {
  for (const std::optional<double> &E : Executions)
    if (!E)
      return;
  for (size_t I = 0; I < Parts.size(); ++I)
    Parts[I].second *= *Executions[I];
}

AccessFacts KernelAnalysis::factsOf(const Aggregate &GIn,
                                    const std::vector<double> &Weights,
                                    const RawAccess *Shown) {
  bool Mixed = GIn.mixedLoops();
  Aggregate Reweighed;
  if (Mixed) {
    Reweighed = GIn;
    Reweighed.weighByExecutions();
  }
  const Aggregate &G = Mixed ? Reweighed : GIn;
  const RawAccess &A = *G.First;
  AccessFacts F = describe(A);
  F.SiblingRun = G.Run;
  F.SiblingIndex = G.Index;
  F.Neighbour = G.Neighbour;
  F.Assumptions = KC.Shape.Assumptions;
  addAssumptions(F.Assumptions, ShapeAssumptions);

  bool AllKnown = true;
  for (auto &[M, W] : G.Parts)
    if (!M.Known) {
      AllKnown = false;
      F.UnknownReason = M.Why;
    }
  const InstanceMetrics &M0 = G.Parts.front().first;
  F.ActiveLanes = M0.ActiveLanes;
  F.ActiveMask = A.Active;
  F.Loops = M0.Loops;
  // Of mixed parts, the loops every part names (the ones walked iteration
  // by iteration in some warp are not the access's loops there).
  if (Mixed)
    for (auto &[M, Wt] : G.Parts)
      if (M.Loops.size() < F.Loops.size())
        F.Loops = M.Loops;
  tripBoundsOverWarps(G, F);
  if (AllKnown) {
    F.AddressKnown = true;
    PartSums S = sumParts(G, F);
    laneFacts(G, F);
    requestFacts(G, S, F);
    alignmentFacts(G, S, F);
    contiguityFacts(G, S, F);
  }
  executionsPerWarp(G, Weights, F, Mixed);
  if (Shown && Shown->Offset)
    readableForm(*Shown, F);
  return F;
}

void KernelAnalysis::tripBoundsOverWarps(const Aggregate &G,
                                         AccessFacts &F) const {
  // Trip-count bounds over every warp of the block.
  for (auto &[M, W] : G.Parts)
    for (size_t I = 0; I < F.Loops.size() && I < M.Loops.size(); ++I) {
      LoopFact &L = F.Loops[I];
      const LoopFact &O = M.Loops[I];
      if (O.Loop != L.Loop)
        break;
      L.TripMin = L.TripMin && O.TripMin
                      ? std::optional<int64_t>(std::min(*L.TripMin, *O.TripMin))
                      : std::nullopt;
      L.TripMax = L.TripMax && O.TripMax
                      ? std::optional<int64_t>(std::max(*L.TripMax, *O.TripMax))
                      : std::nullopt;
    }
}

KernelAnalysis::PartSums KernelAnalysis::sumParts(const Aggregate &G,
                                                  AccessFacts &F) const {
  PartSums S;
  F.SectorsMin = UINT32_MAX;
  double FootW = 0, FootSum = 0;
  for (auto &[M, Wt] : G.Parts) {
    S.W += Wt;
    S.Sec += Wt * M.Sectors;
    S.Lines += Wt * M.Lines;
    S.Partial += Wt * M.Partial;
    S.Bytes += Wt * M.BytesUsed;
    S.Wave += Wt * M.Wavefronts;
    S.Ideal += Wt * M.IdealWavefronts;
    S.SameWarps += Wt * M.SameAddressWarps;
    S.HasBanks = S.HasBanks && M.HasBanks;
    S.Aligned += M.AlignedCases;
    S.Misaligned += M.MisalignedCases;
    S.VecOk += M.VecAligned;
    S.VecBad += M.VecMisaligned;
    S.ResidueExact = S.ResidueExact && M.ResidueExact;
    S.DataDependent = S.DataDependent || M.ResidueDataDependent;
    S.Mis.insert(M.MisalignValues.begin(), M.MisalignValues.end());
    F.SectorsMin = std::min<unsigned>(F.SectorsMin, M.SectorsMin);
    F.SectorsMax = std::max<unsigned>(F.SectorsMax, M.SectorsMax);
    if (M.Footprint) {
      FootW += Wt;
      FootSum += Wt * *M.Footprint;
    }
    addAssumptions(F.Assumptions, M.Assumptions);
    if (M.AlignedIfParam) {
      const InstanceMetrics::ParamCondition &P = *M.AlignedIfParam;
      if (S.CondParam && *S.CondParam != P.Param)
        S.CondOk = false;
      S.CondParam = P.Param;
      for (AlignmentShare Sh : P.Shares) {
        Sh.Weight *= Wt;
        S.CondShares.push_back(Sh);
      }
    } else {
      S.CondOk = S.CondOk && M.ResidueExact;
      AlignmentShare Sh;
      Sh.Weight = Wt;
      Sh.SectorsAt.fill(M.Sectors);
      S.CondShares.push_back(Sh);
    }
  }
  if (FootW > 0)
    S.Foot = FootSum / FootW;
  return S;
}

void KernelAnalysis::laneFacts(const Aggregate &G, AccessFacts &F) const {
  const InstanceMetrics &M0 = G.Parts.front().first;
  F.LaneOffsets = M0.LaneOffsets;
  F.LaneStrideBytes = M0.LaneStride;
  for (auto &[M, Wt] : G.Parts)
    if (M.LaneStride != M0.LaneStride)
      F.LaneStrideBytes.reset();
  F.LaneGroups = M0.Groups;
  F.LaneLayout = M0.LaneStrideText;
  for (auto &[M, Wt] : G.Parts)
    if (M.LaneStrideText != M0.LaneStrideText)
      F.LaneLayout.clear();
}

void KernelAnalysis::requestFacts(const Aggregate &G, const PartSums &S,
                                  AccessFacts &F) const {
  const InstanceMetrics &M0 = G.Parts.front().first;
  if (F.Space != MemSpace::Shared) {
    F.SectorsPerRequest = S.Sec / S.W;
    F.LinesPerRequest = S.Lines / S.W;
    F.PartialSectorsPerRequest = S.Partial / S.W;
    F.BytesPerRequest = S.Bytes / S.W;
    if (S.Sec > 0)
      F.SectorUtilization = S.Bytes / (SectorBytes * S.Sec);
    F.IdealSectors = std::ceil(S.Bytes / S.W / SectorBytes);
    F.SameAddressWarps = S.SameWarps / S.W;
  }
  if (F.Space == MemSpace::Shared && S.HasBanks && S.Ideal > 0 &&
      M0.Groups == 1) {
    F.WavefrontsPerRequest = S.Wave / S.W;
    F.IdealWavefronts = S.Ideal / S.W;
    F.BankConflictWays = S.Wave / S.Ideal;
  }
}

void KernelAnalysis::alignmentFacts(const Aggregate &G, const PartSums &S,
                                    AccessFacts &F) const {
  const InstanceMetrics &M0 = G.Parts.front().first;
  if (M0.Groups == 1 && S.ResidueExact) {
    if (S.Misaligned == 0)
      F.Alignment = AlignmentFact::Aligned;
    else if (S.Aligned == 0)
      F.Alignment = AlignmentFact::Misaligned;
    else
      F.Alignment = AlignmentFact::Varies;
    if (S.Mis.size() == 1 && *S.Mis.begin() != 0)
      F.MisalignBytes = *S.Mis.begin();
    if (S.VecBad == 0)
      F.VectorAligned = true;
    else if (S.VecOk == 0)
      F.VectorAligned = false;
  } else if (M0.Groups == 1 && !S.DataDependent) {
    // What the stated alignment assumptions (unknown terms taken as
    // multiples of 32 bytes) give.
    F.AssumedAlignment = S.Misaligned == 0 ? AlignmentFact::Aligned
                         : S.Aligned == 0  ? AlignmentFact::Misaligned
                                           : AlignmentFact::Varies;
    if (S.Mis.size() == 1 && *S.Mis.begin() != 0)
      F.AssumedMisalignBytes = *S.Mis.begin();
    if (F.AssumedAlignment == AlignmentFact::Aligned && S.CondOk &&
        S.CondParam)
      alignmentCondition(S, F);
  }
}

void KernelAnalysis::alignmentCondition(const PartSums &S,
                                        AccessFacts &F) const {
  std::optional<AlignedIf> If = alignedIf(S.CondShares);
  if (!If)
    return;
  AlignmentCondition C;
  C.Variable = Syms.get(*S.CondParam).Name;
  C.Modulus = If->Modulus;
  C.SectorsIfNotMin = If->SectorsIfNotMin;
  C.SectorsIfNotMax = If->SectorsIfNotMax;
  C.RowPitch = !If->SameInEveryWarp;
  C.VectorModulus = If->VectorModulus;
  for (const AlignmentShare &Sh : S.CondShares)
    if (Sh.Coeff != 0 && !llvm::is_contained(C.Multiples, Sh.Coeff))
      C.Multiples.push_back(Sh.Coeff);
  llvm::sort(C.Multiples);
  // The warps' statements of it, one for the strictest, where the first was.
  Assumption Merged = offsetConditionAssumption(C.Variable, C.Modulus);
  auto Of = [&](const Assumption &A) {
    return A.K == Assumption::Kind::OffsetAlignmentUnknown &&
           A.Subject == C.Variable;
  };
  auto First = std::find_if(F.Assumptions.begin(), F.Assumptions.end(), Of);
  if (First != F.Assumptions.end()) {
    *First = Merged;
    F.Assumptions.erase(std::remove_if(First + 1, F.Assumptions.end(), Of),
                        F.Assumptions.end());
  }
  F.AlignedIf = std::move(C);
}

void KernelAnalysis::contiguityFacts(const Aggregate &G, const PartSums &S,
                                     AccessFacts &F) const {
  const InstanceMetrics &M0 = G.Parts.front().first;
  // Per-thread contiguity: the run of this access (and its hand-unrolled
  // siblings) per iteration, extended by the loop when the loop steps by
  // exactly that run.
  int64_t RunBytes = int64_t(F.SiblingRun) * F.BytesPerLane;
  std::optional<int64_t> Contig = RunBytes;
  if (!F.Loops.empty() && F.Loops.back().StrideBytes) {
    int64_t Step = *F.Loops.back().StrideBytes;
    if (Step != 0 && (Step == RunBytes || Step == -RunBytes)) {
      if (F.Loops.back().Trip)
        Contig = RunBytes * std::max<int64_t>(1, *F.Loops.back().Trip);
      else
        Contig.reset(); // as long as the loop runs
    }
  }
  F.PerThreadContiguousBytes = Contig;
  F.RunStartAligned16 = M0.RunStart16;
  for (auto &[M, Wt] : G.Parts)
    if (M.RunStart16 != M0.RunStart16)
      F.RunStartAligned16.reset();
  F.FootprintUtilization = S.Foot;
  F.RunStartModulus = M0.RunModulus;
  F.RunStartResidue = M0.RunResidue;
  F.RunStartModulusAt = M0.RunModulusAt;
  for (auto &[M, Wt] : G.Parts)
    if (M.RunModulusAt != M0.RunModulusAt)
      for (auto &MR : F.RunStartModulusAt)
        MR = {1, 0};
  for (auto &[M, Wt] : G.Parts)
    if (M.RunModulus != M0.RunModulus || M.RunResidue != M0.RunResidue)
      F.RunStartModulus = 1;
}

void KernelAnalysis::executionsPerWarp(const Aggregate &G,
                                       const std::vector<double> &Weights,
                                       AccessFacts &F, bool Mixed) const {
  double WalkWeight = 0;
  for (double Wt : Weights)
    WalkWeight += Wt;
  // Parts that stand for different counts: each part's executions, summed
  // over the walks with their weights (the parts were weighed by them).
  if (Mixed) {
    double Sum = 0;
    for (const auto &[M, Wt] : G.Parts)
      Sum += Wt;
    for (const std::optional<double> &E : G.Executions)
      if (!E)
        return;
    if (WalkWeight > 0)
      F.ExecutionsPerWarp = Sum / WalkWeight;
    return;
  }
  // Averaged over the block's warps, as the cost model multiplies it by
  // the launch's warps: an access that only half the warps run (a branch
  // on `threadIdx.x >= 128`) counts half, one that one warp of eight runs
  // (`if (threadIdx.x == 0)`) an eighth.
  double Execs = WalkWeight > 0 ? G.Occurrences / WalkWeight : 1.0;
  for (const LoopFact &L : F.Loops) {
    if (!L.Trip)
      return;
    Execs *= static_cast<double>(*L.Trip);
  }
  F.ExecutionsPerWarp = Execs;
}

void KernelAnalysis::readableForm(const RawAccess &Shown,
                                  AccessFacts &F) const {
  // The readable form and the term that spreads lanes apart.
  const Poly &Lane0 = Shown.Offset->lane(0);
  Poly Form = Lane0;
  if (DisplayInterp)
    Form = DisplayInterp->simplifyDivMod(Form);
  F.Symbolic = Syms.str(Form, elementSizeOf(Shown));
  F.StrideTerm = Shown.StrideTerm;
  // The warp-uniform part, in elements.
  Poly Uniform;
  for (const Poly::Term &T : Lane0.terms()) {
    bool PerThread = false;
    for (SymbolId S : T.Mono) {
      SymbolKind SK = Syms.get(S).Kind;
      PerThread = PerThread || SK == SymbolKind::ThreadIdx ||
                  SK == SymbolKind::LoopVar || SK == SymbolKind::LoopIter;
    }
    if (!PerThread)
      if (auto Sum = Poly::add(Uniform, Poly::term(T.Mono, T.Coeff)))
        Uniform = *Sum;
  }
  if (auto Sum = Poly::add(Uniform, Poly(Lane0.constant())))
    Uniform = *Sum;
  int64_t Elem = elementSizeOf(Shown);
  if (auto Idx = Uniform.divideExact(Elem > 0 ? Elem : 1))
    F.BaseElementIndex = Syms.str(*Idx);
}

AccessFacts KernelAnalysis::describe(const RawAccess &A) const {
  AccessFacts F;
  F.E = A.E;
  F.CallStack = A.CallStack;
  F.Kernel = KernelIndex;
  F.Array = A.Array;
  F.Region = A.Region;
  F.Space = A.Region->Space;
  F.Kind = A.Kind;
  F.Type = A.Type;
  F.BytesPerLane = A.Bytes;
  F.Piece = A.Piece;
  F.Pieces = A.Pieces;
  return F;
}

void KernelAnalysis::stop(const std::vector<std::vector<RawAccess>> &Walks) {
  std::string Why = "budget exceeded (" + Meter.reason() + ")";
  Result.Kernels[KernelIndex].Stopped = Why;
  std::set<AccessKey> Seen;
  for (const std::vector<RawAccess> &Walk : Walks)
    for (const RawAccess &A : Walk) {
      if (!A.Region || !Seen.insert(keyOf(A)).second)
        continue;
      AccessFacts F = describe(A);
      F.UnknownReason = "analysis stopped: " + Why;
      F.Assumptions = KC.Shape.Assumptions;
      Result.Accesses.push_back(std::move(F));
    }
}

} // namespace pipeline

using pipeline::KernelAnalysis;

AnalysisResult analyze(ASTContext &Ctx, const AnalysisOptions &Opts) {
  AnalysisResult R;
  R.Regions = std::make_shared<std::deque<MemRegion>>();
  auto Include =
      Opts.IncludeKernel ? Opts.IncludeKernel : [&Ctx](SourceLocation Loc) {
        const SourceManager &SM = Ctx.getSourceManager();
        return SM.isInMainFile(SM.getExpansionLoc(Loc));
      };
  std::vector<KernelConfig> Configs = findKernels(Ctx, Opts.BlockDims, Include, Opts.Assumed);
  for (const KernelConfig &KC : Configs) {
    KernelInfo KI;
    KI.Decl = KC.Decl;
    KI.Name = KC.Name;
    KI.Shape = KC.Shape;
    if (Opts.ClaimKernel && !Opts.ClaimKernel(KI))
      continue;
    R.Kernels.push_back(KI);
    KernelAnalysis(Ctx, KC, R.Kernels.size() - 1, R, Opts).run();
  }
  sortAccesses(Ctx, R);
  computeEmittedWidths(Ctx, R);
  predictVectorizedRewrites(R);
  return R;
}

AnalysisResult analyzeKernel(ASTContext &Ctx, const KernelInfo &Kernel,
                             const AnalysisOptions &Opts) {
  AnalysisResult R;
  R.Regions = std::make_shared<std::deque<MemRegion>>();
  R.Kernels.push_back(Kernel);
  R.Kernels.back().Rows.reset();
  KernelConfig KC{Kernel.Decl, Kernel.Name, Kernel.Shape};
  KernelAnalysis(Ctx, KC, 0, R, Opts).run();
  sortAccesses(Ctx, R);
  computeEmittedWidths(Ctx, R);
  return R;
}

void sortAccesses(ASTContext &Ctx, AnalysisResult &R) {
  // Source order, then kernel.
  const SourceManager &SM = Ctx.getSourceManager();
  std::stable_sort(R.Accesses.begin(), R.Accesses.end(),
                   [&](const AccessFacts &A, const AccessFacts &B) {
                     SourceLocation LA = SM.getExpansionLoc(A.E->getBeginLoc());
                     SourceLocation LB = SM.getExpansionLoc(B.E->getBeginLoc());
                     if (LA != LB)
                       return SM.isBeforeInTranslationUnit(LA, LB);
                     return A.Kernel < B.Kernel;
                   });
}

} // namespace cal

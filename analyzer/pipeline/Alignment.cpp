//===- Alignment.cpp -----------------------------------------------------===//
//
// One access in one warp: where its run starts. The values the run's start
// takes modulo 32 bytes (the warp model's cases), the condition on a
// kernel parameter under which it is aligned, the start modulo 16 and the
// largest power of two it is known to be a multiple of.
//
//===----------------------------------------------------------------------===//

#include "analyzer/pipeline/KernelAnalysis.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cal {
namespace pipeline {

using namespace clang;

/// A term as the assumptions name it: its symbols, `M*N`.
static std::string termName(const Poly::Term &T, const SymbolTable &Syms) {
  std::string Name;
  for (SymbolId X : T.Mono)
    Name += (Name.empty() ? "" : "*") + Syms.get(X).Name;
  return Name;
}

/// The values \p S takes modulo \p Mod, with their frequencies. Terms that
/// are not loop counters with known trip counts (a parameter times an odd
/// number, an opaque load) make the result inexact: they are taken as 0.
std::vector<ResidueCase> residues(const Poly &S, const SymbolTable &Syms,
                                  int64_t Mod, bool &Exact,
                                  std::vector<std::string> &Unknown,
                                  bool *DataDependent,
                                  std::vector<Poly::Term> *UnknownTerms) {
  Exact = true;
  struct Enum {
    int64_t Coeff;
    int64_t Count;
    int64_t First;
  };
  std::vector<Enum> Enums;
  for (const Poly::Term &T : S.terms()) {
    if (floorMod(T.Coeff, Mod) == 0)
      continue;
    // Loop counters take 0 .. trip-1, each as often; the warp's position in
    // a known block takes each value in its range once per block.
    if (T.Mono.size() == 1) {
      const SymbolInfo &I = Syms.get(T.Mono[0]);
      int64_t Period = Mod / std::gcd(floorMod(T.Coeff, Mod), Mod);
      if (I.Kind == SymbolKind::LoopIter) {
        int64_t Count =
            I.Trip ? std::min(*I.Trip, MaxEnumeratedIterations) : Period;
        Enums.push_back({T.Coeff, std::max<int64_t>(Count, 1), 0});
        continue;
      }
      if (I.Kind == SymbolKind::WarpPos && I.Min && I.Max &&
          *I.Max - *I.Min < MaxEnumeratedIterations) {
        Enums.push_back({T.Coeff, *I.Max - *I.Min + 1, *I.Min});
        continue;
      }
    }
    Exact = false;
    // A value the code computed or loaded (`cur[b]` indexing 2040-byte
    // structs), not a size: nothing makes its offset a multiple of 32.
    for (SymbolId X : T.Mono)
      if (Syms.get(X).Kind == SymbolKind::Opaque && DataDependent)
        *DataDependent = true;
    Unknown.push_back(termName(T, Syms));
    if (UnknownTerms)
      UnknownTerms->push_back(T);
  }
  std::map<int64_t, double> Count;
  Count[floorMod(S.constant(), Mod)] = 1;
  for (const Enum &E : Enums) {
    std::map<int64_t, double> Next;
    for (const auto &[R, W] : Count)
      for (int64_t K = 0; K < E.Count; ++K)
        Next[floorMod(R + floorMod(E.Coeff, Mod) * floorMod(E.First + K, Mod),
                      Mod)] += W / E.Count;
    Count = std::move(Next);
    if (Count.size() > MaxResidueCombinations)
      break;
  }
  std::vector<ResidueCase> Out;
  for (const auto &[R, W] : Count)
    Out.push_back({R, W});
  return Out;
}

std::vector<ResidueCase>
KernelAnalysis::baseResidues(const RawAccess &A, const Poly &Base,
                             InstanceMetrics &M,
                             std::vector<Poly::Term> &Unknown) {
  if (A.Region->BaseAlign >= SectorBytes) {
    if (A.Region->AlignAssumed)
      addAssumption(
          M.Assumptions,
          {Assumption::Kind::BaseAlignment, A.Region->Name,
           "`" + A.Region->Name + "` assumed " +
               std::to_string(A.Region->BaseAlign) + "-byte aligned" +
               (A.Region->Space == MemSpace::Global ? " (as cudaMalloc returns)"
                                                    : "")});
  } else if (A.Region->Space != MemSpace::Shared) {
    M.ResidueExact = false;
    addAssumption(M.Assumptions,
                  {Assumption::Kind::BaseAlignmentUnknown, A.Region->Name,
                   "alignment of `" + A.Region->Name +
                       "` unknown; assumed 32-byte aligned"});
  }
  bool Exact = true;
  std::vector<std::string> Names;
  std::vector<ResidueCase> Cases = residues(
      Base, Syms, SectorBytes, Exact, Names, &M.ResidueDataDependent, &Unknown);
  // Shared memory: the base only rotates the banks (for accesses of whole
  // words); what is unknown of it changes nothing.
  if (!Exact && A.Region->Space == MemSpace::Shared && A.Bytes >= 4) {
    Exact = true;
    std::vector<std::string> Ignored;
    Cases = residues(
        Base.withoutConstant().isConstant() ? Base : Poly(Base.constant()),
        Syms, SectorBytes, Exact, Ignored);
    Exact = true;
    Unknown.clear();
  }
  if (!Exact)
    M.ResidueExact = false;
  return Cases;
}

Assumption offsetConditionAssumption(const std::string &Param,
                                     int64_t Modulus) {
  return {Assumption::Kind::OffsetAlignmentUnknown, Param,
          "alignment of `" + Param +
              "` unknown; the run starts on a 32-byte boundary only if `" +
              alignmentConditionText(Param, Modulus) + "`, taken to hold"};
}

/// (residue, weight) of each case.
static std::vector<std::pair<int64_t, double>>
knownResidues(const std::vector<ResidueCase> &Cases) {
  std::vector<std::pair<int64_t, double>> Known;
  for (const ResidueCase &C : Cases)
    Known.push_back({C.Residue, C.Weight});
  return Known;
}

std::optional<InstanceMetrics::ParamCondition>
KernelAnalysis::parameterCondition(const RawAccess &A, const WarpRequest &Req,
                                   const Poly &Base,
                                   const std::vector<ResidueCase> &Cases,
                                   const std::vector<Poly::Term> &Unknown,
                                   const InstanceMetrics &M) const {
  // `in[i + s]`: one unknown term, a kernel parameter times a constant; the
  // base's own alignment known, the lanes a constant distance apart, no
  // loaded value in the start.
  if (Unknown.size() != 1 || A.Region->Space == MemSpace::Shared ||
      A.Region->BaseAlign < SectorBytes || M.Groups != 1 ||
      M.ResidueDataDependent)
    return std::nullopt;
  const Poly::Term &T = Unknown.front();
  std::optional<SymbolId> Param, Warp;
  for (SymbolId S : T.Mono) {
    const SymbolInfo &I = Syms.get(S);
    if (I.Kind == SymbolKind::Param && !Param)
      Param = S;
    else if (I.Kind == SymbolKind::WarpPos && !Warp && I.Min && I.Max &&
             *I.Max >= *I.Min && *I.Max - *I.Min < MaxEnumeratedIterations)
      Warp = S;
    else
      return std::nullopt;
  }
  if (!Param)
    return std::nullopt;
  InstanceMetrics::ParamCondition P{*Param, {}};
  if (!Warp) {
    auto Sh = alignmentShare(Req, knownResidues(Cases), T.Coeff);
    if (!Sh)
      return std::nullopt;
    P.Shares.push_back(*Sh);
  } else {
    // The walk stands for the block's warps (`p * w` on row w of a
    // runtime pitch): each warp's start is the rest plus its own multiple
    // of the parameter.
    const SymbolInfo &W = Syms.get(*Warp);
    for (int64_t V = *W.Min; V <= *W.Max; ++V) {
      std::optional<Poly> BV = Base.substitute(*Warp, V);
      if (!BV)
        return std::nullopt;
      bool Exact = true;
      std::vector<std::string> Names;
      std::vector<Poly::Term> Left;
      std::vector<ResidueCase> CasesV =
          residues(*BV, Syms, SectorBytes, Exact, Names, nullptr, &Left);
      if (Left.size() > 1 ||
          (Left.size() == 1 && Left.front().Mono != Monomial{*Param}))
        return std::nullopt;
      auto Sh = alignmentShare(Req, knownResidues(CasesV),
                               Left.empty() ? 0 : Left.front().Coeff);
      if (!Sh)
        return std::nullopt;
      P.Shares.push_back(*Sh);
    }
    for (AlignmentShare &Sh : P.Shares)
      Sh.Weight = 1.0 / double(P.Shares.size());
  }
  if (!alignedIf(P.Shares))
    return std::nullopt;
  return P;
}

void KernelAnalysis::offsetAlignment(const RawAccess &A, const WarpRequest &Req,
                                     const Poly &Base,
                                     const std::vector<ResidueCase> &Cases,
                                     const std::vector<Poly::Term> &Unknown,
                                     InstanceMetrics &M) {
  if (Unknown.empty())
    return;
  if (auto P = parameterCondition(A, Req, Base, Cases, Unknown, M)) {
    addAssumption(M.Assumptions,
                  offsetConditionAssumption(Syms.get(P->Param).Name,
                                            alignedIf(P->Shares)->Modulus));
    M.AlignedIfParam = std::move(*P);
    return;
  }
  std::string Names, Subject;
  for (const Poly::Term &U : Unknown) {
    std::string N = termName(U, Syms);
    Names += (Names.empty() ? "`" : ", `") + N + "`";
    Subject += (Subject.empty() ? "" : ", ") + N;
  }
  addAssumption(M.Assumptions,
                {Assumption::Kind::OffsetAlignmentUnknown, Subject,
                 "alignment of " + Names +
                     " unknown; its offset assumed a multiple of 32 bytes"});
}

void KernelAnalysis::runStartAligned16(const RawAccess &A,
                                       const WarpRequest &Req, const Poly &Base,
                                       InstanceMetrics &M) {
  // Where each lane's run starts (the innermost loop's first iteration),
  // modulo 16 bytes: what a 16-byte vector load of the run needs.
  if (M.Groups != 1 || A.Region->BaseAlign < 16)
    return;
  std::optional<Poly> B0 = Base;
  if (!A.Loops.empty()) {
    // The run starts at its lowest address: the first iteration of a loop
    // that walks up, the last of one that walks down.
    const LoopRef &Inner = A.Loops.back();
    int64_t First = 0;
    auto P0 = Base.substitute(Inner.Sym, 0), P1 = Base.substitute(Inner.Sym, 1);
    if (P0 && P1 && Inner.Trip && *Inner.Trip > 0)
      if (auto D = Poly::sub(*P1, *P0);
          D && D->asConstant() && *D->asConstant() < 0)
        First = *Inner.Trip - 1;
    B0 = Base.substitute(Inner.Sym, First);
  }
  bool Ex = false;
  std::vector<std::string> Ignored;
  std::vector<ResidueCase> C16;
  if (B0)
    C16 = residues(*B0, Syms, 16, Ex, Ignored);
  if (!B0 || !Ex)
    return;
  unsigned Good = 0, Bad = 0;
  for (const ResidueCase &C : C16) {
    bool All = true;
    for (unsigned L = 0; L < WarpSize; ++L)
      if ((A.Active & (1u << L)) && floorMod(C.Residue + Req.Offset[L], 16))
        All = false;
    (All ? Good : Bad) += 1;
  }
  if (Bad == 0)
    M.RunStart16 = true;
  else if (Good == 0)
    M.RunStart16 = false;
}

void KernelAnalysis::runStartModulus(const RawAccess &A, const WarpRequest &Req,
                                     const Poly &Base, InstanceMetrics &M) {
  // The run's start modulo 16 as ptxas can prove it (EmittedWidth.h).
  if (M.Groups != 1)
    return;
  auto ModulusFrom = [&](size_t K) -> std::pair<unsigned, int64_t> {
    std::optional<Poly> B0 = Base;
    for (size_t I = K; I < A.Loops.size() && B0; ++I)
      B0 = B0->substitute(A.Loops[I].Sym, 0);
    bool Ex = false;
    std::vector<std::string> Ignored;
    std::vector<int64_t> Addrs;
    if (B0)
      for (const ResidueCase &C : residues(*B0, Syms, 16, Ex, Ignored))
        for (unsigned L = 0; L < WarpSize; ++L)
          if (A.Active & (1u << L))
            Addrs.push_back(C.Residue + Req.Offset[L]);
    if (!B0 || !Ex)
      return {1, 0};
    return commonResidue(Addrs, ptxasBaseAlign(*A.Region));
  };
  size_t Inner = A.Loops.empty() ? 0 : A.Loops.size() - 1;
  std::tie(M.RunModulus, M.RunResidue) = ModulusFrom(Inner);
  M.RunModulusAt.assign(A.Loops.size(), {1, 0});
  if (!A.Loops.empty())
    M.RunModulusAt[Inner] = {M.RunModulus, M.RunResidue};
  for (size_t K = Inner; K-- > 0;)
    M.RunModulusAt[K] = ModulusFrom(K);
}

} // namespace pipeline
} // namespace cal

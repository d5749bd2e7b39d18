//===- Measure.cpp -------------------------------------------------------===//
//
// One access in one warp: lane offsets, the warp model over the values the
// run's start takes modulo 32 bytes (those values: pipeline/Alignment.cpp),
// per-loop strides, footprint.
//
//===----------------------------------------------------------------------===//

#include "analyzer/pipeline/KernelAnalysis.h"

#include "analyzer/EmittedWidth.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cal {
namespace pipeline {

using namespace clang;

int64_t KernelAnalysis::elementSizeOf(const RawAccess &A) const {
  QualType T = A.Region->DeclType;
  if (T.isNull())
    return A.Bytes;
  if (T->isPointerType())
    T = T->getPointeeType();
  while (const ArrayType *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType();
  if (T->isIncompleteType() || T->isVoidType())
    return A.Bytes;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

InstanceMetrics KernelAnalysis::measure(const RawAccess &A) {
  InstanceMetrics M;
  M.ActiveLanes = llvm::popcount(A.Active);
  if (!A.Offset) {
    M.Why = A.UnknownWhy.empty() ? "address unknown" : A.UnknownWhy;
    return M;
  }
  unsigned Ref = llvm::countr_zero(A.Active);
  if (Ref >= WarpSize)
    return M;
  WarpRequest Req;
  std::set<std::string> LargeSymbols;
  if (!laneRequest(A, Ref, Req, LargeSymbols, M))
    return M;
  addressAssumptions(A, M);
  laneLayout(A, Req, LargeSymbols, M);
  // Where the warp's run starts, modulo 32 bytes.
  Poly Base = A.Offset->lane(Ref);
  std::vector<Poly::Term> Unknown;
  std::vector<ResidueCase> Cases = baseResidues(A, Base, M, Unknown);
  M.Known = true;
  requestCosts(A, Req, Cases, M);
  offsetAlignment(A, Req, Base, Cases, Unknown, M);
  runStartAligned16(A, Req, Base, M);
  runStartModulus(A, Req, Base, M);
  // Loops: how the address moves per iteration, contiguity and footprint.
  for (const LoopRef &L : A.Loops)
    M.Loops.push_back(loopFact(A, L));
  footprint(A, Req, Base, Cases, M);
  M.SameAddressWarps = sameAddressWarps(A);
  return M;
}

double KernelAnalysis::sameAddressWarps(const RawAccess &A) const {
  // The symbolic walk stands for every warp of the block: its position is a
  // symbol. An address that names none of them is the same in every warp,
  // in the same iteration: the block's warps read the same sectors (the L1
  // fetches them once; sgemm_coalesced's B[k * N + col], the same for the
  // 32 rows of a block).
  if (!CurWarp || CurWarp->WarpSymbols.empty() || !A.Offset ||
      A.Region->Space != MemSpace::Global || A.Kind != AccessKind::Load)
    return 1;
  const LaneVec &Off = *A.Offset;
  double Warps = 1;
  for (SymbolId S : CurWarp->WarpSymbols) {
    bool Named = false;
    for (unsigned L = 0; L < (Off.isUniform() ? 1u : WarpSize) && !Named; ++L)
      Named = Off.lane(L).mentions(S);
    const SymbolInfo &I = Syms.get(S);
    if (!Named && I.Min && I.Max && *I.Max >= *I.Min)
      Warps *= double(*I.Max - *I.Min + 1);
  }
  return Warps;
}

bool KernelAnalysis::laneRequest(const RawAccess &A, unsigned Ref,
                                 WarpRequest &Req,
                                 std::set<std::string> &LargeSymbols,
                                 InstanceMetrics &M) {
  // Lane offsets relative to the first active lane; lanes a symbolic
  // distance apart go to separate groups.
  const LaneVec &Off = *A.Offset;
  Req.BytesPerLane = A.Bytes;
  Req.Active = A.Active;
  std::vector<Poly> GroupKeys;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(A.Active & (1u << L)))
      continue;
    auto D = Poly::sub(Off.lane(L), Off.lane(Ref));
    if (!D) {
      M.Why = "offset overflows";
      return false;
    }
    Poly Key = D->withoutConstant();
    size_t G = 0;
    while (G < GroupKeys.size() && GroupKeys[G] != Key)
      ++G;
    if (G == GroupKeys.size()) {
      if (G >= 255) {
        M.Why = "too many distinct symbolic lane offsets";
        return false;
      }
      GroupKeys.push_back(Key);
      if (!Key.isConstant())
        for (const Poly::Term &T : Key.terms())
          for (SymbolId S : T.Mono)
            LargeSymbols.insert(Syms.get(S).Name);
    }
    Req.Group[L] = static_cast<uint8_t>(G);
    Req.Offset[L] = D->constant();
  }
  M.Groups = GroupKeys.size();
  return true;
}

void KernelAnalysis::addressAssumptions(const RawAccess &A,
                                        InstanceMetrics &M) const {
  // What the address rests on: the values it was computed from, and the
  // symbols it still names that stand for an assumption.
  const LaneVec &Off = *A.Offset;
  addAssumptions(M.Assumptions, A.Assumptions);
  std::set<SymbolId> Seen;
  for (unsigned L = 0; L < (Off.isUniform() ? 1u : WarpSize); ++L)
    for (const Poly::Term &T : Off.lane(L).terms())
      for (SymbolId S : T.Mono)
        if (Seen.insert(S).second && Syms.get(S).Assumed)
          addAssumption(M.Assumptions, *Syms.get(S).Assumed);
}

void KernelAnalysis::laneLayout(const RawAccess &A, const WarpRequest &Req,
                                const std::set<std::string> &LargeSymbols,
                                InstanceMetrics &M) {
  if (M.Groups != 1) {
    std::string Names, Subject;
    for (const std::string &N : LargeSymbols) {
      Names += (Names.empty() ? "`" : ", `") + N + "`";
      Subject += (Subject.empty() ? "" : ", ") + N;
    }
    addAssumption(M.Assumptions,
                  {Assumption::Kind::LargeDistance, Subject,
                   Names + " assumed large: lanes whose addresses differ by "
                           "it touch different sectors"});
    describeLaneGroups(A, Req, M);
    return;
  }
  std::array<int64_t, WarpSize> Offs{};
  for (unsigned L = 0; L < WarpSize; ++L)
    Offs[L] = Req.Offset[L];
  M.LaneOffsets = Offs;
  std::optional<int64_t> Stride;
  bool Uniform = true;
  int Prev = -1;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(A.Active & (1u << L)))
      continue;
    if (Prev >= 0) {
      int64_t S = (Req.Offset[L] - Req.Offset[Prev]) / int64_t(L - Prev);
      if ((Req.Offset[L] - Req.Offset[Prev]) % int64_t(L - Prev) != 0 ||
          (Stride && *Stride != S))
        Uniform = false;
      Stride = S;
    }
    Prev = L;
  }
  if (Uniform && Stride)
    M.LaneStride = Stride;
}

void KernelAnalysis::requestCosts(const RawAccess &A, const WarpRequest &Req,
                                  const std::vector<ResidueCase> &Cases,
                                  InstanceMetrics &M) {
  double TotalW = 0;
  M.SectorsMin = 1e18;
  // Shared memory has banks, not sectors (requestFacts reads none).
  bool Sectors = A.Region->Space != MemSpace::Shared;
  for (const ResidueCase &C : Cases) {
    RequestCost Cost = costOf(Req, C.Residue, Sectors);
    M.Sectors += C.Weight * Cost.Sectors;
    M.Lines += C.Weight * Cost.Lines;
    M.Partial += C.Weight * Cost.PartialSectors;
    M.BytesUsed += C.Weight * Cost.BytesUsed;
    M.SectorsMin = std::min<double>(M.SectorsMin, Cost.Sectors);
    M.SectorsMax = std::max<double>(M.SectorsMax, Cost.Sectors);
    if (Cost.IdealWavefronts > 0) {
      M.HasBanks = true;
      M.Wavefronts += C.Weight * Cost.Wavefronts;
      M.IdealWavefronts += C.Weight * Cost.IdealWavefronts;
    }
    ++M.Cases;
    if (Cost.StartsAligned)
      ++M.AlignedCases;
    else
      ++M.MisalignedCases;
    // The lowest active address past its 32-byte boundary.
    int64_t Lowest = INT64_MAX;
    for (unsigned L = 0; L < WarpSize; ++L)
      if ((A.Active & (1u << L)) && Req.Group[L] == 0)
        Lowest = std::min(Lowest, C.Residue + Req.Offset[L]);
    M.MisalignValues.insert(floorMod(Lowest, SectorBytes));
    if (Cost.VectorAligned)
      ++M.VecAligned;
    else
      ++M.VecMisaligned;
    TotalW += C.Weight;
  }
  if (TotalW > 0 && std::abs(TotalW - 1) > 1e-9) {
    M.Sectors /= TotalW;
    M.Lines /= TotalW;
    M.Partial /= TotalW;
    M.BytesUsed /= TotalW;
    M.Wavefronts /= TotalW;
    M.IdealWavefronts /= TotalW;
  }
}

LoopFact KernelAnalysis::loopFact(const RawAccess &A, const LoopRef &L) {
  const LaneVec &Off = *A.Offset;
  LoopFact F;
  F.Loop = L.Loop;
  F.Attributes = L.Attributes;
  auto [Known, New] = OrderFreeLoops.try_emplace(L.Loop, false);
  if (New)
    Known->second = isOrderFree(L.Loop);
  F.OrderFree = Known->second;
  F.VarName = L.VarName;
  F.Trip = L.Trip;
  F.TripMin = L.TripMin;
  F.TripMax = L.TripMax;
  // The per-iteration move: a constant (Delta), or a polynomial the same
  // for every lane (SymDelta); linear in the loop counter either way.
  std::optional<int64_t> Delta;
  std::optional<Poly> SymDelta;
  bool Linear = !L.IterationsApart;
  for (unsigned Ln = 0; Ln < WarpSize && Linear; ++Ln) {
    if (!(A.Active & (1u << Ln)))
      continue;
    // A value that changes by an unknown amount each iteration.
    for (SymbolId V : L.Varying)
      if (Off.lane(Ln).mentions(V))
        Linear = false;
    if (!Linear)
      break;
    auto P1 = Off.lane(Ln).substitute(L.Sym, 1);
    auto P0 = Off.lane(Ln).substitute(L.Sym, 0);
    std::optional<Poly> D;
    if (P1 && P0)
      D = Poly::sub(*P1, *P0);
    // Linear in the loop counter: the second difference is zero.
    auto P2 = Off.lane(Ln).substitute(L.Sym, 2);
    std::optional<Poly> D2;
    if (P2 && P1)
      D2 = Poly::sub(*P2, *P1);
    if (!D || !D2 || *D != *D2) {
      Linear = false;
      break;
    }
    if (D->isConstant()) {
      if (SymDelta || (Delta && *Delta != D->constant()))
        Linear = false;
      Delta = D->constant();
    } else {
      if (Delta || (SymDelta && *SymDelta != *D))
        Linear = false;
      SymDelta = *D;
    }
  }
  if (Linear && Delta)
    F.StrideBytes = Delta;
  if (Linear && (SymDelta || (Delta && *Delta > 0)))
    blockStride(A, SymDelta ? *SymDelta : Poly(*Delta), F);
  return F;
}

void KernelAnalysis::footprint(const RawAccess &A, const WarpRequest &Req,
                               const Poly &Base,
                               const std::vector<ResidueCase> &Cases,
                               InstanceMetrics &M) {
  if (A.Region->Space == MemSpace::Shared)
    return;
  if (A.Loops.empty()) {
    if (M.Sectors > 0)
      M.Footprint = M.BytesUsed / (SectorBytes * M.Sectors);
    return;
  }
  // The footprint is taken over the loop nest: the union of the bytes and
  // sectors of every iteration of the enclosing loops that move the
  // address by a constant step (blocked 16-byte loads in an inner loop
  // over rows whose outer loop steps through each lane's run use every
  // sector over the nest). Loops whose step is symbolic (a runtime row
  // pitch) move far away and change nothing; a step of 0 adds nothing.
  std::vector<size_t> Moving;
  for (size_t I = 0; I < A.Loops.size(); ++I)
    if (M.Loops[I].StrideBytes && *M.Loops[I].StrideBytes != 0)
      Moving.push_back(I);
  if (Moving.empty() && !M.Loops.back().StrideBytes)
    return;
  // The base at the first iteration of every moving loop.
  std::optional<Poly> B0 = Base;
  for (size_t I : Moving)
    if (B0)
      B0 = B0->substitute(A.Loops[I].Sym, 0);
  std::vector<ResidueCase> FirstIter = Cases;
  if (B0) {
    bool Ex;
    std::vector<std::string> Ignored;
    FirstIter = residues(*B0, Syms, SectorBytes, Ex, Ignored);
  }
  std::vector<int64_t> Shifts = footprintShifts(A, Moving, M);
  double SumSec = 0, SumBytes = 0;
  for (const ResidueCase &C : FirstIter) {
    Footprint FP = footprintOf(Req, C.Residue, Shifts);
    SumSec += C.Weight * FP.Sectors;
    SumBytes += C.Weight * FP.BytesUsed;
  }
  if (SumSec > 0)
    M.Footprint = SumBytes / (SectorBytes * SumSec);
}

std::vector<int64_t> KernelAnalysis::footprintShifts(
    const RawAccess &A, const std::vector<size_t> &Moving, InstanceMetrics &M) {
  // Iterations per loop, innermost first, within a budget of shifts.
  std::vector<int64_t> Shifts = {0};
  for (size_t J = Moving.size(); J-- > 0;) {
    const LoopRef &L = A.Loops[Moving[J]];
    int64_t Step = *M.Loops[Moving[J]].StrideBytes;
    std::optional<int64_t> Trip = L.Trip ? L.Trip : L.TripMax;
    int64_t Iters = Trip ? std::min(*Trip, MaxFootprintIterations) : 32;
    int64_t Room = MaxFootprintShifts / int64_t(Shifts.size());
    if (Room < 2)
      break;
    Iters = std::min(Iters, Room);
    if (!Trip)
      addAssumption(M.Assumptions,
                    {Assumption::Kind::FootprintIterations, L.VarName,
                     "footprint over 32 iterations of the loop" +
                         (L.VarName.empty() ? std::string()
                                            : " over `" + L.VarName + "`") +
                         " (its trip count is unknown)"});
    std::vector<int64_t> Next;
    for (int64_t K = 0; K < std::max<int64_t>(Iters, 1); ++K)
      for (int64_t S0 : Shifts)
        Next.push_back(S0 + K * Step);
    Shifts = std::move(Next);
  }
  return Shifts;
}

/// How lanes a symbolic distance apart are laid out, for people: every
/// adjacent pair the same symbolic distance (`C` elements: lanes on
/// different rows), or runs of lanes a constant stride apart whose runs are
/// a symbolic distance apart (16 lanes 32 bytes apart, the next 16 on the
/// row `8*N` elements further).
void KernelAnalysis::describeLaneGroups(const RawAccess &A,
                                        const WarpRequest &Req,
                                        InstanceMetrics &M) {
  const LaneVec &Off = *A.Offset;
  int64_t Elem = elementSizeOf(A);
  if (Elem <= 0)
    Elem = A.Bytes;
  auto Show = [&](const Poly &P) -> std::string {
    auto Q = P.divideExact(Elem);
    return Q ? "`" + Syms.str(*Q) + "`" + (Elem > 1 ? " elements" : " bytes")
             : "`" + Syms.str(P) + "` bytes";
  };
  std::vector<unsigned> Lanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (A.Active & (1u << L))
      Lanes.push_back(L);
  if (Lanes.size() < 2)
    return;
  std::vector<Poly> Diffs;
  for (size_t I = 1; I < Lanes.size(); ++I) {
    auto D = Poly::sub(Off.lane(Lanes[I]), Off.lane(Lanes[I - 1]));
    if (!D)
      return;
    Diffs.push_back(*D);
  }
  bool AllSame = true;
  for (const Poly &D : Diffs)
    AllSame = AllSame && D == Diffs.front();
  if (AllSame && !Diffs.front().isConstant()) {
    M.LaneStrideText = "adjacent lanes are " + Show(Diffs.front()) +
                       " apart (a runtime stride)";
    return;
  }
  // Runs of lanes in one group, each the same length, a constant stride
  // apart inside; the runs the same symbolic distance apart.
  std::vector<size_t> Starts = {0};
  for (size_t I = 1; I < Lanes.size(); ++I)
    if (Req.Group[Lanes[I]] != Req.Group[Lanes[I - 1]])
      Starts.push_back(I);
  size_t Len = Starts.size() > 1 ? Starts[1] : Lanes.size();
  std::optional<int64_t> In;
  std::optional<Poly> Between;
  for (size_t R = 0; R < Starts.size(); ++R) {
    size_t End = R + 1 < Starts.size() ? Starts[R + 1] : Lanes.size();
    if (End - Starts[R] != Len)
      return;
    for (size_t I = Starts[R] + 1; I < End; ++I) {
      const Poly &D = Diffs[I - 1];
      if (!D.isConstant() || (In && *In != D.constant()))
        return;
      In = D.constant();
    }
    if (R > 0) {
      auto G =
          Poly::sub(Off.lane(Lanes[Starts[R]]), Off.lane(Lanes[Starts[R - 1]]));
      if (!G || (Between && *Between != *G))
        return;
      Between = *G;
    }
  }
  if (!In || !Between || Len < 2)
    return;
  M.LaneStrideText =
      "the lanes come in runs of " + std::to_string(Len) + ", adjacent lanes " +
      std::to_string(std::abs(*In)) + " bytes" +
      (std::abs(*In) % Elem == 0 && Elem > 1
           ? " (" + std::to_string(std::abs(*In) / Elem) + " elements)"
           : "") +
      " apart within a run and each run " + Show(*Between) +
      " after the previous one";
}

void KernelAnalysis::blockStride(const RawAccess &A, const Poly &Stride,
                                 LoopFact &F) {
  unsigned Bytes = A.Bytes;
  if (!CurWarp || Bytes == 0)
    return;
  auto Q = Stride.divideExact(Bytes);
  if (!Q)
    return;
  // A constant stride (a known block): a single term with no symbol.
  Poly::Term T;
  if (Q->isConstant()) {
    if (Q->constant() <= 0)
      return;
    T = Poly::Term{Monomial(), Q->constant()};
  } else {
    if (Q->constant() != 0 || Q->terms().size() != 1)
      return;
    T = Q->terms().front();
  }
  if (T.Coeff <= 0)
    return;
  // The threads of a block, as a polynomial: a constant for a known block,
  // 32*(blockDim.x/32)*blockDim.y*blockDim.z for an unknown one.
  auto XY = Poly::mul(CurWarp->BlockDim[0], CurWarp->BlockDim[1]);
  auto Threads = XY ? Poly::mul(*XY, CurWarp->BlockDim[2]) : std::nullopt;
  if (!Threads || (!Threads->isConstant() && Threads->constant() != 0))
    return;
  int64_t ThreadsCoeff;
  Monomial ThreadSyms;
  if (Threads->isConstant()) {
    ThreadsCoeff = Threads->constant();
  } else {
    if (Threads->terms().size() != 1)
      return;
    ThreadsCoeff = Threads->terms().front().Coeff;
    ThreadSyms = Threads->terms().front().Mono;
  }
  if (ThreadsCoeff <= 0)
    return;
  auto Text = blockSizeText(T, Bytes, ThreadSyms);
  if (!Text)
    return;
  // stride = Coeff * Bytes * syms <= (Coeff / ThreadsCoeff) * Bytes *
  // threads * grid sizes, the other block sizes being at least 1.
  F.StrideBlockRuns = double(T.Coeff) / double(ThreadsCoeff);
  F.StrideWholeWarps = T.Coeff % int64_t(WarpSize) == 0;
  if (!T.Mono.empty())
    F.StrideSymbolic = *Text;
  coveredRuns(A, T, ThreadsCoeff, F);
}

std::optional<std::string>
KernelAnalysis::blockSizeText(const Poly::Term &T, unsigned Bytes,
                              const Monomial &ThreadSyms) const {
  // Every symbol of the stride is a block size (one of the block's own,
  // each at most once) or a grid size.
  Monomial Left = ThreadSyms;
  std::string Text;
  int64_t Shown = T.Coeff * Bytes;
  for (SymbolId S : T.Mono) {
    const SymbolInfo &I = Syms.get(S);
    if (I.Kind == SymbolKind::GridDim) {
      Text += "*" + I.Name;
      continue;
    }
    if (I.Kind != SymbolKind::BlockDim)
      return std::nullopt;
    auto It = std::find(Left.begin(), Left.end(), S);
    if (It == Left.end())
      return std::nullopt;
    Left.erase(It);
    if (I.Name == "blockDim.x/32") {
      if (Shown % 32 != 0)
        return std::nullopt;
      Shown /= 32;
      Text += "*blockDim.x";
    } else {
      Text += "*" + I.Name;
    }
  }
  if (Text.empty()) // a constant stride
    return Text;
  return Shown == 1 ? Text.substr(1) : std::to_string(Shown) + Text;
}

void KernelAnalysis::coveredRuns(const RawAccess &A, const Poly::Term &T,
                                 int64_t ThreadsCoeff, LoopFact &F) const {
  // A window of several block-wide runs per iteration is read whole when
  // accesses of the same iteration take the other runs (`x[i]` and
  // `x[i + blockDim.x]` with i += 2*blockDim.x*gridDim.x): count the runs
  // k = 1, 2 ... that one is a whole number of block-wide runs away.
  if (T.Coeff % ThreadsCoeff != 0)
    return;
  int64_t Runs = T.Coeff / ThreadsCoeff;
  if (Runs <= 1)
    return;
  // One block-wide run: bytes x threads (the block's own symbols only).
  Monomial Block;
  for (SymbolId S : T.Mono)
    if (Syms.get(S).Kind == SymbolKind::BlockDim)
      Block.push_back(S);
  Poly Unit = Poly::term(Block, ThreadsCoeff * int64_t(A.Bytes));
  unsigned Covered = 1;
  for (int64_t K = 1; K < Runs; ++K) {
    auto Up = Poly::scale(Unit, K), Down = Poly::scale(Unit, -K);
    if ((Up && hasUniformSibling(A, *Up)) ||
        (Down && hasUniformSibling(A, *Down)))
      ++Covered;
  }
  F.StrideCoveredRuns = Covered;
}

} // namespace pipeline
} // namespace cal

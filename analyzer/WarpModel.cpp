//===- WarpModel.cpp ------------------------------------------------------===//

#include "analyzer/WarpModel.h"

#include "analyzer/Poly.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace cal {

unsigned sharedPhases(unsigned Bytes) {
  if (Bytes <= 4)
    return 1;
  if (Bytes <= 8)
    return 2;
  return 4 * ((Bytes + 15) / 16);
}

namespace {

/// The most distinct bank words any one bank holds among \p Lanes'
/// accesses: the wavefronts a phase made of these lanes takes.
unsigned conflictDegree(const WarpRequest &R, int64_t BaseResidue,
                        llvm::ArrayRef<unsigned> Lanes) {
  // Every (bank, word) the lanes touch, sorted: the distinct words of a
  // bank are a run.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 64> Words;
  for (unsigned L : Lanes) {
    int64_t Lo = BaseResidue + R.Offset[L];
    int64_t Hi = Lo + R.BytesPerLane - 1;
    for (int64_t W = floorDiv(Lo, BankWordBytes);
         W <= floorDiv(Hi, BankWordBytes); ++W)
      Words.push_back({floorMod(W, BankCount), W});
  }
  llvm::sort(Words);
  Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
  unsigned Max = 0;
  for (size_t I = 0; I < Words.size();) {
    size_t J = I;
    while (J < Words.size() && Words[J].first == Words[I].first)
      ++J;
    Max = std::max<unsigned>(Max, unsigned(J - I));
    I = J;
  }
  return Max;
}

/// 16-byte accesses (LDS.128 / STS.128), as Nsight Compute counts them on
/// the H200. Each half-warp is served apart. In it, an aligned quad of
/// lanes that all read one address takes one slot, any other lane a slot of
/// its own; the slots, in lane order, go 8 to a wavefront (8 x 16 bytes =
/// the 32 banks), each group as many wavefronts as its worst bank holds
/// distinct words. So a quarter-warp at a time when lanes differ (4
/// wavefronts, 8 with lanes 32 bytes apart), but a half-warp whose quads
/// each broadcast one address in one: every lane one address, 2; lanes
/// 4 to a row, rows 32 bytes apart (`threadRowInWarp * 8 + i`), 2; four
/// addresses repeated every 4 lanes (`(lane % 4) * 4 + i`), 4
/// (validate/public: siboehm/SGEMM_CUDA kernels 3, 6, 10, 11 at 4096;
/// validate/results/2026-12-02-h200-sgemm-store).
void vectorWavefronts(const WarpRequest &R, int64_t BaseResidue,
                      RequestCost &C) {
  for (unsigned Half = 0; Half < WarpSize; Half += 16) {
    llvm::SmallVector<unsigned, 16> Slots; // a lane standing for its slot
    for (unsigned Q = Half; Q < Half + 16; Q += 4) {
      llvm::SmallVector<unsigned, 4> Active;
      for (unsigned L = Q; L < Q + 4; ++L)
        if (R.Active & (1u << L))
          Active.push_back(L);
      if (Active.empty())
        continue;
      bool OneAddress = llvm::all_of(Active, [&](unsigned L) {
        return R.Offset[L] == R.Offset[Active.front()];
      });
      if (OneAddress) {
        Slots.push_back(Active.front());
        continue;
      }
      for (unsigned L : Active)
        Slots.push_back(L);
    }
    for (size_t G = 0; G < Slots.size(); G += 8) {
      llvm::ArrayRef<unsigned> Group(Slots);
      Group = Group.slice(G, std::min<size_t>(8, Slots.size() - G));
      C.Wavefronts += conflictDegree(R, BaseResidue, Group);
      C.IdealWavefronts += 1;
    }
  }
}

/// Total length of the union of closed integer intervals.
int64_t unionLength(std::vector<std::pair<int64_t, int64_t>> &Iv) {
  std::sort(Iv.begin(), Iv.end());
  int64_t Total = 0;
  bool Open = false;
  int64_t Lo = 0, Hi = 0;
  for (auto &[A, B] : Iv) {
    if (Open && A <= Hi + 1) {
      Hi = std::max(Hi, B);
      continue;
    }
    if (Open)
      Total += Hi - Lo + 1;
    Lo = A;
    Hi = B;
    Open = true;
  }
  if (Open)
    Total += Hi - Lo + 1;
  return Total;
}

/// Distinct sectors and bytes over the active lanes, group by group (groups
/// never share a sector), for bases shifted by \p Shifts.
Footprint countSectorsAndBytes(const WarpRequest &R, int64_t Base,
                               const std::vector<int64_t> &Shifts) {
  Footprint F;
  uint8_t MaxGroup = 0;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (R.Active & (1u << L))
      MaxGroup = std::max(MaxGroup, R.Group[L]);
  std::vector<std::pair<int64_t, int64_t>> Bytes, Sectors, Lines;
  for (unsigned G = 0; G <= MaxGroup; ++G) {
    Bytes.clear();
    Sectors.clear();
    Lines.clear();
    for (int64_t Shift : Shifts) {
      for (unsigned L = 0; L < WarpSize; ++L) {
        if (!(R.Active & (1u << L)) || R.Group[L] != G)
          continue;
        int64_t Lo = Base + Shift + R.Offset[L];
        int64_t Hi = Lo + R.BytesPerLane - 1;
        Bytes.push_back({Lo, Hi});
        Sectors.push_back(
            {floorDiv(Lo, SectorBytes), floorDiv(Hi, SectorBytes)});
        Lines.push_back(
            {floorDiv(Lo, CacheLineBytes), floorDiv(Hi, CacheLineBytes)});
      }
    }
    F.BytesUsed += static_cast<unsigned>(unionLength(Bytes));
    // Bytes covered in each sector: sectors not fully covered are partial.
    std::sort(Bytes.begin(), Bytes.end());
    std::vector<std::pair<int64_t, int64_t>> Merged;
    for (auto &[A, B] : Bytes) {
      if (!Merged.empty() && A <= Merged.back().second + 1)
        Merged.back().second = std::max(Merged.back().second, B);
      else
        Merged.push_back({A, B});
    }
    std::map<int64_t, int64_t> Covered;
    for (auto &[A, B] : Merged)
      for (int64_t S = floorDiv(A, SectorBytes); S <= floorDiv(B, SectorBytes);
           ++S) {
        int64_t Lo = std::max(A, S * SectorBytes);
        int64_t Hi = std::min(B, S * SectorBytes + SectorBytes - 1);
        Covered[S] += Hi - Lo + 1;
      }
    for (auto &[S, N] : Covered)
      if (N < SectorBytes)
        ++F.PartialSectors;
    F.Sectors += static_cast<unsigned>(unionLength(Sectors));
    F.Lines += static_cast<unsigned>(unionLength(Lines));
  }
  return F;
}

} // namespace

RequestCost costOf(const WarpRequest &R, int64_t BaseResidue, bool Sectors) {
  RequestCost C;
  if (Sectors) {
    Footprint F = countSectorsAndBytes(R, BaseResidue, {0});
    C.Sectors = F.Sectors;
    C.Lines = F.Lines;
    C.PartialSectors = F.PartialSectors;
    C.BytesUsed = F.BytesUsed;
  }

  // Alignment of group 0's lowest address; vector alignment of every lane.
  bool Any = false;
  int64_t Lowest = 0;
  bool OneGroup = true;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(R.Active & (1u << L)))
      continue;
    if (R.Group[L] != 0) {
      OneGroup = false;
      continue;
    }
    int64_t A = BaseResidue + R.Offset[L];
    if (!Any || A < Lowest)
      Lowest = A;
    Any = true;
    if (R.BytesPerLane > 1 && (R.BytesPerLane & (R.BytesPerLane - 1)) == 0 &&
        floorMod(A, R.BytesPerLane) != 0)
      C.VectorAligned = false;
  }
  C.StartsAligned = Any && floorMod(Lowest, SectorBytes) == 0;

  // Shared memory bank model, phase by phase.
  if (!OneGroup)
    return C;
  unsigned Phases = sharedPhases(R.BytesPerLane);
  unsigned LanesPerPhase = std::max(1u, WarpSize / Phases);
  if (Phases > WarpSize)
    LanesPerPhase = 1;
  if (R.BytesPerLane == 16) {
    vectorWavefronts(R, BaseResidue, C);
  } else {
    for (unsigned P = 0; P * LanesPerPhase < WarpSize; ++P) {
      llvm::SmallVector<unsigned, 32> Lanes;
      for (unsigned L = P * LanesPerPhase;
           L < std::min<unsigned>(WarpSize, (P + 1) * LanesPerPhase); ++L)
        if (R.Active & (1u << L))
          Lanes.push_back(L);
      if (Lanes.empty())
        continue;
      C.Wavefronts += conflictDegree(R, BaseResidue, Lanes);
      C.IdealWavefronts += 1;
    }
  }
  // An access wider than 16 bytes needs several wavefronts even when
  // conflict-free: the minimum is the number of 128-byte rows it covers.
  if (R.BytesPerLane > 16)
    C.IdealWavefronts =
        std::max(C.IdealWavefronts, sharedPhases(R.BytesPerLane));
  return C;
}

Footprint footprintOf(const WarpRequest &R, int64_t BaseResidue,
                      const std::vector<int64_t> &BaseShift) {
  return countSectorsAndBytes(R, BaseResidue, BaseShift);
}

std::optional<AlignmentShare>
alignmentShare(const WarpRequest &R,
               const std::vector<std::pair<int64_t, double>> &Known,
               int64_t Coeff) {
  double TotalW = 0;
  for (const auto &[Residue, W] : Known) {
    if (!costOf(R, Residue).StartsAligned)
      return std::nullopt;
    TotalW += W;
  }
  if (TotalW <= 0)
    return std::nullopt;
  AlignmentShare S;
  S.Coeff = Coeff;
  int64_t G = std::gcd(floorMod(Coeff, SectorBytes), SectorBytes);
  for (int64_t Off = 0; Off < SectorBytes; Off += G) {
    double Sectors = 0;
    for (const auto &[Residue, W] : Known) {
      RequestCost C = costOf(R, floorMod(Residue + Off, SectorBytes));
      Sectors += W * C.Sectors;
      S.FaultsAt[Off] = S.FaultsAt[Off] || !C.VectorAligned;
    }
    S.SectorsAt[Off] = Sectors / TotalW;
  }
  return S;
}

std::optional<AlignedIf> alignedIf(const std::vector<AlignmentShare> &Shares) {
  AlignedIf C;
  double TotalW = 0;
  for (const AlignmentShare &S : Shares) {
    C.Modulus = std::lcm(
        C.Modulus,
        SectorBytes / std::gcd(floorMod(S.Coeff, SectorBytes), SectorBytes));
    TotalW += S.Weight;
    C.SameInEveryWarp =
        C.SameInEveryWarp && floorMod(S.Coeff, SectorBytes) ==
                                 floorMod(Shares.front().Coeff, SectorBytes);
  }
  if (C.Modulus == 1 || TotalW <= 0)
    return std::nullopt;
  auto At = [](const AlignmentShare &S, int64_t U) {
    return floorMod(floorMod(S.Coeff, SectorBytes) * U, SectorBytes);
  };
  auto Faults = [&](int64_t U) {
    return llvm::any_of(Shares, [&](const AlignmentShare &S) {
      return S.FaultsAt[At(S, U)];
    });
  };
  // The values that do not fault are the multiples of the first (each
  // share's offset a multiple of the access size is a subgroup).
  while (C.VectorModulus < C.Modulus && Faults(C.VectorModulus))
    ++C.VectorModulus;
  C.SectorsIfNotMin = 1e18;
  for (int64_t U = C.VectorModulus; U < C.Modulus; U += C.VectorModulus) {
    double Sectors = 0;
    for (const AlignmentShare &S : Shares)
      Sectors += S.Weight * S.SectorsAt[At(S, U)];
    Sectors /= TotalW;
    C.SectorsIfNotMin = std::min(C.SectorsIfNotMin, Sectors);
    C.SectorsIfNotMax = std::max(C.SectorsIfNotMax, Sectors);
  }
  if (C.SectorsIfNotMin > C.SectorsIfNotMax)
    C.SectorsIfNotMin = C.SectorsIfNotMax = 0;
  return C;
}

} // namespace cal

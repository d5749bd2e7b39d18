//===- WarpModel.h - What one warp-wide memory instruction costs ----------===//
//
// The hardware facts (DESIGN.md §3), as pure functions of the 32 lanes' byte
// addresses:
//
//  - Global/constant: L1/L2 move 32-byte sectors. A request costs the number
//    of distinct sectors its active lanes touch; utilization is the distinct
//    bytes used over 32 x sectors. Example: bf16, lanes 32 bytes apart, 2 bytes
//    each -> 32 sectors, 64 / 1024 = 6.25%.
//  - Shared: 32 banks of 4-byte words. A request takes, per phase, as many
//    wavefronts as the largest number of distinct words mapped to one bank
//    (the same word read by several lanes is a broadcast). Accesses of 8 and
//    16 bytes are served per half- and quarter-warp (2 and 4 phases), so 2
//    and 4 wavefronts are their conflict-free minimum. Example: row stride of
//    8 words (bf16 [256][16]) -> lanes 0, 4, 8, ... share a bank: 8-way.
//
// Lanes whose addresses differ by a symbolic amount (a runtime pitch) are in
// different groups; groups are taken to be far apart (no shared sector, bank
// relation unknown), which is what a large pitch gives.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_WARPMODEL_H
#define CUDA_ACCESS_LINT_ANALYZER_WARPMODEL_H

#include "analyzer/Values.h"

#include <array>
#include <cstdint>
#include <optional>

namespace cal {

constexpr int64_t SectorBytes = 32;
constexpr int64_t CacheLineBytes = 128;
constexpr int64_t BankCount = 32;
constexpr int64_t BankWordBytes = 4;

/// One warp-wide access, with exact lane offsets.
struct WarpRequest {
  unsigned BytesPerLane = 4;
  LaneMask Active = AllLanes;
  /// Byte offset of each lane from the request's base (meaningful for active
  /// lanes only).
  std::array<int64_t, WarpSize> Offset{};
  /// Lanes in different groups are a symbolic distance apart.
  std::array<uint8_t, WarpSize> Group{};
};

/// What it costs, for one value of the base address.
struct RequestCost {
  unsigned Sectors = 0; ///< distinct 32-byte sectors
  /// Distinct 128-byte cache lines: L1 looks up tags per line, so this is
  /// what an L1 request costs (Nsight Compute's "L1 tag requests").
  unsigned Lines = 0;
  unsigned BytesUsed = 0; ///< distinct bytes the active lanes move
  /// Sectors the request covers only in part: for a store, what L2 has to
  /// merge with the rest of the sector (a read-modify-write).
  unsigned PartialSectors = 0;
  bool StartsAligned = false; ///< lowest address of group 0 is 32-byte aligned
  bool VectorAligned = true; ///< every lane's address is a multiple of its size
  /// Shared memory: wavefronts and the conflict-free minimum; 0/0 when the
  /// lanes fall in several groups (bank relation unknown).
  unsigned Wavefronts = 0;
  unsigned IdealWavefronts = 0;
};

/// \p BaseResidue is the base address modulo 128 (any value >= 0; only its
/// residue matters). Without \p Sectors, the sectors, lines and bytes are
/// not counted (0): what a shared access needs is its banks and alignment.
RequestCost costOf(const WarpRequest &R, int64_t BaseResidue,
                   bool Sectors = true);

/// Distinct sectors the union of several requests touches (footprint of a
/// warp over loop iterations), and the distinct bytes they use. Each request
/// is given with its own base residue; \p BaseShift[i] is the exact byte
/// distance of request i's base from request 0's.
struct Footprint {
  unsigned Sectors = 0;
  unsigned Lines = 0;
  unsigned PartialSectors = 0;
  unsigned BytesUsed = 0;
};
Footprint footprintOf(const WarpRequest &R, int64_t BaseResidue,
                      const std::vector<int64_t> &BaseShift);

/// The number of phases a shared access of \p Bytes per lane is served in.
unsigned sharedPhases(unsigned Bytes);

/// A request whose start is known up to one term Coeff * u, u an unknown
/// integer (a kernel parameter `s` in `in[i + s]`: Coeff 4 for floats), for
/// one warp: its weight among the warps, Coeff, and its sectors per request
/// by the offset the term adds (bytes, modulo 32), averaged over the known
/// residues of the rest of its start, and whether a lane's address is then
/// not a multiple of its size (a vector access that faults) in some case.
struct AlignmentShare {
  double Weight = 1;
  int64_t Coeff = 0;
  std::array<double, 32> SectorsAt{};
  std::array<bool, 32> FaultsAt{};
};
/// The share of \p R whose start is one of \p Known (residue, weight) plus
/// \p Coeff * u; std::nullopt when a known residue does not start aligned by
/// itself (then no u aligns every case, and there is no condition to state).
std::optional<AlignmentShare>
alignmentShare(const WarpRequest &R,
               const std::vector<std::pair<int64_t, double>> &Known,
               int64_t Coeff);

/// The condition under which every warp's run starts on a sector boundary,
/// from each warp's share:
///
///   warp w aligned  <=>  Coeff_w * u = 0 (mod 32)  <=>  u = 0 (mod m_w),
///                        m_w = 32 / gcd(Coeff_w, 32)
///   every warp      <=>  u = 0 (mod lcm of the m_w)
///
/// (`in[i + s]` over floats: s % 8 == 0; a warp on rows w of a runtime pitch
/// `p`, 4 * w * p: p % 8 == 0, from the odd rows.) For each u that fails
/// (1 .. m - 1: the shares repeat with period m), the weighted average of
/// the warps' sectors at their offsets Coeff_w * u; the fewest and the most
/// over those u that leave every lane's address a multiple of its size.
/// std::nullopt when m is 1 (every warp aligned whatever u).
/// VectorModulus: no lane's address faults iff u % VectorModulus == 0 (1:
/// never; float4 loads from `in + s`: s % 4 == 0, where s % 8 == 0 aligns
/// the run). SameInEveryWarp: u moves every warp's start alike (a shift of
/// the data, not a row pitch that the warps start at different multiples
/// of).
struct AlignedIf {
  int64_t Modulus = 1;
  double SectorsIfNotMin = 0, SectorsIfNotMax = 0;
  int64_t VectorModulus = 1;
  bool SameInEveryWarp = true;
};
std::optional<AlignedIf> alignedIf(const std::vector<AlignmentShare> &Shares);

} // namespace cal

#endif

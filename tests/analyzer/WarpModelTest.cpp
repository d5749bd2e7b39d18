//===- WarpModelTest.cpp - Sectors, lines, bank wavefronts ----------------===//
//
// The hardware facts of WarpModel.h (DESIGN.md section 3) on hand-made lane
// addresses.
//
//===----------------------------------------------------------------------===//

#include "analyzer/WarpModel.h"

#include <gtest/gtest.h>

using namespace cal;

namespace {

/// Lane L at Start + L * Stride bytes, Bytes per lane.
WarpRequest strided(unsigned Bytes, int64_t Stride, int64_t Start = 0,
                    LaneMask Active = AllLanes) {
  WarpRequest R;
  R.BytesPerLane = Bytes;
  R.Active = Active;
  for (unsigned L = 0; L < WarpSize; ++L)
    R.Offset[L] = Start + int64_t(L) * Stride;
  return R;
}

TEST(WarpModelGlobal, ContiguousFloatsAreFourSectorsOneLine) {
  RequestCost C = costOf(strided(4, 4), 0);
  EXPECT_EQ(C.Sectors, 4u);
  EXPECT_EQ(C.Lines, 1u);
  EXPECT_EQ(C.BytesUsed, 128u);
  EXPECT_EQ(C.PartialSectors, 0u);
  EXPECT_TRUE(C.StartsAligned);
  EXPECT_TRUE(C.VectorAligned);
}

// WarpModel.h: bf16, lanes 32 bytes apart, 2 bytes each -> 32 sectors,
// 64 / 1024 = 6.25%.
TEST(WarpModelGlobal, Bf16LanesThirtyTwoBytesApart) {
  RequestCost C = costOf(strided(2, 32), 0);
  EXPECT_EQ(C.Sectors, 32u);
  EXPECT_EQ(C.Lines, 8u);
  EXPECT_EQ(C.BytesUsed, 64u);
  EXPECT_EQ(C.PartialSectors, 32u);
}

TEST(WarpModelGlobal, MisalignedBaseTouchesOneMoreSector) {
  RequestCost C = costOf(strided(4, 4), 4);
  EXPECT_EQ(C.Sectors, 5u);
  EXPECT_EQ(C.Lines, 2u);
  EXPECT_FALSE(C.StartsAligned);
  EXPECT_TRUE(C.VectorAligned);
  // A 16-byte vector at a 4-byte offset is not vector-aligned.
  EXPECT_FALSE(costOf(strided(16, 16), 4).VectorAligned);
}

TEST(WarpModelGlobal, InactiveLanesCostNothing) {
  RequestCost C = costOf(strided(4, 128, 0, /*Active=*/0x3), 0);
  EXPECT_EQ(C.Sectors, 2u);
  EXPECT_EQ(C.BytesUsed, 8u);
}

TEST(WarpModelGlobal, FootprintOverIterationsFillsSectors) {
  // Every other float per request (8 bytes apart): 8 sectors, half used;
  // with a second iteration 4 bytes further, the same 8 sectors are full.
  WarpRequest R = strided(4, 8);
  RequestCost One = costOf(R, 0);
  EXPECT_EQ(One.Sectors, 8u);
  EXPECT_EQ(One.BytesUsed, 128u);
  Footprint F = footprintOf(R, 0, {0, 4});
  EXPECT_EQ(F.Sectors, 8u);
  EXPECT_EQ(F.BytesUsed, 256u);
  EXPECT_EQ(F.PartialSectors, 0u);
}

TEST(WarpModelShared, PhasesPerWidth) {
  EXPECT_EQ(sharedPhases(1), 1u);
  EXPECT_EQ(sharedPhases(4), 1u);
  EXPECT_EQ(sharedPhases(8), 2u);
  EXPECT_EQ(sharedPhases(16), 4u);
}

TEST(WarpModelShared, FourByteStrideOneWordIsConflictFree) {
  RequestCost C = costOf(strided(4, 4), 0);
  EXPECT_EQ(C.Wavefronts, 1u);
  EXPECT_EQ(C.IdealWavefronts, 1u);
}

// WarpModel.h: a row stride of 8 words (bf16 [256][16]): lanes 0, 4, 8, ...
// share a bank: 8-way.
TEST(WarpModelShared, RowStrideOfEightWordsIsEightWay) {
  RequestCost C = costOf(strided(2, 32), 0);
  EXPECT_EQ(C.Wavefronts, 8u);
  EXPECT_EQ(C.IdealWavefronts, 1u);
}

TEST(WarpModelShared, ColumnOfA32x32FloatTileIs32Way) {
  RequestCost C = costOf(strided(4, 128), 0);
  EXPECT_EQ(C.Wavefronts, 32u);
  // Padded to [32][33]: conflict-free.
  EXPECT_EQ(costOf(strided(4, 132), 0).Wavefronts, 1u);
}

TEST(WarpModelShared, SameWordIsABroadcast) {
  RequestCost C = costOf(strided(4, 0), 0);
  EXPECT_EQ(C.Wavefronts, 1u);
  // Two words in one bank, each read by 16 lanes: 2 wavefronts.
  WarpRequest R = strided(4, 0);
  for (unsigned L = 16; L < WarpSize; ++L)
    R.Offset[L] = 128;
  EXPECT_EQ(costOf(R, 0).Wavefronts, 2u);
}

// 8- and 16-byte accesses are served per half- and quarter-warp: 2 and 4
// wavefronts are their conflict-free minimum.
TEST(WarpModelShared, EightAndSixteenByteAccesses) {
  RequestCost C8 = costOf(strided(8, 8), 0);
  EXPECT_EQ(C8.Wavefronts, 2u);
  EXPECT_EQ(C8.IdealWavefronts, 2u);
  RequestCost C16 = costOf(strided(16, 16), 0);
  EXPECT_EQ(C16.Wavefronts, 4u);
  EXPECT_EQ(C16.IdealWavefronts, 4u);
  // float2 with a row stride of 32 words: in each half-warp 16 lanes on
  // the same two banks: 16 wavefronts per phase.
  RequestCost C8Col = costOf(strided(8, 128), 0);
  EXPECT_EQ(C8Col.Wavefronts, 32u);
  EXPECT_EQ(C8Col.IdealWavefronts, 2u);
}

TEST(WarpModelShared, SeveralGroupsHaveNoBankModel) {
  WarpRequest R = strided(4, 4);
  for (unsigned L = 16; L < WarpSize; ++L)
    R.Group[L] = 1;
  RequestCost C = costOf(R, 0);
  EXPECT_EQ(C.Wavefronts, 0u);
  EXPECT_EQ(C.IdealWavefronts, 0u);
  // Groups never share a sector: 2 + 2.
  EXPECT_EQ(C.Sectors, 4u);
}


/// Lane L at F(L) * 16 bytes, 16 bytes per lane (an LDS.128).
template <typename Fn> WarpRequest vector16(Fn F) {
  WarpRequest R = strided(16, 0);
  for (unsigned L = 0; L < WarpSize; ++L)
    R.Offset[L] = int64_t(F(L)) * 16;
  return R;
}

// 16-byte accesses, as Nsight Compute counted them on the H200 (WarpModel.cpp,
// vectorWavefronts): each half-warp apart; an aligned quad reading one address
// is one slot; slots go 8 to a wavefront.
TEST(WarpModelShared, SixteenByteBroadcastsByQuad) {
  // Every lane one address: one wavefront per half-warp.
  RequestCost All = costOf(vector16([](unsigned) { return 0; }), 0);
  EXPECT_EQ(All.Wavefronts, 2u);
  EXPECT_EQ(All.IdealWavefronts, 2u);
  // Half-warps one address each, rows 32 bytes apart (SGEMM_CUDA kernel 6's
  // As): 2.
  RequestCost Halves = costOf(vector16([](unsigned L) { return 2 * (L / 16); }), 0);
  EXPECT_EQ(Halves.Wavefronts, 2u);
  // Lanes 4 to a row, rows 32 bytes apart (kernel 10's As,
  // `threadRowInWarp * 8 + i`): a half-warp's 4 quads are 4 slots, on 16
  // distinct banks: 2.
  RequestCost Rows = costOf(vector16([](unsigned L) { return 2 * (L / 4); }), 0);
  EXPECT_EQ(Rows.Wavefronts, 2u);
  EXPECT_EQ(Rows.IdealWavefronts, 2u);
  // Four addresses repeated every 4 lanes (kernel 10's Bs,
  // `threadColInWarp * 4 + i`): no quad reads one address, 16 slots per
  // half-warp: 4, though only 64 bytes are read.
  RequestCost Cols = costOf(vector16([](unsigned L) { return L % 4; }), 0);
  EXPECT_EQ(Cols.Wavefronts, 4u);
  EXPECT_EQ(Cols.IdealWavefronts, 4u);
  // Lanes 32 bytes apart (kernel 5's Bs, `threadCol * 8 + i`): two lanes of
  // each group of 8 share a bank: 8, ideally 4.
  RequestCost Apart = costOf(vector16([](unsigned L) { return 2 * (L % 16); }), 0);
  EXPECT_EQ(Apart.Wavefronts, 8u);
  EXPECT_EQ(Apart.IdealWavefronts, 4u);
}

} // namespace

namespace {

// alignmentShare / alignedIf: the condition on an unknown u in a request's
// start (base = known residue + Coeff * u).

// in[i + s] over floats: aligned iff s % 8 == 0; else 5 sectors, not 4.
TEST(WarpModelAlignedIf, FloatShiftNeedsAMultipleOfEight) {
  auto Sh = alignmentShare(strided(4, 4), {{0, 1.0}}, 4);
  ASSERT_TRUE(Sh);
  EXPECT_EQ(Sh->SectorsAt[0], 4);
  EXPECT_EQ(Sh->SectorsAt[4], 5);
  auto C = alignedIf({*Sh});
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Modulus, 8);
  EXPECT_EQ(C->SectorsIfNotMin, 5);
  EXPECT_EQ(C->SectorsIfNotMax, 5);
  EXPECT_TRUE(C->SameInEveryWarp);
}

// The coefficient sets the modulus: 4 * s floats (16 bytes) -> 2, chars
// (1 byte) -> 32, 12 bytes -> 8, 32 bytes -> none.
TEST(WarpModelAlignedIf, TheCoefficientSetsTheModulus) {
  auto Of = [](unsigned Bytes, int64_t Coeff) -> int64_t {
    auto Sh = alignmentShare(strided(Bytes, Bytes), {{0, 1.0}}, Coeff);
    auto C = Sh ? alignedIf({*Sh}) : std::nullopt;
    return C ? C->Modulus : 1;
  };
  EXPECT_EQ(Of(4, 16), 2);
  EXPECT_EQ(Of(1, 1), 32);
  EXPECT_EQ(Of(2, 2), 16);
  EXPECT_EQ(Of(4, 12), 8);
  EXPECT_EQ(Of(4, -4), 8);
  EXPECT_EQ(Of(4, 32), 1);
}

// Two 64-byte rows (a 16 x 16 block of floats): 2 sectors each aligned, 3
// each otherwise: 6 instead of 4.
TEST(WarpModelAlignedIf, TwoRowsOfSixtyFourBytesTakeSixWhenOff) {
  WarpRequest R = strided(4, 4);
  for (unsigned L = 16; L < WarpSize; ++L)
    R.Offset[L] = 4096 + int64_t(L - 16) * 4;
  auto Sh = alignmentShare(R, {{0, 1.0}}, 4);
  ASSERT_TRUE(Sh);
  auto C = alignedIf({*Sh});
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Modulus, 8);
  EXPECT_EQ(C->SectorsIfNotMax, 6);
}

// A known part off the boundary in some case: no u aligns every case.
TEST(WarpModelAlignedIf, NoConditionWhereTheRestIsOffTheBoundary) {
  EXPECT_FALSE(alignmentShare(strided(4, 4), {{0, 0.5}, {4, 0.5}}, 4));
}

// Warps on rows w = 0..7 of a pitch p floats (Coeff 4 * w): p % 8 == 0
// from the odd rows; failing, 4.5 (p = 4 mod 8) to 4.875 (p odd).
TEST(WarpModelAlignedIf, RowsOfAPitchTakeTheStrictestWarp) {
  std::vector<AlignmentShare> Shares;
  for (int64_t W = 0; W < 8; ++W) {
    auto Sh = alignmentShare(strided(4, 4), {{0, 1.0}}, 4 * W);
    ASSERT_TRUE(Sh);
    Shares.push_back(*Sh);
  }
  auto C = alignedIf(Shares);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Modulus, 8);
  EXPECT_DOUBLE_EQ(C->SectorsIfNotMin, 4.5);
  EXPECT_DOUBLE_EQ(C->SectorsIfNotMax, 4.875);
  EXPECT_FALSE(C->SameInEveryWarp);
}

// float4 loads from `in + s` (Coeff 4): s % 8 aligns the run, s % 4 keeps
// every lane's address a multiple of 16 (other values fault); failing but
// not faulting (16 bytes past): 17 sectors instead of 16.
TEST(WarpModelAlignedIf, VectorLoadsCountOnlyTheValuesThatDoNotFault) {
  auto Sh = alignmentShare(strided(16, 16), {{0, 1.0}}, 4);
  ASSERT_TRUE(Sh);
  EXPECT_TRUE(Sh->FaultsAt[4]);
  EXPECT_FALSE(Sh->FaultsAt[16]);
  auto C = alignedIf({*Sh});
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Modulus, 8);
  EXPECT_EQ(C->VectorModulus, 4);
  EXPECT_EQ(C->SectorsIfNotMin, 17);
  EXPECT_EQ(C->SectorsIfNotMax, 17);
  // Floats never fault at a multiple of 4 bytes.
  auto F = alignedIf({*alignmentShare(strided(4, 4), {{0, 1.0}}, 4)});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->VectorModulus, 1);
}

} // namespace

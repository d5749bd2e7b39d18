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

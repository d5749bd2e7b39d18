//===- SuggestTest.cpp - The rewrites' own arithmetic ---------------------===//
//
// rules/Suggest.h's helpers on their own: the padding of a staged row.
//
//===----------------------------------------------------------------------===//

#include "rules/Suggest.h"

#include "analyzer/WarpModel.h"

#include <gtest/gtest.h>

namespace cal {
namespace {

/// The padding search over every column of the row, as conflictFreePad
/// did before it took one period of columns.
unsigned padCheckingEveryColumn(unsigned RowElems, unsigned ElemBytes) {
  for (unsigned Pad = 1; Pad <= 64; ++Pad) {
    WarpRequest R;
    R.BytesPerLane = ElemBytes;
    for (unsigned L = 0; L < WarpSize; ++L)
      R.Offset[L] = int64_t(L) * (RowElems + Pad) * ElemBytes;
    bool Free = true;
    for (unsigned C = 0; C < RowElems && Free; ++C) {
      RequestCost Cost = costOf(R, int64_t(C) * ElemBytes);
      Free = Cost.Wavefronts <= Cost.IdealWavefronts;
    }
    if (Free)
      return Pad;
  }
  return 0;
}

TEST(Suggest, ConflictFreePadIsTheSameOverOnePeriodOfColumns) {
  // A column moves every lane alike: only its offset modulo 4 bytes
  // changes the banks' pattern.
  for (unsigned Elem : {1u, 2u, 4u, 8u, 16u})
    for (unsigned Row = 1; Row <= 96; ++Row)
      EXPECT_EQ(conflictFreePad(Row, Elem), padCheckingEveryColumn(Row, Elem))
          << Row << " elements of " << Elem << " bytes";
}

TEST(Suggest, ConflictFreePadOfKnownRows) {
  // 32 floats: 33 words apart, odd. 16 bf16 (8 words): 18 bf16 (9 words),
  // as the guide's staged buffer measures conflict-free.
  EXPECT_EQ(conflictFreePad(32, 4), 1u);
  EXPECT_EQ(conflictFreePad(16, 2), 2u);
  // A row of 50,000 floats answers at once.
  EXPECT_EQ(conflictFreePad(50000, 4), 1u);
}

} // namespace
} // namespace cal

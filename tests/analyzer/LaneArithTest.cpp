//===- LaneArithTest.cpp - Division, modulo and bits per lane -------------===//
//
// analyzer/LaneArith.h on hand-made polynomials: the values its comments
// state.
//
//===----------------------------------------------------------------------===//

#include "analyzer/LaneArith.h"

#include <gtest/gtest.h>

using namespace cal;

namespace {

/// tx in [0, 31], bx unbounded, s in [0, 7].
struct Symbols {
  SymbolTable T;
  SymbolId Tx, Bx, S;
  Symbols() {
    SymbolInfo I;
    I.Name = "tx";
    I.Kind = SymbolKind::ThreadIdx;
    I.Min = 0;
    I.Max = 31;
    Tx = T.add(I);
    I = SymbolInfo();
    I.Name = "bx";
    I.Kind = SymbolKind::BlockIdx;
    Bx = T.add(I);
    I = SymbolInfo();
    I.Name = "s";
    I.Kind = SymbolKind::Param;
    I.Min = 0;
    I.Max = 7;
    S = T.add(I);
  }
};

Poly sum(std::initializer_list<Poly> Ps) {
  Poly R;
  for (const Poly &P : Ps)
    R = *Poly::add(R, P);
  return R;
}

TEST(LaneArith, RangeOfALinearForm) {
  Symbols Y;
  // 3*tx + 5, tx in [0, 31]: [5, 98].
  auto R = valueRange(sum({Poly::symbol(Y.Tx, 3), Poly(5)}), Y.T);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->first, 5);
  EXPECT_EQ(R->second, 98);
  // A negative coefficient swaps the ends: 10 - 2*s, s in [0, 7]: [-4, 10].
  R = valueRange(sum({Poly::symbol(Y.S, -2), Poly(10)}), Y.T);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->first, -4);
  EXPECT_EQ(R->second, 10);
  // Products of ranged symbols: tx*s in [0, 217].
  R = valueRange(*Poly::mul(Poly::symbol(Y.Tx), Poly::symbol(Y.S)), Y.T);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->second, 31 * 7);
  // bx has no range.
  EXPECT_FALSE(valueRange(Poly::symbol(Y.Bx), Y.T));
}

TEST(LaneArith, BoundsOneSideAtATime) {
  Symbols Y;
  // bw >= 1 with no largest value (blocks of an unknown multiple of 32
  // threads: blockDim.x = 32*bw).
  SymbolInfo I;
  I.Name = "bw";
  I.Kind = SymbolKind::BlockDim;
  I.Min = 1;
  SymbolId Bw = Y.T.add(I);
  // 16 - 32*bw <= -16: below zero whatever bw is; no lower bound.
  ValueBounds B = valueBounds(sum({Poly(16), Poly::symbol(Bw, -32)}), Y.T);
  EXPECT_FALSE(B.Lo);
  ASSERT_TRUE(B.Hi);
  EXPECT_EQ(*B.Hi, -16);
  // 32*bw - tx >= 32 - 31 = 1; no upper bound.
  B = valueBounds(sum({Poly::symbol(Bw, 32), Poly::symbol(Y.Tx, -1)}), Y.T);
  ASSERT_TRUE(B.Lo);
  EXPECT_EQ(*B.Lo, 1);
  EXPECT_FALSE(B.Hi);
  // A product of non-negative factors, one unbounded: tx*bw >= 0.
  B = valueBounds(*Poly::mul(Poly::symbol(Y.Tx), Poly::symbol(Bw)), Y.T);
  ASSERT_TRUE(B.Lo);
  EXPECT_EQ(*B.Lo, 0);
  EXPECT_FALSE(B.Hi);
  // bx has no bound on either side, and neither has bx + tx.
  B = valueBounds(sum({Poly::symbol(Y.Bx), Poly::symbol(Y.Tx)}), Y.T);
  EXPECT_FALSE(B.Lo);
  EXPECT_FALSE(B.Hi);
  // Both sides known: valueRange's interval.
  B = valueBounds(sum({Poly::symbol(Y.Tx, 3), Poly(5)}), Y.T);
  EXPECT_EQ(B.Lo, std::optional<int64_t>(5));
  EXPECT_EQ(B.Hi, std::optional<int64_t>(98));
  EXPECT_FALSE(valueRange(Poly::symbol(Bw), Y.T));
}

TEST(LaneArith, DivisionOfConstantsTruncatesAsC) {
  Symbols Y;
  EXPECT_EQ(divLane(Poly(-1), 32, Y.T), std::optional<Poly>(Poly(0)));
  EXPECT_EQ(divLane(Poly(65), 32, Y.T), std::optional<Poly>(Poly(2)));
}

TEST(LaneArith, DivisionSplitsTheDivisibleTerms) {
  Symbols Y;
  // (64*bx + tx) / 32 = 2*bx: tx in [0, 31] has one quotient.
  auto Q = divLane(sum({Poly::symbol(Y.Bx, 64), Poly::symbol(Y.Tx)}), 32, Y.T);
  ASSERT_TRUE(Q);
  EXPECT_EQ(*Q, Poly::symbol(Y.Bx, 2));
  // (64*bx + tx + 16) / 32: tx + 16 in [16, 47] straddles 32.
  EXPECT_FALSE(divLane(
      sum({Poly::symbol(Y.Bx, 64), Poly::symbol(Y.Tx), Poly(16)}), 32, Y.T));
  // (64*bx + 40) / 32 = 2*bx + 1.
  Q = divLane(sum({Poly::symbol(Y.Bx, 64), Poly(40)}), 32, Y.T);
  ASSERT_TRUE(Q);
  EXPECT_EQ(*Q, sum({Poly::symbol(Y.Bx, 2), Poly(1)}));
  // A term K does not divide and that has no range: not exact.
  EXPECT_FALSE(divLane(Poly::symbol(Y.Bx, 3), 32, Y.T));
}

TEST(LaneArith, ModuloPerLane) {
  Symbols Y;
  // Lanes L: 64*bx + L. % 32 is L for every lane.
  std::array<Poly, WarpSize> Lanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    Lanes[L] = sum({Poly::symbol(Y.Bx, 64), Poly(L)});
  auto M = moduloExact(LaneVec::perLane(Lanes), 32, Y.T);
  ASSERT_TRUE(M);
  for (unsigned L = 0; L < WarpSize; ++L)
    EXPECT_EQ(M->lane(L), Poly(L)) << "lane " << L;
  // A constant follows C: -1 % 32 is -1.
  M = moduloExact(LaneVec(Poly(-1)), 32, Y.T);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->uniform(), Poly(-1));
  // 64*bx + 3*L: lane 11's 33 leaves the first window.
  for (unsigned L = 0; L < WarpSize; ++L)
    Lanes[L] = sum({Poly::symbol(Y.Bx, 64), Poly(3 * L)});
  M = moduloExact(LaneVec::perLane(Lanes), 32, Y.T);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->lane(11), Poly(1));
  // bx % 32 is not known.
  EXPECT_FALSE(moduloExact(LaneVec(Poly::symbol(Y.Bx)), 32, Y.T));
}

TEST(LaneArith, LowBits) {
  Symbols Y;
  // 64*s + 5 with 4 bits: (64*s, 5).
  auto Split = splitLowBits(sum({Poly::symbol(Y.S, 64), Poly(5)}), 4);
  ASSERT_TRUE(Split);
  EXPECT_EQ(Split->first, Poly::symbol(Y.S, 64));
  EXPECT_EQ(Split->second, 5);
  // The low part is non-negative: -3 with 4 bits is -16 + 13.
  Split = splitLowBits(Poly(-3), 4);
  ASSERT_TRUE(Split);
  EXPECT_EQ(Split->first, Poly(-16));
  EXPECT_EQ(Split->second, 13);
  // 8*s is not a multiple of 16.
  EXPECT_FALSE(splitLowBits(Poly::symbol(Y.S, 8), 4));
}

TEST(LaneArith, TruthPerLane) {
  std::array<Poly, WarpSize> Lanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    Lanes[L] = Poly(L < 16 ? 1 : 0);
  EXPECT_EQ(laneTruth(LaneVec::perLane(Lanes)),
            std::optional<LaneMask>(0x0000ffffu));
  EXPECT_EQ(laneTruth(LaneVec(Poly(7))), std::optional<LaneMask>(AllLanes));
  EXPECT_EQ(laneTruth(LaneVec(Poly(0))), std::optional<LaneMask>(0u));
  Symbols Y;
  EXPECT_FALSE(laneTruth(LaneVec(Poly::symbol(Y.Bx))));
}

TEST(LaneArith, OrAndXorWithASmallConstant) {
  Symbols Y;
  // 64*s | 3 = 64*s + 3; (64*s + 1) ^ 3 = 64*s + 2.
  auto R =
      bitOrXor(BitOp::Or, LaneVec(Poly::symbol(Y.S, 64)), LaneVec(Poly(3)));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->uniform(), sum({Poly::symbol(Y.S, 64), Poly(3)}));
  R = bitOrXor(BitOp::Xor, LaneVec(Poly(3)),
               LaneVec(sum({Poly::symbol(Y.S, 64), Poly(1)})));
  ASSERT_TRUE(R);
  EXPECT_EQ(R->uniform(), sum({Poly::symbol(Y.S, 64), Poly(2)}));
  // Constants: 12 | 3 = 15, 12 ^ 4 = 8.
  EXPECT_EQ(bitOrXor(BitOp::Or, LaneVec(Poly(12)), LaneVec(Poly(3)))->uniform(),
            Poly(15));
  EXPECT_EQ(
      bitOrXor(BitOp::Xor, LaneVec(Poly(12)), LaneVec(Poly(4)))->uniform(),
      Poly(8));
  // 2*s | 3: the symbolic part reaches into the constant's bits.
  EXPECT_FALSE(
      bitOrXor(BitOp::Or, LaneVec(Poly::symbol(Y.S, 2)), LaneVec(Poly(3))));
  // Two symbolic sides.
  EXPECT_FALSE(bitOrXor(BitOp::Or, LaneVec(Poly::symbol(Y.S, 64)),
                        LaneVec(Poly::symbol(Y.Bx, 64))));
}

} // namespace

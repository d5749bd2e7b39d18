//===- PolyTest.cpp - Poly arithmetic and the checked helpers -------------===//

#include "analyzer/Poly.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using namespace cal;

namespace {

constexpr SymbolId Tx = 1, Bx = 2, C = 3;

std::string show(const Poly &P) {
  return P.str(
      [](SymbolId S) {
        return S == Tx ? std::string("tx") : S == Bx ? std::string("bx")
                                                     : std::string("c");
      },
      [](SymbolId S) { return static_cast<int>(S); });
}

// 2*(4096*bx + 16*tx + c) == 8192*bx + 32*tx + 2*c (Poly.h's example).
TEST(Poly, SumAndScaleAreExact) {
  auto Sum = Poly::add(Poly::symbol(Bx, 4096), Poly::symbol(Tx, 16));
  ASSERT_TRUE(Sum);
  Sum = Poly::add(*Sum, Poly::symbol(C));
  ASSERT_TRUE(Sum);
  auto Twice = Poly::scale(*Sum, 2);
  ASSERT_TRUE(Twice);
  EXPECT_EQ(Twice->linearCoeff(Bx), 8192);
  EXPECT_EQ(Twice->linearCoeff(Tx), 32);
  EXPECT_EQ(Twice->linearCoeff(C), 2);
  EXPECT_EQ(Twice->constant(), 0);
  EXPECT_EQ(Twice->termGcd(), 2);
}

TEST(Poly, SubtractionCancelsTerms) {
  Poly A = *Poly::add(Poly::symbol(Tx, 4), Poly(12));
  Poly B = *Poly::add(Poly::symbol(Tx, 4), Poly(4));
  auto D = Poly::sub(A, B);
  ASSERT_TRUE(D);
  ASSERT_TRUE(D->asConstant());
  EXPECT_EQ(*D->asConstant(), 8); // two lanes differ by a constant
  EXPECT_TRUE(D->terms().empty());
}

TEST(Poly, ProductsMultiplyMonomials) {
  // (tx + 1) * (bx + 2) = tx*bx + 2*tx + bx + 2
  auto P = Poly::mul(*Poly::add(Poly::symbol(Tx), Poly(1)),
                     *Poly::add(Poly::symbol(Bx), Poly(2)));
  ASSERT_TRUE(P);
  EXPECT_EQ(P->constant(), 2);
  EXPECT_EQ(P->linearCoeff(Tx), 2);
  EXPECT_EQ(P->linearCoeff(Bx), 1);
  EXPECT_EQ(P->terms().size(), 3u);
  EXPECT_TRUE(P->mentions(Tx));
  EXPECT_FALSE(P->mentions(C));
}

TEST(Poly, OverflowIsReportedNotWrapped) {
  Poly Big(std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(Poly::add(Big, Poly(1)));
  EXPECT_FALSE(Poly::scale(Poly::symbol(Tx, INT64_C(1) << 62), 4));
  EXPECT_FALSE(Poly::mul(Poly::symbol(Tx, INT64_C(1) << 40),
                         Poly::symbol(Bx, INT64_C(1) << 40)));
}

TEST(Poly, DivideExactOnlyWhenEveryCoefficientDivides) {
  Poly P = *Poly::add(Poly::symbol(Tx, 8), Poly(16));
  auto Q = P.divideExact(8);
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->linearCoeff(Tx), 1);
  EXPECT_EQ(Q->constant(), 2);
  EXPECT_FALSE(P.divideExact(16)); // 8*tx is not a multiple of 16
}

TEST(Poly, SubstituteAndWithoutConstant) {
  Poly P = *Poly::add(*Poly::add(Poly::symbol(Tx, 4), Poly::symbol(Bx, 128)),
                      Poly(3));
  auto S = P.substitute(Tx, 5);
  ASSERT_TRUE(S);
  EXPECT_FALSE(S->mentions(Tx));
  EXPECT_EQ(S->constant(), 23);
  EXPECT_EQ(P.withoutConstant().constant(), 0);
  EXPECT_EQ(P.withoutConstant().terms().size(), 2u);
}

TEST(Poly, ReadableFormFactorsOut) {
  Poly P = *Poly::add(Poly::symbol(Bx, 1024), Poly::symbol(Tx, 4));
  EXPECT_EQ(show(P), "4*tx + 1024*bx");
  EXPECT_EQ(P.str([](SymbolId S) { return S == Tx ? "tx" : "bx"; },
                  [](SymbolId S) { return static_cast<int>(S); }, 4),
            "4*(tx + 256*bx)");
}

TEST(Poly, EqualityAndHash) {
  Poly A = *Poly::add(Poly::symbol(Tx, 2), Poly::symbol(Bx, 3));
  Poly B = *Poly::add(Poly::symbol(Bx, 3), Poly::symbol(Tx, 2));
  EXPECT_EQ(A, B);
  EXPECT_EQ(A.hash(), B.hash());
  EXPECT_NE(A, Poly::symbol(Tx, 2));
}

TEST(Checked, AddAndMul) {
  EXPECT_EQ(checkedAdd(2, 3), std::optional<int64_t>(5));
  EXPECT_FALSE(checkedAdd(std::numeric_limits<int64_t>::max(), 1));
  EXPECT_EQ(checkedMul(-4, 8), std::optional<int64_t>(-32));
  EXPECT_FALSE(checkedMul(INT64_C(1) << 32, INT64_C(1) << 32));
}

// Floor division and the non-negative modulo: -1 / 32 is -1 with
// remainder 31 (C's truncation would give 0 and -1).
TEST(Checked, FloorDivAndMod) {
  EXPECT_EQ(floorDiv(-1, 32), -1);
  EXPECT_EQ(floorMod(-1, 32), 31);
  EXPECT_EQ(floorDiv(64, 32), 2);
  EXPECT_EQ(floorMod(64, 32), 0);
  EXPECT_EQ(floorDiv(-64, 32), -2);
}

} // namespace

//===- LaneArith.cpp ------------------------------------------------------===//

#include "analyzer/LaneArith.h"

#include <algorithm>
#include <cstdint>

namespace cal {

namespace {

/// One side of an interval: a value, or open. (Not std::optional: GCC 12
/// takes an optional __int128's value for uninitialized.)
struct Side {
  bool Known = false;
  __int128 V = 0;
  static Side of(__int128 X) { return {true, X}; }
  bool fits() const { return Known && V >= INT64_MIN && V <= INT64_MAX; }
};

/// The interval of one monomial (its coefficient left out).
std::pair<Side, Side> monomialBounds(const Monomial &Mono,
                                     const SymbolTable &Syms) {
  Side Lo = Side::of(1), Hi = Side::of(1);
  for (SymbolId S : Mono) {
    const SymbolInfo &I = Syms.get(S);
    if (I.Min && I.Max && Hi.Known) {
      __int128 C[4] = {Lo.V * *I.Min, Lo.V * *I.Max, Hi.V * *I.Min,
                       Hi.V * *I.Max};
      Lo = Side::of(std::min(std::min(C[0], C[1]), std::min(C[2], C[3])));
      Hi = Side::of(std::max(std::max(C[0], C[1]), std::max(C[2], C[3])));
    } else if (I.Min && *I.Min >= 0 && Lo.V >= 0) {
      // Non-negative factors, one with no largest value: the product is at
      // least the product of the smallest, and has no upper bound.
      Lo = Side::of(Lo.V * *I.Min);
      Hi = Side();
    } else {
      return {Side(), Side()};
    }
    if (!Lo.fits() || (Hi.Known && !Hi.fits()))
      return {Side(), Side()};
  }
  return {Lo, Hi};
}

} // namespace

ValueBounds valueBounds(const Poly &P, const SymbolTable &Syms) {
  Side Lo = Side::of(P.constant()), Hi = Side::of(P.constant());
  for (const Poly::Term &T : P.terms()) {
    auto [MLo, MHi] = monomialBounds(T.Mono, Syms);
    const Side &ToLo = T.Coeff >= 0 ? MLo : MHi;
    const Side &ToHi = T.Coeff >= 0 ? MHi : MLo;
    Lo = Lo.Known && ToLo.Known ? Side::of(Lo.V + ToLo.V * T.Coeff) : Side();
    Hi = Hi.Known && ToHi.Known ? Side::of(Hi.V + ToHi.V * T.Coeff) : Side();
  }
  ValueBounds B;
  if (Lo.fits())
    B.Lo = static_cast<int64_t>(Lo.V);
  if (Hi.fits())
    B.Hi = static_cast<int64_t>(Hi.V);
  return B;
}

std::optional<std::pair<int64_t, int64_t>> valueRange(const Poly &P,
                                                      const SymbolTable &Syms) {
  ValueBounds B = valueBounds(P, Syms);
  if (!B.Lo || !B.Hi)
    return std::nullopt;
  return std::make_pair(*B.Lo, *B.Hi);
}

std::optional<Poly> divLane(const Poly &A, int64_t K, const SymbolTable &Syms) {
  if (auto C = A.asConstant()) {
    // C semantics (truncation) for concrete values.
    return Poly(*C / K);
  }
  Poly Div, Rem(A.constant());
  for (const Poly::Term &T : A.terms()) {
    bool Divisible = T.Coeff % K == 0;
    auto Sum = Poly::add(Divisible ? Div : Rem,
                         Poly::term(T.Mono, Divisible ? T.Coeff / K : T.Coeff));
    if (!Sum)
      return std::nullopt;
    (Divisible ? Div : Rem) = *Sum;
  }
  int64_t Q;
  if (auto C = Rem.asConstant()) {
    Q = floorDiv(*C, K);
  } else {
    auto R = valueRange(Rem, Syms);
    if (!R || floorDiv(R->first, K) != floorDiv(R->second, K))
      return std::nullopt;
    Q = floorDiv(R->first, K);
  }
  return Poly::add(Div, Poly(Q));
}

std::optional<LaneVec> moduloExact(const LaneVec &A, int64_t K,
                                   const SymbolTable &Syms) {
  return A.map([&](const Poly &P) -> std::optional<Poly> {
    if (auto C = P.asConstant())
      return Poly(*C % K); // C semantics
    auto Q = divLane(P, K, Syms);
    if (!Q)
      return std::nullopt;
    auto KQ = Poly::scale(*Q, K);
    if (!KQ)
      return std::nullopt;
    return Poly::sub(P, *KQ);
  });
}

std::optional<std::pair<Poly, int64_t>> splitLowBits(const Poly &P, int Bits) {
  int64_t M = int64_t(1) << Bits;
  for (const Poly::Term &T : P.terms())
    if (T.Coeff % M != 0)
      return std::nullopt;
  int64_t Low = floorMod(P.constant(), M);
  auto High = Poly::sub(P, Poly(Low));
  if (!High)
    return std::nullopt;
  return std::make_pair(*High, Low);
}

std::optional<LaneMask> laneTruth(const LaneVec &V) {
  LaneMask M = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    auto C = V.lane(L).asConstant();
    if (!C)
      return std::nullopt;
    if (*C != 0)
      M |= 1u << L;
  }
  return M;
}

std::optional<LaneVec> bitOrXor(BitOp Op, const LaneVec &X, const LaneVec &Y) {
  auto Combine = [Op](int64_t A, int64_t B) {
    return Op == BitOp::Or ? (A | B) : (A ^ B);
  };
  return LaneVec::zip(
      X, Y, [&](const Poly &A, const Poly &B) -> std::optional<Poly> {
        auto CA = A.asConstant(), CB = B.asConstant();
        if (CA && CB)
          return Poly(Combine(*CA, *CB));
        // One side a small constant, the other's symbolic part above its
        // bits.
        const Poly &Sym = CA ? B : A;
        std::optional<int64_t> Small = CA ? CA : CB;
        if (!Small || *Small < 0)
          return std::nullopt;
        int Bits = 0;
        while ((int64_t(1) << Bits) <= *Small && Bits < 62)
          ++Bits;
        auto Split = splitLowBits(Sym, Bits);
        if (!Split)
          return std::nullopt;
        return Poly::add(Split->first, Poly(Combine(Split->second, *Small)));
      });
}

} // namespace cal

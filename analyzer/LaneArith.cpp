//===- LaneArith.cpp ------------------------------------------------------===//

#include "analyzer/LaneArith.h"

#include <algorithm>
#include <cstdint>

namespace cal {

std::optional<std::pair<int64_t, int64_t>> valueRange(const Poly &P,
                                                      const SymbolTable &Syms) {
  __int128 Lo = P.constant(), Hi = P.constant();
  for (const Poly::Term &T : P.terms()) {
    __int128 TLo = T.Coeff, THi = T.Coeff;
    for (SymbolId S : T.Mono) {
      const SymbolInfo &I = Syms.get(S);
      if (!I.Min || !I.Max)
        return std::nullopt;
      __int128 C[4] = {TLo * *I.Min, TLo * *I.Max, THi * *I.Min, THi * *I.Max};
      TLo = std::min(std::min(C[0], C[1]), std::min(C[2], C[3]));
      THi = std::max(std::max(C[0], C[1]), std::max(C[2], C[3]));
    }
    Lo += TLo;
    Hi += THi;
  }
  if (Lo < INT64_MIN || Hi > INT64_MAX)
    return std::nullopt;
  return std::make_pair(static_cast<int64_t>(Lo), static_cast<int64_t>(Hi));
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

//===- LaneArith.h - Integer arithmetic on lane values ----------*- C++ -*-===//
//
// The interpreter's arithmetic that depends on nothing but the values and the
// symbols' ranges: interval of a polynomial, floor division and modulo of one
// lane's value by a constant, the low bits of a value, per-lane truth, and
// `|` / `^` with a small constant. Each is exact or says it is not
// (std::nullopt); none creates symbols. (The divisions that introduce a
// symbol for a quotient, `x / t` by a runtime `t`, are the interpreter's:
// analyzer/interp/Arithmetic.cpp.)
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_LANEARITH_H
#define CUDA_ACCESS_LINT_ANALYZER_LANEARITH_H

#include "analyzer/Values.h"

#include <optional>
#include <utility>

namespace cal {

/// Bounds on a value, each side where known.
struct ValueBounds {
  std::optional<int64_t> Lo, Hi;
};

/// The bounds of \p P's value from its symbols' ranges, each side on its
/// own: a term whose symbols are all non-negative and have a Min bounds
/// its side from the products of the Mins even where a Max is missing, so
/// `s - 32*bw` with bw >= 1 (a block of an unknown multiple of 32 threads)
/// is at most s - 32, whatever bw's largest value. A side is unset when a
/// term leaves it open or it leaves 64 bits.
ValueBounds valueBounds(const Poly &P, const SymbolTable &Syms);

/// The interval of \p P's value from its symbols' ranges (both sides of
/// valueBounds); std::nullopt when a side is open. `3*tx + 5` with tx in
/// [0, 31] is [5, 98].
std::optional<std::pair<int64_t, int64_t>> valueRange(const Poly &P,
                                                      const SymbolTable &Syms);

/// One lane's value divided by \p K > 0, exact or std::nullopt. A constant
/// divides as C does (truncation: -1 / 32 is 0). Otherwise the terms whose
/// coefficients K divides are divided, and the rest (constant and other
/// terms) must have one floor quotient over its range: `64*bx + tx` by 32,
/// tx in [0, 31], is `2*bx`; `64*bx + tx + 16` by 32 is not exact.
std::optional<Poly> divLane(const Poly &A, int64_t K, const SymbolTable &Syms);

/// `A % K` lane by lane when divLane() is exact for every lane: A - K*(A/K)
/// (a constant follows C: -1 % 32 is -1).
std::optional<LaneVec> moduloExact(const LaneVec &A, int64_t K,
                                   const SymbolTable &Syms);

/// \p P as a part that 2^Bits divides and a constant low part in
/// [0, 2^Bits): `64*s + 5` with 4 bits is (64*s, 5); std::nullopt when a
/// term's coefficient is not a multiple of 2^Bits.
std::optional<std::pair<Poly, int64_t>> splitLowBits(const Poly &P, int Bits);

/// Per-lane truth of a value (bit L set: lane L's value is nonzero);
/// std::nullopt when some lane's value is not a known constant.
std::optional<LaneMask> laneTruth(const LaneVec &V);

enum class BitOp { Or, Xor };

/// `X | Y`, `X ^ Y` lane by lane: of constants; or of a non-negative
/// constant and a value whose symbolic part lies above the constant's bits
/// (`64*s | 3` is `64*s + 3`); else std::nullopt.
std::optional<LaneVec> bitOrXor(BitOp Op, const LaneVec &X, const LaneVec &Y);

} // namespace cal

#endif

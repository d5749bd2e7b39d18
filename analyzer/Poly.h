//===- Poly.h - Integer polynomials over symbols --------------------------===//
//
// The value of an index expression, for one lane, as an integer polynomial
// over the symbols that stay unknown (blockIdx.x, a loop variable, a kernel
// parameter, the warp's position in the block ...):
//
//     2*(4096*blockIdx.x + 16*threadIdx.x + c)  ==  8192*b + 32*t + 2*c
//
// Sums, differences and products stay exact. Division, modulo, shifts and
// masks by constants are exact whenever the symbolic part is a multiple of
// the divisor (see Interpreter.cpp); the key fact the warp model rests on is
// that two lanes' polynomials usually differ by a constant even when neither
// is one.
//
// Coefficients are 64-bit; an operation that would overflow reports it, and
// the caller turns the value into "unknown" rather than wrapping silently.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_POLY_H
#define CUDA_ACCESS_LINT_ANALYZER_POLY_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace cal {

using SymbolId = uint32_t;

/// A product of symbols, sorted, with repetition for powers. Empty = 1.
using Monomial = llvm::SmallVector<SymbolId, 2>;

class Poly {
public:
  struct Term {
    Monomial Mono;
    int64_t Coeff;
    bool operator==(const Term &O) const {
      return Coeff == O.Coeff && Mono == O.Mono;
    }
  };

  Poly() = default;
  /*implicit*/ Poly(int64_t C) : Constant(C) {}
  static Poly symbol(SymbolId S, int64_t Coeff = 1);
  /// Coeff times the product of Mono's symbols.
  static Poly term(const Monomial &Mono, int64_t Coeff);

  int64_t constant() const { return Constant; }
  const llvm::SmallVector<Term, 2> &terms() const { return Terms; }
  bool isConstant() const { return Terms.empty(); }
  std::optional<int64_t> asConstant() const {
    if (isConstant())
      return Constant;
    return std::nullopt;
  }
  /// The polynomial without its constant term.
  Poly withoutConstant() const;
  /// True if symbol \p S occurs in some term.
  bool mentions(SymbolId S) const;
  /// The coefficient of the degree-1 monomial {S}; 0 if absent.
  int64_t linearCoeff(SymbolId S) const;
  /// The polynomial with \p S replaced by the constant \p V.
  std::optional<Poly> substitute(SymbolId S, int64_t V) const;

  bool operator==(const Poly &O) const {
    return Constant == O.Constant && Terms == O.Terms;
  }
  bool operator!=(const Poly &O) const { return !(*this == O); }

  /// Arithmetic; std::nullopt on 64-bit overflow.
  static std::optional<Poly> add(const Poly &A, const Poly &B);
  static std::optional<Poly> sub(const Poly &A, const Poly &B);
  static std::optional<Poly> mul(const Poly &A, const Poly &B);
  static std::optional<Poly> scale(const Poly &A, int64_t K);
  /// Exact division of every coefficient by K; std::nullopt if one is not a
  /// multiple of K.
  std::optional<Poly> divideExact(int64_t K) const;
  /// gcd of the coefficients of the non-constant terms (0 if none).
  int64_t termGcd() const;

  /// Readable form; \p Name gives each symbol's name, \p Rank its order
  /// (lower first). With \p FactorOut > 1 and every coefficient and the
  /// constant divisible by it, prints "F*(...)".
  std::string str(const std::function<std::string(SymbolId)> &Name,
                  const std::function<int(SymbolId)> &Rank,
                  int64_t FactorOut = 1) const;

  size_t hash() const;

private:
  int64_t Constant = 0;
  llvm::SmallVector<Term, 2> Terms; // sorted by Mono, nonzero coefficients
};

/// Checked 64-bit helpers.
std::optional<int64_t> checkedAdd(int64_t A, int64_t B);
std::optional<int64_t> checkedMul(int64_t A, int64_t B);
/// Floor division and the matching non-negative modulo, for B > 0.
int64_t floorDiv(int64_t A, int64_t B);
int64_t floorMod(int64_t A, int64_t B);

} // namespace cal

#endif

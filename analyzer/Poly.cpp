//===- Poly.cpp -----------------------------------------------------------===//

#include "analyzer/Poly.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

namespace cal {

std::optional<int64_t> checkedAdd(int64_t A, int64_t B) {
  int64_t R;
  if (__builtin_add_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

std::optional<int64_t> checkedMul(int64_t A, int64_t B) {
  int64_t R;
  if (__builtin_mul_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}

int64_t floorMod(int64_t A, int64_t B) { return A - floorDiv(A, B) * B; }

Poly Poly::symbol(SymbolId S, int64_t Coeff) {
  Poly P;
  if (Coeff != 0)
    P.Terms.push_back({Monomial{S}, Coeff});
  return P;
}

Poly Poly::term(const Monomial &Mono, int64_t Coeff) {
  Poly P;
  if (Mono.empty()) {
    P.Constant = Coeff;
    return P;
  }
  if (Coeff != 0) {
    Monomial M = Mono;
    llvm::sort(M);
    P.Terms.push_back({M, Coeff});
  }
  return P;
}

Poly Poly::withoutConstant() const {
  Poly P = *this;
  P.Constant = 0;
  return P;
}

bool Poly::mentions(SymbolId S) const {
  for (const Term &T : Terms)
    if (llvm::is_contained(T.Mono, S))
      return true;
  return false;
}

int64_t Poly::linearCoeff(SymbolId S) const {
  for (const Term &T : Terms)
    if (T.Mono.size() == 1 && T.Mono[0] == S)
      return T.Coeff;
  return 0;
}

std::optional<Poly> Poly::substitute(SymbolId S, int64_t V) const {
  Poly Out;
  Out.Constant = Constant;
  for (const Term &T : Terms) {
    int64_t C = T.Coeff;
    Monomial Rest;
    for (SymbolId X : T.Mono) {
      if (X == S) {
        auto M = checkedMul(C, V);
        if (!M)
          return std::nullopt;
        C = *M;
      } else {
        Rest.push_back(X);
      }
    }
    if (Rest.empty()) {
      auto A = checkedAdd(Out.Constant, C);
      if (!A)
        return std::nullopt;
      Out.Constant = *A;
    } else {
      Out.Terms.push_back({Rest, C});
    }
  }
  // Merge equal monomials with overflow checks.
  llvm::sort(Out.Terms,
             [](const Term &A, const Term &B) { return A.Mono < B.Mono; });
  llvm::SmallVector<Term, 2> Merged;
  for (Term &T : Out.Terms) {
    if (!Merged.empty() && Merged.back().Mono == T.Mono) {
      auto A = checkedAdd(Merged.back().Coeff, T.Coeff);
      if (!A)
        return std::nullopt;
      Merged.back().Coeff = *A;
      continue;
    }
    Merged.push_back(T);
  }
  llvm::erase_if(Merged, [](const Term &T) { return T.Coeff == 0; });
  Out.Terms = std::move(Merged);
  return Out;
}

std::optional<Poly> Poly::add(const Poly &A, const Poly &B) {
  Poly R;
  auto C = checkedAdd(A.Constant, B.Constant);
  if (!C)
    return std::nullopt;
  R.Constant = *C;
  // Merge two sorted term lists.
  size_t I = 0, J = 0;
  while (I < A.Terms.size() || J < B.Terms.size()) {
    if (J == B.Terms.size() ||
        (I < A.Terms.size() && A.Terms[I].Mono < B.Terms[J].Mono)) {
      R.Terms.push_back(A.Terms[I++]);
    } else if (I == A.Terms.size() || B.Terms[J].Mono < A.Terms[I].Mono) {
      R.Terms.push_back(B.Terms[J++]);
    } else {
      auto S = checkedAdd(A.Terms[I].Coeff, B.Terms[J].Coeff);
      if (!S)
        return std::nullopt;
      if (*S != 0)
        R.Terms.push_back({A.Terms[I].Mono, *S});
      ++I;
      ++J;
    }
  }
  return R;
}

std::optional<Poly> Poly::scale(const Poly &A, int64_t K) {
  if (K == 0)
    return Poly(0);
  Poly R;
  auto C = checkedMul(A.Constant, K);
  if (!C)
    return std::nullopt;
  R.Constant = *C;
  for (const Term &T : A.Terms) {
    auto M = checkedMul(T.Coeff, K);
    if (!M)
      return std::nullopt;
    R.Terms.push_back({T.Mono, *M});
  }
  return R;
}

std::optional<Poly> Poly::sub(const Poly &A, const Poly &B) {
  auto NB = scale(B, -1);
  if (!NB)
    return std::nullopt;
  return add(A, *NB);
}

std::optional<Poly> Poly::mul(const Poly &A, const Poly &B) {
  if (auto K = B.asConstant())
    return scale(A, *K);
  if (auto K = A.asConstant())
    return scale(B, *K);
  Poly R;
  auto C = checkedMul(A.Constant, B.Constant);
  if (!C)
    return std::nullopt;
  R.Constant = *C;
  auto AddTerm = [&](Monomial M, int64_t Coeff) {
    llvm::sort(M);
    R.Terms.push_back({std::move(M), Coeff});
  };
  for (const Term &TA : A.Terms) {
    auto M = checkedMul(TA.Coeff, B.Constant);
    if (!M)
      return std::nullopt;
    AddTerm(TA.Mono, *M);
    for (const Term &TB : B.Terms) {
      auto MM = checkedMul(TA.Coeff, TB.Coeff);
      if (!MM)
        return std::nullopt;
      Monomial Mono = TA.Mono;
      Mono.append(TB.Mono.begin(), TB.Mono.end());
      AddTerm(std::move(Mono), *MM);
    }
  }
  for (const Term &TB : B.Terms) {
    auto M = checkedMul(TB.Coeff, A.Constant);
    if (!M)
      return std::nullopt;
    AddTerm(TB.Mono, *M);
  }
  // normalize() sums equal monomials; guard against overflow there.
  llvm::sort(R.Terms,
             [](const Term &X, const Term &Y) { return X.Mono < Y.Mono; });
  llvm::SmallVector<Term, 2> Merged;
  for (Term &T : R.Terms) {
    if (!Merged.empty() && Merged.back().Mono == T.Mono) {
      auto S = checkedAdd(Merged.back().Coeff, T.Coeff);
      if (!S)
        return std::nullopt;
      Merged.back().Coeff = *S;
      continue;
    }
    Merged.push_back(std::move(T));
  }
  llvm::erase_if(Merged, [](const Term &T) { return T.Coeff == 0; });
  R.Terms = std::move(Merged);
  return R;
}

std::optional<Poly> Poly::divideExact(int64_t K) const {
  if (K == 0 || Constant % K != 0)
    return std::nullopt;
  Poly R;
  R.Constant = Constant / K;
  for (const Term &T : Terms) {
    if (T.Coeff % K != 0)
      return std::nullopt;
    R.Terms.push_back({T.Mono, T.Coeff / K});
  }
  return R;
}

int64_t Poly::termGcd() const {
  int64_t G = 0;
  for (const Term &T : Terms)
    G = std::gcd(G, T.Coeff < 0 ? -T.Coeff : T.Coeff);
  return G;
}

std::string Poly::str(const std::function<std::string(SymbolId)> &Name,
                      const std::function<int(SymbolId)> &Rank,
                      int64_t FactorOut) const {
  int64_t F = 1;
  // A single term is printed with its whole coefficient (`8*threadIdx.x`,
  // not `4*2*threadIdx.x`).
  bool SingleTerm = Terms.size() == 1 && Constant == 0;
  if (FactorOut > 1 && !Terms.empty() && !SingleTerm) {
    bool Divides = Constant % FactorOut == 0;
    for (const Term &T : Terms)
      Divides = Divides && T.Coeff % FactorOut == 0;
    if (Divides)
      F = FactorOut;
  }
  // Order terms by the rank of their lowest-ranked symbol, then by name.
  struct Printed {
    int Rank;
    std::string Text;
    int64_t Coeff;
  };
  std::vector<Printed> Items;
  for (const Term &T : Terms) {
    std::string Text;
    int MinRank = 1 << 30;
    // Symbols of a monomial in rank order.
    Monomial Sorted = T.Mono;
    llvm::stable_sort(
        Sorted, [&](SymbolId A, SymbolId B) { return Rank(A) < Rank(B); });
    for (SymbolId S : Sorted) {
      if (!Text.empty())
        Text += "*";
      Text += Name(S);
      MinRank = std::min(MinRank, Rank(S));
    }
    Items.push_back({MinRank, Text, T.Coeff / F});
  }
  llvm::stable_sort(Items, [](const Printed &A, const Printed &B) {
    return A.Rank != B.Rank ? A.Rank < B.Rank : A.Text < B.Text;
  });
  std::string Out;
  auto Append = [&](int64_t Coeff, const std::string &Text) {
    bool Neg = Coeff < 0;
    uint64_t Abs = Neg ? uint64_t(0) - uint64_t(Coeff) : uint64_t(Coeff);
    if (Out.empty())
      Out += Neg ? "-" : "";
    else
      Out += Neg ? " - " : " + ";
    if (Text.empty()) {
      Out += std::to_string(Abs);
      return;
    }
    if (Abs != 1)
      Out += std::to_string(Abs) + "*";
    Out += Text;
  };
  for (const Printed &P : Items)
    Append(P.Coeff, P.Text);
  if (Constant / F != 0 || Out.empty())
    Append(Constant / F, "");
  if (F != 1) {
    bool Single = Items.size() + (Constant / F != 0 ? 1 : 0) == 1;
    return std::to_string(F) + "*" + (Single ? Out : "(" + Out + ")");
  }
  return Out;
}

size_t Poly::hash() const {
  llvm::hash_code H = llvm::hash_value(Constant);
  for (const Term &T : Terms)
    H = llvm::hash_combine(
        H, T.Coeff, llvm::hash_combine_range(T.Mono.begin(), T.Mono.end()));
  return H;
}

} // namespace cal

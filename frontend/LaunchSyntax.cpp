//===- LaunchSyntax.cpp - Kernel launches written with spaced chevrons ----===//

#include "frontend/LaunchSyntax.h"

#include <cctype>

namespace cal {

namespace {

bool isSpace(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
         C == '\v';
}

/// At \p I, `C C` followed by whitespace and a third `C` (not a fourth):
/// the index of that third one, else 0.
size_t spacedTriple(const std::string &S, size_t I, char C) {
  if (I + 1 >= S.size() || S[I] != C || S[I + 1] != C)
    return 0;
  size_t J = I + 2;
  if (J >= S.size() || !isSpace(S[J]))
    return 0;
  while (J < S.size() && isSpace(S[J]))
    ++J;
  if (J >= S.size() || S[J] != C || (J + 1 < S.size() && S[J + 1] == C) ||
      (J + 1 < S.size() && S[J + 1] == '='))
    return 0;
  return J;
}

/// The token before \p I is the keyword `operator`.
bool afterOperator(const std::string &S, size_t I) {
  size_t K = I;
  while (K > 0 && isSpace(S[K - 1]))
    --K;
  return K >= 8 && S.compare(K - 8, 8, "operator") == 0 &&
         (K == 8 || !(std::isalnum(static_cast<unsigned char>(S[K - 9])) ||
                      S[K - 9] == '_'));
}

/// Moves the third chevron at \p Third next to the first two.
void closeUp(std::string &S, size_t I, size_t Third) {
  char C = S[Third];
  for (size_t K = Third; K > I + 2; --K)
    S[K] = S[K - 1];
  S[I + 2] = C;
}

} // namespace

std::optional<std::string> closeUpLaunchChevrons(llvm::StringRef Code) {
  std::string S = Code.str();
  bool Changed = false, InLaunch = false;
  size_t I = 0, N = S.size();
  while (I < N) {
    char C = S[I];
    // Comments and literals.
    if (C == '/' && I + 1 < N && S[I + 1] == '/') {
      while (I < N && S[I] != '\n')
        ++I;
      continue;
    }
    if (C == '/' && I + 1 < N && S[I + 1] == '*') {
      size_t E = S.find("*/", I + 2);
      I = E == std::string::npos ? N : E + 2;
      continue;
    }
    if (C == '"' || C == '\'') {
      ++I;
      while (I < N && S[I] != C && S[I] != '\n') {
        if (S[I] == '\\')
          ++I;
        ++I;
      }
      ++I;
      continue;
    }
    if (S.compare(I, 3, "<<<") == 0) {
      InLaunch = true;
      I += 3;
      continue;
    }
    if (S.compare(I, 3, ">>>") == 0) {
      InLaunch = false;
      I += 3;
      continue;
    }
    // `operator<< <T>` names a template specialization of operator<<.
    if (size_t T = spacedTriple(S, I, '<'); T && !afterOperator(S, I)) {
      closeUp(S, I, T);
      Changed = InLaunch = true;
      I = T + 1;
      continue;
    }
    if (InLaunch) {
      if (size_t T = spacedTriple(S, I, '>')) {
        size_t K = T + 1;
        while (K < N && isSpace(S[K]))
          ++K;
        if (K < N && S[K] == '(') {
          closeUp(S, I, T);
          Changed = true;
          InLaunch = false;
          I = T + 1;
          continue;
        }
      }
      if (C == ';')
        InLaunch = false;
    }
    ++I;
  }
  if (!Changed)
    return std::nullopt;
  return S;
}

} // namespace cal

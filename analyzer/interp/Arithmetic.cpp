//===- Arithmetic.cpp -----------------------------------------------------===//
//
// Integer operators on lane vectors: +, -, *, /, %, shifts, masks and
// comparisons, exact per lane or by the splits the comments derive.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

std::optional<std::pair<LaneVec, LaneVec>>
Interpreter::Impl::divModSplit(const LaneVec &A, int64_t K) {
  if (A.isUniform() || K <= 1)
    return std::nullopt;
  Poly S = A.lane(0).withoutConstant();
  if (S.isConstant() || mentionsWarpSymbol(S))
    return std::nullopt;
  int64_t G = 0;
  for (const Poly::Term &T : S.terms())
    G = std::gcd(G, T.Coeff < 0 ? -T.Coeff : T.Coeff);
  // The shared part is a multiple of g = gcd(its coefficients, K) too
  // (256*blockIdx.x with K = 640: g = 128).
  G = std::gcd(G, K);
  if (G <= 0 || G >= K || K % G != 0)
    return std::nullopt;
  std::optional<int64_t> Q;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (A.lane(L).withoutConstant() != S)
      return std::nullopt;
    int64_t QL = floorDiv(A.lane(L).constant(), G);
    if (Q && *Q != QL)
      return std::nullopt;
    Q = QL;
  }
  auto Base = Poly::add(S, Poly(G * *Q));
  if (!Base)
    return std::nullopt;
  std::string Key = Syms.str(*Base) + "," + std::to_string(K);
  SymbolId O =
      opaqueSymbol("modsplit:" + Key,
                   "((" + Syms.str(*Base) + ") % " + std::to_string(K) + " / " +
                       std::to_string(G) + ")",
                   {&*Base});
  Syms.get(O).Min = 0;
  Syms.get(O).Max = K / G - 1;
  SymbolId D = opaqueSymbol(
      "divsplit:" + Key,
      "((" + Syms.str(*Base) + ") / " + std::to_string(K) + ")", {&*Base});
  std::array<Poly, WarpSize> Quot, Rem;
  for (unsigned L = 0; L < WarpSize; ++L) {
    Quot[L] = Poly::symbol(D);
    auto R = Poly::add(*Poly::scale(Poly::symbol(O), G),
                       Poly(A.lane(L).constant() - G * *Q));
    if (!R)
      return std::nullopt;
    Rem[L] = *R;
  }
  return std::make_pair(LaneVec::perLane(Quot), LaneVec::perLane(Rem));
}

std::optional<AbsValue> Interpreter::Impl::divModSymbolic(const LaneVec &X,
                                                          const LaneVec &Y,
                                                          const Expr *E,
                                                          bool Rem) {
  if (!Y.isUniform() || Y.uniform().isConstant() ||
      mentionsWarpSymbol(Y.uniform()))
    return std::nullopt;
  const Poly &T = Y.uniform();
  Poly S = X.lane(0).withoutConstant();
  bool PerLane = !X.isUniform();
  for (unsigned L = 1; PerLane && L < WarpSize; ++L)
    if (X.lane(L).withoutConstant() != S)
      return std::nullopt;
  // In the display walk the thread index is a symbol: the value differs
  // between lanes as much.
  bool Threadish = PerLane || (W.Display && mentionsThread(X));
  auto *B = dyn_cast<BinaryOperator>(E);
  std::string XText = B ? text(B->getLHS()) : "x";
  std::string TText = B ? text(B->getRHS()) : Syms.str(T);
  std::string Key = Syms.str(X.lane(0)) + "/" + Syms.str(T);
  auto ItQ = Opaque.find("divsym:" + Key);
  SymbolId Q;
  if (ItQ != Opaque.end()) {
    Q = opaqueSymbol("divsym:" + Key, "", {&X.lane(0), &T});
  } else {
    Q = opaqueSymbol("divsym:" + Key, "(" + XText + " / " + TText + ")",
                     {&X.lane(0), &T});
    Syms.get(Q).Min = 0;
    if (Threadish && !W.Display)
      Syms.get(Q).Assumed = Assumption{
          Assumption::Kind::WarpUniformQuotient, XText + " / " + TText,
          "`" + XText + " / " + TText +
              "` taken as the same for every lane of a warp: the warp's "
              "consecutive `" +
              XText + "` assumed not to straddle a multiple of `" + TText +
              "` (`" + TText + "` large, as runtime sizes are taken to be)"};
  }
  if (!Rem)
    return AbsValue::integer(Poly::symbol(Q));
  if (W.Display) {
    // A symbol of its own, with the identity for the readable form.
    SymbolId R = opaqueSymbol(
        "modsym:" + Key, "(" + XText + " % " + TText + ")", {&X.lane(0), &T});
    Syms.get(R).Min = 0;
    bool Known = false;
    for (const DivModIdentity &I : Identities)
      Known = Known || I.R == R;
    if (!Known)
      Identities.push_back({Q, R, T, X.lane(0)});
    return AbsValue::integer(Poly::symbol(R));
  }
  auto TQ = Poly::mul(T, Poly::symbol(Q));
  if (!TQ)
    return std::nullopt;
  auto R = X.map([&](const Poly &P) { return Poly::sub(P, *TQ); });
  if (!R)
    return std::nullopt;
  return AbsValue::integer(*R);
}

std::optional<LaneVec> Interpreter::Impl::divide(const LaneVec &A, int64_t K) {
  if (K <= 0)
    return std::nullopt;
  if (auto R = A.map([&](const Poly &P) { return divLane(P, K, Syms); }))
    return R;
  if (auto S = divModSplit(A, K))
    return S->first;
  return std::nullopt;
}

std::optional<LaneVec> Interpreter::Impl::modulo(const LaneVec &A, int64_t K) {
  if (K <= 0)
    return std::nullopt;
  if (auto R = moduloExact(A, K, Syms))
    return R;
  if (auto S = divModSplit(A, K))
    return S->second;
  return std::nullopt;
}

AbsValue Interpreter::Impl::binaryInt(BinaryOperatorKind Op, const AbsValue &A,
                                      const AbsValue &B, const Expr *E) {
  AbsValue R = binaryIntImpl(Op, A, B, E);
  R.assuming(A).assuming(B);
  return R;
}

AbsValue Interpreter::Impl::binaryIntImpl(BinaryOperatorKind Op,
                                          const AbsValue &A, const AbsValue &B,
                                          const Expr *E) {
  if (!A.isInt() || !B.isInt())
    return AbsValue::unknown(A.isInt() ? B.Why : A.Why);
  const LaneVec &X = A.Val, &Y = B.Val;
  if (BinaryOperator::isRelationalOp(Op) || BinaryOperator::isEqualityOp(Op))
    return compare(Op, X, Y);
  if (Op == BO_LAnd || Op == BO_LOr)
    return logicalLanes(Op, X, Y);
  if ((Op == BO_Div || Op == BO_Rem) && !Y.asConstant())
    if (auto V = divModSymbolic(X, Y, E, /*Rem=*/Op == BO_Rem))
      return *V;
  if (auto R = exactBinary(Op, X, Y, E))
    return AbsValue::integer(std::move(*R));
  return inexactBinary(Op, X, Y, E);
}

std::optional<LaneVec> Interpreter::Impl::exactBinary(BinaryOperatorKind Op,
                                                      const LaneVec &X,
                                                      const LaneVec &Y,
                                                      const Expr *E) {
  auto KOpt = Y.asConstant();
  switch (Op) {
  case BO_Add:
    return LaneVec::zip(X, Y, Poly::add);
  case BO_Sub:
    return LaneVec::zip(X, Y, Poly::sub);
  case BO_Mul: {
    auto R = LaneVec::zip(X, Y, Poly::mul);
    if (W.Display && R) {
      auto XC = X.asConstant(), YC = Y.asConstant();
      bool XThread = !XC && mentionsThread(X),
           YThread = !YC && mentionsThread(Y);
      if ((XThread && YC && *YC != 1) || (YThread && XC && *XC != 1))
        ThreadScaledMuls[E] = XC ? *XC : *YC;
    }
    return R;
  }
  case BO_Div:
    if (KOpt && *KOpt > 0)
      return divide(X, *KOpt);
    return std::nullopt;
  case BO_Rem:
    if (KOpt && *KOpt > 0)
      return modulo(X, *KOpt);
    return std::nullopt;
  case BO_Shl:
    if (KOpt && *KOpt >= 0 && *KOpt < 62)
      return X.map(
          [&](const Poly &P) { return Poly::scale(P, int64_t(1) << *KOpt); });
    return std::nullopt;
  case BO_Shr:
    if (KOpt && *KOpt >= 0 && *KOpt < 62)
      return divide(X, int64_t(1) << *KOpt);
    return std::nullopt;
  case BO_And:
    return bitAnd(X, Y);
  case BO_Or:
  case BO_Xor:
    return bitOrXor(Op == BO_Or ? BitOp::Or : BitOp::Xor, X, Y);
  default:
    return std::nullopt;
  }
}

AbsValue Interpreter::Impl::logicalLanes(BinaryOperatorKind Op,
                                         const LaneVec &X, const LaneVec &Y) {
  auto Tx = truth(X), Ty = truth(Y);
  // One side decides every lane on its own (`full || i + 3 < n` with
  // the bound true; `a && b` with a false).
  LaneMask Decides = Op == BO_LOr ? AllLanes : 0;
  if ((Tx && *Tx == Decides) || (Ty && *Ty == Decides))
    return AbsValue::integer(LaneVec(Poly(Op == BO_LOr ? 1 : 0)));
  if (!Tx || !Ty)
    return AbsValue::unknown("condition not known per lane");
  std::array<Poly, WarpSize> Lanes;
  for (unsigned L = 0; L < WarpSize; ++L) {
    bool Vx = (*Tx >> L) & 1, Vy = (*Ty >> L) & 1;
    Lanes[L] = Poly(Op == BO_LAnd ? (Vx && Vy) : (Vx || Vy));
  }
  return AbsValue::integer(LaneVec::perLane(Lanes));
}

AbsValue Interpreter::Impl::inexactBinary(BinaryOperatorKind Op,
                                          const LaneVec &X, const LaneVec &Y,
                                          const Expr *E) {
  // A lane-uniform result is still the same for every lane.
  if (X.isUniform() && Y.isUniform() && !mentionsWarpSymbol(X.uniform()) &&
      !mentionsWarpSymbol(Y.uniform()))
    return uniformOpaque(std::string("bin") + std::to_string(Op) + "(" +
                             Syms.str(X.uniform()) + "," +
                             Syms.str(Y.uniform()) + ")",
                         E, {&X.uniform(), &Y.uniform()});
  if (W.Display)
    return uniformOpaque("expr:" + text(E), E, {&X.lane(0), &Y.lane(0)});
  if (mentionsWarpSymbol(X) || mentionsWarpSymbol(Y))
    NeedConcrete = true;
  if (movesWithLoop(X) || movesWithLoop(Y))
    ++InexactInLoop;
  return AbsValue::unknown("`" + text(E) + "` is not exact for every lane");
}

bool Interpreter::Impl::movesWithLoop(const LaneVec &V) const {
  for (const LoopRef &L : Loops)
    for (unsigned I = 0; I < (V.isUniform() ? 1u : WarpSize); ++I) {
      const Poly &P = V.lane(I);
      if (P.mentions(L.Sym) ||
          llvm::any_of(L.Varying, [&](SymbolId S) { return P.mentions(S); }))
        return true;
    }
  return false;
}

bool Interpreter::Impl::mentionsThread(const LaneVec &V) const {
  for (unsigned L = 0; L < (V.isUniform() ? 1u : WarpSize); ++L)
    for (const Poly::Term &T : V.lane(L).terms())
      for (SymbolId S : T.Mono)
        if (Syms.get(S).Kind == SymbolKind::ThreadIdx)
          return true;
  return !V.isUniform();
}

std::optional<LaneVec> Interpreter::Impl::bitAnd(const LaneVec &X,
                                                 const LaneVec &Y) {
  auto Mask = Y.asConstant();
  const LaneVec *V = &X;
  if (!Mask) {
    Mask = X.asConstant();
    V = &Y;
  }
  if (!Mask)
    return LaneVec::zip(
        X, Y, [](const Poly &A, const Poly &B) -> std::optional<Poly> {
          auto CA = A.asConstant(), CB = B.asConstant();
          if (CA && CB)
            return Poly(*CA & *CB);
          return std::nullopt;
        });
  int64_t M = *Mask;
  if (M + 1 > 0 && llvm::isPowerOf2_64(M + 1))
    return modulo(*V, M + 1);
  if (M < 0 && llvm::isPowerOf2_64(-M)) { // ~(2^k - 1): clear the low k bits
    auto Low = modulo(*V, -M);
    if (!Low)
      return std::nullopt;
    return LaneVec::zip(*V, *Low, Poly::sub);
  }
  return V->map([&](const Poly &P) -> std::optional<Poly> {
    if (auto C = P.asConstant())
      return Poly(*C & M);
    return std::nullopt;
  });
}

std::optional<AbsValue>
Interpreter::Impl::equalityByLaneClass(BinaryOperatorKind Op, const LaneVec &X,
                                       const LaneVec &Y) {
  if (Active == 0)
    return std::nullopt;
  unsigned First = 0;
  while (!(Active & (1u << First)))
    ++First;
  auto D0 = Poly::sub(X.lane(First), Y.lane(First));
  if (!D0)
    return std::nullopt;
  std::array<Poly, WarpSize> Lanes;
  for (unsigned L = 0; L < WarpSize; ++L) {
    auto D = Poly::sub(X.lane(L), Y.lane(L));
    auto Diff = D ? Poly::sub(*D, *D0) : std::nullopt;
    auto C = Diff ? Diff->asConstant() : std::nullopt;
    if (!C)
      return std::nullopt;
    bool Equal = *C == 0;
    Lanes[L] = Poly((Op == BO_EQ) == Equal ? 1 : 0);
  }
  AbsValue V = AbsValue::integer(LaneVec::perLane(Lanes));
  std::string Note =
      "decided by the block's position or a runtime value as well as the "
      "lane; where the equality holds at all, it holds for lanes that "
      "agree with each other: taken for those that agree with the first "
      "active lane";
  V.Assumed.push_back({Assumption::Kind::LaneClass, "", Note});
  return V;
}

std::optional<AbsValue>
Interpreter::Impl::boundCommonCase(BinaryOperatorKind Op, const LaneVec &X,
                                   const LaneVec &Y) {
  if (Op != BO_LT && Op != BO_LE && Op != BO_GT && Op != BO_GE)
    return std::nullopt;
  // The index side: the one that varies over the lanes, else the one that
  // names the block's position (`y >= h` with y = 8*blockIdx.y +
  // threadIdx.y, one row per warp).
  auto NamesBlock = [&](const LaneVec &V) {
    for (unsigned L = 0; L < (V.isUniform() ? 1u : WarpSize); ++L)
      for (const Poly::Term &T : V.lane(L).terms())
        for (SymbolId S : T.Mono)
          if (Syms.get(S).Kind == SymbolKind::BlockIdx)
            return true;
    return false;
  };
  bool XIndex;
  if (X.isUniform() != Y.isUniform())
    XIndex = !X.isUniform();
  else if (X.isUniform() && NamesBlock(X) != NamesBlock(Y))
    XIndex = NamesBlock(X);
  else
    return std::nullopt;
  for (unsigned L = 0; L < WarpSize; ++L) {
    auto D = Poly::sub(X.lane(L), Y.lane(L));
    if (!D)
      return std::nullopt;
    for (const Poly::Term &T : D->terms())
      for (SymbolId S : T.Mono) {
        SymbolKind K = Syms.get(S).Kind;
        if (K != SymbolKind::BlockIdx && K != SymbolKind::GridDim &&
            K != SymbolKind::Param && K != SymbolKind::Opaque)
          return std::nullopt;
      }
  }
  // Normalized to `index OP other`.
  const LaneVec &Other = XIndex ? Y : X;
  BinaryOperatorKind O = Op;
  if (!XIndex)
    O = Op == BO_LT ? BO_GT : Op == BO_GT ? BO_LT : Op == BO_LE ? BO_GE : BO_LE;
  bool Less = O == BO_LT || O == BO_LE;
  bool InRange;
  auto D0 = XIndex ? Poly::sub(X.lane(0), Y.lane(0))
                   : Poly::sub(Y.lane(0), X.lane(0));
  auto R = D0 ? range(*D0) : std::nullopt;
  if (R) {
    // The index's range is known (the grid is): the truth for most of
    // it, at its middle (`i > 1` and `i < N - 1` both hold there).
    int64_t Mid = R->first + (R->second - R->first) / 2;
    InRange = Less ? (O == BO_LT ? Mid < 0 : Mid <= 0)
                   : (O == BO_GT ? Mid > 0 : Mid >= 0);
  } else if (Other.isUniform() && Other.uniform().asConstant() &&
             *Other.uniform().asConstant() <= WarpSize) {
    // Against a small constant, the index is past it (a lower bound:
    // i > 1, i >= 1); against a problem size (N - 1), below it.
    InRange = !Less;
  } else {
    // Against a runtime or large size, below it (an upper bound: i < n).
    InRange = Less;
  }
  AbsValue V = AbsValue::integer(LaneVec(Poly(InRange ? 1 : 0)));
  std::string Note = std::string("a bound that the block's position or a "
                                 "runtime value decides: taken as ") +
                     (InRange ? "true" : "false") +
                     " for every lane, its common case (in range, away "
                     "from the grid's edge)";
  V.Assumed.push_back({Assumption::Kind::CommonCaseBound, "", Note});
  return V;
}

AbsValue Interpreter::Impl::compare(BinaryOperatorKind Op, const LaneVec &X,
                                    const LaneVec &Y) {
  bool Unknown = false;
  std::array<Poly, WarpSize> Lanes;
  unsigned N = (X.isUniform() && Y.isUniform()) ? 1 : WarpSize;
  for (unsigned L = 0; L < N; ++L) {
    auto D = Poly::sub(X.lane(L), Y.lane(L));
    // Each side of the difference on its own: `s < blockDim.x` with s = 16
    // holds for any block of a multiple of 32 threads, however large.
    std::optional<int64_t> Lo, Hi;
    if (D) {
      if (auto C = D->asConstant()) {
        Lo = Hi = C;
      } else {
        ValueBounds B = valueBounds(*D, Syms);
        Lo = B.Lo;
        Hi = B.Hi;
      }
    }
    if (!Lo && !Hi) {
      if (D && mentionsWarpSymbol(*D))
        NeedConcrete = NeedConcrete || Unused == 0;
      Unknown = true;
      break;
    }
    // The difference is certainly below (above) a value where its upper
    // (lower) side says so.
    auto Below = [&](int64_t V) { return Hi && *Hi < V; };
    auto Above = [&](int64_t V) { return Lo && *Lo > V; };
    auto Decide = [](bool True, bool False) {
      return True ? std::optional<bool>(true)
                  : (False ? std::optional<bool>(false) : std::nullopt);
    };
    bool Zero = Lo && Hi && *Lo == 0 && *Hi == 0;
    std::optional<bool> T;
    switch (Op) {
    case BO_LT:
      T = Decide(Below(0), Above(-1));
      break;
    case BO_GT:
      T = Decide(Above(0), Below(1));
      break;
    case BO_LE:
      T = Decide(Below(1), Above(0));
      break;
    case BO_GE:
      T = Decide(Above(-1), Below(0));
      break;
    case BO_EQ:
      T = Decide(Zero, Above(0) || Below(0));
      break;
    case BO_NE:
      T = Decide(Above(0) || Below(0), Zero);
      break;
    default:
      break;
    }
    if (!T) {
      if (D && mentionsWarpSymbol(*D))
        NeedConcrete = NeedConcrete || Unused == 0;
      Unknown = true;
      break;
    }
    Lanes[L] = Poly(*T ? 1 : 0);
  }
  if (Unknown && InIfCondition && (Op == BO_EQ || Op == BO_NE) && N == WarpSize)
    if (auto V = equalityByLaneClass(Op, X, Y))
      return *V;
  if (Unknown && InIfCondition)
    if (auto V = boundCommonCase(Op, X, Y))
      return *V;
  if (Unknown)
    return AbsValue::unknown("comparison not known per lane");
  if (N == 1)
    return AbsValue::integer(LaneVec(Lanes[0]));
  return AbsValue::integer(LaneVec::perLane(Lanes));
}

} // namespace cal

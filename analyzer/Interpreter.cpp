//===- Interpreter.cpp ----------------------------------------------------===//
//
// The transfer functions. Every default is the pessimistic answer: what the
// interpreter cannot evaluate exactly becomes unknown (with the reason), and
// an access whose lanes' addresses are unknown gets no metric.
//
//===----------------------------------------------------------------------===//

#include "analyzer/Interpreter.h"
#include "analyzer/Budget.h"

#include "analyzer/SourceText.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <numeric>
#include <set>

namespace cal {

using namespace clang;

const char *accessKindName(AccessKind K) {
  switch (K) {
  case AccessKind::Load:
    return "load";
  case AccessKind::Store:
    return "store";
  case AccessKind::Atomic:
    return "atomic";
  }
  return "load";
}

namespace {

/// An lvalue: a local variable (with a field path into it), a place in
/// memory, or unknown.
struct LValue {
  enum Kind { Unknown, Var, Memory } K = Unknown;
  const VarDecl *VD = nullptr;
  llvm::SmallVector<const FieldDecl *, 2> Path;
  const MemRegion *Region = nullptr;
  std::optional<LaneVec> Offset; // Memory: unset when the address is unknown
  std::string Why;
  QualType Type;
  std::vector<std::string> Assumed;

  void assuming(const AbsValue &V) {
    for (const std::string &S : V.Assumed)
      if (std::find(Assumed.begin(), Assumed.end(), S) == Assumed.end())
        Assumed.push_back(S);
  }

  static LValue unknown(std::string Why) {
    LValue L;
    L.Why = std::move(Why);
    return L;
  }
};

bool isPowerOfTwo(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }

} // namespace

struct Interpreter::Impl {
  ASTContext &Ctx;
  SymbolTable &Syms;
  const WarpInstance &W;
  std::deque<MemRegion> &Regions;
  std::vector<RawAccess> &Out;

  llvm::DenseMap<const VarDecl *, AbsValue> Env;
  llvm::DenseMap<const VarDecl *, LValue> Refs;
  llvm::DenseMap<const ValueDecl *, const MemRegion *> RegionOf;
  LaneMask Active;
  std::vector<LoopRef> Loops;
  std::vector<const Expr *> CallStack;
  struct Frame {
    const FunctionDecl *FD;
    bool ReturnsRef;
    std::vector<AbsValue> Returns;
    std::vector<LValue> RefReturns;
  };
  std::vector<Frame> Frames;
  bool NeedConcrete = false;
  /// Branches on a condition not decided per lane (a comparison with the
  /// loop's counter, a loaded value, the block's position) that were taken
  /// as if every active lane ran both sides; what the accesses under them
  /// then rest on, stated with each.
  unsigned UndecidedConds = 0;
  std::vector<std::string> CondNotes;
  /// Loops evaluated iteration by iteration run at most this many times.
  static constexpr unsigned MaxConcreteIterations = 32;
  /// While > 0, results are not used for masks or addresses (loop
  /// conditions): an inexact comparison there needs no concrete warps.
  unsigned Unused = 0;
  std::map<std::string, SymbolId> Opaque;
  /// Display instance: the multiplications whose one side varies with the
  /// thread and whose other side is a constant other than 1.
  llvm::DenseMap<const Expr *, int64_t> ThreadScaledMuls;
  static constexpr unsigned MaxInlineDepth = 8;
  const std::map<const VarDecl *, int64_t> *Padding = nullptr;
  bool OnlyPadded = false;
  const std::vector<std::pair<const ParmVarDecl *, int64_t>> *PointerOffsets =
      nullptr;
  /// The kernel configuration's budget: once spent, nothing more is
  /// evaluated (statements are skipped, expressions are unknown).
  BudgetMeter *Budget = nullptr;
  bool budgetSpent() { return Budget && Budget->tick(); }

  Impl(ASTContext &C, SymbolTable &S, const WarpInstance &Wi,
       std::deque<MemRegion> &R, std::vector<RawAccess> &O)
      : Ctx(C), Syms(S), W(Wi), Regions(R), Out(O), Active(Wi.Active) {}

  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  std::string text(const Expr *E) const {
    std::string T = oneLineSourceText(E->getSourceRange(), Ctx);
    return T.empty() ? "<expr>" : T;
  }

  bool isSystem(SourceLocation Loc) const {
    const SourceManager &SM = Ctx.getSourceManager();
    if (Loc.isInvalid())
      return true;
    Loc = SM.getExpansionLoc(Loc);
    if (SM.isInSystemHeader(Loc))
      return true;
    llvm::StringRef File = SM.getFilename(Loc);
    return File.starts_with("/__cuda_access_lint__/");
  }

  std::optional<int64_t> sizeOf(QualType T) const {
    if (T.isNull() || T->isIncompleteType() || T->isDependentType() ||
        T->isVoidType() || T->isFunctionType())
      return std::nullopt;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }

  /// A symbol for a value the polynomials cannot express, the same for the
  /// same key. \p From are the polynomials it is a function of: when they
  /// move with an enclosing loop, so does the symbol (it is marked as
  /// changing from one iteration to the next by an unknown amount).
  SymbolId opaqueSymbol(const std::string &Key, const std::string &Name,
                        std::initializer_list<const Poly *> From = {}) {
    SymbolId S;
    auto It = Opaque.find(Key);
    if (It != Opaque.end()) {
      S = It->second;
    } else {
      SymbolInfo Info;
      Info.Name = Name;
      Info.Kind = SymbolKind::Opaque;
      Info.Rank = 40;
      S = Syms.add(Info);
      Opaque[Key] = S;
    }
    for (LoopRef &L : Loops) {
      bool Moves = false;
      for (const Poly *P : From) {
        Moves = Moves || P->mentions(L.Sym);
        for (SymbolId V : L.Varying)
          Moves = Moves || P->mentions(V);
      }
      if (Moves &&
          std::find(L.Varying.begin(), L.Varying.end(), S) == L.Varying.end())
        L.Varying.push_back(S);
    }
    return S;
  }

  bool mentionsWarpSymbol(const Poly &P) const {
    for (SymbolId S : W.WarpSymbols)
      if (P.mentions(S))
        return true;
    return false;
  }
  bool mentionsWarpSymbol(const LaneVec &V) const {
    if (V.isUniform())
      return mentionsWarpSymbol(V.uniform());
    for (unsigned L = 0; L < WarpSize; ++L)
      if (mentionsWarpSymbol(V.lane(L)))
        return true;
    return false;
  }

  /// Interval of a polynomial's value from the symbols' ranges.
  std::optional<std::pair<int64_t, int64_t>> range(const Poly &P) const {
    __int128 Lo = P.constant(), Hi = P.constant();
    for (const Poly::Term &T : P.terms()) {
      __int128 TLo = T.Coeff, THi = T.Coeff;
      for (SymbolId S : T.Mono) {
        const SymbolInfo &I = Syms.get(S);
        if (!I.Min || !I.Max)
          return std::nullopt;
        __int128 C[4] = {TLo * *I.Min, TLo * *I.Max, THi * *I.Min,
                         THi * *I.Max};
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

  //===--------------------------------------------------------------------===//
  // Integer arithmetic on lanes
  //===--------------------------------------------------------------------===//

  /// Floor division of one lane's value by K > 0, exact or std::nullopt.
  std::optional<Poly> divLane(const Poly &A, int64_t K) const {
    if (auto C = A.asConstant()) {
      // C semantics (truncation) for concrete values.
      return Poly(*C / K);
    }
    Poly Div, Rem(A.constant());
    for (const Poly::Term &T : A.terms()) {
      bool Divisible = T.Coeff % K == 0;
      auto Sum =
          Poly::add(Divisible ? Div : Rem,
                    Poly::term(T.Mono, Divisible ? T.Coeff / K : T.Coeff));
      if (!Sum)
        return std::nullopt;
      (Divisible ? Div : Rem) = *Sum;
    }
    int64_t Q;
    if (auto C = Rem.asConstant()) {
      Q = floorDiv(*C, K);
    } else {
      auto R = range(Rem);
      if (!R || floorDiv(R->first, K) != floorDiv(R->second, K))
        return std::nullopt;
      Q = floorDiv(R->first, K);
    }
    return Poly::add(Div, Poly(Q));
  }

  /// (S + c_L) / K and (S + c_L) % K when the lanes share a symbolic,
  /// warp-uniform part S whose coefficients are multiples of g, g divides
  /// K, and the lanes' constants c_L fall in one window [g*q, g*q + g):
  /// then S + g*q = K*D + g*O with D, O the same for every lane, and the
  /// lane's remainder is g*O + (c_L - g*q) < K. `x % W` with
  /// x = 32*blockIdx.x + lane is exact this way (non-negative values, as
  /// indices are).
  std::optional<std::pair<LaneVec, LaneVec>> divModSplit(const LaneVec &A,
                                                         int64_t K) {
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
                     "((" + Syms.str(*Base) + ") % " + std::to_string(K) +
                         " / " + std::to_string(G) + ")",
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

  /// A display identity: T*Q + R == X, with Q and R the symbols that name
  /// `x / t` and `x % t` in the readable forms.
  struct DivModIdentity {
    SymbolId Q, R;
    Poly T, X;
  };
  std::vector<DivModIdentity> Identities;

  /// `x / t` and `x % t` by a lane-uniform symbolic `t` (a runtime row
  /// length): q is a symbol, the same for the warp's lanes, and r is
  /// x - t*q exactly, so that `t*(x / t) + x % t` comes out as x (llm.c's
  /// `out + b*T*C + t*C` with b = idx / T, t = idx % T). When x differs
  /// between lanes, sharing q rests on an assumption, carried by the
  /// symbol: the warp's consecutive values do not straddle a multiple of t
  /// (t large, as runtime sizes are taken to be). The lanes' values must
  /// share their symbolic part (differ by constants).
  std::optional<AbsValue> divModSymbolic(const LaneVec &X, const LaneVec &Y,
                                         const Expr *E, bool Rem) {
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
        Syms.get(Q).Assumption = "`" + XText + " / " + TText +
                                 "` taken as the same for every lane "
                                 "of a warp: the warp's consecutive `" +
                                 XText +
                                 "` assumed not to "
                                 "straddle a multiple of `" +
                                 TText + "` (`" + TText +
                                 "` large, as runtime sizes are taken to be)";
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

  std::optional<LaneVec> divide(const LaneVec &A, int64_t K) {
    if (K <= 0)
      return std::nullopt;
    if (auto R = A.map([&](const Poly &P) { return divLane(P, K); }))
      return R;
    if (auto S = divModSplit(A, K))
      return S->first;
    return std::nullopt;
  }

  std::optional<LaneVec> modulo(const LaneVec &A, int64_t K) {
    if (K <= 0)
      return std::nullopt;
    if (auto R = moduloExact(A, K))
      return R;
    if (auto S = divModSplit(A, K))
      return S->second;
    return std::nullopt;
  }

  std::optional<LaneVec> moduloExact(const LaneVec &A, int64_t K) {
    return A.map([&](const Poly &P) -> std::optional<Poly> {
      if (auto C = P.asConstant())
        return Poly(*C % K); // C semantics
      auto Q = divLane(P, K);
      if (!Q)
        return std::nullopt;
      auto KQ = Poly::scale(*Q, K);
      if (!KQ)
        return std::nullopt;
      return Poly::sub(P, *KQ);
    });
  }

  /// Splits P into a part divisible by 2^Bits and a constant low part in
  /// [0, 2^Bits); std::nullopt if the symbolic part is not divisible.
  std::optional<std::pair<Poly, int64_t>> splitLowBits(const Poly &P,
                                                       int Bits) const {
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

  /// A value that does not depend on the lane but cannot be written as a
  /// polynomial: an opaque symbol, the same for the same inputs.
  AbsValue uniformOpaque(const std::string &Key, const Expr *E,
                         std::initializer_list<const Poly *> From = {}) {
    return AbsValue::integer(
        Poly::symbol(opaqueSymbol(Key, "(" + text(E) + ")", From)));
  }

  AbsValue binaryInt(BinaryOperatorKind Op, const AbsValue &A,
                     const AbsValue &B, const Expr *E) {
    AbsValue R = binaryIntImpl(Op, A, B, E);
    R.assuming(A).assuming(B);
    return R;
  }

  AbsValue binaryIntImpl(BinaryOperatorKind Op, const AbsValue &A,
                         const AbsValue &B, const Expr *E) {
    if (!A.isInt() || !B.isInt())
      return AbsValue::unknown(A.isInt() ? B.Why : A.Why);
    const LaneVec &X = A.Val, &Y = B.Val;
    std::optional<LaneVec> R;
    auto KOpt = Y.asConstant();
    switch (Op) {
    case BO_Add:
      R = LaneVec::zip(X, Y, Poly::add);
      break;
    case BO_Sub:
      R = LaneVec::zip(X, Y, Poly::sub);
      break;
    case BO_Mul:
      R = LaneVec::zip(X, Y, Poly::mul);
      if (W.Display && R) {
        auto XC = X.asConstant(), YC = Y.asConstant();
        bool XThread = !XC && mentionsThread(X),
             YThread = !YC && mentionsThread(Y);
        if ((XThread && YC && *YC != 1) || (YThread && XC && *XC != 1))
          ThreadScaledMuls[E] = XC ? *XC : *YC;
      }
      break;
    case BO_Div:
      if (KOpt && *KOpt > 0)
        R = divide(X, *KOpt);
      else if (!KOpt)
        if (auto V = divModSymbolic(X, Y, E, /*Rem=*/false))
          return *V;
      break;
    case BO_Rem:
      if (KOpt && *KOpt > 0)
        R = modulo(X, *KOpt);
      else if (!KOpt)
        if (auto V = divModSymbolic(X, Y, E, /*Rem=*/true))
          return *V;
      break;
    case BO_Shl:
      if (KOpt && *KOpt >= 0 && *KOpt < 62)
        R = X.map(
            [&](const Poly &P) { return Poly::scale(P, int64_t(1) << *KOpt); });
      break;
    case BO_Shr:
      if (KOpt && *KOpt >= 0 && *KOpt < 62)
        R = divide(X, int64_t(1) << *KOpt);
      break;
    case BO_And:
      R = bitAnd(X, Y);
      break;
    case BO_Or:
    case BO_Xor:
      R = bitOrXor(Op, X, Y);
      break;
    case BO_LT:
    case BO_GT:
    case BO_LE:
    case BO_GE:
    case BO_EQ:
    case BO_NE:
      return compare(Op, X, Y);
    case BO_LAnd:
    case BO_LOr: {
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
    default:
      break;
    }
    if (R)
      return AbsValue::integer(std::move(*R));
    // Not exact. A lane-uniform result is still the same for every lane.
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
    return AbsValue::unknown("`" + text(E) + "` is not exact for every lane");
  }

  bool mentionsThread(const LaneVec &V) const {
    for (unsigned L = 0; L < (V.isUniform() ? 1u : WarpSize); ++L)
      for (const Poly::Term &T : V.lane(L).terms())
        for (SymbolId S : T.Mono)
          if (Syms.get(S).Kind == SymbolKind::ThreadIdx)
            return true;
    return !V.isUniform();
  }

  std::optional<LaneVec> bitAnd(const LaneVec &X, const LaneVec &Y) {
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
    if (isPowerOfTwo(M + 1))
      return modulo(*V, M + 1);
    if (M < 0 && isPowerOfTwo(-M)) { // ~(2^k - 1): clear the low k bits
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

  std::optional<LaneVec> bitOrXor(BinaryOperatorKind Op, const LaneVec &X,
                                  const LaneVec &Y) {
    return LaneVec::zip(
        X, Y, [&](const Poly &A, const Poly &B) -> std::optional<Poly> {
          auto CA = A.asConstant(), CB = B.asConstant();
          if (CA && CB)
            return Poly(Op == BO_Or ? (*CA | *CB) : (*CA ^ *CB));
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
          int64_t Low =
              Op == BO_Or ? (Split->second | *Small) : (Split->second ^ *Small);
          return Poly::add(Split->first, Poly(Low));
        });
  }

  /// Per-lane truth of a value (bit L set = lane L true); std::nullopt when
  /// some lane's value is not a known constant.
  std::optional<LaneMask> truth(const LaneVec &V) const {
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

  /// `y == 0` with y = 4*blockIdx.y + threadIdx.y: the lanes differ by
  /// known amounts but the part they share (the block's position, a runtime
  /// value) is not known. Equality holds, in the blocks where it holds at
  /// all, for one class of lanes that agree with each other; taken as the
  /// class of the first active lane, and stated.
  std::optional<AbsValue> equalityByLaneClass(BinaryOperatorKind Op,
                                              const LaneVec &X,
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
    LaneClassNotes.insert(Note);
    V.Assumed.push_back(Note);
    return V;
  }
  std::set<std::string> LaneClassNotes;

  /// `i < n`, `i + 3 < n`, `i >= n` with i the thread's index and n a
  /// runtime value (or the block's position in i): a bound. The lanes are
  /// in range in every block but the grid's last: taken in that common case
  /// (true for `i < n`, false for `i >= n`), the same for every lane, and
  /// stated. Not for a comparison with a loop's counter or the block's size
  /// (`tx <= m`, `tid < blockDim.x / 2`: the lanes split), which stays
  /// undecided.
  std::optional<AbsValue> boundCommonCase(BinaryOperatorKind Op,
                                          const LaneVec &X, const LaneVec &Y) {
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
      O = Op == BO_LT   ? BO_GT
          : Op == BO_GT ? BO_LT
          : Op == BO_LE ? BO_GE
                        : BO_LE;
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
    LaneClassNotes.insert(Note);
    V.Assumed.push_back(Note);
    return V;
  }
  /// Evaluating an if statement's condition (a branch, not a value: a
  /// clamp `(i == 0) ? i : i - 1` keeps its own common-case rule).
  bool InIfCondition = false;

  AbsValue compare(BinaryOperatorKind Op, const LaneVec &X, const LaneVec &Y) {
    bool Unknown = false;
    std::array<Poly, WarpSize> Lanes;
    unsigned N = (X.isUniform() && Y.isUniform()) ? 1 : WarpSize;
    for (unsigned L = 0; L < N; ++L) {
      auto D = Poly::sub(X.lane(L), Y.lane(L));
      std::optional<int64_t> Lo, Hi;
      if (D) {
        if (auto C = D->asConstant()) {
          Lo = Hi = C;
        } else if (auto R = range(*D)) {
          Lo = R->first;
          Hi = R->second;
        }
      }
      if (!Lo) {
        if (D && mentionsWarpSymbol(*D))
          NeedConcrete = NeedConcrete || Unused == 0;
        Unknown = true;
        break;
      }
      std::optional<bool> T;
      switch (Op) {
      case BO_LT:
        T = *Hi < 0 ? std::optional<bool>(true)
                    : (*Lo >= 0 ? std::optional<bool>(false) : std::nullopt);
        break;
      case BO_GT:
        T = *Lo > 0 ? std::optional<bool>(true)
                    : (*Hi <= 0 ? std::optional<bool>(false) : std::nullopt);
        break;
      case BO_LE:
        T = *Hi <= 0 ? std::optional<bool>(true)
                     : (*Lo > 0 ? std::optional<bool>(false) : std::nullopt);
        break;
      case BO_GE:
        T = *Lo >= 0 ? std::optional<bool>(true)
                     : (*Hi < 0 ? std::optional<bool>(false) : std::nullopt);
        break;
      case BO_EQ:
        T = (*Lo == 0 && *Hi == 0)
                ? std::optional<bool>(true)
                : ((*Lo > 0 || *Hi < 0) ? std::optional<bool>(false)
                                        : std::nullopt);
        break;
      case BO_NE:
        T = (*Lo == 0 && *Hi == 0)
                ? std::optional<bool>(false)
                : ((*Lo > 0 || *Hi < 0) ? std::optional<bool>(true)
                                        : std::nullopt);
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
    if (Unknown && InIfCondition && (Op == BO_EQ || Op == BO_NE) &&
        N == WarpSize)
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

  //===--------------------------------------------------------------------===//
  // Regions and accesses
  //===--------------------------------------------------------------------===//

  const MemRegion *regionFor(const ValueDecl *D, MemSpace Space) {
    auto It = RegionOf.find(D);
    if (It != RegionOf.end())
      return It->second;
    MemRegion R;
    R.Space = Space;
    R.Decl = D;
    R.Name = D->getNameAsString();
    R.DeclType = D->getType();
    if (Space == MemSpace::Global && isa<ParmVarDecl>(D)) {
      R.BaseAlign = 256; // cudaMalloc's guarantee
      R.AlignAssumed = true;
    } else if (auto *VD = dyn_cast<VarDecl>(D)) {
      R.BaseAlign = Ctx.getDeclAlign(VD).getQuantity();
      if (Space == MemSpace::Shared && VD->hasExternalStorage()) {
        R.BaseAlign = std::max<int64_t>(R.BaseAlign, 16);
        R.AlignAssumed = true;
      }
    }
    Regions.push_back(R);
    RegionOf[D] = &Regions.back();
    return &Regions.back();
  }

  /// A kernel parameter of struct type (`Params p`): its pointer fields
  /// point into global objects of their own (cudaMalloc'ed, 256-byte
  /// aligned, as pointer parameters are), its integer fields are symbols the
  /// same for the whole grid, nested structs likewise (bounded depth).
  AbsValue paramStruct(QualType T, const std::string &Path, unsigned Depth) {
    const RecordDecl *RD = T->getAsRecordDecl();
    if (!RD || !RD->getDefinition() || Depth > 3 || isDim3Like(T))
      return AbsValue::unknown("parameter `" + Path + "` not tracked");
    AbsValue V;
    V.K = AbsValue::Struct;
    V.Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
    for (const FieldDecl *F : RD->getDefinition()->fields()) {
      std::string Name = Path + "." + F->getNameAsString();
      QualType FT = F->getType();
      if (FT->isPointerType()) {
        MemRegion R;
        R.Space = MemSpace::Global;
        R.Decl = F;
        R.Name = Name;
        R.DeclType = FT;
        R.BaseAlign = 256;
        R.AlignAssumed = true;
        Regions.push_back(R);
        (*V.Fields)[F] =
            AbsValue::pointer(&Regions.back(), Poly(0), FT->getPointeeType());
      } else if (FT->isIntegerType() && !F->isBitField()) {
        (*V.Fields)[F] = AbsValue::integer(
            Poly::symbol(opaqueSymbol("param-field:" + Name, Name)));
      } else if (FT->isRecordType()) {
        (*V.Fields)[F] = paramStruct(FT, Name, Depth + 1);
      }
    }
    return V;
  }

  /// The base variable of an access, as written.
  std::string arrayName(const Expr *E) const {
    E = E->IgnoreParenCasts();
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E))
      return arrayName(A->getBase());
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf)
        return arrayName(U->getSubExpr());
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAdditiveOp())
        return B->getLHS()->getType()->isPointerType() ? arrayName(B->getLHS())
                                                       : arrayName(B->getRHS());
    }
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      std::string Base = arrayName(M->getBase());
      if (M->getBase()->getType()->isRecordType() || M->isArrow()) {
        if (!Base.empty() && !M->getType()->isArrayType() &&
            !M->getType()->isPointerType())
          return Base; // a field of an element: the array is the base
        return Base + (M->isArrow() ? "->" : ".") +
               M->getMemberDecl()->getNameAsString();
      }
      return Base;
    }
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      return D->getDecl()->getNameAsString();
    if (auto *C = dyn_cast<CallExpr>(E)) {
      if (C->getNumArgs() > 0)
        return arrayName(C->getArg(0));
    }
    return "";
  }

  void record(AccessKind Kind, const LValue &LV, const Expr *E, QualType T,
              const Expr *IndexHint = nullptr) {
    if (LV.K != LValue::Memory || !LV.Region)
      return;
    if (LV.Region->Space == MemSpace::Local)
      return;
    if (Active == 0)
      return;
    auto Size = sizeOf(T);
    if (!Size || *Size <= 0)
      return;
    RawAccess A;
    A.E = E;
    A.CallStack = CallStack;
    A.Kind = Kind;
    A.Region = LV.Region;
    A.Array = arrayName(E);
    if (A.Array.empty())
      A.Array = LV.Region->Name;
    A.Type = T;
    A.Bytes = static_cast<unsigned>(*Size);
    A.Offset = LV.Offset;
    A.UnknownWhy = LV.Why;
    A.Assumptions = LV.Assumed;
    for (const std::string &N : CondNotes)
      if (std::find(A.Assumptions.begin(), A.Assumptions.end(), N) ==
          A.Assumptions.end())
        A.Assumptions.push_back(N);
    A.Active = Active;
    A.Loops = Loops;
    A.Weight = W.Weight;
    if (W.Display)
      A.StrideTerm = findStrideTerm(IndexHint ? IndexHint : E);
    // A struct is copied by nvcc in pieces of its alignment, at most 16
    // bytes (a 12-byte struct of floats: three 4-byte loads; a 32-byte
    // 16-aligned one: two 16-byte loads): one access per instruction.
    if (const RecordDecl *RD = T->getAsRecordDecl();
        RD && !T->isIncompleteType() && !T->isDependentType()) {
      int64_t Align = Ctx.getTypeAlignInChars(T).getQuantity();
      int64_t Piece = std::min<int64_t>(16, Align);
      if (Piece > 0 && *Size > Piece && *Size % Piece == 0) {
        unsigned N = static_cast<unsigned>(*Size / Piece);
        for (unsigned I = 0; I < N; ++I) {
          RawAccess P = A;
          P.Bytes = static_cast<unsigned>(Piece);
          P.Piece = I;
          P.Pieces = N;
          if (P.Offset) {
            auto Moved = P.Offset->map([&](const Poly &X) {
              return Poly::add(X, Poly(int64_t(I) * Piece));
            });
            if (Moved)
              P.Offset = *Moved;
            else
              P.Offset.reset();
          }
          Out.push_back(std::move(P));
        }
        return;
      }
    }
    Out.push_back(std::move(A));
  }

  const Expr *findStrideTerm(const Expr *E) const {
    if (!E)
      return nullptr;
    if (ThreadScaledMuls.count(E))
      return E;
    for (const Stmt *Child : E->children())
      if (auto *CE = dyn_cast_or_null<Expr>(Child))
        if (const Expr *Found = findStrideTerm(CE))
          return Found;
    return nullptr;
  }

  //===--------------------------------------------------------------------===//
  // Lvalues
  //===--------------------------------------------------------------------===//

  /// A pointer whose offset is no longer known keeps the object it points
  /// into: accesses through it are still recorded (with unknown addresses).
  static AbsValue unknownPointer(const AbsValue &Old, std::string Why) {
    AbsValue U = AbsValue::unknown(std::move(Why));
    if (Old.isPointer() || (Old.isUnknown() && Old.Region)) {
      U.Region = Old.Region;
      U.Pointee = Old.Pointee;
    }
    return U;
  }

  LValue memoryAt(const AbsValue &Ptr, QualType T, const std::string &Why) {
    LValue L;
    L.assuming(Ptr);
    if (!Ptr.isPointer()) {
      if (Ptr.isUnknown() && Ptr.Region) {
        L.K = LValue::Memory;
        L.Region = Ptr.Region;
        L.Type = T;
        L.Why = Ptr.Why.empty() ? Why : Ptr.Why;
        return L;
      }
      return LValue::unknown(Ptr.Why.empty() ? Why : Ptr.Why);
    }
    L.K = LValue::Memory;
    L.Region = Ptr.Region;
    L.Offset = Ptr.Val;
    L.Type = T;
    return L;
  }

  LValue evalLValue(const Expr *E) {
    if (budgetSpent())
      return LValue::unknown("analysis stopped: budget exceeded");
    E = E->IgnoreParens();
    if (auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      switch (ICE->getCastKind()) {
      case CK_NoOp:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
        return evalLValue(ICE->getSubExpr());
      case CK_LValueBitCast: {
        LValue L = evalLValue(ICE->getSubExpr());
        L.Type = ICE->getType();
        return L;
      }
      default:
        eval(E);
        return LValue::unknown("unsupported lvalue cast");
      }
    }
    if (auto *CE = dyn_cast<ExplicitCastExpr>(E)) {
      LValue L = evalLValue(CE->getSubExpr());
      if (CE->getCastKind() == CK_LValueBitCast || CE->getCastKind() == CK_NoOp)
        L.Type = CE->getType();
      return L;
    }
    if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      return evalLValue(M->getSubExpr());
    if (auto *O = dyn_cast<OpaqueValueExpr>(E))
      if (O->getSourceExpr())
        return evalLValue(O->getSourceExpr());
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      return lvalueOfDecl(D);
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      AbsValue Base = eval(A->getBase());
      AbsValue Idx = eval(A->getIdx());
      if (!Base.isPointer()) {
        if (Base.isUnknown() && Base.Region)
          return memoryAt(Base, A->getType(), "base pointer unknown");
        return LValue::unknown(Base.Why.empty() ? "base pointer unknown"
                                                : Base.Why);
      }
      return offsetBy(Base, Idx, A->getType(), A->getIdx());
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      switch (U->getOpcode()) {
      case UO_Deref:
        return memoryAt(eval(U->getSubExpr()), U->getType(), "pointer unknown");
      case UO_PreInc:
      case UO_PreDec: {
        eval(E);
        return evalLValueNoEffects(U->getSubExpr());
      }
      default:
        break;
      }
    }
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!FD) {
        if (auto *VD = dyn_cast<VarDecl>(M->getMemberDecl())) {
          eval(M->getBase());
          return lvalueOfVar(VD, M);
        }
        return LValue::unknown("member is not a field");
      }
      LValue Base;
      if (M->isArrow())
        Base = memoryAt(eval(M->getBase()),
                        M->getBase()->getType()->getPointeeType(),
                        "pointer unknown");
      else
        Base = evalLValue(M->getBase());
      return fieldOf(Base, FD, M->getType());
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp()) {
        eval(E);
        return evalLValueNoEffects(B->getLHS());
      }
      if (B->getOpcode() == BO_Comma) {
        eval(B->getLHS());
        return evalLValue(B->getRHS());
      }
    }
    if (auto *C = dyn_cast<CallExpr>(E)) {
      LValue Result;
      if (inlineCall(C, /*WantLValue=*/true, nullptr, &Result))
        return Result;
      evalCallArgs(C);
      return LValue::unknown("reference returned by a call");
    }
    if (isa<PseudoObjectExpr>(E)) {
      eval(E);
      return LValue::unknown("property reference");
    }
    eval(E);
    return LValue::unknown("unsupported lvalue");
  }

  /// The lvalue of an expression already evaluated for its side effects.
  LValue evalLValueNoEffects(const Expr *E) {
    // Re-evaluating a pure lvalue (a variable or an address expression with
    // no side effects of its own) records no access; the value used is the
    // one after the update, as C++ specifies for these operators.
    size_t Mark = Out.size();
    LValue L = evalLValue(E);
    Out.resize(Mark);
    return L;
  }

  LValue lvalueOfVar(const VarDecl *VD, const Expr *At) {
    auto RI = Refs.find(VD);
    if (RI != Refs.end())
      return RI->second;
    if (VD->hasAttr<CUDASharedAttr>())
      return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Shared),
                                        Poly(0), VD->getType()),
                      VD->getType(), "");
    if (VD->hasAttr<CUDAConstantAttr>())
      return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Constant),
                                        Poly(0), VD->getType()),
                      VD->getType(), "");
    if (VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>()) {
      // A const __device__ scalar with a constant initializer is a value.
      return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Global),
                                        Poly(0), VD->getType()),
                      VD->getType(), "");
    }
    if (VD->getType()->isReferenceType())
      return LValue::unknown("reference `" + VD->getNameAsString() +
                             "` not tracked");
    if (VD->getType()->isArrayType() && !isa<ParmVarDecl>(VD))
      return memoryAt(AbsValue::pointer(regionFor(VD, MemSpace::Local), Poly(0),
                                        VD->getType()),
                      VD->getType(), "");
    LValue L;
    L.K = LValue::Var;
    L.VD = VD;
    L.Type = VD->getType();
    return L;
  }

  LValue lvalueOfDecl(const DeclRefExpr *D) {
    if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
      return lvalueOfVar(VD, D);
    return LValue::unknown("not a variable");
  }

  /// The size of \p ElemT, a sub-array (or element) of the region's
  /// declared array, under the hypothetical padding of its innermost
  /// dimension.
  std::optional<int64_t> elementSize(QualType ElemT, const MemRegion *R) {
    if (!Padding || !R || !R->Decl)
      return sizeOf(ElemT);
    auto It = Padding->find(dyn_cast<VarDecl>(R->Decl));
    if (It == Padding->end())
      return sizeOf(ElemT);
    std::vector<int64_t> Dims;
    QualType T = R->DeclType;
    while (const auto *CA = Ctx.getAsConstantArrayType(T)) {
      Dims.push_back(CA->getSize().getSExtValue());
      T = CA->getElementType();
    }
    auto Elem = sizeOf(T);
    if (Dims.empty() || !Elem)
      return sizeOf(ElemT);
    Dims.back() += It->second;
    size_t Depth = 0;
    for (QualType E = ElemT; const auto *CA = Ctx.getAsConstantArrayType(E);
         E = CA->getElementType())
      ++Depth;
    if (Depth > Dims.size())
      return sizeOf(ElemT);
    int64_t Size = *Elem;
    for (size_t I = Dims.size() - Depth; I < Dims.size(); ++I)
      Size *= Dims[I];
    return Size;
  }

  LValue offsetBy(const AbsValue &Base, const AbsValue &Idx, QualType ElemT,
                  const Expr *IdxExpr) {
    LValue L;
    L.K = LValue::Memory;
    L.Region = Base.Region;
    L.Type = ElemT;
    L.assuming(Base);
    L.assuming(Idx);
    auto Size = elementSize(ElemT, Base.Region);
    if (!Idx.isInt() || !Size) {
      L.Why =
          Idx.Why.empty() ? "index `" + text(IdxExpr) + "` unknown" : Idx.Why;
      return L;
    }
    auto Off =
        Idx.Val.map([&](const Poly &P) { return Poly::scale(P, *Size); });
    if (Off)
      Off = LaneVec::zip(Base.Val, *Off, Poly::add);
    if (!Off) {
      L.Why = "offset overflows 64 bits";
      return L;
    }
    L.Offset = std::move(*Off);
    return L;
  }

  LValue fieldOf(const LValue &Base, const FieldDecl *FD, QualType T) {
    if (Base.K == LValue::Var) {
      LValue L = Base;
      L.Path.push_back(FD);
      L.Type = T;
      return L;
    }
    if (Base.K != LValue::Memory)
      return Base;
    LValue L = Base;
    L.Type = T;
    if (FD->isBitField()) {
      L.Offset.reset();
      L.Why = "bit-field";
      return L;
    }
    const RecordDecl *RD = FD->getParent();
    if (RD->isInvalidDecl() || !RD->getDefinition())
      return LValue::unknown("incomplete record");
    const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
    int64_t Off =
        Layout.getFieldOffset(FD->getFieldIndex()) / Ctx.getCharWidth();
    if (L.Offset) {
      auto Sum =
          L.Offset->map([&](const Poly &P) { return Poly::add(P, Poly(Off)); });
      if (Sum)
        L.Offset = *Sum;
      else
        L.Offset.reset();
    }
    return L;
  }

  AbsValue readVar(const LValue &L) {
    auto It = Env.find(L.VD);
    if (It == Env.end())
      return AbsValue::unknown("`" + L.VD->getNameAsString() +
                               "` has no known value");
    const AbsValue *V = &It->second;
    for (const FieldDecl *F : L.Path) {
      if (V->K != AbsValue::Struct || !V->Fields)
        return AbsValue::unknown(V->isUnknown() && !V->Why.empty()
                                     ? V->Why
                                     : "`" + L.VD->getNameAsString() +
                                           "` is not a known struct");
      auto FI = V->Fields->find(F);
      if (FI == V->Fields->end())
        return AbsValue::unknown("field not known");
      V = &FI->second;
    }
    return *V;
  }

  void writeVar(const LValue &L, AbsValue V) {
    if (L.Path.empty()) {
      Env[L.VD] = std::move(V);
      return;
    }
    AbsValue &Root = Env[L.VD];
    AbsValue *Cur = &Root;
    for (const FieldDecl *F : L.Path) {
      if (Cur->K != AbsValue::Struct || !Cur->Fields) {
        Cur->K = AbsValue::Struct;
        Cur->Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
      } else if (Cur->Fields.use_count() > 1) {
        Cur->Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>(
            *Cur->Fields);
      }
      Cur = &(*Cur->Fields)[F];
    }
    *Cur = std::move(V);
  }

  /// Reads an lvalue (recording a load when it is memory).
  AbsValue read(const LValue &L, const Expr *AccessExpr, QualType T) {
    switch (L.K) {
    case LValue::Var:
      return readVar(L);
    case LValue::Unknown:
      return AbsValue::unknown(L.Why);
    case LValue::Memory:
      break;
    }
    record(AccessKind::Load, L, AccessExpr, T);
    if (!L.Offset)
      return AbsValue::unknown("loaded through an unknown address");
    if (L.Region->Space == MemSpace::Local)
      return AbsValue::unknown("value of a per-thread array element");
    if (!(T->isIntegerType() || T->isEnumeralType()))
      return AbsValue::unknown(T->isPointerType() ? "pointer loaded from memory"
                                                  : "value loaded from memory");
    if (L.Offset->isUniform() && !mentionsWarpSymbol(L.Offset->uniform()))
      return AbsValue::integer(Poly::symbol(opaqueSymbol(
          "load:" + L.Region->Name + "@" + Syms.str(L.Offset->uniform()),
          text(AccessExpr), {&L.Offset->uniform()})));
    return AbsValue::unknown(
        "`" + text(AccessExpr) +
        "` is data-dependent (a value loaded from memory)");
  }

  void write(const LValue &L, AbsValue V, const Expr *AccessExpr, QualType T,
             AccessKind Kind = AccessKind::Store) {
    switch (L.K) {
    case LValue::Var:
      writeVar(L, std::move(V));
      return;
    case LValue::Unknown:
      return;
    case LValue::Memory:
      record(Kind, L, AccessExpr, T);
      return;
    }
  }

  //===--------------------------------------------------------------------===//
  // Rvalues
  //===--------------------------------------------------------------------===//

  AbsValue constantOf(const Expr *E) {
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
      return AbsValue::integer(Poly(R.Val.getInt().getExtValue()));
    return AbsValue::unknown("not a constant");
  }

  AbsValue builtinVar(const Expr *Base, llvm::StringRef Member) {
    auto *D = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
    if (auto *OV = dyn_cast<OpaqueValueExpr>(Base->IgnoreParenImpCasts()))
      D = dyn_cast<DeclRefExpr>(OV->getSourceExpr()->IgnoreParenImpCasts());
    if (!D)
      return AbsValue::unknown("unknown builtin");
    llvm::StringRef Var = D->getDecl()->getName();
    int Dim = llvm::StringSwitch<int>(Member)
                  .Case("x", 0)
                  .Case("y", 1)
                  .Case("z", 2)
                  .Default(-1);
    if (Dim < 0)
      return AbsValue::unknown("unknown builtin");
    if (Var == "threadIdx")
      return AbsValue::integer(W.Tid[Dim]);
    if (Var == "blockDim")
      return AbsValue::integer(W.BlockDim[Dim]);
    if (Var == "blockIdx" || Var == "gridDim") {
      std::string Name = (Var + "." + Member).str();
      SymbolInfo Info;
      Info.Name = Name;
      Info.Kind =
          Var == "blockIdx" ? SymbolKind::BlockIdx : SymbolKind::GridDim;
      Info.Rank = Var == "blockIdx" ? 0 + Dim : 20 + Dim;
      Info.Min = Var == "blockIdx" ? 0 : 1;
      auto It = Opaque.find("builtin:" + Name);
      SymbolId S;
      if (It != Opaque.end()) {
        S = It->second;
      } else {
        S = Syms.add(Info);
        Opaque["builtin:" + Name] = S;
      }
      return AbsValue::integer(Poly::symbol(S));
    }
    return AbsValue::unknown("unknown builtin");
  }

  AbsValue evalPseudo(const PseudoObjectExpr *PO) {
    if (auto *Prop =
            dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
      return builtinVar(Prop->getBaseExpr(),
                        Prop->getPropertyDecl()->getName());
    return eval(PO->getResultExpr());
  }

  AbsValue castValue(const CastExpr *CE) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue: {
      // `c ? a : b` of two lvalues, read: the value of the one each lane
      // takes.
      if (auto *CO = dyn_cast<AbstractConditionalOperator>(Sub->IgnoreParens()))
        return evalConditional(CO);
      // const/constexpr integers with a constant initializer (N, warpSize,
      // template-dependent constants): their value.
      if (auto *D = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
        if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
          if ((VD->getType().isConstQualified() || VD->isConstexpr()) &&
              VD->getType()->isIntegerType()) {
            AbsValue C = constantOf(CE);
            if (C.isInt())
              return C;
          }
      LValue L = evalLValue(Sub);
      return read(L, Sub, CE->getType());
    }
    case CK_ArrayToPointerDecay: {
      LValue L = evalLValue(Sub);
      if (L.K != LValue::Memory)
        return AbsValue::unknown(L.Why.empty() ? "array not tracked" : L.Why);
      if (!L.Offset) {
        AbsValue V = AbsValue::unknown(L.Why);
        V.Region = L.Region;
        V.Pointee = CE->getType()->getPointeeType();
        return V;
      }
      {
        AbsValue P = AbsValue::pointer(L.Region, *L.Offset,
                                       CE->getType()->getPointeeType());
        P.Assumed = L.Assumed;
        return P;
      }
    }
    case CK_IntegralCast: {
      // A narrowing cast wraps values outside the destination's range: when
      // the value's range is known and does not fit, an unsigned
      // destination keeps the low bits; else the value is unknown. (An
      // unknown range is taken to fit, as indices do.)
      AbsValue V = eval(Sub);
      QualType To = CE->getType();
      if (!V.isInt() || To->isBooleanType() || !To->isIntegerType())
        return V;
      unsigned Bits = Ctx.getIntWidth(To);
      if (Bits >= 64)
        return V;
      bool Signed = To->isSignedIntegerOrEnumerationType();
      int64_t Lo = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
      int64_t Hi =
          Signed ? (int64_t(1) << (Bits - 1)) - 1 : (int64_t(1) << Bits) - 1;
      bool Fits = true;
      for (unsigned L = 0; L < (V.Val.isUniform() ? 1u : WarpSize); ++L) {
        std::optional<std::pair<int64_t, int64_t>> R;
        if (auto C = V.Val.lane(L).asConstant())
          R = std::make_pair(*C, *C);
        else
          R = range(V.Val.lane(L));
        if (R && (R->first < Lo || R->second > Hi))
          Fits = false;
      }
      if (Fits)
        return V;
      if (!Signed)
        if (auto M = modulo(V.Val, int64_t(1) << Bits)) {
          // modulo() follows C's sign rule for constants: make it [0, 2^b).
          auto Wrapped = M->map([&](const Poly &P) -> std::optional<Poly> {
            if (auto C = P.asConstant())
              return Poly(floorMod(*C, int64_t(1) << Bits));
            return P;
          });
          if (Wrapped)
            return AbsValue::integer(*Wrapped).assuming(V);
        }
      if (mentionsWarpSymbol(V.Val))
        NeedConcrete = true;
      return AbsValue::unknown("`" + text(CE) + "` wraps around");
    }
    case CK_NoOp:
    case CK_AddressSpaceConversion:
    case CK_UserDefinedConversion:
    case CK_ConstructorConversion:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
    case CK_BooleanToSignedIntegral: {
      AbsValue V = eval(Sub);
      if (V.isPointer() && CE->getType()->isPointerType())
        V.Pointee = CE->getType()->getPointeeType();
      return V;
    }
    case CK_BitCast: {
      AbsValue V = eval(Sub);
      if (V.isPointer() && CE->getType()->isPointerType())
        V.Pointee = CE->getType()->getPointeeType();
      return V;
    }
    case CK_IntegralToBoolean: {
      AbsValue V = eval(Sub);
      if (!V.isInt())
        return V;
      return compare(BO_NE, V.Val, LaneVec(Poly(0)));
    }
    case CK_FloatingToIntegral:
      eval(Sub);
      return AbsValue::unknown("converted from floating point");
    case CK_PointerToIntegral:
      eval(Sub);
      return AbsValue::unknown("pointer converted to an integer");
    case CK_IntegralToPointer:
      eval(Sub);
      return AbsValue::unknown("integer converted to a pointer");
    default:
      eval(Sub);
      return AbsValue::unknown("value not tracked");
    }
  }

  AbsValue pointerArith(BinaryOperatorKind Op, const AbsValue &Ptr,
                        const AbsValue &Int, QualType Pointee) {
    if (!Ptr.isPointer())
      return Ptr;
    if (!Int.isInt())
      return unknownPointer(Ptr, Int.Why);
    auto Size = sizeOf(Pointee);
    if (!Size)
      return AbsValue::unknown("pointer to an incomplete type");
    auto Scaled = Int.Val.map([&](const Poly &P) {
      return Poly::scale(P, Op == BO_Sub ? -*Size : *Size);
    });
    if (!Scaled)
      return AbsValue::unknown("offset overflows");
    auto Sum = LaneVec::zip(Ptr.Val, *Scaled, Poly::add);
    if (!Sum)
      return AbsValue::unknown("offset overflows");
    AbsValue R = AbsValue::pointer(Ptr.Region, *Sum, Ptr.Pointee);
    R.assuming(Ptr).assuming(Int);
    return R;
  }

  AbsValue evalBinary(const BinaryOperator *B) {
    BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_Assign) {
      LValue L = evalLValue(B->getLHS());
      AbsValue V = eval(B->getRHS());
      write(L, V, B->getLHS(), B->getLHS()->getType());
      return V;
    }
    if (auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
      LValue L = evalLValue(CA->getLHS());
      AbsValue Old = read(L, CA->getLHS(), CA->getLHS()->getType());
      AbsValue R = eval(CA->getRHS());
      AbsValue New;
      BinaryOperatorKind Base = BinaryOperator::getOpForCompoundAssignment(Op);
      if (Old.isPointer() && (Base == BO_Add || Base == BO_Sub))
        New = pointerArith(Base, Old, R, Old.Pointee);
      else
        New = binaryInt(Base, Old, R, B);
      write(L, New, CA->getLHS(), CA->getLHS()->getType());
      return New;
    }
    if (Op == BO_Comma) {
      eval(B->getLHS());
      return eval(B->getRHS());
    }
    AbsValue L = eval(B->getLHS());
    AbsValue R = eval(B->getRHS());
    QualType LT = B->getLHS()->getType(), RT = B->getRHS()->getType();
    if ((Op == BO_Add || Op == BO_Sub) && LT->isPointerType() &&
        RT->isIntegerType())
      return pointerArith(Op, L, R, LT->getPointeeType());
    if (Op == BO_Add && RT->isPointerType() && LT->isIntegerType())
      return pointerArith(Op, R, L, RT->getPointeeType());
    if (Op == BO_Sub && LT->isPointerType() && RT->isPointerType()) {
      if (L.isPointer() && R.isPointer() && L.Region == R.Region) {
        auto Size = sizeOf(LT->getPointeeType());
        auto D = LaneVec::zip(L.Val, R.Val, Poly::sub);
        if (Size && D && *Size > 0)
          if (auto Q =
                  D->map([&](const Poly &P) { return P.divideExact(*Size); }))
            return AbsValue::integer(*Q);
      }
      return AbsValue::unknown("pointer difference");
    }
    if (L.isPointer() || R.isPointer()) {
      if (B->isComparisonOp() && L.isPointer() && R.isPointer() &&
          L.Region == R.Region)
        return compare(Op, L.Val, R.Val);
      return AbsValue::unknown("pointer arithmetic");
    }
    if (!B->getType()->isIntegerType() && !B->getType()->isBooleanType() &&
        !B->isComparisonOp())
      return AbsValue::unknown("floating-point value");
    return binaryInt(Op, L, R, B);
  }

  AbsValue evalUnary(const UnaryOperator *U) {
    switch (U->getOpcode()) {
    case UO_AddrOf: {
      LValue L = evalLValue(U->getSubExpr());
      if (L.K == LValue::Memory && L.Offset) {
        AbsValue P =
            AbsValue::pointer(L.Region, *L.Offset, U->getSubExpr()->getType());
        P.Assumed = L.Assumed;
        return P;
      }
      if (L.K == LValue::Memory && L.Region) {
        // The object is known, the offset is not (&hist[key]).
        AbsValue V = AbsValue::unknown(L.Why);
        V.Region = L.Region;
        V.Pointee = U->getSubExpr()->getType();
        return V;
      }
      return AbsValue::unknown(L.K == LValue::Var ? "address of a local"
                                                  : L.Why);
    }
    case UO_Deref: {
      LValue L = evalLValue(U);
      return read(L, U, U->getType());
    }
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      LValue L = evalLValue(U->getSubExpr());
      AbsValue Old = read(L, U->getSubExpr(), U->getSubExpr()->getType());
      AbsValue One = AbsValue::integer(Poly(1));
      bool Inc = U->isIncrementOp();
      AbsValue New =
          Old.isPointer()
              ? pointerArith(Inc ? BO_Add : BO_Sub, Old, One, Old.Pointee)
              : binaryInt(Inc ? BO_Add : BO_Sub, Old, One, U);
      write(L, New, U->getSubExpr(), U->getSubExpr()->getType());
      return U->isPrefix() ? New : Old;
    }
    case UO_Minus: {
      AbsValue V = eval(U->getSubExpr());
      if (!V.isInt())
        return V;
      if (auto R = V.Val.map([](const Poly &P) { return Poly::scale(P, -1); }))
        return AbsValue::integer(*R).assuming(V);
      return AbsValue::unknown("overflow");
    }
    case UO_Plus:
      return eval(U->getSubExpr());
    case UO_Not: {
      AbsValue V = eval(U->getSubExpr());
      if (!V.isInt())
        return V;
      // ~x == -x - 1
      if (auto R = V.Val.map([](const Poly &P) -> std::optional<Poly> {
            auto N = Poly::scale(P, -1);
            if (!N)
              return std::nullopt;
            return Poly::add(*N, Poly(-1));
          }))
        return AbsValue::integer(*R).assuming(V);
      return AbsValue::unknown("overflow");
    }
    case UO_LNot: {
      AbsValue V = eval(U->getSubExpr());
      if (!V.isInt())
        return AbsValue::unknown(V.Why);
      return compare(BO_EQ, V.Val, LaneVec(Poly(0)));
    }
    case UO_Extension:
      return eval(U->getSubExpr());
    default:
      eval(U->getSubExpr());
      return AbsValue::unknown("unsupported operator");
    }
  }

  AbsValue evalConditional(const AbstractConditionalOperator *C) {
    AbsValue Cond = eval(C->getCond());
    AbsValue T = eval(C->getTrueExpr());
    AbsValue F = eval(C->getFalseExpr());
    if (T.sameAs(F))
      return T;
    std::optional<LaneMask> Mask;
    if (Cond.isInt())
      Mask = truth(Cond.Val);
    if (Mask)
      return select(*Mask, T, F).assuming(Cond);
    if (auto R = edgeConditional(C->getCond(), T, F))
      return *R;
    return AbsValue::unknown("`" + text(C->getCond()) + "` not known per lane");
  }

  /// `W = (i == 0) ? c : c - 1`: an equality between a thread's position
  /// (threadIdx, the warp's place, blockIdx) and a bound that holds only at
  /// the edge of the block or grid. Per lane where the ranges decide it;
  /// elsewhere it is taken in its common case (an equality false, an
  /// inequality true), which is stated with every access that uses the
  /// value. A condition of other values (a parameter switch) is no edge.
  std::optional<AbsValue> edgeConditional(const Expr *CondE, const AbsValue &T,
                                          const AbsValue &F) {
    auto *B = dyn_cast<BinaryOperator>(CondE->IgnoreParenImpCasts());
    if (!B || (B->getOpcode() != BO_EQ && B->getOpcode() != BO_NE))
      return std::nullopt;
    if (T.K != F.K || !(T.isInt() || T.isPointer()) ||
        (T.isPointer() && T.Region != F.Region))
      return std::nullopt;
    size_t Mark = Out.size();
    bool SavedNeed = NeedConcrete;
    ++Unused;
    AbsValue X = eval(B->getLHS()), Y = eval(B->getRHS());
    --Unused;
    Out.resize(Mark); // evaluated already, as the condition
    NeedConcrete = SavedNeed;
    if (!X.isInt() || !Y.isInt())
      return std::nullopt;
    auto D = LaneVec::zip(X.Val, Y.Val, Poly::sub);
    if (!D)
      return std::nullopt;
    // An edge: the difference moves with the thread or the block.
    bool Edge = !D->isUniform();
    for (unsigned L = 0; !Edge && L < 1; ++L)
      for (const Poly::Term &Tm : D->lane(L).terms())
        for (SymbolId S : Tm.Mono) {
          SymbolKind K = Syms.get(S).Kind;
          Edge = Edge || K == SymbolKind::ThreadIdx ||
                 K == SymbolKind::WarpPos || K == SymbolKind::BlockIdx;
        }
    if (!Edge)
      return std::nullopt;
    bool Eq = B->getOpcode() == BO_EQ;
    LaneMask Mask = 0;
    bool Assumed = false;
    for (unsigned L = 0; L < WarpSize; ++L) {
      const Poly &P = D->lane(L);
      std::optional<bool> Zero;
      if (auto C = P.asConstant())
        Zero = *C == 0;
      else if (auto R = range(P)) {
        if (R->first > 0 || R->second < 0)
          Zero = false;
        else if (R->first == 0 && R->second == 0)
          Zero = true;
      }
      if (!Zero) {
        Zero = false; // the common case
        Assumed = Assumed || ((Active >> L) & 1);
      }
      if (*Zero == Eq)
        Mask |= 1u << L;
    }
    AbsValue R = select(Mask, T, F);
    if (Assumed && !R.isUnknown()) {
      AbsValue A;
      A.Assumed.push_back(
          "`" + text(CondE) + "` taken as " + (Eq ? "false" : "true") +
          " where the lanes do not decide it: it " + (Eq ? "holds" : "fails") +
          " only at the edge of the block or grid");
      R.assuming(A);
    }
    return R;
  }

  /// Lane-wise selection: lanes in \p Mask take \p T, the others \p F.
  AbsValue select(LaneMask Mask, const AbsValue &T, const AbsValue &F) {
    if (Mask == AllLanes)
      return T;
    if (Mask == 0)
      return F;
    if (T.K != F.K || (T.isPointer() && T.Region != F.Region) ||
        T.K == AbsValue::Struct || T.isUnknown())
      return AbsValue::unknown("differs between lanes");
    std::array<Poly, WarpSize> Lanes;
    for (unsigned L = 0; L < WarpSize; ++L)
      Lanes[L] = ((Mask >> L) & 1) ? T.Val.lane(L) : F.Val.lane(L);
    AbsValue R = T;
    R.Val = LaneVec::perLane(Lanes);
    R.assuming(F);
    return R;
  }

  //===--------------------------------------------------------------------===//
  // Calls
  //===--------------------------------------------------------------------===//

  static bool isDim3Like(QualType T) {
    const RecordDecl *RD = T->getAsRecordDecl();
    if (!RD)
      return false;
    llvm::StringRef N = RD->getName();
    return N == "dim3" || N == "uint3";
  }

  AbsValue dim3Value(QualType T, const std::array<AbsValue, 3> &XYZ) {
    const RecordDecl *RD = T->getAsRecordDecl();
    AbsValue V;
    V.K = AbsValue::Struct;
    V.Fields = std::make_shared<std::map<const FieldDecl *, AbsValue>>();
    if (!RD)
      return AbsValue::unknown("dim3");
    for (const FieldDecl *F : RD->fields()) {
      int Dim = llvm::StringSwitch<int>(F->getName())
                    .Case("x", 0)
                    .Case("y", 1)
                    .Case("z", 2)
                    .Default(-1);
      if (Dim >= 0)
        (*V.Fields)[F] = XYZ[Dim];
    }
    return V;
  }

  /// Linear thread index in the block, threadIdx.x fastest.
  std::optional<LaneVec> linearTid() {
    auto YX = LaneVec::zip(W.Tid[1], LaneVec(W.BlockDim[0]), Poly::mul);
    auto BxBy = Poly::mul(W.BlockDim[0], W.BlockDim[1]);
    if (!YX || !BxBy)
      return std::nullopt;
    auto ZXY = LaneVec::zip(W.Tid[2], LaneVec(*BxBy), Poly::mul);
    if (!ZXY)
      return std::nullopt;
    auto S = LaneVec::zip(W.Tid[0], *YX, Poly::add);
    if (!S)
      return std::nullopt;
    return LaneVec::zip(*S, *ZXY, Poly::add);
  }

  /// cooperative_groups: thread_rank(), thread_index(), group_index() ...
  std::optional<AbsValue> cooperativeGroupsCall(const CallExpr *MC,
                                                const CXXMethodDecl *MD) {
    if (!MD)
      return std::nullopt;
    // The group is the object's type (thread_block_tile<32>), whichever
    // base class declares the method (tile<N, void> inherits
    // meta_group_rank from thread_group_base).
    const CXXRecordDecl *RD = MD->getParent();
    const Expr *Obj = nullptr;
    if (auto *M = dyn_cast<CXXMemberCallExpr>(MC))
      Obj = M->getImplicitObjectArgument();
    else if (auto *ME =
                 dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParenImpCasts()))
      Obj = ME->getBase();
    if (Obj) {
      QualType OT = Obj->IgnoreParenBaseCasts()->getType();
      if (OT->isPointerType())
        OT = OT->getPointeeType();
      if (const CXXRecordDecl *ORD = OT->getAsCXXRecordDecl())
        if (ORD->getName() == "thread_block" ||
            ORD->getName().starts_with("thread_block_tile"))
          RD = ORD;
    }
    if (!RD)
      return std::nullopt;
    llvm::StringRef Class = RD->getName(), Method = MD->getName();
    bool Block = Class == "thread_block";
    bool Tile = Class.starts_with("thread_block_tile") ||
                Class.starts_with("__static_size_thread_block_tile_base") ||
                Class.starts_with("__static_size_tile_base") ||
                Class.starts_with("__static_parent_thread_block_tile_base") ||
                Class.starts_with("__single_warp_thread_block_tile");
    if (!Block && !Tile)
      return std::nullopt;
    if (Block && Method == "thread_index") {
      std::array<AbsValue, 3> XYZ;
      for (int D = 0; D < 3; ++D)
        XYZ[D] = AbsValue::integer(W.Tid[D]);
      return dim3Value(MC->getType(), XYZ);
    }
    if (Method == "thread_rank" || Method == "meta_group_rank") {
      auto Lin = linearTid();
      if (!Lin)
        return AbsValue::unknown("thread rank");
      if (Block)
        return AbsValue::integer(*Lin);
      // thread_block_tile<N>: rank within the tile, or the tile's index.
      const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      const CXXRecordDecl *Cur = RD;
      while (!Spec && Cur) {
        const CXXRecordDecl *Next = nullptr;
        for (const CXXBaseSpecifier &B : Cur->bases())
          if (auto *BR = B.getType()->getAsCXXRecordDecl()) {
            Next = BR;
            if ((Spec = dyn_cast<ClassTemplateSpecializationDecl>(BR)))
              break;
          }
        Cur = Next;
      }
      if (!Spec || Spec->getTemplateArgs().size() == 0 ||
          Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
        return AbsValue::unknown("tile size unknown");
      int64_t N = Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
      auto R = Method == "thread_rank" ? modulo(*Lin, N) : divide(*Lin, N);
      if (!R)
        return AbsValue::unknown("tile rank");
      return AbsValue::integer(*R);
    }
    return std::nullopt;
  }

  static bool nameIn(llvm::StringRef N,
                     std::initializer_list<llvm::StringRef> L) {
    for (llvm::StringRef X : L)
      if (N == X)
        return true;
    return false;
  }

  /// Loads, stores and atomics that take a pointer: __ldg(p), __stcs(p, v),
  /// atomicAdd(p, v) ...
  std::optional<AbsValue> memoryIntrinsic(const CallExpr *C,
                                          llvm::StringRef Name) {
    if (C->getNumArgs() == 0 || !C->getArg(0)->getType()->isPointerType())
      return std::nullopt;
    AccessKind Kind;
    if (nameIn(Name,
               {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"}))
      Kind = AccessKind::Load;
    else if (nameIn(Name, {"__stcg", "__stcs", "__stwt", "__stwb"}))
      Kind = AccessKind::Store;
    else if (Name.starts_with("atomic") &&
             nameIn(Name.split('_').first,
                    {"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                     "atomicMax", "atomicInc", "atomicDec", "atomicCAS",
                     "atomicAnd", "atomicOr", "atomicXor"}))
      Kind = AccessKind::Atomic;
    else
      return std::nullopt;
    AbsValue Ptr = eval(C->getArg(0));
    for (unsigned I = 1; I < C->getNumArgs(); ++I)
      eval(C->getArg(I));
    QualType T = C->getArg(0)->getType()->getPointeeType();
    LValue L = memoryAt(Ptr, T, "pointer unknown");
    if (L.K == LValue::Memory)
      record(Kind, L, C, T.getUnqualifiedType(), C->getArg(0));
    if (Kind == AccessKind::Load && L.K == LValue::Memory && L.Offset &&
        T->isIntegerType() && L.Offset->isUniform() &&
        !mentionsWarpSymbol(L.Offset->uniform()))
      return AbsValue::integer(Poly::symbol(opaqueSymbol(
          "load:" + L.Region->Name + "@" + Syms.str(L.Offset->uniform()),
          text(C), {&L.Offset->uniform()})));
    return AbsValue::unknown("value loaded from memory");
  }

  void evalCallArgs(const CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    unsigned Shift = 0;
    if (isa<CXXOperatorCallExpr>(C))
      if (FD && isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic())
        Shift = 1; // the object is argument 0
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *Arg = C->getArg(I);
      QualType ParamT;
      if (FD && I >= Shift && I - Shift < FD->getNumParams())
        ParamT = FD->getParamDecl(I - Shift)->getType();
      bool ObjectArg = Shift && I == 0;
      if (ObjectArg || (!ParamT.isNull() && ParamT->isReferenceType())) {
        LValue L = evalLValue(Arg);
        if (L.K != LValue::Memory)
          continue;
        // A reference argument of a function not inlined: a read of the
        // object, and a write too through a non-const reference.
        QualType Obj = Arg->getType();
        bool Const = ObjectArg ? cast<CXXMethodDecl>(FD)->isConst()
                               : ParamT->getPointeeType().isConstQualified();
        record(AccessKind::Load, L, Arg, Obj.getUnqualifiedType());
        if (!Const)
          record(AccessKind::Store, L, Arg, Obj.getUnqualifiedType());
        continue;
      }
      eval(Arg);
    }
  }

  /// Inlines a call to a user function with a body. Returns false when the
  /// call is not inlined.
  bool inlineCall(const CallExpr *C, bool WantLValue, AbsValue *Result,
                  LValue *LResult) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD)
      return false;
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || isSystem(Def->getLocation()))
      return false;
    if (Frames.size() >= MaxInlineDepth)
      return false;
    for (const Frame &F : Frames)
      if (F.FD == Def)
        return false; // recursion
    bool ReturnsRef = Def->getReturnType()->isReferenceType();
    if (WantLValue != ReturnsRef && WantLValue)
      return false;

    // Bind arguments: by value -> values, by reference -> aliases.
    unsigned Shift = 0;
    const Expr *Object = nullptr;
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      Object = MC->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Def) &&
             !cast<CXXMethodDecl>(Def)->isStatic()) {
      Object = C->getArg(0);
      Shift = 1;
    }
    // Member functions: the object is not tracked. It is evaluated for what
    // its expression does (an index, a call), as an lvalue when it is one: a
    // member call does not load the object (a 2-piece load per 16 bytes of a
    // shared struct of 8 KB is 2,182 accesses that no instruction makes).
    if (Object) {
      if (Object->isGLValue())
        evalLValue(Object);
      else
        eval(Object);
    }
    std::vector<std::pair<const ParmVarDecl *, AbsValue>> Values;
    std::vector<std::pair<const ParmVarDecl *, LValue>> Aliases;
    for (unsigned I = Shift; I < C->getNumArgs(); ++I) {
      if (I - Shift >= Def->getNumParams())
        break;
      const ParmVarDecl *PD = Def->getParamDecl(I - Shift);
      if (PD->getType()->isReferenceType())
        Aliases.push_back({PD, evalLValue(C->getArg(I))});
      else
        Values.push_back({PD, eval(C->getArg(I))});
    }
    for (unsigned I = C->getNumArgs() - Shift; I < Def->getNumParams(); ++I) {
      const ParmVarDecl *PD = Def->getParamDecl(I);
      if (PD->hasDefaultArg() && !PD->getType()->isReferenceType())
        Values.push_back({PD, eval(PD->getDefaultArg())});
    }
    // Save the callee's bindings in case it is active further out (it is
    // not: recursion is refused), then bind.
    for (auto &[PD, V] : Values)
      Env[PD] = V;
    for (auto &[PD, L] : Aliases)
      Refs[PD] = L;
    Frames.push_back({Def, ReturnsRef, {}, {}});
    CallStack.push_back(C);
    exec(Def->getBody());
    CallStack.pop_back();
    Frame F = std::move(Frames.back());
    Frames.pop_back();
    for (auto &[PD, L] : Aliases)
      Refs.erase(PD);
    if (ReturnsRef) {
      if (LResult) {
        if (F.RefReturns.size() == 1)
          *LResult = F.RefReturns.front();
        else
          *LResult = LValue::unknown("reference returned on several paths");
      }
      if (Result)
        *Result = AbsValue::unknown("reference result");
      return true;
    }
    if (Result) {
      if (F.Returns.empty()) {
        *Result = AbsValue::unknown("no return value");
      } else {
        AbsValue R = F.Returns.front();
        for (const AbsValue &V : F.Returns)
          if (!V.sameAs(R))
            R = AbsValue::unknown("different values returned");
        *Result = R;
      }
    }
    return true;
  }

  AbsValue evalCall(const CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    llvm::StringRef Name;
    if (FD && FD->getDeclName().isIdentifier())
      Name = FD->getName();

    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(C)) {
      OverloadedOperatorKind OK = OC->getOperator();
      bool Assign = OK == OO_Equal;
      bool Compound = OK == OO_PlusEqual || OK == OO_MinusEqual ||
                      OK == OO_StarEqual || OK == OO_SlashEqual ||
                      OK == OO_PercentEqual || OK == OO_AmpEqual ||
                      OK == OO_PipeEqual || OK == OO_CaretEqual ||
                      OK == OO_LessLessEqual || OK == OO_GreaterGreaterEqual;
      if ((Assign || Compound) && OC->getNumArgs() == 2 &&
          (!FD || isSystem(FD->getLocation()) || FD->isTrivial() ||
           FD->isDefaulted())) {
        LValue L = evalLValue(OC->getArg(0));
        QualType T = OC->getArg(0)->getType().getUnqualifiedType();
        AbsValue V;
        if (Assign) {
          const Expr *RHS = OC->getArg(1);
          if (RHS->isGLValue() && !isDim3Like(RHS->getType())) {
            LValue R = evalLValue(RHS);
            V = read(R, RHS, RHS->getType().getUnqualifiedType());
          } else {
            V = eval(RHS);
          }
        } else {
          read(L, OC->getArg(0), T);
          const Expr *RHS = OC->getArg(1);
          if (RHS->isGLValue()) {
            LValue R = evalLValue(RHS);
            read(R, RHS, RHS->getType().getUnqualifiedType());
          } else {
            eval(RHS);
          }
          V = AbsValue::unknown("result of a compound assignment");
        }
        write(L, V, OC->getArg(0), T);
        return V;
      }
    }
    // A static member called through an object (`tile.thread_rank()` on a
    // thread_block_tile) is a plain call to a member expression.
    if (!isa<CXXMemberCallExpr>(C))
      if (auto *ME =
              dyn_cast<MemberExpr>(C->getCallee()->IgnoreParenImpCasts()))
        if (auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl());
            MD && MD->isStatic())
          if (auto CG = cooperativeGroupsCall(C, MD))
            return *CG;
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      if (auto CG = cooperativeGroupsCall(MC, MC->getMethodDecl()))
        return *CG;
      // A conversion or other const member of a system type called on an
      // object in memory: a read of that object.
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && isSystem(MD->getLocation())) {
        const Expr *Obj = MC->getImplicitObjectArgument();
        if (Obj && Obj->isGLValue()) {
          LValue L = evalLValue(Obj);
          QualType T = Obj->getType().getUnqualifiedType();
          if (L.K == LValue::Memory) {
            record(AccessKind::Load, L, Obj, T);
            if (!MD->isConst())
              record(AccessKind::Store, L, Obj, T);
          }
          for (unsigned I = 0; I < MC->getNumArgs(); ++I)
            eval(MC->getArg(I));
          return AbsValue::unknown("result of `" + MD->getNameAsString() + "`");
        }
      }
    }
    if (!Name.empty()) {
      if (auto R = memoryIntrinsic(C, Name))
        return *R;
      if (nameIn(Name, {"min", "max", "umin", "umax", "llmin", "llmax",
                        "ullmin", "ullmax"}) &&
          C->getNumArgs() == 2 && C->getType()->isIntegerType()) {
        AbsValue A = eval(C->getArg(0)), B = eval(C->getArg(1));
        if (A.isInt() && B.isInt()) {
          bool Max = Name.contains("max");
          AbsValue Lt = compare(BO_LT, A.Val, B.Val);
          if (Lt.isInt())
            if (auto M = truth(Lt.Val))
              return Max ? select(*M, B, A) : select(*M, A, B);
        }
        return AbsValue::unknown("min/max not decidable per lane");
      }
      if (nameIn(Name, {"__mul24", "__umul24"}) && C->getNumArgs() == 2)
        return binaryInt(BO_Mul, eval(C->getArg(0)), eval(C->getArg(1)), C);
    }
    AbsValue Result;
    if (inlineCall(C, /*WantLValue=*/false, &Result, nullptr))
      return Result;
    evalCallArgs(C);
    return AbsValue::unknown(Name.empty() ? "result of a call"
                                          : "result of `" + Name.str() + "`");
  }

  AbsValue evalConstruct(const CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    QualType T = CE->getType();
    if (Ctor && Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1) {
      const Expr *Arg = CE->getArg(0);
      if (Arg->isGLValue()) {
        LValue L = evalLValue(Arg);
        if (L.K == LValue::Var)
          return readVar(L);
        read(L, Arg, T.getUnqualifiedType());
        return AbsValue::unknown("`" + text(Arg) +
                                 "` is data-dependent (loaded from memory)");
      }
      return eval(Arg);
    }
    if (isDim3Like(T)) {
      std::array<AbsValue, 3> XYZ = {AbsValue::integer(Poly(1)),
                                     AbsValue::integer(Poly(1)),
                                     AbsValue::integer(Poly(1))};
      for (unsigned I = 0; I < CE->getNumArgs() && I < 3; ++I)
        XYZ[I] = eval(CE->getArg(I));
      if (CE->getNumArgs() == 1 && isDim3Like(CE->getArg(0)->getType()))
        return eval(CE->getArg(0));
      return dim3Value(T, XYZ);
    }
    for (const Expr *Arg : CE->arguments())
      eval(Arg);
    return AbsValue::unknown("constructed object");
  }

  //===--------------------------------------------------------------------===//
  // eval
  //===--------------------------------------------------------------------===//

  AbsValue eval(const Expr *E) {
    if (!E)
      return AbsValue::unknown("no expression");
    if (budgetSpent())
      return AbsValue::unknown("analysis stopped: budget exceeded");
    E = E->IgnoreParens();
    if (E->isValueDependent() || E->isTypeDependent())
      return AbsValue::unknown("dependent expression");
    if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E) ||
        isa<CXXBoolLiteralExpr>(E) || isa<UnaryExprOrTypeTraitExpr>(E))
      return constantOf(E);
    if (auto *C = dyn_cast<ConstantExpr>(E)) {
      if (C->hasAPValueResult() && C->getAPValueResult().isInt())
        return AbsValue::integer(
            Poly(C->getAPValueResult().getInt().getExtValue()));
      return eval(C->getSubExpr());
    }
    if (auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return eval(S->getReplacement());
    if (auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      return eval(D->getExpr());
    if (auto *D = dyn_cast<CXXDefaultInitExpr>(E))
      return eval(D->getExpr());
    if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      return eval(M->getSubExpr());
    if (auto *F = dyn_cast<FullExpr>(E))
      return eval(F->getSubExpr());
    if (auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      return eval(B->getSubExpr());
    if (auto *O = dyn_cast<OpaqueValueExpr>(E))
      return O->getSourceExpr() ? eval(O->getSourceExpr())
                                : AbsValue::unknown("opaque");
    if (auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (auto *EC = dyn_cast<EnumConstantDecl>(D->getDecl()))
        return AbsValue::integer(Poly(EC->getInitVal().getExtValue()));
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl())) {
        // const/constexpr with a constant initializer: the constant.
        if (VD->getType().isConstQualified() || VD->isConstexpr()) {
          AbsValue C = constantOf(E);
          if (C.isInt())
            return C;
        }
      }
      if (E->isGLValue()) {
        LValue L = evalLValue(E);
        return read(L, E, E->getType());
      }
      return AbsValue::unknown("value not tracked");
    }
    if (auto *CE = dyn_cast<CastExpr>(E))
      return castValue(CE);
    if (auto *U = dyn_cast<UnaryOperator>(E))
      return evalUnary(U);
    if (auto *B = dyn_cast<BinaryOperator>(E))
      return evalBinary(B);
    if (auto *C = dyn_cast<AbstractConditionalOperator>(E))
      return evalConditional(C);
    if (auto *PO = dyn_cast<PseudoObjectExpr>(E))
      return evalPseudo(PO);
    if (auto *C = dyn_cast<CXXConstructExpr>(E))
      return evalConstruct(C);
    if (auto *C = dyn_cast<CallExpr>(E))
      return evalCall(C);
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      if (E->isGLValue()) {
        LValue L = evalLValue(E);
        return read(L, E, E->getType());
      }
      AbsValue Base = eval(M->getBase());
      if (Base.K == AbsValue::Struct && Base.Fields)
        if (auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl())) {
          auto It = Base.Fields->find(FD);
          if (It != Base.Fields->end())
            return It->second;
        }
      return AbsValue::unknown("member of a temporary");
    }
    if (isa<ArraySubscriptExpr>(E) && E->isGLValue()) {
      LValue L = evalLValue(E);
      return read(L, E, E->getType());
    }
    if (isa<FloatingLiteral>(E))
      return AbsValue::unknown("floating-point value");
    if (auto *IL = dyn_cast<InitListExpr>(E)) {
      for (const Expr *Init : IL->inits())
        eval(Init);
      if (IL->getNumInits() == 1 && E->getType()->isScalarType())
        return eval(IL->getInit(0));
      return AbsValue::unknown("initializer list");
    }
    if (auto *IV = dyn_cast<ImplicitValueInitExpr>(E))
      return IV->getType()->isIntegerType() ? AbsValue::integer(Poly(0))
                                            : AbsValue::unknown("value");
    if (isa<LambdaExpr>(E) || isa<StmtExpr>(E))
      return AbsValue::unknown("not evaluated");
    // Anything else: visit the children for accesses.
    for (const Stmt *Child : E->children())
      if (auto *CE = dyn_cast_or_null<Expr>(Child))
        eval(CE);
    return AbsValue::unknown("expression not tracked");
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  /// Variables a statement may modify.
  void collectModified(const Stmt *S,
                       llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
    if (!S)
      return;
    auto Target = [&](const Expr *E) {
      E = E->IgnoreParenImpCasts();
      while (auto *M = dyn_cast<MemberExpr>(E)) {
        if (M->isArrow())
          return;
        E = M->getBase()->IgnoreParenImpCasts();
      }
      if (auto *D = dyn_cast<DeclRefExpr>(E))
        if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
          Out.insert(VD);
    };
    if (auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->isAssignmentOp())
        Target(B->getLHS());
    } else if (auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)
        Target(U->getSubExpr());
    } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus ||
          OC->getOperator() == OO_MinusMinus)
        if (OC->getNumArgs() > 0)
          Target(OC->getArg(0));
    } else if (auto *C = dyn_cast<CallExpr>(S)) {
      // Non-const reference arguments.
      if (const FunctionDecl *FD = C->getDirectCallee())
        for (unsigned I = 0; I < C->getNumArgs() && I < FD->getNumParams();
             ++I) {
          QualType T = FD->getParamDecl(I)->getType();
          if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
            Target(C->getArg(I));
        }
    } else if (auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getType()->isReferenceType() &&
              !VD->getType()->getPointeeType().isConstQualified() &&
              VD->getInit())
            Target(VD->getInit());
    }
    for (const Stmt *Child : S->children())
      collectModified(Child, Out);
  }

  bool alwaysReturns(const Stmt *S) const {
    if (!S)
      return false;
    if (isa<ReturnStmt>(S))
      return true;
    if (auto *CS = dyn_cast<CompoundStmt>(S))
      return !CS->body_empty() && alwaysReturns(CS->body_back());
    return false;
  }

  void execDecl(const DeclStmt *DS) {
    for (const Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      if (VD->hasAttr<CUDASharedAttr>() || VD->isStaticLocal())
        continue; // a region, created on first use
      const Expr *Init = VD->getInit();
      if (VD->getType()->isReferenceType()) {
        if (Init)
          Refs[VD] = evalLValue(Init);
        continue;
      }
      if (VD->getType()->isArrayType()) {
        if (Init)
          eval(Init);
        continue;
      }
      if (!Init) {
        Env[VD] = AbsValue::unknown("`" + VD->getNameAsString() +
                                    "` is uninitialized");
        continue;
      }
      AbsValue V = eval(Init);
      if (V.isPointer() && VD->getType()->isPointerType())
        V.Pointee = VD->getType()->getPointeeType();
      Env[VD] = std::move(V);
    }
  }

  void mergeInto(llvm::DenseMap<const VarDecl *, AbsValue> &A,
                 const llvm::DenseMap<const VarDecl *, AbsValue> &B,
                 std::optional<LaneMask> TakeA,
                 const Stmt *UniformBranch = nullptr) {
    // Lanes in TakeA keep A's value, the others take B's.
    llvm::SmallVector<const VarDecl *, 8> Keys;
    for (auto &KV : A)
      Keys.push_back(KV.first);
    for (auto &KV : B)
      if (!A.count(KV.first))
        Keys.push_back(KV.first);
    for (const VarDecl *VD : Keys) {
      auto IA = A.find(VD);
      auto IB = B.find(VD);
      if (IA == A.end() || IB == B.end()) {
        A[VD] = AbsValue::unknown("assigned on one path only");
        continue;
      }
      if (IA->second.sameAs(IB->second))
        continue;
      if (TakeA)
        IA->second = select(*TakeA, IA->second, IB->second);
      else if (UniformBranch && isUniformInt(IA->second) &&
               isUniformInt(IB->second)) {
        // A branch every lane of the warp takes the same way, between two
        // lane-uniform values (transposeDiagonal's blockIdx_x): one of
        // them, the same for every lane: a symbol.
        const Poly &PA = IA->second.Val.uniform(),
                   &PB = IB->second.Val.uniform();
        char Buf[64];
        snprintf(Buf, sizeof(Buf), "merge:%p:%p", (const void *)UniformBranch,
                 (const void *)VD);
        AbsValue M = AbsValue::integer(
            Poly::symbol(opaqueSymbol(Buf, VD->getNameAsString(), {&PA, &PB})));
        M.assuming(IA->second).assuming(IB->second);
        IA->second = M;
      } else if (IA->second.Region && IA->second.Region == IB->second.Region)
        IA->second =
            unknownPointer(IA->second, "`" + VD->getNameAsString() +
                                           "` differs between branches");
      else
        IA->second = AbsValue::unknown("`" + VD->getNameAsString() +
                                       "` differs between branches");
    }
  }

  void execIf(const IfStmt *If) {
    if (If->getInit())
      exec(If->getInit());
    if (If->getConditionVariableDeclStmt())
      exec(If->getConditionVariableDeclStmt());
    InIfCondition = true;
    AbsValue Cond = eval(If->getCond());
    InIfCondition = false;
    std::optional<LaneMask> Taken;
    if (Cond.isInt())
      Taken = truth(Cond.Val);
    // What the condition's lanes rest on (a bound's common case, a class of
    // lanes), said with every access under it.
    size_t NotesBefore = CondNotes.size();
    if (Taken)
      for (const std::string &N : Cond.Assumed)
        if (LaneClassNotes.count(N))
          CondNotes.push_back("`" + text(If->getCond()) + "`: " + N);
    // (`if (i >= n) return;` taken as false: what follows rests on it, so
    // its note stays for the rest of the body.)
    if (Taken && *Taken == AllLanes && Cond.Val.isUniform()) {
      exec(If->getThen());
      if (!(If->getElse() && alwaysReturns(If->getElse())))
        CondNotes.resize(NotesBefore);
      return;
    }
    if (Taken && *Taken == 0 && Cond.Val.isUniform()) {
      if (If->getElse())
        exec(If->getElse());
      if (!alwaysReturns(If->getThen()))
        CondNotes.resize(NotesBefore);
      return;
    }
    LaneMask Saved = Active;
    // A condition of lane-uniform values: every lane goes the same way.
    bool UniformCond = false;
    if (!Taken) {
      llvm::SmallPtrSet<const VarDecl *, 1> None;
      UniformCond = uniformExpr(If->getCond(), None);
    }
    // Not decided per lane: every active lane is taken through both sides,
    // and the accesses there say so.
    bool Undecided = !Taken && !UniformCond;
    if (Undecided) {
      ++UndecidedConds;
      CondNotes.push_back("`" + text(If->getCond()) +
                          "` not decided per lane: every active lane taken "
                          "through the branch");
    }
    auto EnvBefore = Env;
    if (Taken)
      Active = Saved & *Taken;
    exec(If->getThen());
    auto EnvThen = std::move(Env);
    Env = std::move(EnvBefore);
    Active = Taken ? (Saved & ~*Taken) : Saved;
    if (If->getElse())
      exec(If->getElse());
    // A return that no active lane takes: what follows rests on it.
    bool Kept =
        Taken && (((*Taken & Saved) == 0 && alwaysReturns(If->getThen())) ||
                  ((*Taken & Saved) == Saved && If->getElse() &&
                   alwaysReturns(If->getElse())));
    if (!Kept)
      CondNotes.resize(NotesBefore);
    mergeInto(EnvThen, Env, Taken, UniformCond ? If : nullptr);
    Env = std::move(EnvThen);
    Active = Saved;
    // `if (lane >= 16) return;`: those lanes are gone afterwards.
    if (Taken && alwaysReturns(If->getThen()))
      Active &= ~*Taken;
    if (Taken && If->getElse() && alwaysReturns(If->getElse()))
      Active &= *Taken;
  }

  /// `v += e`, `v -= e`, `++v`, `v++`, `v = v + e`: the variable and the
  /// increment expression (nullptr for +-1), with the sign.
  struct LinearUpdate {
    const VarDecl *VD = nullptr;
    const Expr *Delta = nullptr;
    int Sign = 1;
  };

  std::optional<LinearUpdate> linearUpdate(const Stmt *S) const {
    auto VarOf = [](const Expr *E) -> const VarDecl * {
      if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(D->getDecl());
      return nullptr;
    };
    const Expr *E = dyn_cast_or_null<Expr>(S);
    if (!E)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (!U->isIncrementDecrementOp())
        return std::nullopt;
      if (const VarDecl *VD = VarOf(U->getSubExpr()))
        return LinearUpdate{VD, nullptr, U->isIncrementOp() ? 1 : -1};
      return std::nullopt;
    }
    if (auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
      if (CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign)
        return std::nullopt;
      if (const VarDecl *VD = VarOf(CA->getLHS()))
        return LinearUpdate{VD, CA->getRHS(),
                            CA->getOpcode() == BO_AddAssign ? 1 : -1};
      return std::nullopt;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() != BO_Assign)
        return std::nullopt;
      const VarDecl *VD = VarOf(B->getLHS());
      auto *Sum = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
      if (!VD || !Sum ||
          (Sum->getOpcode() != BO_Add && Sum->getOpcode() != BO_Sub))
        return std::nullopt;
      if (VarOf(Sum->getLHS()) == VD)
        return LinearUpdate{VD, Sum->getRHS(),
                            Sum->getOpcode() == BO_Add ? 1 : -1};
      if (Sum->getOpcode() == BO_Add && VarOf(Sum->getRHS()) == VD)
        return LinearUpdate{VD, Sum->getLHS(), 1};
    }
    return std::nullopt;
  }

  /// Whether \p E mentions \p VD.
  static bool mentionsVar(const Stmt *E, const VarDecl *VD) {
    if (!E)
      return false;
    if (auto *D = dyn_cast<DeclRefExpr>(E))
      if (D->getDecl() == VD)
        return true;
    for (const Stmt *C : E->children())
      if (mentionsVar(C, VD))
        return true;
    return false;
  }

  /// A `continue` of this loop (not of a nested one).
  static bool continues(const Stmt *S, bool Nested = false) {
    if (!S)
      return false;
    if (isa<ContinueStmt>(S))
      return !Nested;
    bool Loop = Nested || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
                isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
    for (const Stmt *C : S->children())
      if (continues(C, Loop))
        return true;
    return false;
  }

  /// A return or goto, or a break (with \p Continue, a continue too) of
  /// this loop, not of a nested loop or switch, in \p S.
  static bool exits(const Stmt *S, bool Continue, bool InLoop = false,
                    bool InSwitch = false) {
    if (!S)
      return false;
    if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
      return true;
    if (isa<ContinueStmt>(S))
      return Continue && !InLoop;
    if (isa<BreakStmt>(S))
      return !InLoop && !InSwitch;
    bool Loop = InLoop || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
                isa<DoStmt>(S) || isa<CXXForRangeStmt>(S);
    bool Switch = InSwitch || isa<SwitchStmt>(S);
    for (const Stmt *C : S->children())
      if (exits(C, Continue, Loop, Switch))
        return true;
    return false;
  }

  /// A break, continue, return or goto that leaves this loop's iteration
  /// early.
  static bool jumpsOut(const Stmt *S) { return exits(S, /*Continue=*/true); }

  /// A break, return or goto that leaves this loop before its header says
  /// (a `continue` only ends the iteration).
  static bool leavesEarly(const Stmt *S) {
    return exits(S, /*Continue=*/false);
  }

  /// `for (s = 1; s < N; s *= 2)`, `for (s = N / 2; s > 0; s >>= 1)`: a
  /// counter scaled by a constant in the increment, with constant start and
  /// bound: the trip count by counting (the reductions' and scans' loops).
  template <typename EntryFn>
  std::optional<std::pair<const VarDecl *, int64_t>>
  geometricTrip(const Expr *Cond, const Expr *Inc, const Stmt *Body,
                const llvm::SmallPtrSetImpl<const VarDecl *> &BodyModified,
                EntryFn EntryValue) {
    if (!Cond || !Inc || jumpsOut(Body))
      return std::nullopt;
    auto VarOf = [](const Expr *E) -> const VarDecl * {
      if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(D->getDecl());
      return nullptr;
    };
    auto ConstOf = [&](const Expr *E) -> std::optional<int64_t> {
      Expr::EvalResult R;
      if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
        return R.Val.getInt().getExtValue();
      return std::nullopt;
    };
    const Expr *E = Inc->IgnoreParenImpCasts();
    const VarDecl *VD = nullptr;
    BinaryOperatorKind Op = BO_Comma;
    std::optional<int64_t> K;
    if (auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
      VD = VarOf(CA->getLHS());
      Op = BinaryOperator::getOpForCompoundAssignment(CA->getOpcode());
      K = ConstOf(CA->getRHS());
    } else if (auto *B = dyn_cast<BinaryOperator>(E);
               B && B->getOpcode() == BO_Assign) {
      VD = VarOf(B->getLHS());
      if (auto *R =
              dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
          R && VarOf(R->getLHS()) == VD) {
        Op = R->getOpcode();
        K = ConstOf(R->getRHS());
      }
    }
    if (!VD || !K || BodyModified.count(VD) || !VD->getType()->isIntegerType())
      return std::nullopt;
    if (!((Op == BO_Mul && *K > 1) || (Op == BO_Div && *K > 1) ||
          ((Op == BO_Shl || Op == BO_Shr) && *K > 0 && *K < 31)))
      return std::nullopt;
    auto *C = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
    if (!C || !C->isComparisonOp())
      return std::nullopt;
    BinaryOperatorKind Cmp = C->getOpcode();
    const Expr *BoundE;
    if (VarOf(C->getLHS()) == VD) {
      BoundE = C->getRHS();
    } else if (VarOf(C->getRHS()) == VD) {
      BoundE = C->getLHS();
      Cmp = BinaryOperator::reverseComparisonOp(Cmp);
    } else {
      return std::nullopt;
    }
    size_t Mark = Out.size();
    AbsValue Bound = eval(BoundE);
    Out.resize(Mark);
    AbsValue Start = EntryValue(VD);
    auto B0 = Bound.isInt() ? Bound.Val.asConstant() : std::nullopt;
    auto S0 = Start.isInt() ? Start.Val.asConstant() : std::nullopt;
    if (!B0 || !S0)
      return std::nullopt;
    int64_t X = *S0, N = 0;
    auto Holds = [&](int64_t V) {
      switch (Cmp) {
      case BO_LT:
        return V < *B0;
      case BO_LE:
        return V <= *B0;
      case BO_GT:
        return V > *B0;
      case BO_GE:
        return V >= *B0;
      case BO_NE:
        return V != *B0;
      default:
        return false;
      }
    };
    while (Holds(X)) {
      if (++N > 64)
        return std::nullopt;
      int64_t Next = Op == BO_Mul   ? X * *K
                     : Op == BO_Div ? X / *K
                     : Op == BO_Shl ? X << *K
                                    : X >> *K;
      if (Next == X || std::abs(Next) > (int64_t(1) << 40))
        return std::nullopt;
      X = Next;
    }
    return std::make_pair(VD, N);
  }

  /// The increments of a for-loop's increment expression (`i++`, `i += s`,
  /// `i++, j += 2`).
  void incrementsOf(const Expr *Inc, std::vector<LinearUpdate> &Out) const {
    if (!Inc)
      return;
    const Expr *E = Inc->IgnoreParenImpCasts();
    if (auto *B = dyn_cast<BinaryOperator>(E);
        B && B->getOpcode() == BO_Comma) {
      incrementsOf(B->getLHS(), Out);
      incrementsOf(B->getRHS(), Out);
      return;
    }
    if (auto U = linearUpdate(E))
      Out.push_back(*U);
  }

  /// The delta of a linear update, evaluated now; std::nullopt if it uses a
  /// variable modified in the loop.
  std::optional<AbsValue>
  deltaOf(const LinearUpdate &U,
          const llvm::SmallPtrSetImpl<const VarDecl *> &Modified) {
    if (!U.Delta)
      return AbsValue::integer(Poly(U.Sign));
    bool UsesModified = false;
    std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
      if (!S)
        return;
      if (auto *D = dyn_cast<DeclRefExpr>(S))
        if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
          if (Modified.count(VD))
            UsesModified = true;
      if (isa<CallExpr>(S) && !isa<CXXOperatorCallExpr>(S))
        UsesModified = UsesModified || false;
      for (const Stmt *C : S->children())
        Visit(C);
    };
    Visit(U.Delta);
    if (UsesModified)
      return std::nullopt;
    size_t Mark = Out.size();
    AbsValue D = eval(U.Delta);
    Out.resize(Mark); // evaluated again inside the loop, where it belongs
    if (!D.isInt())
      return std::nullopt;
    if (U.Sign < 0) {
      auto N = D.Val.map([](const Poly &P) { return Poly::scale(P, -1); });
      if (!N)
        return std::nullopt;
      D.Val = *N;
    }
    return D;
  }

  /// The trip count's range over the lanes that the last tripCountOf()
  /// found (also when the lanes' counts differ).
  /// (Members initialized: GCC 12 otherwise warns that an optional pair's
  /// fields may be used uninitialized.)
  struct TripBounds {
    int64_t first = 0, second = 0;
  };
  std::optional<TripBounds> LastTripRange;

  /// Trip count of `for (iv = Start; iv <op> Bound; iv += Step)`.
  std::optional<int64_t> tripCount(const Expr *Cond, const VarDecl *IV,
                                   const AbsValue &Start, int64_t Step) {
    auto *B = dyn_cast_or_null<BinaryOperator>(
        Cond ? Cond->IgnoreParenImpCasts() : nullptr);
    if (!B || !B->isComparisonOp() || !(Start.isInt() || Start.isPointer()) ||
        Step == 0)
      return std::nullopt;
    auto IsIV = [&](const Expr *E) {
      if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        return D->getDecl() == IV;
      return false;
    };
    const Expr *BoundE;
    BinaryOperatorKind Op = B->getOpcode();
    if (IsIV(B->getLHS())) {
      BoundE = B->getRHS();
    } else if (IsIV(B->getRHS())) {
      BoundE = B->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    } else {
      return std::nullopt;
    }
    size_t Mark = Out.size();
    AbsValue Bound = eval(BoundE);
    Out.resize(Mark);
    if (Start.isPointer()) {
      // Pointers into the same object: compare byte offsets.
      auto Size = sizeOf(Start.Pointee);
      if (!Bound.isPointer() || Bound.Region != Start.Region || !Size ||
          *Size <= 0)
        return std::nullopt;
      AbsValue S = AbsValue::integer(Start.Val);
      Bound = AbsValue::integer(Bound.Val);
      return tripCountOf(Op, S, Bound, Step * *Size);
    }
    if (!Bound.isInt())
      return std::nullopt;
    return tripCountOf(Op, Start, Bound, Step);
  }

  std::optional<int64_t> tripCountOf(BinaryOperatorKind Op,
                                     const AbsValue &Start,
                                     const AbsValue &Bound, int64_t Step) {
    auto D = LaneVec::zip(Bound.Val, Start.Val, Poly::sub);
    if (!D)
      return std::nullopt;
    // The same for every lane and every warp (else none is reported): the
    // distance's range gives the trip count's range.
    std::optional<int64_t> MinDist, MaxDist;
    for (unsigned L = 0; L < WarpSize; ++L) {
      std::optional<std::pair<int64_t, int64_t>> R;
      if (auto C = D->lane(L).asConstant())
        R = std::make_pair(*C, *C);
      else
        R = range(D->lane(L));
      if (!R)
        return std::nullopt;
      MinDist = MinDist ? std::min(*MinDist, R->first) : R->first;
      MaxDist = MaxDist ? std::max(*MaxDist, R->second) : R->second;
    }
    auto Trips = [&](int64_t Dist) -> std::optional<int64_t> {
      if (Step > 0 && (Op == BO_LT || Op == BO_NE))
        return Dist <= 0 ? 0 : (Dist + Step - 1) / Step;
      if (Step > 0 && Op == BO_LE)
        return Dist < 0 ? 0 : Dist / Step + 1;
      if (Step < 0 && (Op == BO_GT || Op == BO_NE))
        return Dist >= 0 ? 0 : (-Dist + (-Step) - 1) / (-Step);
      if (Step < 0 && Op == BO_GE)
        return Dist > 0 ? 0 : (-Dist) / (-Step) + 1;
      return std::nullopt;
    };
    auto T1 = Trips(*MinDist), T2 = Trips(*MaxDist);
    if (T1 && T2)
      LastTripRange = TripBounds{std::min(*T1, *T2), std::max(*T1, *T2)};
    if (!T1 || !T2 || *T1 != *T2)
      return std::nullopt;
    return *T1;
  }

  SymbolId loopSymbol(const std::string &Name, std::optional<int64_t> Trip,
                      SymbolKind Kind, int64_t Start = 0, int64_t Step = 1) {
    SymbolInfo Info;
    Info.Name = Name;
    Info.Kind = Kind;
    Info.Rank = 60 + static_cast<int>(Loops.size());
    if (Kind == SymbolKind::LoopIter) {
      Info.Min = 0;
      if (Trip)
        Info.Max = std::max<int64_t>(0, *Trip - 1);
      Info.Start = 0;
      Info.Step = 1;
    } else {
      Info.Start = Start;
      Info.Step = Step;
      if (Trip && *Trip > 0) {
        int64_t Last = Start + Step * (*Trip - 1);
        Info.Min = std::min(Start, Last);
        Info.Max = std::max(Start, Last);
      }
    }
    Info.Trip = Trip;
    return Syms.add(Info);
  }

  /// The interpreter's state, to try something and take it back.
  /// (Accesses are only ever appended: the snapshot keeps their count.)
  struct Snapshot {
    llvm::DenseMap<const VarDecl *, AbsValue> Env;
    decltype(Refs) RefsSaved;
    decltype(Frames) FramesSaved;
    size_t OutSize;
    bool NeedConcrete;
    LaneMask Active;
    unsigned UndecidedConds;
    std::vector<std::string> CondNotes;
  };
  Snapshot snapshot() const {
    return {Env,          Refs,   Frames,         Out.size(),
            NeedConcrete, Active, UndecidedConds, CondNotes};
  }
  void restore(const Snapshot &S) {
    Env = S.Env;
    Refs = S.RefsSaved;
    Frames = S.FramesSaved;
    Out.resize(S.OutSize);
    NeedConcrete = S.NeedConcrete;
    Active = S.Active;
    UndecidedConds = S.UndecidedConds;
    CondNotes = S.CondNotes;
  }

  /// Runs a loop iteration by iteration when its condition is the same
  /// constant for every lane at each test (and it has no break, continue or
  /// return), at most MaxConcreteIterations times; the accesses of its body
  /// are recorded once per iteration (the analyzer averages their facts, as
  /// Nsight Compute averages over requests) and say so. Leaves the state as
  /// it was and returns false when it cannot.
  bool concreteIterations(const Expr *Cond, const Expr *Inc, const Stmt *Body,
                          const DeclStmt *CondVar) {
    // The display walk keeps the loop symbolic: the readable form names
    // the loop's variables (`4*(threadIdx.x + 256*cur)`), not one
    // iteration's values.
    if (!Cond || jumpsOut(Body) || W.Display)
      return false;
    if (OnlyPadded && Padding) {
      bool Names = false;
      for (const auto &[VD, Pad] : *Padding)
        Names = Names || mentionsVar(Body, VD) || mentionsVar(Cond, VD) ||
                mentionsVar(Inc, VD);
      if (!Names)
        return false;
    }
    Snapshot Before = snapshot();
    size_t Mark = Before.OutSize;
    unsigned N = 0;
    while (true) {
      if (CondVar)
        exec(CondVar);
      ++Unused;
      AbsValue C = eval(Cond);
      --Unused;
      std::optional<int64_t> Go =
          C.isInt() && C.Val.isUniform() ? C.Val.asConstant() : std::nullopt;
      if (!Go || (*Go && N == MaxConcreteIterations) ||
          (Budget && Budget->spent())) {
        restore(Before);
        return false;
      }
      if (!*Go)
        break;
      ++N;
      exec(Body);
      if (Inc)
        eval(Inc);
    }
    std::string Note = "the loop on `" + text(Cond) +
                       "` evaluated iteration by "
                       "iteration (" +
                       std::to_string(N) + " iteration" + (N == 1 ? "" : "s") +
                       "); the facts are averages over them";
    for (size_t I = Mark; I < Out.size(); ++I)
      if (std::find(Out[I].Assumptions.begin(), Out[I].Assumptions.end(),
                    Note) == Out[I].Assumptions.end())
        Out[I].Assumptions.push_back(Note);
    return true;
  }

  void execLoop(const Stmt *Loop, const Stmt *Init, const Expr *Cond,
                const Expr *Inc, const Stmt *Body,
                const DeclStmt *CondVar = nullptr) {
    if (Init)
      exec(Init);
    llvm::SmallPtrSet<const VarDecl *, 8> Modified;
    collectModified(Body, Modified);
    collectModified(Inc, Modified);
    collectModified(Cond, Modified);

    // The induction variable: updated in the increment only.
    std::vector<LinearUpdate> Incs;
    incrementsOf(Inc, Incs);
    llvm::SmallPtrSet<const VarDecl *, 8> BodyModified;
    collectModified(Body, BodyModified);
    // Linear updates at the top level of the body, each variable once (and
    // none when a `continue` may skip them).
    std::vector<LinearUpdate> BodyLinear;
    if (continues(Body)) {
      // no linear body updates
    } else if (auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
      llvm::DenseMap<const VarDecl *, int> Count;
      for (const Stmt *S : CS->body())
        if (auto U = linearUpdate(S))
          ++Count[U->VD];
      for (const Stmt *S : CS->body())
        if (auto U = linearUpdate(S)) {
          llvm::SmallPtrSet<const VarDecl *, 8> Nested;
          for (const Stmt *Other : CS->body())
            if (Other != S)
              collectModified(Other, Nested);
          if (Count[U->VD] == 1 && !Nested.count(U->VD))
            BodyLinear.push_back(*U);
        }
    } else if (auto U = linearUpdate(Body)) {
      BodyLinear.push_back(*U);
    }

    // The loop's symbol and the variables that advance with it.
    std::string IVName;
    const VarDecl *IV = nullptr;
    std::optional<AbsValue> IVStart, IVStep;
    // An integer counter first; else a pointer walked by the increment
    // (`for (; p < end; p += 256)`). Every other variable the increment
    // advances (`++k, p += 256`) advances with the iteration count.
    std::vector<LinearUpdate> IncLinear;
    for (int Pass = 0; Pass < 2 && !IV; ++Pass)
      for (const LinearUpdate &U : Incs)
        if (!BodyModified.count(U.VD) && !IV) {
          auto D = deltaOf(U, Modified);
          auto S = Env.find(U.VD);
          if (D && S != Env.end() &&
              (Pass == 0 ? S->second.isInt() : S->second.isPointer())) {
            IV = U.VD;
            IVStart = S->second;
            IVStep = *D;
            IVName = U.VD->getNameAsString();
          }
        }
    for (const LinearUpdate &U : Incs)
      if (U.VD != IV && !BodyModified.count(U.VD))
        IncLinear.push_back(U);
    std::optional<int64_t> Trip;
    std::optional<TripBounds> TripRange;
    LastTripRange.reset();
    if (IV && IVStep->Val.asConstant()) {
      Trip = tripCount(Cond, IV, *IVStart, *IVStep->Val.asConstant());
      TripRange = LastTripRange;
    }
    // A while/do loop whose counter is advanced once at the top level of
    // its body (`while (c < n) { ...; ++c; }`): the condition bounds it as
    // well, when nothing jumps past the update.
    const VarDecl *BodyCounter = nullptr;
    if (!IV && Cond && !jumpsOut(Body)) {
      for (const LinearUpdate &U : BodyLinear) {
        if (!mentionsVar(Cond, U.VD))
          continue;
        auto D = deltaOf(U, Modified);
        auto S = Env.find(U.VD);
        if (!D || !D->Val.asConstant() || S == Env.end() || !S->second.isInt())
          continue;
        int64_t Step = *D->Val.asConstant();
        LastTripRange.reset();
        if (isa<DoStmt>(Loop)) {
          // The condition sees the counter after the body's update.
          auto Next =
              LaneVec::zip(S->second.Val, LaneVec(Poly(Step)), Poly::add);
          if (!Next)
            continue;
          if (auto T = tripCount(Cond, U.VD, AbsValue::integer(*Next), Step))
            Trip = 1 + *T;
          if (LastTripRange)
            LastTripRange =
                TripBounds{LastTripRange->first + 1, LastTripRange->second + 1};
        } else {
          Trip = tripCount(Cond, U.VD, S->second, Step);
        }
        if (Trip) {
          BodyCounter = U.VD;
          TripRange = LastTripRange;
          break;
        }
      }
    }

    // A loop whose counter does not advance linearly (`st *= 2`,
    // `s >>= 1`) but whose condition is a constant at every iteration: run
    // it as the hardware does, iteration by iteration.
    if (!IV && !BodyCounter && concreteIterations(Cond, Inc, Body, CondVar))
      return;
    Snapshot BeforeLoop = snapshot();
    unsigned UndecidedBefore = UndecidedConds;

    SymbolId Sym;
    // The display walk names the loop variable itself.
    bool DisplayVar =
        W.Display && IV && IVStart->isInt() && IVStart->Val.isUniform();
    if (DisplayVar) {
      Sym = loopSymbol(IVName, Trip, SymbolKind::LoopVar,
                       IVStart->Val.asConstant().value_or(0),
                       IVStep->Val.asConstant().value_or(1));
    } else {
      std::string Name = IV ? IVName : "iter";
      if (!W.Display || IV == nullptr || !IVStart->isInt() ||
          !IVStart->Val.isUniform())
        Name = "iter(" + (IV ? IVName : std::string("loop")) + ")";
      Sym = loopSymbol(Name, Trip, SymbolKind::LoopIter);
    }
    Poly K = Poly::symbol(Sym);
    // What other variables advance by: the iteration count.
    Poly KIter = DisplayVar
                     ? Poly::symbol(loopSymbol("iter(" + IVName + ")", Trip,
                                               SymbolKind::LoopIter))
                     : K;

    // Everything modified in the loop is unknown on entry to the body,
    // except what advances linearly with the iteration count.
    std::vector<std::pair<const VarDecl *, AbsValue>> Entry;
    for (const VarDecl *VD : Modified) {
      auto It = Env.find(VD);
      Entry.push_back(
          {VD, It == Env.end() ? AbsValue::unknown("") : It->second});
    }
    for (const VarDecl *VD : Modified)
      Env[VD] = unknownPointer(Env[VD], "`" + VD->getNameAsString() +
                                            "` is modified in a loop");
    auto EntryValue = [&](const VarDecl *VD) -> AbsValue {
      for (auto &[D, V] : Entry)
        if (D == VD)
          return V;
      return AbsValue::unknown("");
    };
    std::function<AbsValue(const AbsValue &, const AbsValue &, const Poly &)>
        AdvanceImpl;
    auto Advance = [&](const AbsValue &Start, const AbsValue &Delta,
                       const Poly &By) -> AbsValue {
      AbsValue R = AdvanceImpl(Start, Delta, By);
      if (!R.isUnknown())
        R.assuming(Start).assuming(Delta);
      return R;
    };
    AdvanceImpl = [&](const AbsValue &Start, const AbsValue &Delta,
                      const Poly &By) -> AbsValue {
      if (!Delta.isInt())
        return AbsValue::unknown("");
      auto Steps =
          Delta.Val.map([&](const Poly &P) { return Poly::mul(P, By); });
      if (!Steps)
        return AbsValue::unknown("overflow");
      if (Start.isInt()) {
        auto S = LaneVec::zip(Start.Val, *Steps, Poly::add);
        return S ? AbsValue::integer(*S) : AbsValue::unknown("overflow");
      }
      if (Start.isPointer()) {
        auto Size = sizeOf(Start.Pointee);
        if (!Size)
          return AbsValue::unknown("");
        auto Bytes =
            Steps->map([&](const Poly &P) { return Poly::scale(P, *Size); });
        if (!Bytes)
          return AbsValue::unknown("overflow");
        auto S = LaneVec::zip(Start.Val, *Bytes, Poly::add);
        return S ? AbsValue::pointer(Start.Region, *S, Start.Pointee)
                 : AbsValue::unknown("overflow");
      }
      return AbsValue::unknown("");
    };
    if (IV) {
      if (DisplayVar)
        Env[IV] = AbsValue::integer(K);
      else
        Env[IV] = Advance(*IVStart, *IVStep, K);
    }
    std::vector<std::pair<const VarDecl *, AbsValue>> Linear;
    for (const LinearUpdate &U : IncLinear) {
      auto D = deltaOf(U, Modified);
      if (!D)
        continue;
      AbsValue Start = EntryValue(U.VD);
      Env[U.VD] = Advance(Start, *D, KIter);
      Linear.push_back({U.VD, *D});
    }
    for (const LinearUpdate &U : BodyLinear) {
      if (U.VD == IV)
        continue;
      auto D = deltaOf(U, Modified);
      if (!D)
        continue;
      AbsValue Start = EntryValue(U.VD);
      Env[U.VD] = Advance(Start, *D, KIter);
      Linear.push_back({U.VD, *D});
    }

    LoopRef Ref;
    Ref.Loop = Loop;
    Ref.Sym = Sym;
    Ref.VarName = IV            ? IVName
                  : BodyCounter ? BodyCounter->getNameAsString()
                                : "";
    if (!Trip && !IV && !BodyCounter)
      if (auto G = geometricTrip(Cond, Inc, Body, BodyModified, EntryValue)) {
        Trip = G->second;
        Ref.VarName = G->first->getNameAsString();
        Syms.get(Sym).Trip = Trip;
        Syms.get(Sym).Max = std::max<int64_t>(0, *Trip - 1);
        Syms.get(Sym).Name = "iter(" + Ref.VarName + ")";
      }
    Ref.Trip = Trip;
    if (Trip)
      Ref.TripMin = Ref.TripMax = Trip;
    else if (TripRange) {
      Ref.TripMin = TripRange->first;
      Ref.TripMax = TripRange->second;
    }
    // A loop that a break, return or goto may leave early: the header's
    // count is an upper bound only.
    if (leavesEarly(Body)) {
      Ref.Trip.reset();
      Ref.TripMin.reset();
    }
    Loops.push_back(Ref);

    // Integers updated other than linearly (`cur = 1 - cur`, `s >>= 1`)
    // that stay the same for every lane: a warp-uniform symbol each, fresh
    // for the loop, when a trial walk of the body with them as symbols
    // leaves every one of them lane-uniform (repeated until no candidate
    // fails: a failing one is unknown, which is not uniform).
    llvm::SmallPtrSet<const VarDecl *, 8> Skip;
    if (IV)
      Skip.insert(IV);
    for (auto &[VD, D] : Linear)
      Skip.insert(VD);
    std::vector<const VarDecl *> Uniform;
    // A lane-dependent continue/break/return could skip an update for some
    // lanes only: then nothing is taken as uniform.
    for (const VarDecl *VD : jumpsOut(Body) ? decltype(Modified)() : Modified) {
      if (Skip.count(VD) || !VD->getType()->isIntegerType())
        continue;
      AbsValue E = EntryValue(VD);
      if (isUniformInt(E))
        Uniform.push_back(VD);
    }
    std::sort(Uniform.begin(), Uniform.end(),
              [](const VarDecl *A, const VarDecl *B) {
                return A->getBeginLoc() < B->getBeginLoc();
              });
    // One pass over the loop's condition, body and increment.
    auto runIteration = [&] {
      if (CondVar)
        exec(CondVar);
      if (Cond) {
        ++Unused;
        eval(Cond);
        --Unused;
      }
      exec(Body);
      if (Inc)
        eval(Inc);
    };
    while (!Uniform.empty()) {
      for (const VarDecl *VD : Uniform)
        Env[VD] = AbsValue::integer(Poly::symbol(
            opaqueSymbol("loop-uniform:" + std::to_string(Syms.size()),
                         VD->getNameAsString())));
      auto SavedEnv = Env;
      auto SavedRefs = Refs;
      auto SavedFrames = Frames;
      size_t Mark = Out.size();
      bool SavedNeed = NeedConcrete;
      LaneMask SavedActive = Active;
      runIteration();
      std::vector<const VarDecl *> Kept;
      for (const VarDecl *VD : Uniform)
        if (isUniformInt(Env[VD]))
          Kept.push_back(VD);
      Env = std::move(SavedEnv);
      Refs = std::move(SavedRefs);
      Frames = std::move(SavedFrames);
      Out.resize(Mark);
      NeedConcrete = SavedNeed;
      Active = SavedActive;
      if (Kept.size() == Uniform.size())
        break;
      for (const VarDecl *VD : Uniform)
        if (std::find(Kept.begin(), Kept.end(), VD) == Kept.end())
          Env[VD] = AbsValue::unknown("`" + VD->getNameAsString() +
                                      "` is modified in a loop");
      Uniform = std::move(Kept);
    }
    for (const VarDecl *VD : Uniform)
      for (const Poly::Term &T : Env[VD].Val.uniform().terms())
        for (SymbolId S : T.Mono)
          Loops.back().Varying.push_back(S);

    runIteration();
    Loops.pop_back();

    // A branch in the body that the loop's counter decides per lane
    // (`if (tx <= m)`): with a small constant trip count, the loop is run
    // iteration by iteration instead, each with its own active lanes.
    if (UndecidedConds > UndecidedBefore && Trip &&
        *Trip <= MaxConcreteIterations && !jumpsOut(Body)) {
      Snapshot Symbolic = snapshot();
      std::vector<RawAccess> SymbolicOut(
          std::make_move_iterator(Out.begin() + BeforeLoop.OutSize),
          std::make_move_iterator(Out.end()));
      restore(BeforeLoop);
      if (concreteIterations(Cond, Inc, Body, CondVar))
        return;
      Out.insert(Out.end(), std::make_move_iterator(SymbolicOut.begin()),
                 std::make_move_iterator(SymbolicOut.end()));
      restore(Symbolic);
    }

    // After the loop.
    for (const VarDecl *VD : Modified)
      Env[VD] = unknownPointer(Env[VD],
                               "`" + VD->getNameAsString() + "` after a loop");
    // (A loop that may be left early ends after an unknown number of
    // iterations: its variables stay unknown. A `continue` skips no update
    // of these: body updates are not linear when one may skip them.)
    bool Early = leavesEarly(Body);
    // The variables the same for every lane through the loop: the uniform
    // ones, and the counters that start and step uniformly.
    auto UniformAfter = [&] {
      llvm::SmallPtrSet<const VarDecl *, 8> U(Uniform.begin(), Uniform.end());
      if (IV && isUniformInt(*IVStart) && isUniformInt(*IVStep))
        U.insert(IV);
      for (auto &[VD, D] : Linear)
        if (isUniformInt(EntryValue(VD)) && isUniformInt(D))
          U.insert(VD);
      return U;
    };
    if (Trip && !Early) {
      Poly N(*Trip);
      for (auto &[VD, D] : Linear)
        Env[VD] = Advance(EntryValue(VD), D, N);
      if (IV && !DisplayVar)
        Env[IV] = Advance(*IVStart, *IVStep, N);
    } else if (!Trip && !Early && Cond && (IV || !Linear.empty())) {
      // An unknown trip count that is the same for every lane (a condition
      // of lane-uniform values: `k < nz - 1`): the counters end at their
      // start plus the step times that count, a symbol of its own.
      llvm::SmallPtrSet<const VarDecl *, 8> U = UniformAfter();
      if (uniformExpr(Cond, U)) {
        std::string Name = Ref.VarName.empty() ? "loop" : Ref.VarName;
        SymbolId NS = opaqueSymbol("trips:" + std::to_string(Syms.size()),
                                   "trips(" + Name + ")");
        Syms.get(NS).Min = 0;
        Poly N = Poly::symbol(NS);
        for (auto &[VD, D] : Linear)
          Env[VD] = Advance(EntryValue(VD), D, N);
        if (IV)
          Env[IV] = Advance(*IVStart, *IVStep, N);
      }
    }
    // The uniform ones are still uniform after the loop when every lane
    // leaves it after the same iteration: a condition of uniform values,
    // no early exit.
    if (!Uniform.empty() && !jumpsOut(Body)) {
      llvm::SmallPtrSet<const VarDecl *, 8> U = UniformAfter();
      if (!Cond || uniformExpr(Cond, U))
        for (const VarDecl *VD : Uniform)
          Env[VD] = AbsValue::integer(Poly::symbol(
              opaqueSymbol("loop-uniform:" + std::to_string(Syms.size()),
                           VD->getNameAsString())));
    }
  }

  /// Host code before a launch: walks the path from \p S to \p At,
  /// executing the straight-line statements before it (declarations,
  /// assignments to locals) and taking every variable that something else
  /// (a branch, a loop, a call through a pointer) may change as unknown.
  static bool containsStmt(const Stmt *S, const Stmt *At) {
    if (!S)
      return false;
    if (S == At)
      return true;
    for (const Stmt *C : S->children())
      if (containsStmt(C, At))
        return true;
    return false;
  }
  void forgetModified(const Stmt *S) {
    llvm::SmallPtrSet<const VarDecl *, 8> M;
    collectModified(S, M);
    for (const VarDecl *VD : M)
      Env[VD] = AbsValue::unknown("`" + VD->getNameAsString() +
                                  "` is assigned on some paths");
  }
  void followTo(const Stmt *S, const Stmt *At) {
    if (!S || S == At)
      return;
    if (auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body()) {
        if (containsStmt(C, At)) {
          followTo(C, At);
          return;
        }
        if (isa<DeclStmt>(C)) {
          exec(C);
          continue;
        }
        const Expr *E = dyn_cast<Expr>(C);
        if (E) {
          E = E->IgnoreParenImpCasts();
          if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
            if (auto *D =
                    dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
              if (isa<VarDecl>(D->getDecl())) {
                eval(B);
                continue;
              }
        }
        forgetModified(C);
      }
      return;
    }
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
        isa<CXXForRangeStmt>(S)) {
      // Whatever the loop changes differs from one iteration to the next.
      if (auto *F = dyn_cast<ForStmt>(S))
        if (F->getInit() && !containsStmt(F->getInit(), At))
          exec(F->getInit());
      forgetModified(S);
    }
    for (const Stmt *C : S->children())
      if (containsStmt(C, At)) {
        followTo(C, At);
        return;
      }
  }

  /// An integer that is the same for every lane (of any warp position).
  bool isUniformInt(const AbsValue &V) const {
    return V.isInt() && V.Val.isUniform() &&
           !mentionsWarpSymbol(V.Val.uniform());
  }

  /// Whether \p E evaluates to the same value for every lane: constants,
  /// blockIdx/blockDim/gridDim, parameters and variables with lane-uniform
  /// values (or in \p U), combined by operators without side effects.
  bool uniformExpr(const Expr *E,
                   const llvm::SmallPtrSetImpl<const VarDecl *> &U) {
    E = E->IgnoreParens();
    if (E->isValueDependent() || E->isTypeDependent())
      return false;
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      return true;
    if (auto *C = dyn_cast<CastExpr>(E))
      return uniformExpr(C->getSubExpr(), U);
    if (auto *D = dyn_cast<DeclRefExpr>(E)) {
      if (isa<EnumConstantDecl>(D->getDecl()))
        return true;
      auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (!VD || VD->getType()->isReferenceType())
        return false;
      if (U.count(VD))
        return true;
      auto It = Env.find(VD);
      return It != Env.end() && isUniformInt(It->second);
    }
    if (auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
      if (auto *Prop = dyn_cast<MSPropertyRefExpr>(
              PO->getSyntacticForm()->IgnoreParens()))
        if (auto *B = dyn_cast<DeclRefExpr>(
                Prop->getBaseExpr()->IgnoreParenImpCasts())) {
          llvm::StringRef N = B->getDecl()->getName();
          return N == "blockIdx" || N == "blockDim" || N == "gridDim";
        }
      return false;
    }
    if (auto *B = dyn_cast<BinaryOperator>(E))
      return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
             uniformExpr(B->getLHS(), U) && uniformExpr(B->getRHS(), U);
    if (auto *Un = dyn_cast<UnaryOperator>(E))
      return !Un->isIncrementDecrementOp() && Un->getOpcode() != UO_Deref &&
             Un->getOpcode() != UO_AddrOf && uniformExpr(Un->getSubExpr(), U);
    if (auto *C = dyn_cast<ConditionalOperator>(E))
      return uniformExpr(C->getCond(), U) && uniformExpr(C->getTrueExpr(), U) &&
             uniformExpr(C->getFalseExpr(), U);
    return false;
  }

  void exec(const Stmt *S) {
    if (!S || budgetSpent())
      return;
    if (auto *E = dyn_cast<Expr>(S)) {
      eval(E);
      return;
    }
    switch (S->getStmtClass()) {
    case Stmt::CompoundStmtClass:
      for (const Stmt *C : cast<CompoundStmt>(S)->body())
        exec(C);
      return;
    case Stmt::DeclStmtClass:
      execDecl(cast<DeclStmt>(S));
      return;
    case Stmt::IfStmtClass:
      execIf(cast<IfStmt>(S));
      return;
    case Stmt::ForStmtClass: {
      auto *F = cast<ForStmt>(S);
      execLoop(F, F->getInit(), F->getCond(), F->getInc(), F->getBody(),
               F->getConditionVariableDeclStmt());
      return;
    }
    case Stmt::WhileStmtClass: {
      auto *Wh = cast<WhileStmt>(S);
      execLoop(Wh, nullptr, Wh->getCond(), nullptr, Wh->getBody(),
               Wh->getConditionVariableDeclStmt());
      return;
    }
    case Stmt::DoStmtClass: {
      auto *D = cast<DoStmt>(S);
      execLoop(D, nullptr, D->getCond(), nullptr, D->getBody());
      return;
    }
    case Stmt::CXXForRangeStmtClass: {
      auto *F = cast<CXXForRangeStmt>(S);
      llvm::SmallPtrSet<const VarDecl *, 8> Modified;
      collectModified(F->getBody(), Modified);
      for (const VarDecl *VD : Modified)
        Env[VD] = unknownPointer(Env[VD], "modified in a loop");
      exec(F->getLoopVarStmt());
      exec(F->getBody());
      for (const VarDecl *VD : Modified)
        Env[VD] = unknownPointer(Env[VD], "modified in a loop");
      return;
    }
    case Stmt::SwitchStmtClass: {
      auto *Sw = cast<SwitchStmt>(S);
      if (Sw->getInit())
        exec(Sw->getInit());
      eval(Sw->getCond());
      llvm::SmallPtrSet<const VarDecl *, 8> Modified;
      collectModified(Sw->getBody(), Modified);
      exec(Sw->getBody());
      for (const VarDecl *VD : Modified)
        Env[VD] = unknownPointer(Env[VD], "assigned in a switch");
      return;
    }
    case Stmt::ReturnStmtClass: {
      auto *R = cast<ReturnStmt>(S);
      if (!Frames.empty() && R->getRetValue()) {
        // Evaluate first: the value may inline calls that grow Frames.
        if (Frames.back().ReturnsRef) {
          LValue L = evalLValue(R->getRetValue());
          Frames.back().RefReturns.push_back(std::move(L));
        } else {
          AbsValue V = eval(R->getRetValue());
          Frames.back().Returns.push_back(std::move(V));
        }
      } else if (R->getRetValue()) {
        eval(R->getRetValue());
      }
      return;
    }
    case Stmt::AttributedStmtClass:
      exec(cast<AttributedStmt>(S)->getSubStmt());
      return;
    case Stmt::LabelStmtClass:
      exec(cast<LabelStmt>(S)->getSubStmt());
      return;
    case Stmt::CaseStmtClass:
      exec(cast<CaseStmt>(S)->getSubStmt());
      return;
    case Stmt::DefaultStmtClass:
      exec(cast<DefaultStmt>(S)->getSubStmt());
      return;
    default:
      // break, continue, goto, asm, null statements: nothing to evaluate.
      return;
    }
  }
};

Interpreter::Interpreter(ASTContext &Ctx, SymbolTable &Syms,
                         const WarpInstance &Warp,
                         std::deque<MemRegion> &Regions,
                         std::vector<RawAccess> &Out)
    : P(std::make_unique<Impl>(Ctx, Syms, Warp, Regions, Out)) {}

Interpreter::~Interpreter() = default;

void Interpreter::run(
    const FunctionDecl *Kernel,
    const llvm::DenseMap<const ParmVarDecl *, AbsValue> &Params) {
  for (const ParmVarDecl *PD : Kernel->parameters()) {
    auto It = Params.find(PD);
    if (It != Params.end()) {
      P->Env[PD] = It->second;
      continue;
    }
    QualType T = PD->getType();
    int64_t Offset = 0;
    if (P->PointerOffsets)
      for (const auto &[Param, Bytes] : *P->PointerOffsets)
        if (Param == PD)
          Offset = Bytes;
    if (T->isPointerType())
      P->Env[PD] = AbsValue::pointer(P->regionFor(PD, MemSpace::Global),
                                     Poly(Offset), T->getPointeeType());
    else if (T->isRecordType())
      P->Env[PD] = P->paramStruct(T, PD->getNameAsString(), 0);
    else
      P->Env[PD] = AbsValue::unknown("parameter `" + PD->getNameAsString() +
                                     "` not tracked");
  }
  P->exec(Kernel->getBody());
}

void Interpreter::setBudget(BudgetMeter *Meter) { P->Budget = Meter; }

bool Interpreter::needsConcreteWarps() const { return P->NeedConcrete; }

Poly Interpreter::simplifyDivMod(const Poly &In) const {
  Poly Out = In;
  auto Has = [](const Poly &Where, const Poly::Term &T) {
    for (const Poly::Term &U : Where.terms())
      if (U == T)
        return true;
    return false;
  };
  for (int Round = 0; Round < 8; ++Round) {
    bool Changed = false;
    for (const Impl::DivModIdentity &I : P->Identities) {
      for (const Poly::Term &T : Out.terms()) {
        auto It = std::find(T.Mono.begin(), T.Mono.end(), I.R);
        if (It == T.Mono.end())
          continue;
        Monomial M = T.Mono;
        M.erase(M.begin() + (It - T.Mono.begin()));
        Poly CM = Poly::term(M, T.Coeff);
        auto CMT = Poly::mul(CM, I.T);
        auto Partner = CMT ? Poly::mul(*CMT, Poly::symbol(I.Q)) : std::nullopt;
        if (!Partner)
          continue;
        bool All = true;
        for (const Poly::Term &U : Partner->terms())
          All = All && Has(Out, U);
        if (!All || Partner->constant() != 0)
          continue;
        auto CMX = Poly::mul(CM, I.X);
        auto Next = Poly::sub(Out, Poly::term(T.Mono, T.Coeff));
        if (Next)
          Next = Poly::sub(*Next, *Partner);
        if (Next && CMX)
          Next = Poly::add(*Next, *CMX);
        if (!Next)
          continue;
        Out = *Next;
        Changed = true;
        break;
      }
      if (Changed)
        break;
    }
    if (!Changed)
      break;
  }
  return Out;
}

void Interpreter::setPadding(
    const std::map<const clang::VarDecl *, int64_t> *Padding) {
  P->Padding = Padding;
}

void Interpreter::setOnlyPaddedArrays(bool Only) { P->OnlyPadded = Only; }

void Interpreter::setPointerOffsets(
    const std::vector<std::pair<const clang::ParmVarDecl *, int64_t>>
        *Offsets) {
  P->PointerOffsets = Offsets;
}

AbsValue Interpreter::evalHostExpr(ASTContext &Ctx, const Expr *E,
                                   const FunctionDecl *Enclosing,
                                   const Stmt *At) {
  // No thread context: threadIdx etc. are unknown; locals are followed to
  // their initializer when the function never modifies them.
  SymbolTable Syms;
  WarpInstance W;
  for (int D = 0; D < 3; ++D) {
    SymbolInfo I;
    I.Name = "host";
    I.Kind = SymbolKind::Opaque;
    W.Tid[D] = Poly::symbol(Syms.add(I));
    W.BlockDim[D] = Poly::symbol(Syms.add(I));
  }
  std::deque<MemRegion> Regions;
  std::vector<RawAccess> Out;
  Impl I(Ctx, Syms, W, Regions, Out);
  if (Enclosing && Enclosing->getBody()) {
    llvm::SmallPtrSet<const VarDecl *, 8> Modified;
    I.collectModified(Enclosing->getBody(), Modified);
    // Bind every local declared once and never modified to its initializer,
    // in declaration order.
    std::function<void(const Stmt *)> Bind = [&](const Stmt *S) {
      if (!S)
        return;
      if (auto *DS = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : DS->decls())
          if (auto *VD = dyn_cast<VarDecl>(D))
            if (!Modified.count(VD) && VD->getInit() &&
                !VD->getType()->isReferenceType())
              I.Env[VD] = I.eval(VD->getInit());
        return;
      }
      if (isa<Expr>(S))
        return;
      for (const Stmt *C : S->children())
        Bind(C);
    };
    Bind(Enclosing->getBody());
    if (At)
      I.followTo(Enclosing->getBody(), At);
  }
  return I.eval(E);
}

} // namespace cal

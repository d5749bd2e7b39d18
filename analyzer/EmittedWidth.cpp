//===- EmittedWidth.cpp ---------------------------------------------------===//

#include "analyzer/EmittedWidth.h"

#include "analyzer/Analyzer.h"
#include "analyzer/FlopCount.h"
#include "analyzer/LoopSyntax.h"
#include "analyzer/Poly.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Stmt.h"

#include <algorithm>
#include <map>

namespace cal {

using namespace clang;

std::pair<unsigned, int64_t> commonResidue(const std::vector<int64_t> &Addrs,
                                           int64_t BaseAlign) {
  if (Addrs.empty())
    return {1, 0};
  for (unsigned G = 16; G > 1; G /= 2) {
    if (int64_t(G) > BaseAlign)
      continue;
    int64_t R = floorMod(Addrs.front(), G);
    bool Same = std::all_of(Addrs.begin(), Addrs.end(),
                            [&](int64_t A) { return floorMod(A, G) == R; });
    if (Same)
      return {G, R};
  }
  return {1, 0};
}

int64_t ptxasBaseAlign(const MemRegion &R) {
  if (R.Space == MemSpace::Shared)
    return std::max<int64_t>(R.BaseAlign, 16);
  return R.BaseAlign;
}

namespace {

bool isConstant(const ASTContext &Ctx, const Expr *E) {
  Expr::EvalResult R;
  return E && !E->isValueDependent() && E->EvaluateAsInt(R, Ctx);
}

} // namespace

CompilerTrip compilerTrip(const ASTContext &Ctx, const Stmt *Loop) {
  const auto *For = dyn_cast_or_null<ForStmt>(Loop);
  if (!For)
    return CompilerTrip::NotJudged;
  // The counter: advanced linearly (`i += s`), or geometrically (`s *= 2`,
  // `s >>= 1`) by a step.
  std::optional<CounterUpdate> I = counterUpdate(For->getInc());
  bool Linear = I && (I->Op == BO_Add || I->Op == BO_Sub);
  bool Geometric = I && (I->Op == BO_Mul || I->Op == BO_Div ||
                         I->Op == BO_Shl || I->Op == BO_Shr);
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!(Linear || Geometric) || !Cond ||
      !(Cond->isRelationalOp() || Cond->isEqualityOp()))
    return CompilerTrip::NotJudged;
  const Expr *Bound = nullptr;
  if (namedVar(Cond->getLHS()) == I->VD)
    Bound = Cond->getRHS();
  else if (namedVar(Cond->getRHS()) == I->VD)
    Bound = Cond->getLHS();
  else
    return CompilerTrip::NotJudged;
  // The counter's start: its declaration's initializer in the header, or
  // an assignment there; none (`for (; i < n; ...)`): not a constant.
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    for (const Decl *D : DS->decls())
      if (D == I->VD)
        Start = I->VD->getInit();
  } else if (const auto *InitE = dyn_cast_or_null<Expr>(For->getInit())) {
    const auto *A = dyn_cast<BinaryOperator>(InitE->IgnoreParens());
    if (A && A->getOpcode() == BO_Assign && namedVar(A->getLHS()) == I->VD)
      Start = A->getRHS();
  }
  if (I->Operand && !isConstant(Ctx, I->Operand))
    return CompilerTrip::Uncounted;
  bool Known = isConstant(Ctx, Start) && isConstant(Ctx, Bound);
  if (Known)
    return CompilerTrip::Constant;
  // A geometric counter's trips follow from a logarithm nvcc does not take.
  return Linear ? CompilerTrip::Runtime : CompilerTrip::Uncounted;
}

const char *compilerTripName(CompilerTrip T) {
  switch (T) {
  case CompilerTrip::Constant:
    return "constant";
  case CompilerTrip::Runtime:
    return "counted at run time";
  case CompilerTrip::Uncounted:
    return "not countable";
  case CompilerTrip::NotJudged:
    break;
  }
  return "not judged";
}

UnrollFact unrollOf(ASTContext &Ctx, const Stmt *Loop,
                    std::optional<int64_t> Trip,
                    const AttributedStmt *Attributes) {
  UnrollFact U;
  U.Trip = compilerTrip(Ctx, Loop);
  // What nvcc can unroll whole: a loop it counts itself.
  bool Whole =
      U.Trip == CompilerTrip::Constant || U.Trip == CompilerTrip::NotJudged;
  // The pragma is an attribute of the statement around the loop, which the
  // walk saw (not asked of the AST's parent map: building it traverses the
  // whole translation unit, headers included).
  const LoopHintAttr *Hint = nullptr;
  if (Attributes)
    for (const Attr *A : Attributes->getAttrs())
      if (const auto *H = dyn_cast<LoopHintAttr>(A))
        if (H->getOption() == LoopHintAttr::Unroll ||
            H->getOption() == LoopHintAttr::UnrollCount)
          Hint = H;
  if (Hint) {
    if (Hint->getState() == LoopHintAttr::Disable) {
      U.Pragma = "#pragma nounroll";
      return U;
    }
    if (Hint->getOption() == LoopHintAttr::UnrollCount && Hint->getValue()) {
      int64_t N = 1;
      if (auto V = Hint->getValue()->getIntegerConstantExpr(Ctx))
        N = V->getExtValue();
      U.Pragma = "#pragma unroll " + std::to_string(N);
      U.Factor = std::max<int64_t>(1, Trip ? std::min(N, *Trip) : N);
      if (Trip && *Trip % U.Factor != 0)
        U.Factor = 1; // a remainder: not modelled
      return U;
    }
    // "If no argument is specified, the loop will be completely unrolled
    // if its trip count is constant, otherwise it is not unrolled at all"
    // (CUDA C++ Programming Guide, #pragma unroll).
    U.Pragma = "#pragma unroll";
    U.Factor = Trip && Whole ? *Trip : 1;
    return U;
  }
  // No pragma: nvcc unrolls a loop of a small constant trip count fully
  // (the probes: 8 and 64 iterations of a load and a multiply-add).
  if (Trip && *Trip <= 64 && Whole) {
    U.Factor = *Trip;
    U.Assumed = Assumption{
        Assumption::Kind::FullUnroll, "",
        "the loop taken as fully unrolled (constant trip count " +
            std::to_string(*Trip) +
            ", no #pragma unroll: nvcc unrolls such loops when the body is "
            "small)"};
  }
  return U;
}

std::vector<std::pair<int64_t, unsigned>> splitRun(int64_t RunBytes,
                                                   unsigned ElemBytes,
                                                   unsigned Modulus,
                                                   int64_t Residue, bool Load) {
  std::vector<std::pair<int64_t, unsigned>> Pieces;
  int64_t P = 0;
  while (P < RunBytes) {
    int64_t At = Residue + P; // the address modulo Modulus
    // A load 4 bytes past a 16-byte boundary with 12 bytes to go: ptxas
    // reads the aligned 16 bytes, the word before the run with them.
    if (Load && Modulus >= 16 && ElemBytes == 4 && floorMod(At, 16) == 4 &&
        RunBytes - P >= 12) {
      Pieces.push_back({P - 4, 16});
      P += 12;
      continue;
    }
    // Likewise 12 bytes at a boundary with nothing after: the word after.
    if (Load && Modulus >= 16 && ElemBytes == 4 && floorMod(At, 16) == 0 &&
        RunBytes - P == 12) {
      Pieces.push_back({P, 16});
      P += 12;
      continue;
    }
    unsigned W = ElemBytes;
    for (unsigned C : {16u, 8u}) {
      if (C > ElemBytes && C <= Modulus && floorMod(At, C) == 0 &&
          P + C <= RunBytes) {
        W = C;
        break;
      }
    }
    Pieces.push_back({P, W});
    P += W;
  }
  return Pieces;
}

namespace {

std::string opcodeFor(MemSpace S, AccessKind K, unsigned Bytes) {
  bool Store = K == AccessKind::Store;
  std::string Op;
  switch (S) {
  case MemSpace::Shared:
    Op = Store ? "STS" : "LDS";
    break;
  case MemSpace::Global:
    Op = Store ? "STG.E" : "LDG.E";
    break;
  case MemSpace::Local:
    Op = Store ? "STL" : "LDL";
    break;
  case MemSpace::Constant:
    Op = "LDC";
    break;
  default:
    Op = Store ? "ST.E" : "LD.E";
  }
  switch (Bytes) {
  case 1:
    return Op + ".U8";
  case 2:
    return Op + ".U16";
  case 8:
    return Op + ".64";
  case 16:
    return Op + ".128";
  default:
    return Op;
  }
}

std::string times(unsigned N, const std::string &Op) {
  return std::to_string(N) + " " + Op;
}

/// A thread's run of adjacent elements that ptxas may merge: an unrolled
/// loop over them (with the hand-unrolled siblings of each iteration), or
/// the siblings alone.
struct ThreadRun {
  int64_t Elems = 1;
  int64_t Pos = 0; ///< this access's first element in the run
  bool InLoop = false;
  UnrollFact U;
  std::string LoopVar;
  /// The loop the run goes along (an index into AccessFacts::Loops): the
  /// innermost, or an enclosing one whose nest is unrolled whole.
  size_t LoopIndex = 0;
  /// The loops inside that one, unrolled whole ("`resIdx`"), when the run
  /// goes along an enclosing loop.
  std::string Inside;
};

/// Whether \p L steps one run of \p F's element (the run the siblings of
/// each iteration make).
bool stepsOneRun(const AccessFacts &F, const LoopFact &L) {
  return L.Loop && L.StrideBytes &&
         *L.StrideBytes == int64_t(F.SiblingRun) * F.BytesPerLane;
}

/// The most operations (array subscripts and arithmetic, counted on the
/// AST with every loop inside expanded) a loop nest without a pragma may
/// have, unrolled, for nvcc to unroll its outer loop: SASS shows the k loop
/// of a 1-D block tiling unrolled (200 operations: SGEMM_CUDA kernel 4,
/// validate/kernels/sgemm.cu's sgemm_blocktile1d) and that of a 2-D one not
/// (2,304: kernel 5, sgemm_blocktile2d). Only those two points are measured;
/// the limit lies between them, where LLVM's full-unroll threshold (300
/// instructions) puts it.
constexpr double UnrolledNestLimit = 512;

/// The loop a thread's run of \p F goes along: the innermost when it steps
/// one run; else the innermost enclosing loop that does, when it and every
/// loop inside it are unrolled whole. The nest is then straight-line code,
/// and ptxas merges across it: `As[(threadRow * TM + resIdx) * BK + dotIdx]`
/// under `dotIdx < 8` and `resIdx < 8` is 16 LDS.128 per thread (SASS of
/// SGEMM_CUDA's 1-D blocktiling and of validate/kernels/sgemm.cu), not 64
/// LDS. The inner loops' strides must keep the run's start modulo 16
/// (computeOne lowers the modulus to what they keep).
size_t mergeLoop(ASTContext &Ctx, const AccessFacts &F, std::string &Inside) {
  size_t Inner = F.Loops.size() - 1;
  if (stepsOneRun(F, F.Loops[Inner]))
    return Inner;
  auto Whole = [&](const LoopFact &L) {
    return L.Loop && L.Trip && *L.Trip > 1 &&
           unrollOf(Ctx, L.Loop, L.Trip, L.Attributes).Factor == *L.Trip;
  };
  for (size_t J = Inner; J-- > 0;) {
    if (!Whole(F.Loops[J + 1]) || !F.Loops[J + 1].StrideBytes)
      return Inner;
    if (!stepsOneRun(F, F.Loops[J]))
      continue;
    const LoopFact &Outer = F.Loops[J];
    if (!Whole(Outer))
      return Inner;
    // Without a pragma, nvcc unrolls a small nest only.
    if (unrollOf(Ctx, Outer.Loop, Outer.Trip, Outer.Attributes)
            .Pragma.empty()) {
      std::map<const Stmt *, int64_t> Trips;
      for (const LoopFact &L : F.Loops)
        if (L.Loop && L.Trip)
          Trips.emplace(L.Loop, *L.Trip);
      const Stmt *Body = nullptr;
      if (const auto *For = dyn_cast<ForStmt>(Outer.Loop))
        Body = For->getBody();
      else if (const auto *While = dyn_cast<WhileStmt>(Outer.Loop))
        Body = While->getBody();
      else if (const auto *Do = dyn_cast<DoStmt>(Outer.Loop))
        Body = Do->getBody();
      if (!Body)
        return Inner;
      FlopCount Ops = countFlopsIn(Body, Ctx, Trips);
      double Size = double(*Outer.Trip) *
                    (Ops.Subscripts + Ops.Fma32 + Ops.Mul32 + Ops.Add32 +
                     Ops.Div32 + Ops.Fma64 + Ops.Mul64 + Ops.Add64 + Ops.Div64);
      if (!Ops.Complete || Size > UnrolledNestLimit)
        return Inner;
    }
    for (size_t I = J + 1; I <= Inner; ++I)
      Inside += (Inside.empty() ? "`" : ", `") + F.Loops[I].VarName + "`";
    return J;
  }
  return Inner;
}

/// The run \p F is part of; std::nullopt (with E.Why when it is worth
/// saying) when there is none to merge.
std::optional<ThreadRun> threadRun(ASTContext &Ctx, AccessFacts &F) {
  EmittedWidth &E = F.Emitted;
  unsigned Elem = F.BytesPerLane;
  ThreadRun R;
  R.Elems = F.SiblingRun;
  R.Pos = F.SiblingIndex;
  if (!F.Loops.empty()) {
    R.LoopIndex = mergeLoop(Ctx, F, R.Inside);
    const LoopFact &L = F.Loops[R.LoopIndex];
    if (stepsOneRun(F, L)) {
      R.U = unrollOf(Ctx, L.Loop, L.Trip, L.Attributes);
      R.LoopVar = L.VarName;
      if (R.U.Factor > 1) {
        R.InLoop = true;
        R.Elems = F.SiblingRun * R.U.Factor;
      } else if (F.SiblingRun == 1) {
        if (F.Space == MemSpace::Shared && (Elem == 4 || Elem == 8))
          E.Why = std::string("not merged: the loop over `") + L.VarName +
                  "` is not unrolled" +
                  (R.U.Pragma.empty() ? (L.Trip ? " (more than 64 iterations)"
                                                : " to a constant trip count")
                                      : " (" + R.U.Pragma + ")");
        return std::nullopt;
      }
    }
  }
  if (R.Elems <= 1 || F.Pieces > 1)
    return std::nullopt;
  std::string Count = std::to_string(R.Elems) +
                      (F.Kind != AccessKind::Store ? " loads" : " stores");
  if (F.Space == MemSpace::Global) {
    E.Why = "not merged: ptxas does not merge the " + Count +
            " of a thread's run in global memory (only a pointer of known "
            "alignment, __builtin_assume_aligned, is merged)";
    return std::nullopt;
  }
  if (F.Space != MemSpace::Shared)
    return std::nullopt;
  if (Elem != 4 && Elem != 8) {
    E.Why = "not merged: ptxas does not merge " + std::to_string(Elem) +
            "-byte shared accesses";
    return std::nullopt;
  }
  return R;
}

/// The pieces of the run that this access's element is in: all of them for
/// a loop (the access is every iteration), the one that holds it for a
/// sibling.
std::vector<std::pair<int64_t, unsigned>>
piecesOfAccess(const AccessFacts &F, const ThreadRun &R,
               const std::vector<std::pair<int64_t, unsigned>> &Pieces) {
  int64_t Elem = F.BytesPerLane;
  std::vector<std::pair<int64_t, unsigned>> Mine;
  for (auto &P : Pieces) {
    if (R.InLoop && F.SiblingRun == 1) {
      Mine.push_back(P);
      continue;
    }
    // In each iteration (or the statement run), the piece holding Pos.
    int64_t B = R.Pos * Elem;
    if (R.InLoop) {
      // Positions Pos + k * SiblingRun for every unrolled iteration k.
      for (int64_t K = 0; K < R.U.Factor; ++K) {
        int64_t At = (R.Pos + K * F.SiblingRun) * Elem;
        if (At >= P.first && At < P.first + P.second) {
          Mine.push_back(P);
          break;
        }
      }
    } else if (B >= P.first && B < P.first + P.second) {
      Mine.push_back(P);
    }
  }
  return Mine;
}

/// Why the run is (not) merged, in the user's terms.
std::string mergeReason(const AccessFacts &F, const ThreadRun &R, unsigned Mod,
                        int64_t Res,
                        const std::vector<std::pair<int64_t, unsigned>> &Pieces,
                        unsigned Widest) {
  std::string Count = std::to_string(R.Elems) +
                      (F.Kind != AccessKind::Store ? " loads" : " stores");
  std::string Where =
      R.InLoop ? "`" + R.LoopVar + "` walks " + std::to_string(R.Elems) +
                     " adjacent elements in a loop nvcc unrolls" +
                     (R.U.Pragma.empty()
                          ? " (constant trip count, taken as unrolled)"
                          : " (" + R.U.Pragma + ")") +
                     (R.Inside.empty() ? ""
                                       : ", across the loops inside it (" +
                                             R.Inside + ", unrolled whole)")
               : std::to_string(R.Elems) + " adjacent statements";
  std::string Align =
      Mod >= 16 && Res == 0 ? "every lane's run starts 16-byte aligned"
      : Mod >= 16           ? "every lane's run starts " + std::to_string(Res) +
                                  " bytes past a 16-byte boundary"
      : Mod > 1
          ? "the run's start is only known to be " + std::to_string(Mod) +
                "-byte aligned" + (Res ? " (+" + std::to_string(Res) + ")" : "")
          : "the run's start modulo 16 is not known";
  if (Pieces.size() == size_t(R.Elems))
    return "not merged: " + Count + " (" + Where + "), but " + Align;
  std::map<unsigned, unsigned> ByWidth;
  for (auto &P : Pieces)
    ++ByWidth[P.second];
  std::string Into;
  if (ByWidth.size() == 1)
    Into = times(Pieces.size(), opcodeFor(F.Space, F.Kind, Widest));
  else
    for (auto &P : Pieces)
      Into += (Into.empty() ? "" : ", ") + opcodeFor(F.Space, F.Kind, P.second);
  return Count + " merged into " + Into + ": " + Where + ", and " + Align;
}

/// Bank conflicts of the emitted instructions, per phase: the facts become
/// the merged instruction's, the source's kept beside them.
void emittedBankConflicts(
    AccessFacts &F, int64_t Res,
    const std::vector<std::pair<int64_t, unsigned>> &Mine) {
  if (!F.LaneOffsets || F.LaneGroups != 1 || !F.WavefrontsPerRequest)
    return;
  EmittedWidth &E = F.Emitted;
  double Wave = 0, Ideal = 0;
  for (auto &P : Mine) {
    WarpRequest Req;
    Req.BytesPerLane = P.second;
    Req.Active = F.ActiveMask;
    for (unsigned L = 0; L < WarpSize; ++L)
      Req.Offset[L] = (*F.LaneOffsets)[L];
    RequestCost C =
        costOf(Req, floorMod(Res + P.first, 128), /*Sectors=*/false);
    Wave += C.Wavefronts;
    Ideal += C.IdealWavefronts;
  }
  if (Ideal > 0) {
    E.SourceWavefrontsPerRequest = F.WavefrontsPerRequest;
    E.SourceIdealWavefronts = F.IdealWavefronts;
    E.SourceBankConflictWays = F.BankConflictWays;
    F.WavefrontsPerRequest = Wave / Mine.size();
    F.IdealWavefronts = Ideal / Mine.size();
    F.BankConflictWays = Wave / Ideal;
  }
}

void computeOne(ASTContext &Ctx, AccessFacts &F) {
  EmittedWidth &E = F.Emitted;
  unsigned Elem = F.BytesPerLane;
  E.Bytes = Elem;
  E.Opcode = opcodeFor(F.Space, F.Kind, Elem);
  E.RunWidths = {Elem};
  if (!F.AddressKnown)
    return;
  std::optional<ThreadRun> R = threadRun(Ctx, F);
  if (!R)
    return;
  // The run's start: this access's residue less its place in the run; an
  // unrolled body repeated (`#pragma unroll N`) starts N elements on.
  unsigned Mod = F.RunStartModulus;
  int64_t Res = F.RunStartResidue;
  if (R->InLoop && R->LoopIndex + 1 < F.Loops.size()) {
    if (R->LoopIndex >= F.RunStartModulusAt.size())
      return;
    std::tie(Mod, Res) = F.RunStartModulusAt[R->LoopIndex];
  }
  Res -= R->Pos * int64_t(Elem);
  // A partly unrolled loop (`#pragma unroll N`): ptxas proved only 8 bytes
  // of the body's start in the probe (4 of 16 floats: two LDS.64).
  const LoopFact *Along = R->InLoop ? &F.Loops[R->LoopIndex] : nullptr;
  if (Along && Along->Trip && R->U.Factor < *Along->Trip) {
    int64_t Step = R->Elems * Elem;
    Mod = std::min(Mod, 8u);
    while (Mod > 1 && Step % Mod != 0)
      Mod /= 2;
  }
  // Across the loops inside the one the run goes along, the run starts
  // where each of their iterations puts it: only what their strides keep of
  // the start modulo 16 is known of every run.
  if (Along)
    for (size_t I = R->LoopIndex + 1; I < F.Loops.size(); ++I)
      while (Mod > 1 && floorMod(*F.Loops[I].StrideBytes, Mod) != 0)
        Mod /= 2;
  Res = Mod > 0 ? floorMod(Res, Mod) : 0;
  auto Pieces =
      splitRun(R->Elems * Elem, Elem, Mod, Res, F.Kind != AccessKind::Store);
  auto Mine = piecesOfAccess(F, *R, Pieces);
  if (Mine.empty())
    return;
  E.RunAccesses = static_cast<unsigned>(R->Elems);
  E.RunInstructions = static_cast<unsigned>(Pieces.size());
  E.RunWidths.clear();
  for (auto &P : Pieces)
    E.RunWidths.push_back(P.second);
  unsigned Widest = 0;
  for (auto &P : Mine)
    Widest = std::max(Widest, P.second);
  E.Bytes = Widest;
  E.Opcode = opcodeFor(F.Space, F.Kind, Widest);
  E.Assumed = R->InLoop ? R->U.Assumed : std::nullopt;
  E.Why = mergeReason(F, *R, Mod, Res, Pieces, Widest);
  if (Widest == Elem)
    return;
  if (E.Assumed)
    addAssumption(F.Assumptions, *E.Assumed);
  emittedBankConflicts(F, Res, Mine);
  // The thread issues one instruction per piece, not one per element: each
  // access of the run takes its share.
  if (F.ExecutionsPerWarp)
    *F.ExecutionsPerWarp *= double(Pieces.size()) / double(R->Elems);
}

} // namespace

void computeEmittedWidths(ASTContext &Ctx, AnalysisResult &R) {
  for (AccessFacts &F : R.Accesses)
    computeOne(Ctx, F);
}

} // namespace cal

//===- EmittedWidth.cpp ---------------------------------------------------===//

#include "analyzer/EmittedWidth.h"

#include "analyzer/Analyzer.h"
#include "analyzer/Poly.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
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

UnrollFact unrollOf(ASTContext &Ctx, const Stmt *Loop,
                    std::optional<int64_t> Trip) {
  UnrollFact U;
  const LoopHintAttr *Hint = nullptr;
  for (const DynTypedNode &P : Ctx.getParents(*Loop))
    if (const auto *AS = P.get<AttributedStmt>())
      for (const Attr *A : AS->getAttrs())
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
    U.Pragma = "#pragma unroll";
    U.Factor = Trip ? *Trip : 1;
    return U;
  }
  // No pragma: nvcc unrolls a loop of a small constant trip count fully
  // (the probes: 8 and 64 iterations of a load and a multiply-add).
  if (Trip && *Trip <= 64) {
    U.Factor = *Trip;
    U.Assumption = "the loop taken as fully unrolled (constant trip count " +
                   std::to_string(*Trip) +
                   ", no #pragma unroll: nvcc unrolls such loops when the "
                   "body is small)";
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

void computeOne(ASTContext &Ctx, AccessFacts &F) {
  EmittedWidth &E = F.Emitted;
  unsigned Elem = F.BytesPerLane;
  E.Bytes = Elem;
  E.Opcode = opcodeFor(F.Space, F.Kind, Elem);
  E.RunWidths = {Elem};
  if (!F.AddressKnown)
    return;
  bool Load = F.Kind != AccessKind::Store;
  const char *What = Load ? "loads" : "stores";

  // The thread's run: an unrolled loop over adjacent elements (with the
  // hand-unrolled siblings of each iteration), or the siblings alone.
  int64_t RunElems = F.SiblingRun;
  int64_t Pos = F.SiblingIndex; // this access's first element in the run
  bool InLoop = false;
  UnrollFact U;
  std::string LoopVar;
  if (!F.Loops.empty()) {
    const LoopFact &L = F.Loops.back();
    if (L.StrideBytes && *L.StrideBytes == int64_t(F.SiblingRun) * Elem &&
        L.Loop) {
      U = unrollOf(Ctx, L.Loop, L.Trip);
      LoopVar = L.VarName;
      if (U.Factor > 1) {
        InLoop = true;
        RunElems = F.SiblingRun * U.Factor;
      } else if (F.SiblingRun == 1) {
        if (F.Space == MemSpace::Shared && (Elem == 4 || Elem == 8))
          E.Why = std::string("not merged: the loop over `") + L.VarName +
                  "` is not unrolled" +
                  (U.Pragma.empty() ? (L.Trip ? " (more than 64 iterations)"
                                              : " to a constant trip count")
                                    : " (" + U.Pragma + ")");
        return;
      }
    }
  }
  if (RunElems <= 1 || F.Pieces > 1)
    return;
  std::string Count = std::to_string(RunElems) + " " + What;
  if (F.Space == MemSpace::Global) {
    E.Why = "not merged: ptxas does not merge the " + Count +
            " of a thread's run in global memory (only a pointer of known "
            "alignment, __builtin_assume_aligned, is merged)";
    return;
  }
  if (F.Space != MemSpace::Shared)
    return;
  if (Elem != 4 && Elem != 8) {
    E.Why = "not merged: ptxas does not merge " + std::to_string(Elem) +
            "-byte shared accesses";
    return;
  }

  // The run's start: this access's residue less its place in the run; an
  // unrolled body repeated (`#pragma unroll N`) starts N elements on.
  unsigned Mod = F.RunStartModulus;
  int64_t Res = F.RunStartResidue - Pos * int64_t(Elem);
  // A partly unrolled loop (`#pragma unroll N`): ptxas proved only 8 bytes
  // of the body's start in the probe (4 of 16 floats: two LDS.64).
  if (InLoop && F.Loops.back().Trip && U.Factor < *F.Loops.back().Trip) {
    int64_t Step = RunElems * Elem;
    Mod = std::min(Mod, 8u);
    while (Mod > 1 && Step % Mod != 0)
      Mod /= 2;
  }
  Res = Mod > 0 ? floorMod(Res, Mod) : 0;
  auto Pieces = splitRun(RunElems * Elem, Elem, Mod, Res, Load);

  // This access's pieces: all of them for a loop (the access is every
  // iteration), the one that holds it for a sibling.
  std::vector<std::pair<int64_t, unsigned>> Mine;
  for (auto &P : Pieces) {
    if (InLoop && F.SiblingRun == 1) {
      Mine.push_back(P);
      continue;
    }
    // In each iteration (or the statement run), the piece holding Pos.
    int64_t B = Pos * int64_t(Elem);
    if (InLoop) {
      // Positions Pos + k * SiblingRun for every unrolled iteration k.
      for (int64_t K = 0; K < U.Factor; ++K) {
        int64_t At = (Pos + K * F.SiblingRun) * int64_t(Elem);
        if (At >= P.first && At < P.first + P.second) {
          Mine.push_back(P);
          break;
        }
      }
    } else if (B >= P.first && B < P.first + P.second) {
      Mine.push_back(P);
    }
  }
  if (Mine.empty())
    return;
  E.RunAccesses = static_cast<unsigned>(RunElems);
  E.RunInstructions = static_cast<unsigned>(Pieces.size());
  E.RunWidths.clear();
  for (auto &P : Pieces)
    E.RunWidths.push_back(P.second);
  unsigned Widest = 0;
  for (auto &P : Mine)
    Widest = std::max(Widest, P.second);
  E.Bytes = Widest;
  E.Opcode = opcodeFor(F.Space, F.Kind, Widest);
  E.Assumption = InLoop ? U.Assumption : "";

  // Readable reason.
  std::string Where =
      InLoop
          ? "`" + LoopVar + "` walks " + std::to_string(RunElems) +
                " adjacent elements in a loop nvcc unrolls" +
                (U.Pragma.empty() ? " (constant trip count, taken as unrolled)"
                                  : " (" + U.Pragma + ")")
          : std::to_string(RunElems) + " adjacent statements";
  std::string Align =
      Mod >= 16 && Res == 0 ? "every lane's run starts 16-byte aligned"
      : Mod >= 16           ? "every lane's run starts " + std::to_string(Res) +
                        " bytes past a 16-byte boundary"
      : Mod > 1
          ? "the run's start is only known to be " + std::to_string(Mod) +
                "-byte aligned" + (Res ? " (+" + std::to_string(Res) + ")" : "")
          : "the run's start modulo 16 is not known";
  if (Pieces.size() == size_t(RunElems)) {
    E.Why = "not merged: " + Count + " (" + Where + "), but " + Align;
  } else {
    std::map<unsigned, unsigned> ByWidth;
    for (auto &P : Pieces)
      ++ByWidth[P.second];
    std::string Into;
    if (ByWidth.size() == 1)
      Into = times(Pieces.size(), opcodeFor(F.Space, F.Kind, Widest));
    else
      for (auto &P : Pieces)
        Into +=
            (Into.empty() ? "" : ", ") + opcodeFor(F.Space, F.Kind, P.second);
    E.Why = Count + " merged into " + Into + ": " + Where + ", and " + Align;
  }
  if (Widest == Elem)
    return;
  if (!E.Assumption.empty())
    F.Assumptions.push_back(E.Assumption);

  // Bank conflicts of the emitted instructions, per phase.
  if (F.LaneOffsets && F.LaneGroups == 1 && F.WavefrontsPerRequest) {
    double Wave = 0, Ideal = 0;
    for (auto &P : Mine) {
      WarpRequest Req;
      Req.BytesPerLane = P.second;
      Req.Active = F.ActiveMask;
      for (unsigned L = 0; L < WarpSize; ++L)
        Req.Offset[L] = (*F.LaneOffsets)[L];
      RequestCost C = costOf(Req, floorMod(Res + P.first, 128));
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
  // The thread issues one instruction per piece, not one per element: each
  // access of the run takes its share.
  if (F.ExecutionsPerWarp)
    *F.ExecutionsPerWarp *= double(Pieces.size()) / double(RunElems);
}

} // namespace

void computeEmittedWidths(ASTContext &Ctx, AnalysisResult &R) {
  for (AccessFacts &F : R.Accesses)
    computeOne(Ctx, F);
}

} // namespace cal

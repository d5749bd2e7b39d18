//===- Analyzer.cpp -------------------------------------------------------===//
//
// For each kernel configuration:
//  1. the display walk (threadIdx, blockDim and loop variables as named
//     symbols) gives each access its readable symbolic offset;
//  2. the metric walk evaluates the 32 lanes of one symbolic warp (the
//     warp's position in the block is a symbol); if some operation on that
//     position is not exact (threadIdx.x / 64 ...), the block's warps are
//     enumerated concretely instead and the metrics averaged over them, as
//     Nsight Compute averages over requests;
//  3. each access's lane offsets go through the warp model (WarpModel.h) for
//     every value the base address can take modulo 32 bytes (a loop variable
//     may shift it), weighted by how often it takes it.
//
//===----------------------------------------------------------------------===//

#include "analyzer/Analyzer.h"

#include "analyzer/WarpModel.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace cal {

using namespace clang;

const char *alignmentName(AlignmentFact A) {
  switch (A) {
  case AlignmentFact::Aligned:
    return "aligned";
  case AlignmentFact::Misaligned:
    return "misaligned";
  case AlignmentFact::Varies:
    return "varies";
  case AlignmentFact::Unknown:
    return "unknown";
  }
  return "unknown";
}

void sortAccesses(ASTContext &Ctx, AnalysisResult &R);

namespace {

/// Whether a loop's iterations may run in any order: every variable from
/// outside the loop that it writes is only accumulated with a commutative
/// operator (+=, *=, min/max, ...) and read nowhere else in it, and it
/// stores nothing to memory except per-thread arrays. A product along a row
/// is order-free; a prefix product that writes each step back is not.
class OrderFreeCheck {
public:
  OrderFreeCheck(const Stmt *Body,
                 const llvm::SmallPtrSetImpl<const VarDecl *> &Counters)
      : Body(Body) {
    collectLocals(Body);
    Locals.insert(Counters.begin(), Counters.end());
  }

  bool run() {
    visit(Body);
    for (const auto &[VD, N] : Reads)
      if (Accumulated.count(VD))
        return false;
    return Ok;
  }

private:
  void collectLocals(const Stmt *S) {
    if (!S)
      return;
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D))
          Locals.insert(VD);
    for (const Stmt *C : S->children())
      collectLocals(C);
  }

  static const VarDecl *varOf(const Expr *E) {
    if (auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(D->getDecl());
    return nullptr;
  }

  /// A write to memory is order-free only into a per-thread array.
  bool localArrayElement(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    while (auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase()->IgnoreParenImpCasts();
    const VarDecl *VD = varOf(E);
    return VD && VD->getType()->isArrayType() && VD->hasLocalStorage() &&
           !VD->hasAttr<CUDASharedAttr>();
  }

  /// `v = v op x`, `v = op(v, x)` with a commutative op, v not in x.
  bool accumulates(const VarDecl *V, const Expr *RHS) {
    RHS = RHS->IgnoreParenImpCasts();
    const Expr *Other = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(RHS)) {
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Mul &&
          B->getOpcode() != BO_And && B->getOpcode() != BO_Or &&
          B->getOpcode() != BO_Xor)
        return false;
      if (varOf(B->getLHS()) == V)
        Other = B->getRHS();
      else if (varOf(B->getRHS()) == V)
        Other = B->getLHS();
    } else if (auto *C = dyn_cast<CallExpr>(RHS)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || C->getNumArgs() != 2 || !FD->getDeclName().isIdentifier())
        return false;
      llvm::StringRef N = FD->getName();
      if (N != "max" && N != "min" && N != "fmaxf" && N != "fminf" &&
          N != "fmax" && N != "fmin" && N != "__hmax" && N != "__hmin")
        return false;
      if (varOf(C->getArg(0)) == V)
        Other = C->getArg(1);
      else if (varOf(C->getArg(1)) == V)
        Other = C->getArg(0);
    }
    if (!Other)
      return false;
    visit(Other);
    return true;
  }

  void write(const Expr *LHS, bool Commutative) {
    if (const VarDecl *V = varOf(LHS)) {
      if (Locals.count(V))
        return;
      if (Commutative)
        Accumulated.insert(V);
      else
        Ok = false;
      return;
    }
    if (!localArrayElement(LHS))
      Ok = false; // a store to global or shared memory
    // The index expressions are reads.
    for (const Stmt *C : LHS->children())
      if (auto *E = dyn_cast_or_null<Expr>(C))
        if (!varOf(E))
          visit(E);
  }

  void visit(const Stmt *S) {
    if (!S || !Ok)
      return;
    if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<GotoStmt>(S)) {
      Ok = false;
      return;
    }
    if (auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->getOpcode() == BO_Assign) {
        const VarDecl *V = varOf(B->getLHS());
        if (V && !Locals.count(V)) {
          if (!accumulates(V, B->getRHS()))
            Ok = false;
          else
            Accumulated.insert(V);
          return;
        }
        write(B->getLHS(), false);
        visit(B->getRHS());
        return;
      }
      if (auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
        BinaryOperatorKind Op = CA->getOpcode();
        bool Comm = Op == BO_AddAssign || Op == BO_SubAssign ||
                    Op == BO_MulAssign || Op == BO_AndAssign ||
                    Op == BO_OrAssign || Op == BO_XorAssign;
        write(CA->getLHS(), Comm);
        visit(CA->getRHS());
        return;
      }
    }
    if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      OverloadedOperatorKind K = OC->getOperator();
      if (OC->isAssignmentOp() && OC->getNumArgs() == 2) {
        bool Comm =
            K == OO_PlusEqual || K == OO_MinusEqual || K == OO_StarEqual;
        const VarDecl *V = varOf(OC->getArg(0));
        if (K == OO_Equal && V && !Locals.count(V)) {
          if (!accumulates(V, OC->getArg(1)))
            Ok = false;
          else
            Accumulated.insert(V);
          return;
        }
        write(OC->getArg(0), Comm);
        visit(OC->getArg(1));
        return;
      }
    }
    if (auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->isIncrementDecrementOp()) {
        write(U->getSubExpr(), true);
        return;
      }
    }
    if (auto *D = dyn_cast<DeclRefExpr>(S)) {
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        if (!Locals.count(VD))
          ++Reads[VD];
      return;
    }
    for (const Stmt *C : S->children())
      visit(C);
  }

  const Stmt *Body;
  bool Ok = true;
  llvm::SmallPtrSet<const VarDecl *, 8> Locals, Accumulated;
  llvm::DenseMap<const VarDecl *, unsigned> Reads;
};

/// Variables a while/do loop counts with: mentioned in its condition and
/// stepped by `++v`, `v += c` at the top level of its body. They are the
/// loop's own counter (as a for-loop's is), not results of the iterations.
void whileCounters(const Expr *Cond, const Stmt *Body,
                   llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Cond || !CS)
    return;
  llvm::SmallPtrSet<const VarDecl *, 4> InCond;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *D = dyn_cast<DeclRefExpr>(S))
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        InCond.insert(VD);
    for (const Stmt *C : S->children())
      Collect(C);
  };
  Collect(Cond);
  for (const Stmt *S : CS->body()) {
    const Expr *E = dyn_cast<Expr>(S);
    if (!E)
      continue;
    E = E->IgnoreParenImpCasts();
    const Expr *Target = nullptr;
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    else if (auto *CA = dyn_cast<CompoundAssignOperator>(E);
             CA &&
             (CA->getOpcode() == BO_AddAssign ||
              CA->getOpcode() == BO_SubAssign) &&
             isa<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts()))
      Target = CA->getLHS();
    if (!Target)
      continue;
    if (auto *D = dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
      if (auto *VD = dyn_cast<VarDecl>(D->getDecl()))
        if (InCond.count(VD))
          Out.insert(VD);
  }
}

bool isOrderFree(const Stmt *Loop) {
  const Stmt *Body = nullptr;
  const Expr *Cond = nullptr;
  if (auto *F = dyn_cast_or_null<ForStmt>(Loop))
    Body = F->getBody();
  else if (auto *W = dyn_cast_or_null<WhileStmt>(Loop))
    Body = W->getBody(), Cond = W->getCond();
  else if (auto *D = dyn_cast_or_null<DoStmt>(Loop))
    Body = D->getBody(), Cond = D->getCond();
  if (!Body)
    return false;
  llvm::SmallPtrSet<const VarDecl *, 4> Counters;
  whileCounters(Cond, Body, Counters);
  return OrderFreeCheck(Body, Counters).run();
}

constexpr int64_t MaxEnumeratedIterations = 256;
constexpr size_t MaxResidueCombinations = 4096;
constexpr int64_t MaxFootprintIterations = 64;
constexpr int64_t MaxFootprintShifts = 1024;

using AccessKey =
    std::tuple<const Expr *, AccessKind, std::vector<const Expr *>, unsigned>;

/// Both accesses are in the same iteration of the same loops.
bool sameLoops(const RawAccess &A, const RawAccess &B) {
  if (A.Loops.size() != B.Loops.size())
    return false;
  for (size_t I = 0; I < A.Loops.size(); ++I)
    if (A.Loops[I].Loop != B.Loops[I].Loop || A.Loops[I].Sym != B.Loops[I].Sym)
      return false;
  return true;
}

AccessKey keyOf(const RawAccess &A) {
  return {A.E, A.Kind, A.CallStack, A.Piece};
}

/// The metrics of one access in one warp instance.
struct InstanceMetrics {
  bool Known = false;
  std::string Why;
  double Sectors = 0, SectorsMin = 0, SectorsMax = 0;
  double Lines = 0, Partial = 0;
  double BytesUsed = 0;
  double Wavefronts = 0, IdealWavefronts = 0;
  bool HasBanks = false;
  unsigned AlignedCases = 0, MisalignedCases = 0, Cases = 0;
  bool ResidueExact = true;
  /// The inexact part of the run's start includes a computed or loaded
  /// value: assuming it a multiple of 32 bytes proves nothing.
  bool ResidueDataDependent = false;
  std::set<int64_t> MisalignValues;
  unsigned VecAligned = 0, VecMisaligned = 0;
  std::optional<std::array<int64_t, WarpSize>> LaneOffsets;
  std::optional<int64_t> LaneStride;
  unsigned Groups = 1;
  std::string LaneStrideText;
  std::optional<int64_t> Contiguous;
  std::optional<double> Footprint;
  std::optional<bool> RunStart16;
  unsigned RunModulus = 1;
  int64_t RunResidue = 0;
  std::vector<LoopFact> Loops;
  std::vector<std::string> Assumptions;
  unsigned ActiveLanes = 0;
};

struct ResidueCase {
  int64_t Residue;
  double Weight;
};

/// The values \p S takes modulo \p Mod, with their frequencies. Terms that
/// are not loop counters with known trip counts (a parameter times an odd
/// number, an opaque load) make the result inexact: they are taken as 0.
std::vector<ResidueCase> residues(const Poly &S, const SymbolTable &Syms,
                                  int64_t Mod, bool &Exact,
                                  std::vector<std::string> &Unknown,
                                  bool *DataDependent = nullptr) {
  Exact = true;
  struct Enum {
    int64_t Coeff;
    int64_t Count;
    int64_t First;
  };
  std::vector<Enum> Enums;
  for (const Poly::Term &T : S.terms()) {
    if (floorMod(T.Coeff, Mod) == 0)
      continue;
    // Loop counters take 0 .. trip-1, each as often; the warp's position in
    // a known block takes each value in its range once per block.
    if (T.Mono.size() == 1) {
      const SymbolInfo &I = Syms.get(T.Mono[0]);
      int64_t Period = Mod / std::gcd(floorMod(T.Coeff, Mod), Mod);
      if (I.Kind == SymbolKind::LoopIter) {
        int64_t Count =
            I.Trip ? std::min(*I.Trip, MaxEnumeratedIterations) : Period;
        Enums.push_back({T.Coeff, std::max<int64_t>(Count, 1), 0});
        continue;
      }
      if (I.Kind == SymbolKind::WarpPos && I.Min && I.Max &&
          *I.Max - *I.Min < MaxEnumeratedIterations) {
        Enums.push_back({T.Coeff, *I.Max - *I.Min + 1, *I.Min});
        continue;
      }
    }
    Exact = false;
    std::string Name;
    for (SymbolId X : T.Mono) {
      Name += (Name.empty() ? "" : "*") + Syms.get(X).Name;
      // A value the code computed or loaded (`cur[b]` indexing 2040-byte
      // structs), not a size: nothing makes its offset a multiple of 32.
      if (Syms.get(X).Kind == SymbolKind::Opaque && DataDependent)
        *DataDependent = true;
    }
    Unknown.push_back(Name);
  }
  std::map<int64_t, double> Count;
  Count[floorMod(S.constant(), Mod)] = 1;
  for (const Enum &E : Enums) {
    std::map<int64_t, double> Next;
    for (const auto &[R, W] : Count)
      for (int64_t K = 0; K < E.Count; ++K)
        Next[floorMod(R + floorMod(E.Coeff, Mod) * floorMod(E.First + K, Mod),
                      Mod)] += W / E.Count;
    Count = std::move(Next);
    if (Count.size() > MaxResidueCombinations)
      break;
  }
  std::vector<ResidueCase> Out;
  for (const auto &[R, W] : Count)
    Out.push_back({R, W});
  return Out;
}

class KernelAnalysis {
public:
  KernelAnalysis(ASTContext &Ctx, const KernelConfig &KC, size_t KernelIndex,
                 AnalysisResult &Result, const AnalysisOptions &Opts)
      : Ctx(Ctx), KC(KC), KernelIndex(KernelIndex), Result(Result), Opts(Opts),
        Meter(Opts.Budget) {}

  void run();

private:
  WarpInstance displayInstance();
  std::optional<WarpInstance> symbolicInstance();
  std::vector<WarpInstance> concreteInstances();
  void walk(const WarpInstance &W, std::vector<RawAccess> &Out,
            bool *NeedConcrete);
  InstanceMetrics measure(const RawAccess &A);
  void blockStride(const RawAccess &A, const Poly &Stride, LoopFact &F);
  void describeLaneGroups(const RawAccess &A, const WarpRequest &Req,
                          InstanceMetrics &M);
  /// The warp instance whose walk is being measured.
  const WarpInstance *CurWarp = nullptr;
  /// Per access of the walk being measured: the lane-0 offsets of the
  /// accesses of the same array, kind and iteration whose lanes lie alike
  /// (a lane-uniform distance from it), the access's own included.
  struct PolyHash {
    size_t operator()(const Poly &P) const { return P.hash(); }
  };
  using PolySet = std::unordered_set<Poly, PolyHash>;
  std::vector<PolySet> UniformGroups;
  std::map<const RawAccess *, size_t> UniformGroupOf;
  /// An access of A's uniform group lies \p D (nonzero) bytes from it.
  bool hasUniformSibling(const RawAccess &A, const Poly &D) const;
  /// The display walk's interpreter (for its readable forms).
  std::unique_ptr<Interpreter> DisplayInterp;
  /// The parameters' values for one walk.
  llvm::DenseMap<const ParmVarDecl *, AbsValue>
  paramsFor(const WarpInstance &W) const;
  struct Sibling {
    unsigned Run = 1;   ///< accesses in the hand-unrolled run
    unsigned Index = 0; ///< this one's position in it
    const Expr *Neighbour = nullptr;
  };
  void linkSiblings(std::vector<RawAccess> &Raw,
                    std::map<const RawAccess *, Sibling> &Out);
  int64_t elementSizeOf(const RawAccess &A) const;

  ASTContext &Ctx;
  const KernelConfig &KC;
  size_t KernelIndex;
  AnalysisResult &Result;
  const AnalysisOptions &Opts;
  SymbolTable Syms;
  llvm::DenseMap<const ParmVarDecl *, AbsValue> Params;
  std::vector<std::string> ShapeAssumptions;
  bool ConcreteWarps = false;
  BudgetMeter Meter;
  /// The where-and-what of \p A's facts (no metrics).
  AccessFacts describe(const RawAccess &A) const;
  /// The budget is spent: the accesses the walks saw, with unknown
  /// addresses, and the kernel marked as stopped.
  void stop(const std::vector<std::vector<RawAccess>> &Walks);
};

llvm::DenseMap<const ParmVarDecl *, AbsValue>
KernelAnalysis::paramsFor(const WarpInstance &W) const {
  auto P = Params;
  for (const ParmVarDecl *PD : KC.Shape.BlockDimXParams)
    P[PD] = AbsValue::integer(W.BlockDim[0]);
  return P;
}

WarpInstance KernelAnalysis::displayInstance() {
  WarpInstance W;
  W.Display = true;
  W.Active = 1;
  static const char *Dim[] = {"x", "y", "z"};
  for (int D = 0; D < 3; ++D) {
    SymbolInfo T;
    T.Name = std::string("threadIdx.") + Dim[D];
    T.Kind = SymbolKind::ThreadIdx;
    T.Rank = 10 + D;
    T.Min = 0;
    if (KC.Shape.Dim) {
      T.Max = (*KC.Shape.Dim)[D] - 1;
      W.BlockDim[D] = Poly((*KC.Shape.Dim)[D]);
    } else {
      SymbolInfo B;
      B.Name = std::string("blockDim.") + Dim[D];
      B.Kind = SymbolKind::BlockDim;
      B.Rank = 15 + D;
      B.Min = 1;
      W.BlockDim[D] = Poly::symbol(Syms.add(B));
    }
    W.Tid[D] = LaneVec(Poly::symbol(Syms.add(T)));
  }
  return W;
}

/// Unknown block: blockDim.x = 32*bw, the warp's x position a symbol.
/// Known block with blockDim.x a multiple of 32, or 32 a multiple of
/// blockDim.x: one symbolic warp stands for all.
std::optional<WarpInstance> KernelAnalysis::symbolicInstance() {
  WarpInstance W;
  auto Sym = [&](const char *Name, SymbolKind K, std::optional<int64_t> Min,
                 std::optional<int64_t> Max) -> Poly {
    if (Min && Max && *Min == *Max)
      return Poly(*Min);
    SymbolInfo I;
    I.Name = Name;
    I.Kind = K;
    I.Min = Min;
    I.Max = Max;
    I.Rank = 18;
    SymbolId S = Syms.add(I);
    if (K == SymbolKind::WarpPos)
      W.WarpSymbols.push_back(S);
    return Poly::symbol(S);
  };
  std::array<Poly, WarpSize> X, Y;
  if (!KC.Shape.Dim) {
    Poly Bw = Sym("blockDim.x/32", SymbolKind::BlockDim, 1, std::nullopt);
    W.BlockDim[0] = *Poly::scale(Bw, 32);
    W.BlockDim[1] = Sym("blockDim.y", SymbolKind::BlockDim, 1, std::nullopt);
    W.BlockDim[2] = Sym("blockDim.z", SymbolKind::BlockDim, 1, std::nullopt);
    Poly Wx = Sym("(threadIdx.x / 32)", SymbolKind::WarpPos, 0, std::nullopt);
    for (unsigned L = 0; L < WarpSize; ++L)
      X[L] = *Poly::add(*Poly::scale(Wx, 32), Poly(L));
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = Sym("threadIdx.y", SymbolKind::WarpPos, 0, std::nullopt);
    W.Tid[2] = Sym("threadIdx.z", SymbolKind::WarpPos, 0, std::nullopt);
    return W;
  }
  const Dim3 &D = *KC.Shape.Dim;
  for (int I = 0; I < 3; ++I)
    W.BlockDim[I] = Poly(D[I]);
  if (D[0] % 32 == 0) {
    Poly Wx = Sym("(threadIdx.x / 32)", SymbolKind::WarpPos, 0, D[0] / 32 - 1);
    for (unsigned L = 0; L < WarpSize; ++L)
      X[L] = *Poly::add(*Poly::scale(Wx, 32), Poly(L));
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = Sym("threadIdx.y", SymbolKind::WarpPos, 0, D[1] - 1);
    W.Tid[2] = Sym("threadIdx.z", SymbolKind::WarpPos, 0, D[2] - 1);
    return W;
  }
  if (32 % D[0] == 0 && (D[0] * D[1]) % 32 == 0) {
    int64_t Rows = 32 / D[0];
    std::string WyName = "(threadIdx.y / " + std::to_string(Rows) + ")";
    Poly Wy = Sym(WyName.c_str(), SymbolKind::WarpPos, 0, D[1] / Rows - 1);
    for (unsigned L = 0; L < WarpSize; ++L) {
      X[L] = Poly(L % D[0]);
      Y[L] = *Poly::add(*Poly::scale(Wy, Rows), Poly(L / D[0]));
    }
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = LaneVec::perLane(Y);
    W.Tid[2] = Sym("threadIdx.z", SymbolKind::WarpPos, 0, D[2] - 1);
    return W;
  }
  return std::nullopt;
}

/// Every warp of the block, with concrete thread indices; for an unknown
/// block, its first warp.
std::vector<WarpInstance> KernelAnalysis::concreteInstances() {
  std::vector<WarpInstance> Out;
  if (!KC.Shape.Dim) {
    WarpInstance W;
    SymbolInfo Bw;
    Bw.Name = "blockDim.x/32";
    Bw.Kind = SymbolKind::BlockDim;
    Bw.Min = 1;
    W.BlockDim[0] = *Poly::scale(Poly::symbol(Syms.add(Bw)), 32);
    for (int D = 1; D < 3; ++D) {
      SymbolInfo B;
      B.Name = D == 1 ? "blockDim.y" : "blockDim.z";
      B.Kind = SymbolKind::BlockDim;
      B.Min = 1;
      W.BlockDim[D] = Poly::symbol(Syms.add(B));
    }
    std::array<Poly, WarpSize> X;
    for (unsigned L = 0; L < WarpSize; ++L)
      X[L] = Poly(L);
    W.Tid[0] = LaneVec::perLane(X);
    W.Tid[1] = Poly(0);
    W.Tid[2] = Poly(0);
    Out.push_back(W);
    return Out;
  }
  const Dim3 &D = *KC.Shape.Dim;
  int64_t Threads = D[0] * D[1] * D[2];
  int64_t Warps = (Threads + 31) / 32;
  for (int64_t Wi = 0; Wi < Warps; ++Wi) {
    WarpInstance W;
    for (int I = 0; I < 3; ++I)
      W.BlockDim[I] = Poly(D[I]);
    std::array<Poly, WarpSize> T[3];
    W.Active = 0;
    for (unsigned L = 0; L < WarpSize; ++L) {
      int64_t Tid = Wi * 32 + L;
      if (Tid < Threads)
        W.Active |= 1u << L;
      int64_t C = std::min(Tid, Threads - 1);
      T[0][L] = Poly(C % D[0]);
      T[1][L] = Poly((C / D[0]) % D[1]);
      T[2][L] = Poly(C / (D[0] * D[1]));
    }
    for (int I = 0; I < 3; ++I)
      W.Tid[I] = LaneVec::perLane(T[I]);
    Out.push_back(W);
  }
  return Out;
}

void KernelAnalysis::walk(const WarpInstance &W, std::vector<RawAccess> &Out,
                          bool *NeedConcrete) {
  auto I = std::make_unique<Interpreter>(Ctx, Syms, W, *Result.Regions, Out);
  if (!Opts.Padding.empty())
    I->setPadding(&Opts.Padding);
  I->setOnlyPaddedArrays(Opts.OnlyPaddedArrays);
  I->setPointerOffsets(&KC.Shape.PointerOffsets);
  I->setBudget(&Meter);
  I->run(KC.Decl, paramsFor(W));
  if (NeedConcrete)
    *NeedConcrete = I->needsConcreteWarps();
  if (W.Display)
    DisplayInterp = std::move(I);
}

int64_t KernelAnalysis::elementSizeOf(const RawAccess &A) const {
  QualType T = A.Region->DeclType;
  if (T.isNull())
    return A.Bytes;
  if (T->isPointerType())
    T = T->getPointeeType();
  while (const ArrayType *AT = Ctx.getAsArrayType(T))
    T = AT->getElementType();
  if (T->isIncompleteType() || T->isVoidType())
    return A.Bytes;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

InstanceMetrics KernelAnalysis::measure(const RawAccess &A) {
  InstanceMetrics M;
  M.ActiveLanes = llvm::popcount(A.Active);
  if (!A.Offset) {
    M.Why = A.UnknownWhy.empty() ? "address unknown" : A.UnknownWhy;
    return M;
  }
  const LaneVec &Off = *A.Offset;
  unsigned Ref = llvm::countr_zero(A.Active);
  if (Ref >= WarpSize)
    return M;

  // Lane offsets relative to the first active lane; lanes a symbolic
  // distance apart go to separate groups.
  WarpRequest Req;
  Req.BytesPerLane = A.Bytes;
  Req.Active = A.Active;
  std::vector<Poly> GroupKeys;
  std::set<std::string> LargeSymbols;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!(A.Active & (1u << L)))
      continue;
    auto D = Poly::sub(Off.lane(L), Off.lane(Ref));
    if (!D) {
      M.Why = "offset overflows";
      return M;
    }
    Poly Key = D->withoutConstant();
    size_t G = 0;
    while (G < GroupKeys.size() && GroupKeys[G] != Key)
      ++G;
    if (G == GroupKeys.size()) {
      if (G >= 255) {
        M.Why = "too many distinct symbolic lane offsets";
        return M;
      }
      GroupKeys.push_back(Key);
      if (!Key.isConstant())
        for (const Poly::Term &T : Key.terms())
          for (SymbolId S : T.Mono)
            LargeSymbols.insert(Syms.get(S).Name);
    }
    Req.Group[L] = static_cast<uint8_t>(G);
    Req.Offset[L] = D->constant();
  }
  M.Groups = GroupKeys.size();
  // What the address rests on: the values it was computed from, and the
  // symbols it still names that stand for an assumption.
  for (const std::string &S : A.Assumptions)
    M.Assumptions.push_back(S);
  {
    std::set<SymbolId> Seen;
    for (unsigned L = 0; L < (Off.isUniform() ? 1u : WarpSize); ++L)
      for (const Poly::Term &T : Off.lane(L).terms())
        for (SymbolId S : T.Mono)
          if (Seen.insert(S).second && !Syms.get(S).Assumption.empty() &&
              std::find(M.Assumptions.begin(), M.Assumptions.end(),
                        Syms.get(S).Assumption) == M.Assumptions.end())
            M.Assumptions.push_back(Syms.get(S).Assumption);
  }
  if (M.Groups == 1) {
    std::array<int64_t, WarpSize> Offs{};
    for (unsigned L = 0; L < WarpSize; ++L)
      Offs[L] = Req.Offset[L];
    M.LaneOffsets = Offs;
    std::optional<int64_t> Stride;
    bool Uniform = true;
    int Prev = -1;
    for (unsigned L = 0; L < WarpSize; ++L) {
      if (!(A.Active & (1u << L)))
        continue;
      if (Prev >= 0) {
        int64_t S = (Req.Offset[L] - Req.Offset[Prev]) / int64_t(L - Prev);
        if ((Req.Offset[L] - Req.Offset[Prev]) % int64_t(L - Prev) != 0 ||
            (Stride && *Stride != S))
          Uniform = false;
        Stride = S;
      }
      Prev = L;
    }
    if (Uniform && Stride)
      M.LaneStride = Stride;
  } else {
    std::string Names;
    for (const std::string &N : LargeSymbols)
      Names += (Names.empty() ? "`" : ", `") + N + "`";
    M.Assumptions.push_back(Names +
                            " assumed large: lanes whose addresses differ by "
                            "it touch different sectors");
    describeLaneGroups(A, Req, M);
  }

  // Where the warp's run starts, modulo 32 bytes.
  Poly Base = Off.lane(Ref);
  if (A.Region->BaseAlign >= SectorBytes) {
    if (A.Region->AlignAssumed)
      M.Assumptions.push_back(
          "`" + A.Region->Name + "` assumed " +
          std::to_string(A.Region->BaseAlign) + "-byte aligned" +
          (A.Region->Space == MemSpace::Global ? " (as cudaMalloc returns)"
                                               : ""));
  } else if (A.Region->Space != MemSpace::Shared) {
    M.ResidueExact = false;
    M.Assumptions.push_back("alignment of `" + A.Region->Name +
                            "` unknown; assumed 32-byte aligned");
  }
  bool Exact = true;
  std::vector<std::string> UnknownTerms;
  std::vector<ResidueCase> Cases = residues(
      Base, Syms, SectorBytes, Exact, UnknownTerms, &M.ResidueDataDependent);
  // Shared memory: the base only rotates the banks (for accesses of whole
  // words); what is unknown of it changes nothing.
  if (!Exact && A.Region->Space == MemSpace::Shared && A.Bytes >= 4) {
    Exact = true;
    std::vector<std::string> Ignored;
    Cases = residues(
        Base.withoutConstant().isConstant() ? Base : Poly(Base.constant()),
        Syms, SectorBytes, Exact, Ignored);
    Exact = true;
  }
  if (!Exact) {
    M.ResidueExact = false;
    std::string Names;
    for (const std::string &N : UnknownTerms)
      Names += (Names.empty() ? "`" : ", `") + N + "`";
    M.Assumptions.push_back("alignment of " + Names +
                            " unknown; its offset assumed a multiple of 32 "
                            "bytes");
  }

  M.Known = true;
  double TotalW = 0;
  M.SectorsMin = 1e18;
  for (const ResidueCase &C : Cases) {
    RequestCost Cost = costOf(Req, C.Residue);
    M.Sectors += C.Weight * Cost.Sectors;
    M.Lines += C.Weight * Cost.Lines;
    M.Partial += C.Weight * Cost.PartialSectors;
    M.BytesUsed += C.Weight * Cost.BytesUsed;
    M.SectorsMin = std::min<double>(M.SectorsMin, Cost.Sectors);
    M.SectorsMax = std::max<double>(M.SectorsMax, Cost.Sectors);
    if (Cost.IdealWavefronts > 0) {
      M.HasBanks = true;
      M.Wavefronts += C.Weight * Cost.Wavefronts;
      M.IdealWavefronts += C.Weight * Cost.IdealWavefronts;
    }
    ++M.Cases;
    if (Cost.StartsAligned)
      ++M.AlignedCases;
    else
      ++M.MisalignedCases;
    // The lowest active address past its 32-byte boundary.
    int64_t Lowest = INT64_MAX;
    for (unsigned L = 0; L < WarpSize; ++L)
      if ((A.Active & (1u << L)) && Req.Group[L] == 0)
        Lowest = std::min(Lowest, C.Residue + Req.Offset[L]);
    M.MisalignValues.insert(floorMod(Lowest, SectorBytes));
    if (Cost.VectorAligned)
      ++M.VecAligned;
    else
      ++M.VecMisaligned;
    TotalW += C.Weight;
  }
  if (TotalW > 0 && std::abs(TotalW - 1) > 1e-9) {
    M.Sectors /= TotalW;
    M.Lines /= TotalW;
    M.Partial /= TotalW;
    M.BytesUsed /= TotalW;
    M.Wavefronts /= TotalW;
    M.IdealWavefronts /= TotalW;
  }

  // Where each lane's run starts (the innermost loop's first iteration),
  // modulo 16 bytes: what a 16-byte vector load of the run needs.
  if (M.Groups == 1 && A.Region->BaseAlign >= 16) {
    std::optional<Poly> B0 = Base;
    if (!A.Loops.empty()) {
      // The run starts at its lowest address: the first iteration of a loop
      // that walks up, the last of one that walks down.
      const LoopRef &Inner = A.Loops.back();
      int64_t First = 0;
      auto P0 = Base.substitute(Inner.Sym, 0),
           P1 = Base.substitute(Inner.Sym, 1);
      if (P0 && P1 && Inner.Trip && *Inner.Trip > 0)
        if (auto D = Poly::sub(*P1, *P0);
            D && D->asConstant() && *D->asConstant() < 0)
          First = *Inner.Trip - 1;
      B0 = Base.substitute(Inner.Sym, First);
    }
    bool Ex = false;
    std::vector<std::string> Ignored;
    std::vector<ResidueCase> C16;
    if (B0)
      C16 = residues(*B0, Syms, 16, Ex, Ignored);
    if (B0 && Ex) {
      unsigned Good = 0, Bad = 0;
      for (const ResidueCase &C : C16) {
        bool All = true;
        for (unsigned L = 0; L < WarpSize; ++L)
          if ((A.Active & (1u << L)) && floorMod(C.Residue + Req.Offset[L], 16))
            All = false;
        (All ? Good : Bad) += 1;
      }
      if (Bad == 0)
        M.RunStart16 = true;
      else if (Good == 0)
        M.RunStart16 = false;
    }
  }

  // The run's start modulo 16 as ptxas can prove it (EmittedWidth.h).
  if (M.Groups == 1) {
    std::optional<Poly> B0 = Base;
    if (!A.Loops.empty())
      B0 = Base.substitute(A.Loops.back().Sym, 0);
    bool Ex = false;
    std::vector<std::string> Ignored;
    std::vector<int64_t> Addrs;
    if (B0)
      for (const ResidueCase &C : residues(*B0, Syms, 16, Ex, Ignored))
        for (unsigned L = 0; L < WarpSize; ++L)
          if (A.Active & (1u << L))
            Addrs.push_back(C.Residue + Req.Offset[L]);
    if (B0 && Ex)
      std::tie(M.RunModulus, M.RunResidue) =
          commonResidue(Addrs, ptxasBaseAlign(*A.Region));
  }

  // Loops: how the address moves per iteration, contiguity and footprint.
  for (const LoopRef &L : A.Loops) {
    LoopFact F;
    F.Loop = L.Loop;
    F.OrderFree = isOrderFree(L.Loop);
    F.VarName = L.VarName;
    F.Trip = L.Trip;
    F.TripMin = L.TripMin;
    F.TripMax = L.TripMax;
    // The per-iteration move: a constant (Delta), or a polynomial the same
    // for every lane (SymDelta); linear in the loop counter either way.
    std::optional<int64_t> Delta;
    std::optional<Poly> SymDelta;
    bool Linear = true;
    for (unsigned Ln = 0; Ln < WarpSize && Linear; ++Ln) {
      if (!(A.Active & (1u << Ln)))
        continue;
      // A value that changes by an unknown amount each iteration.
      for (SymbolId V : L.Varying)
        if (Off.lane(Ln).mentions(V))
          Linear = false;
      if (!Linear)
        break;
      auto P1 = Off.lane(Ln).substitute(L.Sym, 1);
      auto P0 = Off.lane(Ln).substitute(L.Sym, 0);
      std::optional<Poly> D;
      if (P1 && P0)
        D = Poly::sub(*P1, *P0);
      // Linear in the loop counter: the second difference is zero.
      auto P2 = Off.lane(Ln).substitute(L.Sym, 2);
      std::optional<Poly> D2;
      if (P2 && P1)
        D2 = Poly::sub(*P2, *P1);
      if (!D || !D2 || *D != *D2) {
        Linear = false;
        break;
      }
      if (D->isConstant()) {
        if (SymDelta || (Delta && *Delta != D->constant()))
          Linear = false;
        Delta = D->constant();
      } else {
        if (Delta || (SymDelta && *SymDelta != *D))
          Linear = false;
        SymDelta = *D;
      }
    }
    if (Linear && Delta)
      F.StrideBytes = Delta;
    if (Linear && (SymDelta || (Delta && *Delta > 0)))
      blockStride(A, SymDelta ? *SymDelta : Poly(*Delta), F);
    M.Loops.push_back(F);
  }
  if (!A.Loops.empty() && A.Region->Space != MemSpace::Shared) {
    // The footprint is taken over the loop nest: the union of the bytes and
    // sectors of every iteration of the enclosing loops that move the
    // address by a constant step (blocked 16-byte loads in an inner loop
    // over rows whose outer loop steps through each lane's run use every
    // sector over the nest). Loops whose step is symbolic (a runtime row
    // pitch) move far away and change nothing; a step of 0 adds nothing.
    std::vector<size_t> Moving;
    for (size_t I = 0; I < A.Loops.size(); ++I)
      if (M.Loops[I].StrideBytes && *M.Loops[I].StrideBytes != 0)
        Moving.push_back(I);
    if (!Moving.empty() || M.Loops.back().StrideBytes) {
      // The base at the first iteration of every moving loop.
      std::optional<Poly> B0 = Base;
      for (size_t I : Moving)
        if (B0)
          B0 = B0->substitute(A.Loops[I].Sym, 0);
      std::vector<ResidueCase> FirstIter = Cases;
      if (B0) {
        bool Ex;
        std::vector<std::string> Ignored;
        FirstIter = residues(*B0, Syms, SectorBytes, Ex, Ignored);
      }
      // Iterations per loop, innermost first, within a budget of shifts.
      std::vector<int64_t> Shifts = {0};
      for (size_t J = Moving.size(); J-- > 0;) {
        const LoopRef &L = A.Loops[Moving[J]];
        int64_t Step = *M.Loops[Moving[J]].StrideBytes;
        std::optional<int64_t> Trip = L.Trip ? L.Trip : L.TripMax;
        int64_t Iters = Trip ? std::min(*Trip, MaxFootprintIterations) : 32;
        int64_t Room = MaxFootprintShifts / int64_t(Shifts.size());
        if (Room < 2)
          break;
        Iters = std::min(Iters, Room);
        if (!Trip)
          M.Assumptions.push_back("footprint over 32 iterations of the loop" +
                                  (L.VarName.empty()
                                       ? std::string()
                                       : " over `" + L.VarName + "`") +
                                  " (its trip count is unknown)");
        std::vector<int64_t> Next;
        for (int64_t K = 0; K < std::max<int64_t>(Iters, 1); ++K)
          for (int64_t S0 : Shifts)
            Next.push_back(S0 + K * Step);
        Shifts = std::move(Next);
      }
      double SumSec = 0, SumBytes = 0;
      for (const ResidueCase &C : FirstIter) {
        Footprint FP = footprintOf(Req, C.Residue, Shifts);
        SumSec += C.Weight * FP.Sectors;
        SumBytes += C.Weight * FP.BytesUsed;
      }
      if (SumSec > 0)
        M.Footprint = SumBytes / (SectorBytes * SumSec);
    }
  } else if (M.Sectors > 0 && A.Region->Space != MemSpace::Shared) {
    M.Footprint = M.BytesUsed / (SectorBytes * M.Sectors);
  }
  return M;
}

/// Loads of adjacent fields of one aligned struct or vector element in the
/// same iteration (`f[i].x + f[i].y + f[i].z + f[i].w` on a float4) are one
/// vector load to nvcc (ld.global.v4.f32): when the fields read cover a run
/// of 2, 4, 8 or 16 bytes that starts at a multiple of its size within the
/// element, and the element's alignment covers the run, with no store to the
/// same object between them, they become one access of that run, at the
/// first field read.
void mergeFieldLoads(ASTContext &Ctx, std::vector<RawAccess> &Raw) {
  struct Member {
    size_t Index;
    const RecordDecl *RD;
    int64_t FieldOff, Size;
    LaneVec Base; // the element's address
  };
  auto MemberOf = [&](const RawAccess &A) -> std::optional<Member> {
    if (A.Kind != AccessKind::Load || !A.Offset || A.Pieces > 1)
      return std::nullopt;
    const auto *M = dyn_cast<MemberExpr>(A.E->IgnoreParenImpCasts());
    if (!M)
      return std::nullopt;
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!FD || FD->isBitField())
      return std::nullopt;
    const RecordDecl *RD = FD->getParent();
    if (!RD || RD->isInvalidDecl() || !RD->getDefinition() || RD->isUnion())
      return std::nullopt;
    int64_t Off =
        Ctx.getASTRecordLayout(RD).getFieldOffset(FD->getFieldIndex()) /
        Ctx.getCharWidth();
    auto Base =
        A.Offset->map([&](const Poly &P) { return Poly::sub(P, Poly(Off)); });
    if (!Base)
      return std::nullopt;
    return Member{0, RD, Off, int64_t(A.Bytes), *Base};
  };
  std::vector<bool> Drop(Raw.size(), false);
  for (size_t I = 0; I < Raw.size(); ++I) {
    if (Drop[I])
      continue;
    auto First = MemberOf(Raw[I]);
    if (!First)
      continue;
    std::vector<Member> Group{*First};
    Group.back().Index = I;
    for (size_t J = I + 1; J < Raw.size(); ++J) {
      const RawAccess &B = Raw[J];
      if (B.Region == Raw[I].Region && B.Kind != AccessKind::Load)
        break; // a store between: not merged across it
      if (Drop[J] || B.Region != Raw[I].Region ||
          B.CallStack != Raw[I].CallStack || B.Active != Raw[I].Active ||
          !sameLoops(B, Raw[I]))
        continue;
      auto M = MemberOf(B);
      if (!M || M->RD != First->RD || !(M->Base == First->Base))
        continue;
      M->Index = J;
      Group.push_back(*M);
    }
    if (Group.size() < 2)
      continue;
    int64_t Lo = INT64_MAX, Hi = INT64_MIN;
    std::set<int64_t> Fields;
    for (const Member &M : Group) {
      Lo = std::min(Lo, M.FieldOff);
      Hi = std::max(Hi, M.FieldOff + M.Size);
      Fields.insert(M.FieldOff);
    }
    int64_t Run = Hi - Lo;
    // Contiguous: the fields' bytes cover [Lo, Hi).
    std::vector<std::pair<int64_t, int64_t>> Iv;
    for (const Member &M : Group)
      Iv.push_back({M.FieldOff, M.FieldOff + M.Size});
    std::sort(Iv.begin(), Iv.end());
    int64_t Reach = Lo;
    bool Covered = true;
    for (auto &[A, B] : Iv) {
      if (A > Reach)
        Covered = false;
      Reach = std::max(Reach, B);
    }
    QualType RT = Ctx.getCanonicalTagType(First->RD);
    int64_t Align = Ctx.getTypeAlignInChars(RT).getQuantity();
    if (!Covered || Fields.size() < 2 || Run > 16 || (Run & (Run - 1)) != 0 ||
        Lo % Run != 0 || Align < Run)
      continue;
    // The merged access stands at the lowest field read.
    size_t Keep = Group.front().Index;
    for (const Member &M : Group)
      if (M.FieldOff == Lo) {
        Keep = M.Index;
        break;
      }
    RawAccess &K = Raw[Keep];
    K.Bytes = static_cast<unsigned>(Run);
    if (Run == Ctx.getTypeSizeInChars(RT).getQuantity())
      K.Type = RT;
    auto Moved =
        First->Base.map([&](const Poly &P) { return Poly::add(P, Poly(Lo)); });
    if (Moved)
      K.Offset = *Moved;
    for (const Member &M : Group) {
      if (M.Index == Keep)
        continue;
      Drop[M.Index] = true;
      for (const std::string &S : Raw[M.Index].Assumptions)
        if (std::find(K.Assumptions.begin(), K.Assumptions.end(), S) ==
            K.Assumptions.end())
          K.Assumptions.push_back(S);
    }
  }
  std::vector<RawAccess> Kept;
  for (size_t I = 0; I < Raw.size(); ++I)
    if (!Drop[I])
      Kept.push_back(std::move(Raw[I]));
  Raw = std::move(Kept);
}

/// A loop stride that is symbolic but the same for every lane: when it is a
/// positive multiple of the block's (and the grid's) sizes only -- a
/// block-stride `i += blockDim.x` or a grid-stride `i += blockDim.x *
/// gridDim.x` loop with an unknown block, or `i += 256 * gridDim.x` with a
/// known one -- how many block-wide runs of the access it spans at most, and
/// whether it is a whole number of 32-lane runs.
/// How lanes a symbolic distance apart are laid out, for people: every
/// adjacent pair the same symbolic distance (`C` elements: lanes on
/// different rows), or runs of lanes a constant stride apart whose runs are
/// a symbolic distance apart (16 lanes 32 bytes apart, the next 16 on the
/// row `8*N` elements further).
void KernelAnalysis::describeLaneGroups(const RawAccess &A,
                                        const WarpRequest &Req,
                                        InstanceMetrics &M) {
  const LaneVec &Off = *A.Offset;
  int64_t Elem = elementSizeOf(A);
  if (Elem <= 0)
    Elem = A.Bytes;
  auto Show = [&](const Poly &P) -> std::string {
    auto Q = P.divideExact(Elem);
    return Q ? "`" + Syms.str(*Q) + "`" + (Elem > 1 ? " elements" : " bytes")
             : "`" + Syms.str(P) + "` bytes";
  };
  std::vector<unsigned> Lanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (A.Active & (1u << L))
      Lanes.push_back(L);
  if (Lanes.size() < 2)
    return;
  std::vector<Poly> Diffs;
  for (size_t I = 1; I < Lanes.size(); ++I) {
    auto D = Poly::sub(Off.lane(Lanes[I]), Off.lane(Lanes[I - 1]));
    if (!D)
      return;
    Diffs.push_back(*D);
  }
  bool AllSame = true;
  for (const Poly &D : Diffs)
    AllSame = AllSame && D == Diffs.front();
  if (AllSame && !Diffs.front().isConstant()) {
    M.LaneStrideText = "adjacent lanes are " + Show(Diffs.front()) +
                       " apart (a runtime stride)";
    return;
  }
  // Runs of lanes in one group, each the same length, a constant stride
  // apart inside; the runs the same symbolic distance apart.
  std::vector<size_t> Starts = {0};
  for (size_t I = 1; I < Lanes.size(); ++I)
    if (Req.Group[Lanes[I]] != Req.Group[Lanes[I - 1]])
      Starts.push_back(I);
  size_t Len = Starts.size() > 1 ? Starts[1] : Lanes.size();
  std::optional<int64_t> In;
  std::optional<Poly> Between;
  for (size_t R = 0; R < Starts.size(); ++R) {
    size_t End = R + 1 < Starts.size() ? Starts[R + 1] : Lanes.size();
    if (End - Starts[R] != Len)
      return;
    for (size_t I = Starts[R] + 1; I < End; ++I) {
      const Poly &D = Diffs[I - 1];
      if (!D.isConstant() || (In && *In != D.constant()))
        return;
      In = D.constant();
    }
    if (R > 0) {
      auto G =
          Poly::sub(Off.lane(Lanes[Starts[R]]), Off.lane(Lanes[Starts[R - 1]]));
      if (!G || (Between && *Between != *G))
        return;
      Between = *G;
    }
  }
  if (!In || !Between || Len < 2)
    return;
  M.LaneStrideText =
      "the lanes come in runs of " + std::to_string(Len) + ", adjacent lanes " +
      std::to_string(std::abs(*In)) + " bytes" +
      (std::abs(*In) % Elem == 0 && Elem > 1
           ? " (" + std::to_string(std::abs(*In) / Elem) + " elements)"
           : "") +
      " apart within a run and each run " + Show(*Between) +
      " after the previous one";
}

void KernelAnalysis::blockStride(const RawAccess &A, const Poly &Stride,
                                 LoopFact &F) {
  unsigned Bytes = A.Bytes;
  if (!CurWarp || Bytes == 0)
    return;
  auto Q = Stride.divideExact(Bytes);
  if (!Q)
    return;
  // A constant stride (a known block): a single term with no symbol.
  Poly::Term T;
  if (Q->isConstant()) {
    if (Q->constant() <= 0)
      return;
    T = Poly::Term{Monomial(), Q->constant()};
  } else {
    if (Q->constant() != 0 || Q->terms().size() != 1)
      return;
    T = Q->terms().front();
  }
  if (T.Coeff <= 0)
    return;
  // The threads of a block, as a polynomial: a constant for a known block,
  // 32*(blockDim.x/32)*blockDim.y*blockDim.z for an unknown one.
  auto XY = Poly::mul(CurWarp->BlockDim[0], CurWarp->BlockDim[1]);
  auto Threads = XY ? Poly::mul(*XY, CurWarp->BlockDim[2]) : std::nullopt;
  if (!Threads || (!Threads->isConstant() && Threads->constant() != 0))
    return;
  int64_t ThreadsCoeff;
  Monomial ThreadSyms;
  if (Threads->isConstant()) {
    ThreadsCoeff = Threads->constant();
  } else {
    if (Threads->terms().size() != 1)
      return;
    ThreadsCoeff = Threads->terms().front().Coeff;
    ThreadSyms = Threads->terms().front().Mono;
  }
  if (ThreadsCoeff <= 0)
    return;
  // Every symbol of the stride is a block size (one of the block's own,
  // each at most once) or a grid size.
  Monomial Left = ThreadSyms;
  std::string Text;
  int64_t Shown = T.Coeff * Bytes;
  for (SymbolId S : T.Mono) {
    const SymbolInfo &I = Syms.get(S);
    if (I.Kind == SymbolKind::GridDim) {
      Text += "*" + I.Name;
      continue;
    }
    if (I.Kind != SymbolKind::BlockDim)
      return;
    auto It = std::find(Left.begin(), Left.end(), S);
    if (It == Left.end())
      return;
    Left.erase(It);
    if (I.Name == "blockDim.x/32") {
      if (Shown % 32 != 0)
        return;
      Shown /= 32;
      Text += "*blockDim.x";
    } else {
      Text += "*" + I.Name;
    }
  }
  // stride = Coeff * Bytes * syms <= (Coeff / ThreadsCoeff) * Bytes *
  // threads * grid sizes, the other block sizes being at least 1.
  F.StrideBlockRuns = double(T.Coeff) / double(ThreadsCoeff);
  F.StrideWholeWarps = T.Coeff % int64_t(WarpSize) == 0;
  if (!T.Mono.empty())
    F.StrideSymbolic =
        Shown == 1 ? Text.substr(1) : std::to_string(Shown) + Text;
  // A window of several block-wide runs per iteration is read whole when
  // accesses of the same iteration take the other runs (`x[i]` and
  // `x[i + blockDim.x]` with i += 2*blockDim.x*gridDim.x): count the runs
  // k = 1, 2 ... that one is a whole number of block-wide runs away.
  if (T.Coeff % ThreadsCoeff != 0)
    return;
  int64_t Runs = T.Coeff / ThreadsCoeff;
  if (Runs <= 1)
    return;
  // One block-wide run: bytes x threads (the block's own symbols only).
  Monomial Block;
  for (SymbolId S : T.Mono)
    if (Syms.get(S).Kind == SymbolKind::BlockDim)
      Block.push_back(S);
  Poly Unit = Poly::term(Block, ThreadsCoeff * int64_t(Bytes));
  unsigned Covered = 1;
  for (int64_t K = 1; K < Runs; ++K) {
    auto Up = Poly::scale(Unit, K), Down = Poly::scale(Unit, -K);
    if ((Up && hasUniformSibling(A, *Up)) ||
        (Down && hasUniformSibling(A, *Down)))
      ++Covered;
  }
  F.StrideCoveredRuns = Covered;
}

bool KernelAnalysis::hasUniformSibling(const RawAccess &A,
                                       const Poly &D) const {
  auto It = UniformGroupOf.find(&A);
  if (It == UniformGroupOf.end() || !A.Offset ||
      (D.isConstant() && D.constant() == 0))
    return false;
  auto B = Poly::add(A.Offset->lane(0), D);
  return B && UniformGroups[It->second].count(*B) > 0;
}

/// Accesses of one array in the same iteration whose lanes' addresses are
/// exactly one access apart (x[4*i], x[4*i+1], ...): hand-unrolled runs;
/// and, for each access, a neighbour in the same iteration a few bytes away
/// (a stencil's in[i-1], in[i], in[i+1]).
///
/// Two accesses are a lane-uniform distance apart exactly when their lanes
/// lie alike relative to lane 0 (B(l) - B(0) == A(l) - A(0) for every lane
/// l), and a constant distance apart when, besides, their lane-0 offsets
/// differ only in the constant term. So the accesses are grouped by that
/// shape and then by the symbolic part of lane 0, and each question is a
/// look-up in its group: linear in the accesses, where comparing every pair
/// was quadratic (thousands of accesses in a kernel took minutes and
/// gigabytes).
void KernelAnalysis::linkSiblings(std::vector<RawAccess> &Raw,
                                  std::map<const RawAccess *, Sibling> &Out) {
  UniformGroups.clear();
  UniformGroupOf.clear();
  struct Shape {
    const MemRegion *Region;
    unsigned Bytes;
    std::vector<Poly> Deltas; // lane l minus lane 0, l = 1..31
    bool operator==(const Shape &O) const {
      return Region == O.Region && Bytes == O.Bytes && Deltas == O.Deltas;
    }
  };
  auto HashShape = [](const Shape &S) {
    llvm::hash_code H = llvm::hash_combine(S.Region, S.Bytes);
    for (const Poly &D : S.Deltas)
      H = llvm::hash_combine(H, D.hash());
    return size_t(H);
  };
  /// The accesses of one shape whose lane-0 offsets share their symbolic
  /// part: the constant distances among them are differences of constants.
  struct ConstGroup {
    std::vector<std::pair<int64_t, size_t>> Members; // (constant, index)
  };
  std::vector<Shape> Shapes;
  std::unordered_map<size_t, std::vector<size_t>> ShapesByHash;
  std::vector<ConstGroup> Groups;
  struct GroupKeyHash {
    size_t operator()(const std::pair<size_t, Poly> &K) const {
      return llvm::hash_combine(K.first, K.second.hash());
    }
  };
  std::unordered_map<std::pair<size_t, Poly>, size_t, GroupKeyHash> GroupOf;
  // Same kind and same loops (sameLoops) within a shape: the uniform
  // groups; within a constant group: the constants of each.
  auto LoopsKey = [](const RawAccess &A) {
    std::vector<std::pair<const void *, uint64_t>> K;
    for (const auto &L : A.Loops)
      K.push_back({L.Loop, uint64_t(L.Sym)});
    return K;
  };
  using KindLoops = std::tuple<size_t, AccessKind,
                               std::vector<std::pair<const void *, uint64_t>>>;
  std::map<KindLoops, size_t> UniformByKey;
  std::map<KindLoops, std::unordered_set<int64_t>> ConstantsByKey;

  std::vector<std::optional<size_t>> GroupIdx(Raw.size());
  for (size_t I = 0; I < Raw.size(); ++I) {
    const RawAccess &A = Raw[I];
    if (!A.Offset)
      continue;
    Shape S{A.Region, A.Bytes, {}};
    const Poly &L0 = A.Offset->lane(0);
    bool Exact = true;
    for (unsigned L = 1; L < WarpSize && Exact; ++L) {
      auto D = Poly::sub(A.Offset->lane(L), L0);
      if (!D)
        Exact = false;
      else
        S.Deltas.push_back(std::move(*D));
    }
    if (!Exact)
      continue; // an overflowing lane: linked to nothing
    size_t H = HashShape(S);
    std::optional<size_t> ShapeIdx;
    for (size_t Cand : ShapesByHash[H])
      if (Shapes[Cand] == S)
        ShapeIdx = Cand;
    if (!ShapeIdx) {
      ShapeIdx = Shapes.size();
      Shapes.push_back(std::move(S));
      ShapesByHash[H].push_back(*ShapeIdx);
    }
    auto [It, New] =
        GroupOf.try_emplace({*ShapeIdx, L0.withoutConstant()}, Groups.size());
    if (New)
      Groups.emplace_back();
    Groups[It->second].Members.push_back({L0.constant(), I});
    GroupIdx[I] = It->second;

    KindLoops UK{*ShapeIdx, A.Kind, LoopsKey(A)};
    auto [U, UNew] = UniformByKey.try_emplace(UK, UniformGroups.size());
    if (UNew)
      UniformGroups.emplace_back();
    UniformGroups[U->second].insert(L0);
    UniformGroupOf[&A] = U->second;
    ConstantsByKey[KindLoops{It->second, A.Kind, LoopsKey(A)}].insert(
        L0.constant());
  }
  for (ConstGroup &G : Groups)
    llvm::sort(G.Members);

  for (size_t I = 0; I < Raw.size(); ++I) {
    const RawAccess &A = Raw[I];
    Sibling &S = Out[&A];
    if (!GroupIdx[I])
      continue;
    const ConstGroup &G = Groups[*GroupIdx[I]];
    int64_t C = A.Offset->lane(0).constant();
    // The neighbour: the first access (in the walk's order) of the group,
    // both loads, a nonzero distance under a sector away. It may be outside
    // the loop (`rowptr[r]` before a loop bounded by `rowptr[r + 1]`): a
    // constant distance means neither moves with the loop, so the warp
    // reads both every time.
    if (A.Kind != AccessKind::Store) {
      auto Lo = std::lower_bound(
          G.Members.begin(), G.Members.end(),
          std::make_pair(C - int64_t(SectorBytes) + 1, size_t(0)));
      std::optional<size_t> First;
      for (auto It = Lo;
           It != G.Members.end() && It->first < C + int64_t(SectorBytes);
           ++It) {
        const RawAccess &B = Raw[It->second];
        if (It->first == C || B.Kind == AccessKind::Store)
          continue;
        if (!First || It->second < *First)
          First = It->second;
      }
      if (First)
        S.Neighbour = Raw[*First].E;
    }
    // The chain through A in steps of one access: hand-unrolled runs are
    // in the same iteration of the same loops.
    const std::unordered_set<int64_t> &Consts =
        ConstantsByKey[KindLoops{*GroupIdx[I], A.Kind, LoopsKey(A)}];
    auto Has = [&](int64_t D) { return D != 0 && Consts.count(C + D) > 0; };
    unsigned Before = 0, After = 0;
    while (Before < 16 && Has(-int64_t(Before + 1) * A.Bytes))
      ++Before;
    while (After < 16 && Has(int64_t(After + 1) * A.Bytes))
      ++After;
    S.Run = Before + After + 1;
    S.Index = Before;
  }
}

AccessFacts KernelAnalysis::describe(const RawAccess &A) const {
  AccessFacts F;
  F.E = A.E;
  F.CallStack = A.CallStack;
  F.Kernel = KernelIndex;
  F.Array = A.Array;
  F.Region = A.Region;
  F.Space = A.Region->Space;
  F.Kind = A.Kind;
  F.Type = A.Type;
  F.BytesPerLane = A.Bytes;
  F.Piece = A.Piece;
  F.Pieces = A.Pieces;
  return F;
}

void KernelAnalysis::stop(const std::vector<std::vector<RawAccess>> &Walks) {
  std::string Why = "budget exceeded (" + Meter.reason() + ")";
  Result.Kernels[KernelIndex].Stopped = Why;
  std::set<AccessKey> Seen;
  for (const std::vector<RawAccess> &Walk : Walks)
    for (const RawAccess &A : Walk) {
      if (!A.Region || !Seen.insert(keyOf(A)).second)
        continue;
      AccessFacts F = describe(A);
      F.UnknownReason = "analysis stopped: " + Why;
      F.Assumptions = KC.Shape.Assumptions;
      Result.Accesses.push_back(std::move(F));
    }
}

void KernelAnalysis::run() {
  // Integer parameters: one symbol each, shared by every walk.
  for (const ParmVarDecl *PD : KC.Decl->parameters()) {
    if (PD->getType()->isIntegerType()) {
      SymbolInfo I;
      I.Name = PD->getNameAsString();
      I.Kind = SymbolKind::Param;
      I.Rank = 30;
      Params[PD] = AbsValue::integer(Poly::symbol(Syms.add(I)));
    }
  }
  // What every launch in the file passes (stated with the shape).
  for (const auto &[PD, V] : KC.Shape.ConstParams)
    Params[PD] = AbsValue::integer(Poly(V));

  // (A padding search reads no readable forms.)
  std::vector<RawAccess> Display;
  if (!Opts.OnlyPaddedArrays)
    walk(displayInstance(), Display, nullptr);
  if (Meter.spent())
    return stop({Display});
  mergeFieldLoads(Ctx, Display);
  std::map<AccessKey, const RawAccess *> DisplayByKey;
  for (const RawAccess &A : Display)
    DisplayByKey.emplace(keyOf(A), &A);

  std::vector<std::vector<RawAccess>> Walks;
  std::vector<WarpInstance> Instances;
  std::vector<double> Weights;
  bool NeedConcrete = false;
  if (auto W = symbolicInstance()) {
    Walks.emplace_back();
    Instances.push_back(*W);
    walk(*W, Walks.back(), &NeedConcrete);
    Weights.push_back(1.0);
    if (Meter.spent())
      return stop({Display, Walks.back()});
  } else {
    NeedConcrete = true;
  }
  if (NeedConcrete) {
    Walks.clear();
    Instances.clear();
    Weights.clear();
    ConcreteWarps = true;
    for (const WarpInstance &W : concreteInstances()) {
      Walks.emplace_back();
      Instances.push_back(W);
      walk(W, Walks.back(), nullptr);
      Weights.push_back(1.0);
      if (Meter.spent()) {
        Walks.insert(Walks.begin(), Display);
        return stop(Walks);
      }
      if (Opts.FirstWarpOnly)
        break;
    }
    if (!KC.Shape.Dim)
      ShapeAssumptions.push_back(
          "evaluated for the block's first warp (an index operation on the "
          "warp's position was not exact)");
  }
  Result.Kernels[KernelIndex].ConcreteWarps = ConcreteWarps;

  // Measure each access in each walk; aggregate by access.
  struct Agg {
    const RawAccess *First = nullptr;
    double Weight = 0;
    std::vector<std::pair<InstanceMetrics, double>> Parts;
    unsigned Run = 1;
    unsigned Index = 0;
    const Expr *Neighbour = nullptr;
    /// Times a warp ran it outside the loops its facts name (a loop
    /// evaluated iteration by iteration records it once each), summed over
    /// the walks with their weights.
    double Occurrences = 0;
  };
  std::map<AccessKey, Agg> ByKey;
  std::vector<AccessKey> Order;
  for (auto &Walk : Walks)
    mergeFieldLoads(Ctx, Walk);
  for (size_t WI = 0; WI < Walks.size(); ++WI) {
    CurWarp = &Instances[WI];
    std::map<const RawAccess *, Sibling> Runs;
    linkSiblings(Walks[WI], Runs);
    for (const RawAccess &A : Walks[WI]) {
      if (Opts.OnlyPaddedArrays) {
        auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(
            A.Region ? A.Region->Decl : nullptr);
        if (!VD || !Opts.Padding.count(VD))
          continue;
      }
      AccessKey K = keyOf(A);
      auto [It, New] = ByKey.try_emplace(K);
      if (New) {
        It->second.First = &A;
        Order.push_back(K);
      }
      It->second.Parts.push_back({measure(A), Weights[WI]});
      It->second.Weight += Weights[WI];
      It->second.Occurrences += Weights[WI];
      const Sibling &Sib = Runs[&A];
      if (Sib.Run >= It->second.Run) {
        It->second.Run = Sib.Run;
        It->second.Index = Sib.Index;
      }
      if (!It->second.Neighbour)
        It->second.Neighbour = Sib.Neighbour;
    }
  }

  const SourceManager &SM = Ctx.getSourceManager();
  for (const AccessKey &K : Order) {
    Agg &G = ByKey[K];
    const RawAccess &A = *G.First;
    AccessFacts F = describe(A);
    F.SiblingRun = G.Run;
    F.SiblingIndex = G.Index;
    F.Neighbour = G.Neighbour;
    F.Assumptions = KC.Shape.Assumptions;
    for (const std::string &S : ShapeAssumptions)
      F.Assumptions.push_back(S);

    bool AllKnown = true;
    for (auto &[M, W] : G.Parts)
      if (!M.Known) {
        AllKnown = false;
        F.UnknownReason = M.Why;
      }
    const InstanceMetrics &M0 = G.Parts.front().first;
    F.ActiveLanes = M0.ActiveLanes;
    F.ActiveMask = A.Active;
    F.Loops = M0.Loops;
    // Trip-count bounds over every warp of the block.
    for (auto &[M, W] : G.Parts)
      for (size_t I = 0; I < F.Loops.size() && I < M.Loops.size(); ++I) {
        LoopFact &L = F.Loops[I];
        const LoopFact &O = M.Loops[I];
        L.TripMin =
            L.TripMin && O.TripMin
                ? std::optional<int64_t>(std::min(*L.TripMin, *O.TripMin))
                : std::nullopt;
        L.TripMax =
            L.TripMax && O.TripMax
                ? std::optional<int64_t>(std::max(*L.TripMax, *O.TripMax))
                : std::nullopt;
      }
    if (AllKnown) {
      F.AddressKnown = true;
      double W = 0, Sec = 0, Lines = 0, Partial = 0, Bytes = 0, Wave = 0,
             Ideal = 0;
      unsigned Aligned = 0, Misaligned = 0, VecOk = 0, VecBad = 0;
      bool ResidueExact = true, HasBanks = true, DataDependent = false;
      std::set<int64_t> Mis;
      F.SectorsMin = UINT32_MAX;
      std::optional<int64_t> Contig;
      std::optional<double> Foot;
      double FootW = 0, FootSum = 0;
      for (auto &[M, Wt] : G.Parts) {
        W += Wt;
        Sec += Wt * M.Sectors;
        Lines += Wt * M.Lines;
        Partial += Wt * M.Partial;
        Bytes += Wt * M.BytesUsed;
        Wave += Wt * M.Wavefronts;
        Ideal += Wt * M.IdealWavefronts;
        HasBanks = HasBanks && M.HasBanks;
        Aligned += M.AlignedCases;
        Misaligned += M.MisalignedCases;
        VecOk += M.VecAligned;
        VecBad += M.VecMisaligned;
        ResidueExact = ResidueExact && M.ResidueExact;
        DataDependent = DataDependent || M.ResidueDataDependent;
        Mis.insert(M.MisalignValues.begin(), M.MisalignValues.end());
        F.SectorsMin = std::min<unsigned>(F.SectorsMin, M.SectorsMin);
        F.SectorsMax = std::max<unsigned>(F.SectorsMax, M.SectorsMax);
        if (M.Footprint) {
          FootW += Wt;
          FootSum += Wt * *M.Footprint;
        }
        for (const std::string &S : M.Assumptions)
          if (std::find(F.Assumptions.begin(), F.Assumptions.end(), S) ==
              F.Assumptions.end())
            F.Assumptions.push_back(S);
      }
      if (FootW > 0)
        Foot = FootSum / FootW;
      F.LaneOffsets = M0.LaneOffsets;
      F.LaneStrideBytes = M0.LaneStride;
      for (auto &[M, Wt] : G.Parts)
        if (M.LaneStride != M0.LaneStride)
          F.LaneStrideBytes.reset();
      F.LaneGroups = M0.Groups;
      F.LaneLayout = M0.LaneStrideText;
      for (auto &[M, Wt] : G.Parts)
        if (M.LaneStrideText != M0.LaneStrideText)
          F.LaneLayout.clear();
      if (F.Space != MemSpace::Shared) {
        F.SectorsPerRequest = Sec / W;
        F.LinesPerRequest = Lines / W;
        F.PartialSectorsPerRequest = Partial / W;
        F.BytesPerRequest = Bytes / W;
        if (Sec > 0)
          F.SectorUtilization = Bytes / (SectorBytes * Sec);
        F.IdealSectors = std::ceil(Bytes / W / SectorBytes);
      }
      if (F.Space == MemSpace::Shared && HasBanks && Ideal > 0 &&
          M0.Groups == 1) {
        F.WavefrontsPerRequest = Wave / W;
        F.IdealWavefronts = Ideal / W;
        F.BankConflictWays = Wave / Ideal;
      }
      if (M0.Groups == 1 && ResidueExact) {
        if (Misaligned == 0)
          F.Alignment = AlignmentFact::Aligned;
        else if (Aligned == 0)
          F.Alignment = AlignmentFact::Misaligned;
        else
          F.Alignment = AlignmentFact::Varies;
        if (Mis.size() == 1 && *Mis.begin() != 0)
          F.MisalignBytes = *Mis.begin();
        if (VecBad == 0)
          F.VectorAligned = true;
        else if (VecOk == 0)
          F.VectorAligned = false;
      } else if (M0.Groups == 1 && !DataDependent) {
        // What the stated alignment assumptions (unknown terms taken as
        // multiples of 32 bytes) give.
        F.AssumedAlignment = Misaligned == 0 ? AlignmentFact::Aligned
                             : Aligned == 0  ? AlignmentFact::Misaligned
                                             : AlignmentFact::Varies;
        if (Mis.size() == 1 && *Mis.begin() != 0)
          F.AssumedMisalignBytes = *Mis.begin();
      }
      // Per-thread contiguity: the run of this access (and its hand-unrolled
      // siblings) per iteration, extended by the loop when the loop steps by
      // exactly that run.
      int64_t RunBytes = int64_t(F.SiblingRun) * F.BytesPerLane;
      Contig = RunBytes;
      if (!F.Loops.empty() && F.Loops.back().StrideBytes) {
        int64_t S = *F.Loops.back().StrideBytes;
        if (S != 0 && (S == RunBytes || S == -RunBytes)) {
          if (F.Loops.back().Trip)
            Contig = RunBytes * std::max<int64_t>(1, *F.Loops.back().Trip);
          else
            Contig.reset(); // as long as the loop runs
        }
      }
      F.PerThreadContiguousBytes = Contig;
      F.RunStartAligned16 = M0.RunStart16;
      for (auto &[M, Wt] : G.Parts)
        if (M.RunStart16 != M0.RunStart16)
          F.RunStartAligned16.reset();
      F.FootprintUtilization = Foot;
      F.RunStartModulus = M0.RunModulus;
      F.RunStartResidue = M0.RunResidue;
      for (auto &[M, Wt] : G.Parts)
        if (M.RunModulus != M0.RunModulus || M.RunResidue != M0.RunResidue)
          F.RunStartModulus = 1;
    }
    double WalkWeight = 0;
    for (double Wt : Weights)
      WalkWeight += Wt;
    double Execs =
        WalkWeight > 0 ? std::max(1.0, G.Occurrences / WalkWeight) : 1.0;
    bool ExecKnown = true;
    for (const LoopFact &L : F.Loops) {
      if (!L.Trip)
        ExecKnown = false;
      else
        Execs *= static_cast<double>(*L.Trip);
    }
    if (ExecKnown)
      F.ExecutionsPerWarp = Execs;

    // The readable form and the term that spreads lanes apart.
    auto DI = DisplayByKey.find(K);
    if (DI != DisplayByKey.end() && DI->second->Offset) {
      Poly Shown = DI->second->Offset->lane(0);
      if (DisplayInterp)
        Shown = DisplayInterp->simplifyDivMod(Shown);
      F.Symbolic = Syms.str(Shown, elementSizeOf(*DI->second));
      F.StrideTerm = DI->second->StrideTerm;
      // The warp-uniform part, in elements.
      Poly Uniform;
      for (const Poly::Term &T : DI->second->Offset->lane(0).terms()) {
        bool PerThread = false;
        for (SymbolId S : T.Mono) {
          SymbolKind SK = Syms.get(S).Kind;
          PerThread = PerThread || SK == SymbolKind::ThreadIdx ||
                      SK == SymbolKind::LoopVar || SK == SymbolKind::LoopIter;
        }
        if (!PerThread)
          if (auto Sum = Poly::add(Uniform, Poly::term(T.Mono, T.Coeff)))
            Uniform = *Sum;
      }
      if (auto Sum =
              Poly::add(Uniform, Poly(DI->second->Offset->lane(0).constant())))
        Uniform = *Sum;
      int64_t Elem = elementSizeOf(*DI->second);
      if (auto Idx = Uniform.divideExact(Elem > 0 ? Elem : 1))
        F.BaseElementIndex = Syms.str(*Idx);
    }
    (void)SM;
    Result.Accesses.push_back(std::move(F));
  }
}

} // namespace

AnalysisResult analyze(ASTContext &Ctx, const AnalysisOptions &Opts) {
  AnalysisResult R;
  R.Regions = std::make_shared<std::deque<MemRegion>>();
  auto Include =
      Opts.IncludeKernel ? Opts.IncludeKernel : [&Ctx](SourceLocation Loc) {
        const SourceManager &SM = Ctx.getSourceManager();
        return SM.isInMainFile(SM.getExpansionLoc(Loc));
      };
  std::vector<KernelConfig> Configs = findKernels(Ctx, Opts.BlockDims, Include);
  for (const KernelConfig &KC : Configs) {
    KernelInfo KI;
    KI.Decl = KC.Decl;
    KI.Name = KC.Name;
    KI.Shape = KC.Shape;
    if (Opts.ClaimKernel && !Opts.ClaimKernel(KI))
      continue;
    R.Kernels.push_back(KI);
    KernelAnalysis(Ctx, KC, R.Kernels.size() - 1, R, Opts).run();
  }
  sortAccesses(Ctx, R);
  computeEmittedWidths(Ctx, R);
  return R;
}

AnalysisResult analyzeKernel(ASTContext &Ctx, const KernelInfo &Kernel,
                             const AnalysisOptions &Opts) {
  AnalysisResult R;
  R.Regions = std::make_shared<std::deque<MemRegion>>();
  R.Kernels.push_back(Kernel);
  KernelConfig KC{Kernel.Decl, Kernel.Name, Kernel.Shape};
  KernelAnalysis(Ctx, KC, 0, R, Opts).run();
  sortAccesses(Ctx, R);
  computeEmittedWidths(Ctx, R);
  return R;
}

void sortAccesses(ASTContext &Ctx, AnalysisResult &R) {
  // Source order, then kernel.
  const SourceManager &SM = Ctx.getSourceManager();
  std::stable_sort(R.Accesses.begin(), R.Accesses.end(),
                   [&](const AccessFacts &A, const AccessFacts &B) {
                     SourceLocation LA = SM.getExpansionLoc(A.E->getBeginLoc());
                     SourceLocation LB = SM.getExpansionLoc(B.E->getBeginLoc());
                     if (LA != LB)
                       return SM.isBeforeInTranslationUnit(LA, LB);
                     return A.Kernel < B.Kernel;
                   });
}

} // namespace cal

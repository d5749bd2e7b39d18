//===- VectorRewrite.cpp --------------------------------------------------===//

#include "analyzer/VectorRewrite.h"

#include "analyzer/CostModel.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace cal {

const char *vectorFormName(VectorForm F) {
  switch (F) {
  case VectorForm::Run:
    return "run";
  case VectorForm::Striped:
    return "striped";
  case VectorForm::WarpStride:
    return "warp-stride";
  case VectorForm::Tile:
    return "tile";
  case VectorForm::OnePerThread:
    return "one-per-thread";
  }
  return "run";
}

namespace {

/// Whether a hand-unrolled run of \p RunBytes starting at \p E is adjacent
/// fields of one aggregate that the compiler already loads with one vector
/// instruction: nvcc merges `v.x + v.y + v.z + v.w` of a float4 (or of any
/// 16-byte-aligned struct) into one ld.v4, `p.x + p.y` of an 8-aligned pair
/// into ld.v2, when the run is a power of two of at most 16 bytes, starts at
/// a multiple of its size within the object and the object's alignment
/// covers it.
bool compilerMergesFields(const clang::ASTContext &Ctx, const clang::Expr *E,
                          int64_t RunBytes) {
  if (RunBytes > 16 || (RunBytes & (RunBytes - 1)) != 0)
    return false;
  const auto *M = llvm::dyn_cast<clang::MemberExpr>(E->IgnoreParenImpCasts());
  if (!M)
    return false;
  const auto *FD = llvm::dyn_cast<clang::FieldDecl>(M->getMemberDecl());
  if (!FD || FD->isBitField())
    return false;
  clang::QualType T = M->getBase()->getType();
  if (M->isArrow())
    T = T->getPointeeType();
  const clang::RecordDecl *RD = T.isNull() ? nullptr : T->getAsRecordDecl();
  if (!RD || !RD->getDefinition() || T->isIncompleteType() ||
      T->isDependentType())
    return false;
  int64_t Align = Ctx.getTypeAlignInChars(T).getQuantity();
  int64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
  int64_t Offset = Ctx.getASTRecordLayout(FD->getParent())
                       .getFieldOffset(FD->getFieldIndex()) /
                   Ctx.getCharWidth();
  return Align >= RunBytes && Offset % RunBytes == 0 &&
         Offset + RunBytes <= Size;
}

/// A global load or store of fewer than 16 bytes a lane, its lanes in one
/// group at a constant stride.
bool narrowGlobal(const AccessFacts &F) {
  return F.Space == MemSpace::Global && F.Kind != AccessKind::Atomic &&
         F.AddressKnown && F.BytesPerLane > 0 && F.BytesPerLane < 16 &&
         F.Pieces == 1 && F.LaneGroups == 1 && F.LaneStrideBytes &&
         F.ActiveLanes >= 2;
}

bool contiguous(const AccessFacts &F) {
  return *F.LaneStrideBytes == F.BytesPerLane && 16 % F.BytesPerLane == 0;
}

/// The rewrite one access admits, before grouping.
struct Shape {
  VectorForm Form = VectorForm::Run;
  unsigned Target = 16;
  /// The loop whose trips the rewrite divides (innermost), else null.
  const clang::Stmt *Loop = nullptr;
  std::string Why;
};

/// Hand-unrolled neighbours that fill the lanes' gaps exactly, at the
/// run's first access: one 16-byte (8-byte) piece per 16 (8) bytes.
std::optional<Shape> runShape(clang::ASTContext &Ctx, const AccessFacts &F) {
  int64_t RunBytes = int64_t(F.SiblingRun) * F.BytesPerLane;
  if (F.SiblingRun < 2 || !F.LaneOffsets || *F.LaneStrideBytes != RunBytes ||
      F.SiblingIndex != 0 || compilerMergesFields(Ctx, F.E, RunBytes))
    return std::nullopt;
  if (RunBytes < 16 && !(RunBytes >= 8 && RunBytes % 8 == 0))
    return std::nullopt;
  Shape S;
  S.Target = RunBytes < 16 ? 8 : 16;
  return S;
}

/// The two sides of a plain assignment: `a = b`, or a class's `operator=`
/// (`__nv_bfloat16`, `__half`).
std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
sidesOf(const clang::Expr *S) {
  if (const auto *B = llvm::dyn_cast<clang::BinaryOperator>(S))
    if (B->getOpcode() == clang::BO_Assign)
      return std::make_pair(B->getLHS(), B->getRHS());
  if (const auto *C = llvm::dyn_cast<clang::CXXOperatorCallExpr>(S))
    if (C->getOperator() == clang::OO_Equal && C->getNumArgs() == 2)
      return std::make_pair(C->getArg(0), C->getArg(1));
  return std::nullopt;
}

/// The sides of the assignment that \p E is on (walking up through
/// expressions only); \p OnLeft says which side.
std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
assignmentOf(clang::ASTContext &Ctx, const clang::Expr *E, bool &OnLeft) {
  const clang::Stmt *Child = E;
  for (int Depth = 0; Depth < 32; ++Depth) {
    auto Parents = Ctx.getParents(*Child);
    if (Parents.size() != 1)
      return std::nullopt;
    const auto *S = Parents[0].get<clang::Expr>();
    if (!S)
      return std::nullopt;
    if (auto Sides = sidesOf(S)) {
      OnLeft = Sides->first == Child;
      return Sides;
    }
    Child = S;
  }
  return std::nullopt;
}

void collectStmts(const clang::Stmt *S,
                  llvm::SmallPtrSetImpl<const clang::Stmt *> &Out) {
  if (!S)
    return;
  Out.insert(S);
  for (const clang::Stmt *C : S->children())
    collectStmts(C, Out);
}

/// The access is one side of a copy, `dst[...] = f(src[...])`: the value
/// stored is computed from one load of the same iteration and nothing else
/// in memory, so which thread moves which element is free (a tile load, a
/// copy), and K iterations may move in one instruction.
bool isCopy(clang::ASTContext &Ctx, const AnalysisResult &R,
            const AccessFacts &F) {
  bool OnLeft = false;
  auto A = assignmentOf(Ctx, F.E, OnLeft);
  if (!A || OnLeft != (F.Kind == AccessKind::Store))
    return false;
  llvm::SmallPtrSet<const clang::Stmt *, 32> Rhs;
  collectStmts(A->second, Rhs);
  const clang::Expr *Lhs = A->first->IgnoreParens();
  unsigned Loads = 0;
  bool Stored = false;
  for (const AccessFacts &O : R.Accesses) {
    if (O.Kernel != F.Kernel || O.CallStack != F.CallStack)
      continue;
    if (O.Kind == AccessKind::Load && Rhs.count(O.E))
      ++Loads;
    if (O.Kind == AccessKind::Store && O.E->IgnoreParens() == Lhs)
      Stored = true;
  }
  return Stored && Loads == 1;
}

/// The threads per block the access's loop step is compared with (1024
/// when the block is unknown: the largest).
int64_t blockThreads(const KernelInfo &K) {
  if (!K.Shape.Dim)
    return 1024;
  const Dim3 &D = *K.Shape.Dim;
  return D[0] * D[1] * D[2];
}

/// A symbolic step (`blockDim.x`, `blockDim.x * gridDim.x`) that the block's
/// or the grid's threads fill: the note that says so.
std::string symbolicStripe(const AccessFacts &F, const LoopFact &L,
                           const KernelInfo &K) {
  bool Grid = L.StrideSymbolic.find("gridDim") != std::string::npos;
  std::string Whose = Grid ? "grid's" : "block's";
  return "the loop steps by " + L.StrideSymbolic + " bytes, " +
         (*L.StrideBlockRuns > 1
              ? "which the " + Whose +
                    " threads read whole with this and the iteration's other "
                    "accesses of `" +
                    F.Array + "`"
              : "no farther than the " + Whose +
                    " threads reach in one iteration") +
         (K.Shape.Dim ? "" : " (blockDim.x assumed a multiple of 32)") +
         ": the warps' requests of successive iterations tile the data";
}

/// A loop over the data with the warp's lanes contiguous: the step a whole
/// number of warp runs, filled by the block's (or grid's) threads (striped,
/// warp-stride), or rows farther apart than the block reaches, in a copy
/// whose trips K divides (a tile).
std::optional<Shape> loopShape(clang::ASTContext &Ctx, const AnalysisResult &R,
                               const AccessFacts &F) {
  if (F.Loops.empty() || !contiguous(F))
    return std::nullopt;
  const LoopFact &L = F.Loops.back();
  // A loop the lanes run fewer than twice on average (an epilogue, a tail
  // over a few bins) leaves no instructions to save.
  if ((L.Trip && *L.Trip < 2) ||
      (!L.Trip && L.TripMin && L.TripMax && *L.TripMin + *L.TripMax < 4))
    return std::nullopt;
  int64_t Span = int64_t(F.ActiveLanes) * F.BytesPerLane;
  const KernelInfo &K = R.Kernels[F.Kernel];
  Shape S;
  S.Loop = L.Loop;
  if (L.StrideBytes) {
    int64_t Step = *L.StrideBytes;
    if (Step <= 0 || Step % Span != 0)
      return std::nullopt;
    int64_t Reach = blockThreads(K) * F.BytesPerLane * L.StrideCoveredRuns;
    if (Step <= Reach) {
      S.Form = Step == Span ? VectorForm::WarpStride : VectorForm::Striped;
      return S;
    }
    int64_t PerVector = 16 / F.BytesPerLane;
    if (F.ActiveLanes != WarpSize || !L.Trip || *L.Trip % PerVector != 0 ||
        !isCopy(Ctx, R, F))
      return std::nullopt;
    S.Form = VectorForm::Tile;
    S.Why = "the loop copies rows " + std::to_string(Step) +
            " bytes apart in " + std::to_string(*L.Trip) +
            " trips: one 16-byte access a lane takes " +
            std::to_string(PerVector) + " trips' " + std::to_string(Span) +
            "-byte runs, " + std::to_string(Span / 16) + " lanes each";
    return S;
  }
  if (L.StrideBlockRuns && L.StrideWholeWarps && F.ActiveLanes == WarpSize &&
      *L.StrideBlockRuns <= double(L.StrideCoveredRuns)) {
    S.Form = VectorForm::Striped;
    S.Why = symbolicStripe(F, L, K);
    return S;
  }
  return std::nullopt;
}

/// One element per thread outside any loop, the warp's lanes contiguous.
bool onePerThread(const AccessFacts &F) {
  return F.Loops.empty() && contiguous(F) && F.SiblingRun == 1 &&
         F.ActiveLanes == WarpSize;
}

/// Every global access of the kernel is one element per thread, or the same
/// address in every lane: the kernel's element mapping is what changes
/// (not when its threads already walk the data, nor for a gather).
bool kernelIsElementwise(const AnalysisResult &R, size_t Kernel) {
  bool Any = false;
  for (const AccessFacts &O : R.Accesses) {
    if (O.Kernel != Kernel || O.Space != MemSpace::Global)
      continue;
    if (!O.AddressKnown)
      return false;
    for (const LoopFact &L : O.Loops)
      if (!L.StrideBytes || *L.StrideBytes != 0)
        return false;
    bool Uniform =
        O.LaneGroups == 1 && O.LaneStrideBytes && *O.LaneStrideBytes == 0;
    bool Mine = narrowGlobal(O) && onePerThread(O);
    if (!Uniform && !Mine)
      return false;
    Any = Any || Mine;
  }
  return Any;
}

/// The rewrite's instructions per warp for one access of \p Exec
/// executions per warp (run: its \p Pieces vector pieces).
double requestsAfter(const AccessFacts &F, const Shape &S, double Exec,
                     unsigned Pieces) {
  switch (S.Form) {
  case VectorForm::Run:
    return Exec * Pieces;
  case VectorForm::OnePerThread:
    return Exec;
  default:
    return Exec * F.BytesPerLane / S.Target;
  }
}

/// The lanes' offsets under the rewrite: where they are (a run), K trips'
/// runs side by side (a tile), or \p S.Target apart.
std::array<int64_t, WarpSize> offsetsAfter(const AccessFacts &F,
                                           const Shape &S) {
  std::array<int64_t, WarpSize> Off{};
  int64_t LanesPerRun = int64_t(WarpSize) * F.BytesPerLane / S.Target;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (S.Form == VectorForm::Run)
      Off[L] = (*F.LaneOffsets)[L];
    else if (S.Form == VectorForm::Tile)
      Off[L] = int64_t(L) / LanesPerRun * *F.Loops.back().StrideBytes +
               int64_t(L) % LanesPerRun * S.Target;
    else
      Off[L] = int64_t(L) * S.Target;
  }
  return Off;
}

/// The access rewritten: its lanes' offsets, per-request figures,
/// executions and (for a loop) the loop's trips divided.
AccessFacts rewritten(const AccessFacts &F, const Shape &S, unsigned Pieces) {
  WarpRequest Req;
  Req.BytesPerLane = S.Target;
  Req.Active = F.ActiveMask;
  Req.Offset = offsetsAfter(F, S);
  int64_t Base = F.Alignment == AlignmentFact::Aligned ? 0
                 : F.MisalignBytes                     ? *F.MisalignBytes
                                                       : 0;
  RequestCost C = costOf(Req, Base);
  AccessFacts A = F;
  A.BytesPerLane = S.Target;
  A.LaneOffsets = Req.Offset;
  if (S.Form == VectorForm::Tile)
    A.LaneStrideBytes.reset();
  else if (S.Form != VectorForm::Run)
    A.LaneStrideBytes = S.Target;
  A.SectorsPerRequest = C.Sectors;
  A.LinesPerRequest = C.Lines;
  A.PartialSectorsPerRequest = C.PartialSectors;
  A.BytesPerRequest = C.BytesUsed;
  A.SectorUtilization =
      C.Sectors ? double(C.BytesUsed) / (32.0 * C.Sectors) : 0;
  if (S.Form == VectorForm::Run) {
    A.SiblingRun = Pieces;
    A.SiblingIndex = 0;
  }
  bool Loop = S.Form != VectorForm::Run && S.Form != VectorForm::OnePerThread;
  if (Loop && A.Loops.back().Trip) {
    int64_t PerVector = S.Target / F.BytesPerLane;
    A.Loops.back().Trip = (*A.Loops.back().Trip + PerVector - 1) / PerVector;
  }
  if (F.ExecutionsPerWarp)
    A.ExecutionsPerWarp = requestsAfter(F, S, *F.ExecutionsPerWarp, Pieces);
  return A;
}

/// One group: the accesses one rewrite changes, with the shape of each.
struct Group {
  size_t Kernel = 0;
  std::vector<std::pair<size_t, Shape>> Members; ///< source order
  /// Run: the siblings merged into each member (dropped from the kernel).
  std::vector<size_t> Merged;
};

/// The kernel's launch under a one-element-per-thread rewrite: K times
/// fewer blocks, each thread doing K elements' arithmetic.
void fewerThreads(KernelInfo &K, FlopCount &Flops, int64_t PerVector,
                  std::optional<double> &Blocks) {
  if (!K.Shape.Grid)
    return;
  Dim3 &Grid = *K.Shape.Grid;
  Grid[0] = (Grid[0] + PerVector - 1) / PerVector;
  Blocks = double(Grid[0]) * double(Grid[1]) * double(Grid[2]);
  for (double *C : {&Flops.Fma32, &Flops.Mul32, &Flops.Add32, &Flops.Div32,
                    &Flops.Fma64, &Flops.Mul64, &Flops.Add64, &Flops.Div64})
    *C *= double(PerVector);
}

unsigned piecesOf(const AccessFacts &F, const Shape &S) {
  int64_t RunBytes = int64_t(F.SiblingRun) * F.BytesPerLane;
  return unsigned((RunBytes + S.Target - 1) / S.Target);
}

/// Prices one group: the kernel predicted with the group rewritten (the
/// same arithmetic), against \p Before; fills each member's facts.
void priceGroup(AnalysisResult &R, const Group &G,
                const KernelPrediction &Before) {
  AnalysisResult W;
  W.Kernels = {R.Kernels[G.Kernel]};
  W.Regions = R.Regions;
  const auto &[LeadIndex, First] = G.Members.front();
  std::optional<double> BlocksAfter;
  FlopCount Flops = Before.Flops;
  if (First.Form == VectorForm::OnePerThread)
    fewerThreads(W.Kernels[0], Flops,
                 First.Target / R.Accesses[LeadIndex].BytesPerLane,
                 BlocksAfter);
  std::map<size_t, AccessFacts> After;
  for (const auto &[I, S] : G.Members)
    After.emplace(I, rewritten(R.Accesses[I], S, piecesOf(R.Accesses[I], S)));
  for (size_t I = 0; I < R.Accesses.size(); ++I) {
    if (R.Accesses[I].Kernel != G.Kernel ||
        std::find(G.Merged.begin(), G.Merged.end(), I) != G.Merged.end())
      continue;
    auto It = After.find(I);
    W.Accesses.push_back(It != After.end() ? It->second : R.Accesses[I]);
    W.Accesses.back().Kernel = 0;
  }
  KernelPrediction P = predictKernel(W, 0, &Flops);
  VectorizedFacts V;
  V.Form = First.Form;
  for (const auto &[I, S] : G.Members)
    V.Group.push_back(I);
  V.Group.insert(V.Group.end(), G.Merged.begin(), G.Merged.end());
  std::sort(V.Group.begin(), V.Group.end());
  V.Lead = LeadIndex;
  V.BlocksAfter = BlocksAfter;
  V.Why = First.Why;
  V.Regime = Before.Regime;
  if (Before.Complete && P.Complete) {
    V.TimeBefore = Before.Time;
    V.TimeAfter = P.Time;
  } else {
    for (const std::string &M : Before.Missing)
      if (std::find(V.Missing.begin(), V.Missing.end(), M) == V.Missing.end())
        V.Missing.push_back(M);
  }
  for (const auto &[I, S] : G.Members) {
    AccessFacts &F = R.Accesses[I];
    const AccessFacts &A = After.at(I);
    VectorizedFacts Mine = V;
    Mine.BytesPerLane = S.Target;
    double Exec = F.ExecutionsPerWarp.value_or(1);
    Mine.ExecutionsKnown = F.ExecutionsPerWarp.has_value();
    Mine.RequestsBefore = Exec * (S.Form == VectorForm::Run ? F.SiblingRun : 1);
    Mine.RequestsAfter = requestsAfter(F, S, Exec, piecesOf(F, S));
    Mine.LinesAfter = A.LinesPerRequest.value_or(0);
    Mine.SectorsAfter = A.SectorsPerRequest.value_or(0);
    F.Vectorized = Mine;
  }
}

/// The other half of a compound assignment `a[i] += x`: a load and a store
/// of the same element at the same expression.
std::optional<size_t> compoundPartner(const AnalysisResult &R, size_t I) {
  const AccessFacts &F = R.Accesses[I];
  for (size_t J = 0; J < R.Accesses.size(); ++J) {
    const AccessFacts &O = R.Accesses[J];
    if (J != I && O.E == F.E && O.Kernel == F.Kernel &&
        O.CallStack == F.CallStack && O.Piece == F.Piece && O.Kind != F.Kind &&
        O.Kind != AccessKind::Atomic)
      return J;
  }
  return std::nullopt;
}

/// The siblings that continue run \p I (its neighbours of the same
/// iteration, after it in source order).
std::vector<size_t> siblingsOf(const AnalysisResult &R, size_t I) {
  const AccessFacts &F = R.Accesses[I];
  std::vector<size_t> Out;
  for (size_t J = I + 1; J < R.Accesses.size() && J < I + F.SiblingRun; ++J)
    if (R.Accesses[J].Kernel == F.Kernel && R.Accesses[J].Region == F.Region)
      Out.push_back(J);
  return Out;
}

/// The groups of \p R: a run with its compound partner's; the accesses of
/// one loop that move the same way; the one-element accesses of a kernel.
std::vector<Group> groupsOf(AnalysisResult &R) {
  std::vector<Group> Groups;
  std::map<size_t, size_t> RunGroup; // run lead -> group
  std::map<std::tuple<size_t, const clang::Stmt *, int, unsigned,
                      std::vector<const clang::Expr *>>,
           size_t>
      LoopGroup;
  std::map<size_t, size_t> ThreadGroup; // kernel -> group
  std::map<size_t, bool> Elementwise;
  for (size_t I = 0; I < R.Accesses.size(); ++I) {
    const AccessFacts &F = R.Accesses[I];
    if (!narrowGlobal(F) || !R.Kernels[F.Kernel].Decl)
      continue;
    clang::ASTContext &Ctx = R.Kernels[F.Kernel].Decl->getASTContext();
    if (auto S = runShape(Ctx, F)) {
      std::optional<size_t> P = compoundPartner(R, I);
      size_t GI = Groups.size();
      if (P && RunGroup.count(*P))
        GI = RunGroup[*P];
      else
        Groups.push_back(Group{F.Kernel, {}, {}});
      RunGroup[I] = GI;
      Groups[GI].Members.push_back({I, *S});
      for (size_t J : siblingsOf(R, I))
        Groups[GI].Merged.push_back(J);
    } else if (auto S = loopShape(Ctx, R, F)) {
      auto Key = std::make_tuple(F.Kernel, S->Loop, int(S->Form),
                                 F.BytesPerLane, F.CallStack);
      auto [It, New] = LoopGroup.try_emplace(Key, Groups.size());
      if (New)
        Groups.push_back(Group{F.Kernel, {}, {}});
      Groups[It->second].Members.push_back({I, *S});
    } else if (onePerThread(F)) {
      auto [E, NewK] = Elementwise.try_emplace(F.Kernel, false);
      if (NewK)
        E->second = kernelIsElementwise(R, F.Kernel);
      if (!E->second)
        continue;
      auto [It, New] = ThreadGroup.try_emplace(F.Kernel, Groups.size());
      if (New)
        Groups.push_back(Group{F.Kernel, {}, {}});
      Shape S;
      S.Form = VectorForm::OnePerThread;
      Groups[It->second].Members.push_back({I, S});
    }
  }
  // A one-element-per-thread kernel's threads take K elements each, K set
  // by its widest element: that one moves 16 bytes, a narrower one less.
  for (const auto &[Kernel, GI] : ThreadGroup) {
    unsigned Widest = 0;
    for (const auto &[I, S] : Groups[GI].Members)
      Widest = std::max(Widest, R.Accesses[I].BytesPerLane);
    for (auto &[I, S] : Groups[GI].Members)
      S.Target = R.Accesses[I].BytesPerLane * (16 / Widest);
  }
  return Groups;
}

} // namespace

void predictVectorizedRewrites(AnalysisResult &R) {
  std::vector<Group> Groups = groupsOf(R);
  std::map<size_t, KernelPrediction> Before;
  for (const Group &G : Groups) {
    auto It = Before.find(G.Kernel);
    if (It == Before.end())
      It = Before.emplace(G.Kernel, predictKernel(R, G.Kernel)).first;
    priceGroup(R, G, It->second);
  }
}

} // namespace cal

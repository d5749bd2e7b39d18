//===- Siblings.cpp ------------------------------------------------------===//
//
// Accesses that belong together: adjacent field loads merged into one vector
// load, hand-unrolled runs and neighbours.
//
//===----------------------------------------------------------------------===//

#include "analyzer/pipeline/KernelAnalysis.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <unordered_map>

namespace cal {
namespace pipeline {

using namespace clang;

namespace {

/// A load of one field of a struct (or vector) element.
struct FieldLoad {
  size_t Index;
  const RecordDecl *RD;
  int64_t FieldOff, Size;
  LaneVec Base; // the element's address
};

std::optional<FieldLoad> fieldLoad(ASTContext &Ctx, const RawAccess &A,
                                   size_t Index) {
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
  int64_t Off = Ctx.getASTRecordLayout(RD).getFieldOffset(FD->getFieldIndex()) /
                Ctx.getCharWidth();
  auto Base =
      A.Offset->map([&](const Poly &P) { return Poly::sub(P, Poly(Off)); });
  if (!Base)
    return std::nullopt;
  return FieldLoad{Index, RD, Off, int64_t(A.Bytes), *Base};
}

/// The loads of fields of \p First's element after it in the same
/// iteration, up to a store to the same object; \p First first.
std::vector<FieldLoad> sameElementLoads(ASTContext &Ctx,
                                        const std::vector<RawAccess> &Raw,
                                        const std::vector<bool> &Drop,
                                        const FieldLoad &First) {
  const RawAccess &A = Raw[First.Index];
  std::vector<FieldLoad> Group{First};
  for (size_t J = First.Index + 1; J < Raw.size(); ++J) {
    const RawAccess &B = Raw[J];
    if (B.Region == A.Region && B.Kind != AccessKind::Load)
      break; // a store between: not merged across it
    if (Drop[J] || B.Region != A.Region || B.CallStack != A.CallStack ||
        B.Active != A.Active || !sameLoops(B, A))
      continue;
    auto M = fieldLoad(Ctx, B, J);
    if (!M || M->RD != First.RD || !(M->Base == First.Base))
      continue;
    Group.push_back(*M);
  }
  return Group;
}

/// The run [Lo, Lo + Run) of the element that the fields read cover, when
/// it is one vector load: 2, 4, 8 or 16 bytes, covered without a gap, at a
/// multiple of its size, within the element's alignment.
std::optional<std::pair<int64_t, int64_t>>
vectorRun(ASTContext &Ctx, const std::vector<FieldLoad> &Group) {
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  std::set<int64_t> Fields;
  std::vector<std::pair<int64_t, int64_t>> Iv;
  for (const FieldLoad &M : Group) {
    Lo = std::min(Lo, M.FieldOff);
    Hi = std::max(Hi, M.FieldOff + M.Size);
    Fields.insert(M.FieldOff);
    Iv.push_back({M.FieldOff, M.FieldOff + M.Size});
  }
  int64_t Run = Hi - Lo;
  // Contiguous: the fields' bytes cover [Lo, Hi).
  std::sort(Iv.begin(), Iv.end());
  int64_t Reach = Lo;
  bool Covered = true;
  for (auto &[A, B] : Iv) {
    if (A > Reach)
      Covered = false;
    Reach = std::max(Reach, B);
  }
  QualType RT = Ctx.getCanonicalTagType(Group.front().RD);
  int64_t Align = Ctx.getTypeAlignInChars(RT).getQuantity();
  if (!Covered || Fields.size() < 2 || Run > 16 || !llvm::isPowerOf2_64(Run) ||
      Lo % Run != 0 || Align < Run)
    return std::nullopt;
  return std::make_pair(Lo, Run);
}

/// The group becomes one access of the run, at the lowest field read; the
/// others are dropped (their assumptions kept).
void mergeGroup(ASTContext &Ctx, std::vector<RawAccess> &Raw,
                std::vector<bool> &Drop, const std::vector<FieldLoad> &Group,
                int64_t Lo, int64_t Run) {
  const FieldLoad &First = Group.front();
  size_t Keep = First.Index;
  for (const FieldLoad &M : Group)
    if (M.FieldOff == Lo) {
      Keep = M.Index;
      break;
    }
  RawAccess &K = Raw[Keep];
  K.Bytes = static_cast<unsigned>(Run);
  QualType RT = Ctx.getCanonicalTagType(First.RD);
  if (Run == Ctx.getTypeSizeInChars(RT).getQuantity())
    K.Type = RT;
  auto Moved =
      First.Base.map([&](const Poly &P) { return Poly::add(P, Poly(Lo)); });
  if (Moved)
    K.Offset = *Moved;
  for (const FieldLoad &M : Group) {
    if (M.Index == Keep)
      continue;
    Drop[M.Index] = true;
    addAssumptions(K.Assumptions, Raw[M.Index].Assumptions);
  }
}

} // namespace

void mergeFieldLoads(ASTContext &Ctx, std::vector<RawAccess> &Raw) {
  std::vector<bool> Drop(Raw.size(), false);
  for (size_t I = 0; I < Raw.size(); ++I) {
    if (Drop[I])
      continue;
    auto First = fieldLoad(Ctx, Raw[I], I);
    if (!First)
      continue;
    std::vector<FieldLoad> Group = sameElementLoads(Ctx, Raw, Drop, *First);
    if (Group.size() < 2)
      continue;
    if (auto R = vectorRun(Ctx, Group))
      mergeGroup(Ctx, Raw, Drop, Group, R->first, R->second);
  }
  std::vector<RawAccess> Kept;
  for (size_t I = 0; I < Raw.size(); ++I)
    if (!Drop[I])
      Kept.push_back(std::move(Raw[I]));
  Raw = std::move(Kept);
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
/// The walk's accesses grouped for linkSiblings(): by shape (region, bytes,
/// the lanes' offsets from lane 0), then by the symbolic part of lane 0.
struct KernelAnalysis::SiblingIndex {
  struct Shape {
    const MemRegion *Region;
    unsigned Bytes;
    std::vector<Poly> Deltas; // lane l minus lane 0, l = 1..31
    bool operator==(const Shape &O) const {
      return Region == O.Region && Bytes == O.Bytes && Deltas == O.Deltas;
    }
  };
  static size_t hashShape(const Shape &S) {
    llvm::hash_code H = llvm::hash_combine(S.Region, S.Bytes);
    for (const Poly &D : S.Deltas)
      H = llvm::hash_combine(H, D.hash());
    return size_t(H);
  }
  /// The accesses of one shape whose lane-0 offsets share their symbolic
  /// part: the constant distances among them are differences of constants.
  struct ConstGroup {
    std::vector<std::pair<int64_t, size_t>> Members; // (constant, index)
  };
  struct GroupKeyHash {
    size_t operator()(const std::pair<size_t, Poly> &K) const {
      return llvm::hash_combine(K.first, K.second.hash());
    }
  };
  // Same kind and same loops (sameLoops) within a shape: the uniform
  // groups; within a constant group: the constants of each.
  using LoopsKey = std::vector<std::pair<const void *, uint64_t>>;
  static LoopsKey loopsKey(const RawAccess &A) {
    LoopsKey K;
    for (const auto &L : A.Loops)
      K.push_back({L.Loop, uint64_t(L.Sym)});
    return K;
  }
  using KindLoops = std::tuple<size_t, AccessKind, LoopsKey>;

  std::vector<Shape> Shapes;
  std::unordered_map<size_t, std::vector<size_t>> ShapesByHash;
  std::vector<ConstGroup> Groups;
  std::unordered_map<std::pair<size_t, Poly>, size_t, GroupKeyHash> GroupOf;
  std::map<KindLoops, size_t> UniformByKey;
  std::map<KindLoops, std::unordered_set<int64_t>> ConstantsByKey;
  /// Each access's constant group (none: its address is unknown or
  /// overflows).
  std::vector<std::optional<size_t>> GroupIdx;

  size_t shapeIndex(Shape S) {
    size_t H = hashShape(S);
    for (size_t Cand : ShapesByHash[H])
      if (Shapes[Cand] == S)
        return Cand;
    Shapes.push_back(std::move(S));
    ShapesByHash[H].push_back(Shapes.size() - 1);
    return Shapes.size() - 1;
  }
};

void KernelAnalysis::linkSiblings(const std::vector<RawAccess> &Raw,
                                  std::map<const RawAccess *, Sibling> &Out) {
  SiblingIndex X;
  indexSiblings(Raw, X);
  for (size_t I = 0; I < Raw.size(); ++I) {
    Sibling &S = Out[&Raw[I]];
    if (X.GroupIdx[I])
      S = siblingOf(Raw, I, X);
  }
}

void KernelAnalysis::indexSiblings(const std::vector<RawAccess> &Raw,
                                   SiblingIndex &X) {
  UniformGroups.clear();
  UniformGroupOf.clear();
  X.GroupIdx.assign(Raw.size(), std::nullopt);
  for (size_t I = 0; I < Raw.size(); ++I) {
    const RawAccess &A = Raw[I];
    if (!A.Offset)
      continue;
    SiblingIndex::Shape S{A.Region, A.Bytes, {}};
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
    size_t ShapeIdx = X.shapeIndex(std::move(S));
    auto [It, New] = X.GroupOf.try_emplace({ShapeIdx, L0.withoutConstant()},
                                           X.Groups.size());
    if (New)
      X.Groups.emplace_back();
    X.Groups[It->second].Members.push_back({L0.constant(), I});
    X.GroupIdx[I] = It->second;

    SiblingIndex::KindLoops UK{ShapeIdx, A.Kind, SiblingIndex::loopsKey(A)};
    auto [U, UNew] = X.UniformByKey.try_emplace(UK, UniformGroups.size());
    if (UNew)
      UniformGroups.emplace_back();
    UniformGroups[U->second].insert(L0);
    UniformGroupOf[&A] = U->second;
    X.ConstantsByKey[SiblingIndex::KindLoops{It->second, A.Kind,
                                             SiblingIndex::loopsKey(A)}]
        .insert(L0.constant());
  }
  for (SiblingIndex::ConstGroup &G : X.Groups)
    llvm::sort(G.Members);
}

KernelAnalysis::Sibling
KernelAnalysis::siblingOf(const std::vector<RawAccess> &Raw, size_t I,
                          SiblingIndex &X) const {
  const RawAccess &A = Raw[I];
  Sibling S;
  const SiblingIndex::ConstGroup &G = X.Groups[*X.GroupIdx[I]];
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
         It != G.Members.end() && It->first < C + int64_t(SectorBytes); ++It) {
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
      X.ConstantsByKey[SiblingIndex::KindLoops{*X.GroupIdx[I], A.Kind,
                                               SiblingIndex::loopsKey(A)}];
  auto Has = [&](int64_t D) { return D != 0 && Consts.count(C + D) > 0; };
  unsigned Before = 0, After = 0;
  while (Before < 16 && Has(-int64_t(Before + 1) * A.Bytes))
    ++Before;
  while (After < 16 && Has(int64_t(After + 1) * A.Bytes))
    ++After;
  S.Run = Before + After + 1;
  S.Index = Before;
  return S;
}

} // namespace pipeline
} // namespace cal

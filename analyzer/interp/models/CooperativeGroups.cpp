//===- CooperativeGroups.cpp ----------------------------------------------===//
//
// cooperative_groups, as values: a group is an AbsValue whose GroupValue
// says, for the calling lane, its rank in the group, the group's size, the
// group's index among its parent's partitions and their number. Groups
// come from
//
//   this_thread_block()          rank: the linear thread index; size: the
//                                block's threads;
//   tiled_partition<N>(parent),  rank: the parent's rank % N; size: N; meta
//   tiled_partition(parent, N)   rank: the parent's rank / N; meta size:
//                                ceil(parent's size / N) (the toolkit's
//                                (size + N - 1) / N). N must be a power of
//                                two up to 32, or up to 512 for the
//                                template (multi-warp tiles): what CUDA
//                                takes;
//   coalesced_threads()          the lanes active there: rank, the count of
//                                active lanes below this one; size, their
//                                count (unknown where the active lanes are
//                                not known: a branch not decided per lane);
//   this_grid()                  rank: the linear block index times the
//                                block's threads plus the thread's rank;
//
// and travel through variables, copies, conversions (thread_block_tile<32,
// thread_block> to thread_block_tile<32>, a tile to thread_group) and
// calls, so that `tile.size()` of a `thread_group tile =
// tiled_partition(block, 16)` is 16. A group whose value was not followed
// (a member of a struct, a group loaded from memory) is read from its
// static type where that says it: thread_block, grid_group, a
// thread_block_tile<N, Parent> of a block or of such a tile; a
// thread_block_tile<N> (its parent erased) knows its rank and size only.
//
// The members modelled: thread_rank(), size(), num_threads(),
// meta_group_rank(), meta_group_size(); thread_block's thread_index(),
// group_index(), group_dim(), dim_threads(); grid_group's block_rank(),
// num_blocks(), block_index(), dim_blocks(); and the free functions
// thread_rank(g), group_size(g), num_threads(g). The declaring class does
// not matter (the toolkit declares a tile's thread_rank() in
// __static_size_tile_base<N>, the built-in prelude in thread_block_tile).
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

namespace {

bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

/// A tile's size and parent type from its static type: the first
/// specialization, in the class or its bases, of one of the toolkit's or
/// the prelude's tile templates (thread_block_tile<N, Parent>,
/// __single_warp_thread_block_tile<N, Parent>, __static_size_tile_base<N>
/// ...). The parent is null where the type does not say it.
struct StaticTile {
  int64_t Size;
  QualType Parent;
};

std::optional<StaticTile> staticTile(const CXXRecordDecl *RD) {
  std::vector<const CXXRecordDecl *> Work = {RD};
  std::optional<StaticTile> Found;
  for (size_t I = 0; I < Work.size() && I < 32; ++I) {
    const CXXRecordDecl *Cur = Work[I];
    if (auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Cur)) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      llvm::StringRef N = Spec->getName();
      bool TileTemplate = N.contains("thread_block_tile") ||
                          N.contains("tile_base") ||
                          N == "tiled_partition_impl";
      if (TileTemplate && Args.size() >= 1 &&
          Args[0].getKind() == TemplateArgument::Integral) {
        if (!Found)
          Found = StaticTile{Args[0].getAsIntegral().getExtValue(), {}};
        if (Args.size() >= 2 && Args[1].getKind() == TemplateArgument::Type &&
            Args[1].getAsType()->getAsCXXRecordDecl())
          return StaticTile{Found->Size, Args[1].getAsType()};
      }
    }
    if (Cur->hasDefinition())
      for (const CXXBaseSpecifier &B : Cur->bases())
        if (const CXXRecordDecl *BR = B.getType()->getAsCXXRecordDecl())
          Work.push_back(BR);
  }
  return Found;
}

AbsValue groupValue(GroupValue G) {
  AbsValue V;
  V.K = AbsValue::Struct;
  V.Group = std::make_shared<const GroupValue>(std::move(G));
  return V;
}

AbsValue unknownGroup(GroupValue::Kind K, std::string Why) {
  GroupValue G;
  G.K = K;
  G.Why = std::move(Why);
  return groupValue(std::move(G));
}

} // namespace

AbsValue Interpreter::Impl::tileOf(const AbsValue &Parent, const AbsValue &N,
                                   const Expr *At, bool Static) {
  std::optional<int64_t> Size =
      N.isInt() ? N.Val.asConstant() : std::optional<int64_t>();
  if (!Size)
    return unknownGroup(GroupValue::Tile, N.isUnknown() && !N.Why.empty()
                                              ? N.Why
                                              : "the tile size of `" +
                                                    text(At) +
                                                    "` is not a constant");
  // tiled_partition(g, n) takes 1 .. 32 threads; tiled_partition<N>(g)
  // also takes the multi-warp tiles 64 .. 512 (thread_block_tile<N> with
  // N > 32: __static_size_multi_warp_tile_base).
  int64_t Max = Static ? 512 : 32;
  if (*Size <= 0 || *Size > Max || !llvm::isPowerOf2_64(*Size))
    return unknownGroup(GroupValue::Tile,
                        "`" + text(At) + "`: a tile of " +
                            std::to_string(*Size) +
                            " threads (CUDA takes a power of two up to " +
                            std::to_string(Max) + ")");
  if (!Parent.Group)
    return unknownGroup(GroupValue::Tile, Parent.Why);
  if (!Parent.Group->Why.empty())
    return unknownGroup(GroupValue::Tile, Parent.Group->Why);
  GroupValue G;
  G.K = GroupValue::Tile;
  G.Parent = Parent.Group;
  G.TileSize = *Size;
  return groupValue(std::move(G));
}

AbsValue Interpreter::Impl::groupArith(BinaryOperatorKind Op, const AbsValue &X,
                                       int64_t K, const Expr *E) {
  if (X.isInt()) {
    std::optional<LaneVec> R =
        Op == BO_Rem ? modulo(X.Val, K) : divide(X.Val, K);
    if (R)
      return AbsValue::integer(std::move(*R)).assuming(X);
    // The display walk names what it cannot write exactly by the call that
    // asks (`warp.thread_rank()`), not by the first call to compute it; a
    // rank varies with the thread as threadIdx does.
    if (W.Display) {
      SymbolId S = opaqueSymbol("cg:" + text(E) + (Op == BO_Rem ? "%" : "/") +
                                    std::to_string(K),
                                "(" + text(E) + ")");
      if (Op == BO_Rem)
        Syms.get(S).Kind = SymbolKind::ThreadIdx;
      return AbsValue::integer(Poly::symbol(S));
    }
  }
  return binaryInt(Op, X, AbsValue::integer(Poly(K)), E);
}

AbsValue Interpreter::Impl::coalescedGroup(const Expr *At) {
  GroupValue G;
  G.K = GroupValue::Coalesced;
  // The display walk's one lane stands for a warp whose lanes all run, and
  // decides no branch on the thread: its size is named, not counted.
  if (W.Display) {
    G.Lanes = UndecidedDepth > 0 ? 0 : AllLanes;
    return groupValue(std::move(G));
  }
  std::string Where = "the lanes active at `" + text(At) + "` are not known";
  if (UndecidedDepth > 0)
    return unknownGroup(GroupValue::Coalesced,
                        Where + ": a branch around it is not decided per lane");
  if (!ActiveInexact.empty())
    return unknownGroup(GroupValue::Coalesced, Where + ": " + ActiveInexact);
  for (const LoopRef &L : Loops)
    if (!L.Trip && !(L.TripMin && L.TripMax && *L.TripMin == *L.TripMax))
      return unknownGroup(GroupValue::Coalesced,
                          Where + ": lanes may leave the loop around it at "
                                  "different iterations");
  G.Lanes = Active;
  return groupValue(std::move(G));
}

AbsValue Interpreter::Impl::groupRank(const GroupValue &G, const Expr *E) {
  if (!G.Why.empty())
    return AbsValue::unknown(G.Why);
  auto Lin = linearTid();
  AbsValue Tid =
      Lin ? AbsValue::integer(*Lin) : AbsValue::unknown("thread rank");
  switch (G.K) {
  case GroupValue::Block:
    return Tid;
  case GroupValue::Tile:
    return groupArith(BO_Rem, groupRank(*G.Parent, E), G.TileSize, E);
  case GroupValue::Coalesced: {
    // With every lane of the warp: the lane's index in the warp; else the
    // count of active lanes below it.
    if (G.Lanes == AllLanes || W.Display)
      return groupArith(BO_Rem, Tid, WarpSize, E);
    std::array<Poly, WarpSize> Lanes;
    for (unsigned L = 0; L < WarpSize; ++L)
      Lanes[L] = Poly(int64_t(llvm::popcount(G.Lanes & ((1u << L) - 1))));
    return AbsValue::integer(LaneVec::perLane(Lanes));
  }
  case GroupValue::Grid:
    return binaryInt(
        BO_Add,
        binaryInt(BO_Mul, groupMetaRank(G, E), groupSize(GroupValue(), E), E),
        Tid, E);
  }
  return AbsValue::unknown("group");
}

AbsValue Interpreter::Impl::groupSize(const GroupValue &G, const Expr *E) {
  if (!G.Why.empty())
    return AbsValue::unknown(G.Why);
  switch (G.K) {
  case GroupValue::Block: {
    auto XY = Poly::mul(W.BlockDim[0], W.BlockDim[1]);
    auto XYZ = XY ? Poly::mul(*XY, W.BlockDim[2]) : std::nullopt;
    return XYZ ? AbsValue::integer(*XYZ) : AbsValue::unknown("block size");
  }
  case GroupValue::Tile: {
    if (G.Parent->K != GroupValue::Coalesced)
      return AbsValue::integer(Poly(G.TileSize));
    // A tile of a coalesced group: the last one holds what is left.
    AbsValue PSize = groupSize(*G.Parent, E), Meta = groupMetaRank(G, E);
    std::optional<int64_t> P =
        PSize.isInt() ? PSize.Val.asConstant() : std::optional<int64_t>();
    if (P && *P % G.TileSize == 0)
      return AbsValue::integer(Poly(G.TileSize));
    std::array<Poly, WarpSize> Lanes;
    for (unsigned L = 0; P && Meta.isInt() && L < WarpSize; ++L) {
      std::optional<int64_t> M = Meta.Val.lane(L).asConstant();
      if (!M)
        return AbsValue::unknown("the size of the last tile of `" + text(E) +
                                 "`");
      Lanes[L] = Poly(std::min(G.TileSize, *P - *M * G.TileSize));
    }
    if (!P || !Meta.isInt())
      return AbsValue::unknown("the size of the last tile of `" + text(E) +
                               "`");
    return AbsValue::integer(LaneVec::perLane(Lanes));
  }
  case GroupValue::Coalesced:
    if (W.Display && G.Lanes != AllLanes)
      return uniformOpaque("cg:" + text(E), E);
    return AbsValue::integer(Poly(int64_t(llvm::popcount(G.Lanes))));
  case GroupValue::Grid:
    return binaryInt(BO_Mul, groupMetaSize(G, E), groupSize(GroupValue(), E),
                     E);
  }
  return AbsValue::unknown("group");
}

AbsValue Interpreter::Impl::groupMetaRank(const GroupValue &G, const Expr *E) {
  if (!G.Why.empty() || !G.MetaWhy.empty())
    return AbsValue::unknown(!G.Why.empty() ? G.Why : G.MetaWhy);
  switch (G.K) {
  case GroupValue::Tile:
    return groupArith(BO_Div, groupRank(*G.Parent, E), G.TileSize, E);
  case GroupValue::Grid: {
    // block_rank() = bx + gx*(by + gy*bz).
    auto Sym = [&](llvm::StringRef V, int D) {
      return AbsValue::integer(Poly::symbol(builtinSymbol(V, D)));
    };
    AbsValue Inner = binaryInt(
        BO_Add, Sym("blockIdx", 1),
        binaryInt(BO_Mul, Sym("gridDim", 1), Sym("blockIdx", 2), E), E);
    return binaryInt(BO_Add, Sym("blockIdx", 0),
                     binaryInt(BO_Mul, Sym("gridDim", 0), Inner, E), E);
  }
  default:
    return AbsValue::integer(Poly(0));
  }
}

AbsValue Interpreter::Impl::groupMetaSize(const GroupValue &G, const Expr *E) {
  if (!G.Why.empty() || !G.MetaWhy.empty())
    return AbsValue::unknown(!G.Why.empty() ? G.Why : G.MetaWhy);
  switch (G.K) {
  case GroupValue::Tile:
    return binaryInt(BO_Div,
                     binaryInt(BO_Add, groupSize(*G.Parent, E),
                               AbsValue::integer(Poly(G.TileSize - 1)), E),
                     AbsValue::integer(Poly(G.TileSize)), E);
  case GroupValue::Grid: {
    // num_blocks() = gx*gy*gz.
    auto Sym = [&](int D) {
      return AbsValue::integer(Poly::symbol(builtinSymbol("gridDim", D)));
    };
    return binaryInt(BO_Mul, binaryInt(BO_Mul, Sym(0), Sym(1), E), Sym(2), E);
  }
  default:
    return AbsValue::integer(Poly(1));
  }
}

AbsValue Interpreter::Impl::groupFromType(QualType T, const std::string &Why,
                                          const Expr *At) {
  if (T->isPointerType() || T->isReferenceType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !inCooperativeGroups(RD))
    return AbsValue::unknown(Why.empty() ? "not a cooperative group" : Why);
  GroupValue G;
  if (RD->getName() == "thread_block")
    return groupValue(G);
  if (RD->getName() == "grid_group") {
    G.K = GroupValue::Grid;
    return groupValue(G);
  }
  std::string Name = "`" + T.getUnqualifiedType().getAsString() + "`";
  std::optional<StaticTile> ST = staticTile(RD);
  if (!ST)
    return unknownGroup(
        GroupValue::Coalesced,
        !Why.empty() ? Why : "the lanes of a " + Name + " are not known");
  // A static tile's rank is the block's thread rank % N whatever its parent
  // (the toolkit's `cta::thread_rank() & (N - 1)`); its place among its
  // parent's tiles needs the parent.
  AbsValue Parent =
      ST->Parent.isNull() ? groupValue(G) : groupFromType(ST->Parent, Why, At);
  AbsValue V =
      tileOf(Parent, AbsValue::integer(Poly(ST->Size)), At, /*Static=*/true);
  if (ST->Parent.isNull() && V.Group && V.Group->Why.empty()) {
    GroupValue Tile = *V.Group;
    Tile.MetaWhy = "the place of a " + Name + " in its parent is not known";
    return groupValue(std::move(Tile));
  }
  return V;
}

AbsValue Interpreter::Impl::groupOf(const Expr *E) {
  const Expr *S = E->IgnoreImplicit()->IgnoreParens();
  AbsValue V;
  if (S->isGLValue()) {
    LValue L = evalLValue(S);
    V = L.K == LValue::Var ? readVar(L) : AbsValue::unknown(L.Why);
  } else {
    V = eval(S);
  }
  if (V.Group)
    return V;
  return groupFromType(S->getType(), V.Why, S);
}

std::optional<AbsValue> Interpreter::Impl::groupMember(const GroupValue &G,
                                                       llvm::StringRef Method,
                                                       const CallExpr *C) {
  bool Block = G.K == GroupValue::Block, Grid = G.K == GroupValue::Grid;
  if (Method == "thread_rank")
    return groupRank(G, C);
  if (Method == "size" || Method == "num_threads" || Method == "group_size")
    return groupSize(G, C);
  if (Method == "meta_group_rank" || (Grid && Method == "block_rank"))
    return groupMetaRank(G, C);
  if (Method == "meta_group_size" || (Grid && Method == "num_blocks"))
    return groupMetaSize(G, C);
  if (!isDim3Like(C->getType()))
    return std::nullopt;
  std::array<AbsValue, 3> XYZ;
  for (int D = 0; D < 3; ++D) {
    if (Block && Method == "thread_index")
      XYZ[D] = AbsValue::integer(W.Tid[D]);
    else if (Block && (Method == "group_dim" || Method == "dim_threads"))
      XYZ[D] = AbsValue::integer(W.BlockDim[D]);
    else if ((Block && Method == "group_index") ||
             (Grid && Method == "block_index"))
      XYZ[D] = AbsValue::integer(Poly::symbol(builtinSymbol("blockIdx", D)));
    else if (Grid && Method == "dim_blocks")
      XYZ[D] = AbsValue::integer(Poly::symbol(builtinSymbol("gridDim", D)));
    else
      return std::nullopt;
  }
  return dim3Value(C->getType(), XYZ);
}

std::optional<AbsValue>
Interpreter::Impl::cooperativeGroupsCall(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || !FD->getDeclName().isIdentifier() || !inCooperativeGroups(FD)) {
    // A conversion between group types (a tile to the tile of no parent).
    auto *Conv = FD ? dyn_cast<CXXConversionDecl>(FD) : nullptr;
    if (!Conv || !inCooperativeGroups(Conv))
      return std::nullopt;
  }
  llvm::StringRef Name =
      FD->getDeclName().isIdentifier() ? FD->getName() : llvm::StringRef();
  if (auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const Expr *Obj = nullptr;
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      Obj = MC->getImplicitObjectArgument();
    else if (auto *ME =
                 dyn_cast<MemberExpr>(C->getCallee()->IgnoreParenImpCasts()))
      Obj = ME->getBase();
    if (!Obj)
      return std::nullopt;
    if (isa<CXXConversionDecl>(MD))
      return groupOf(Obj);
    static const llvm::StringRef Members[] = {
        "thread_rank",     "size",         "num_threads", "meta_group_rank",
        "meta_group_size", "thread_index", "group_index", "group_dim",
        "dim_threads",     "block_rank",   "num_blocks",  "block_index",
        "dim_blocks"};
    if (!llvm::is_contained(Members, Name))
      return std::nullopt;
    AbsValue G = groupOf(Obj);
    if (!G.Group)
      return AbsValue::unknown(G.Why);
    return groupMember(*G.Group, Name, C);
  }
  if (Name == "this_thread_block" && C->getNumArgs() == 0)
    return groupValue(GroupValue());
  if (Name == "this_grid") {
    GroupValue G;
    G.K = GroupValue::Grid;
    return groupValue(G);
  }
  if (Name == "coalesced_threads")
    return coalescedGroup(C);
  if (Name == "tiled_partition" && C->getNumArgs() >= 1) {
    AbsValue Parent = groupOf(C->getArg(0));
    if (C->getNumArgs() == 2)
      return tileOf(Parent, eval(C->getArg(1)), C, /*Static=*/false);
    const TemplateArgumentList *TA = FD->getTemplateSpecializationArgs();
    if (!TA || TA->size() == 0 ||
        TA->get(0).getKind() != TemplateArgument::Integral)
      return std::nullopt;
    return tileOf(
        Parent,
        AbsValue::integer(Poly(TA->get(0).getAsIntegral().getExtValue())), C,
        /*Static=*/true);
  }
  if ((Name == "thread_rank" || Name == "group_size" ||
       Name == "num_threads") &&
      C->getNumArgs() == 1) {
    AbsValue G = groupOf(C->getArg(0));
    if (!G.Group)
      return AbsValue::unknown(G.Why);
    return groupMember(*G.Group, Name, C);
  }
  return std::nullopt;
}

std::optional<AbsValue>
Interpreter::Impl::cooperativeGroupsConstruct(const CXXConstructExpr *CE) {
  const CXXRecordDecl *RD = CE->getType()->getAsCXXRecordDecl();
  if (!RD || !inCooperativeGroups(RD) || CE->getNumArgs() != 1)
    return std::nullopt;
  const CXXRecordDecl *From = CE->getArg(0)->getType()->getAsCXXRecordDecl();
  if (!From || !inCooperativeGroups(From))
    return std::nullopt;
  return groupOf(CE->getArg(0));
}

} // namespace cal

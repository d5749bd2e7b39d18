//===- Interpreter.cpp ----------------------------------------------------===//
//
// The public interface, the state's helpers (source text, symbols, ranges,
// snapshots) and the display walk's div/mod identities.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

namespace cal {

using namespace clang;
using interp::LValue;

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

bool Interpreter::Impl::budgetSpent() { return Budget && Budget->tick(); }

std::string Interpreter::Impl::text(const Expr *E) const {
  std::string T = oneLineSourceText(E->getSourceRange(), Ctx);
  return T.empty() ? "<expr>" : T;
}

bool Interpreter::Impl::isSystem(SourceLocation Loc) const {
  return inSystemOrPrelude(Ctx.getSourceManager(), Loc);
}

std::optional<int64_t> Interpreter::Impl::sizeOf(QualType T) const {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() ||
      T->isVoidType() || T->isFunctionType())
    return std::nullopt;
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

SymbolId
Interpreter::Impl::opaqueSymbol(const std::string &Key, const std::string &Name,
                                std::initializer_list<const Poly *> From) {
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

bool Interpreter::Impl::mentionsWarpSymbol(const Poly &P) const {
  for (SymbolId S : W.WarpSymbols)
    if (P.mentions(S))
      return true;
  return false;
}

bool Interpreter::Impl::mentionsWarpSymbol(const LaneVec &V) const {
  if (V.isUniform())
    return mentionsWarpSymbol(V.uniform());
  for (unsigned L = 0; L < WarpSize; ++L)
    if (mentionsWarpSymbol(V.lane(L)))
      return true;
  return false;
}

AbsValue
Interpreter::Impl::uniformOpaque(const std::string &Key, const Expr *E,
                                 std::initializer_list<const Poly *> From) {
  return AbsValue::integer(
      Poly::symbol(opaqueSymbol(Key, "(" + text(E) + ")", From)));
}

Interpreter::Impl::Snapshot Interpreter::Impl::snapshot() const {
  return {Env,          Refs,   RefMembers,     Frames,        Out.size(),
          NeedConcrete, Active, UndecidedConds, InexactInLoop, CondNotes};
}

void Interpreter::Impl::restore(const Snapshot &S) {
  Env = S.Env;
  Refs = S.RefsSaved;
  RefMembers = S.RefMembersSaved;
  Frames = S.FramesSaved;
  Out.resize(S.OutSize);
  NeedConcrete = S.NeedConcrete;
  Active = S.Active;
  UndecidedConds = S.UndecidedConds;
  InexactInLoop = S.InexactInLoop;
  CondNotes = S.CondNotes;
}

bool Interpreter::Impl::isUniformInt(const AbsValue &V) const {
  return V.isInt() && V.Val.isUniform() && !mentionsWarpSymbol(V.Val.uniform());
}

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

void Interpreter::setRowRecipes(const RowRecipes *Recipes) {
  P->Recipes = Recipes;
  P->RowTermValues.clear();
  if (Recipes)
    for (const auto &[A, Terms] : Recipes->Rows)
      for (const auto &[E, Factor] : Terms)
        P->RowTermValues[E] = std::nullopt;
}

const llvm::SmallPtrSetImpl<const clang::VarDecl *> &
Interpreter::arraysMissedByIteratedLoops() const {
  return P->MissedByIteratedLoops;
}

void Interpreter::setCompileErrors(
    const std::vector<clang::SourceLocation> *Errors) {
  P->CompileErrors = Errors;
  P->ErrorAt.clear();
  if (Errors)
    P->ErrorAt.insert(Errors->begin(), Errors->end());
}

void Interpreter::setRewrites(
    const std::map<const clang::Expr *, const clang::Expr *> *Rewrites) {
  P->Rewrites = Rewrites;
}

void Interpreter::setGrid(
    const std::optional<std::array<int64_t, 3>> &Grid) {
  P->Grid = Grid;
}

void Interpreter::setPointerOffsets(
    const std::vector<std::pair<const clang::ParmVarDecl *, int64_t>>
        *Offsets) {
  P->PointerOffsets = Offsets;
}

} // namespace cal

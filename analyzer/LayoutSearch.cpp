//===- LayoutSearch.cpp ---------------------------------------------------===//

#include "analyzer/LayoutSearch.h"

#include "analyzer/pipeline/KernelAnalysis.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cmath>

namespace cal {

using namespace clang;

SourceLocation arrayKey(const VarDecl *VD) {
  return VD->getASTContext().getSourceManager().getSpellingLoc(
      VD->getLocation());
}

namespace {

std::optional<int64_t> constantValue(const ASTContext &Ctx, const Expr *E) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// What one reference \p D to \p Array is, given the statements above it
/// (\p P, the innermost last).
ArrayUse classifyUse(const VarDecl *Array, unsigned Rank, const DeclRefExpr *D,
                     llvm::ArrayRef<const Stmt *> P) {
  ArrayUse U;
  U.Ref = D;
  size_t I = P.size();
  const Stmt *Cur = D;
  unsigned Depth = 0;
  while (I > 0) {
    const Stmt *Up = P[I - 1];
    const auto *IC = dyn_cast<ImplicitCastExpr>(Up);
    if (isa<ParenExpr>(Up) ||
        (IC && (IC->getCastKind() == CK_ArrayToPointerDecay ||
                IC->getCastKind() == CK_NoOp))) {
      Cur = Up;
      --I;
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(Up);
        A && A->getBase() == Cur && Depth < Rank) {
      ++Depth;
      U.Subscript = A;
      Cur = Up;
      --I;
      continue;
    }
    break;
  }
  if (Depth < Rank && I > 0 && isa<UnaryExprOrTypeTraitExpr>(P[I - 1])) {
    U.K = ArrayUse::Sizeof;
    return U;
  }
  if (Depth != Rank || !U.Subscript)
    return U; // NotElement
  U.K = ArrayUse::Element;
  // `&a[i]` must be cast and dereferenced (a vector access in the row).
  const auto *Addr = I > 0 ? dyn_cast<UnaryOperator>(P[I - 1]) : nullptr;
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return U;
  size_t J = I - 1;
  const Stmt *Ptr = Addr;
  while (J > 0 && (isa<ParenExpr>(P[J - 1]) || isa<CastExpr>(P[J - 1])))
    Ptr = P[--J];
  const Stmt *User = J > 0 ? P[J - 1] : nullptr;
  if (const auto *UD = dyn_cast_or_null<UnaryOperator>(User);
      UD && UD->getOpcode() == UO_Deref)
    return U;
  if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(User)) {
    auto Z = constantValue(Array->getASTContext(), A->getIdx());
    if (A->getBase()->IgnoreParenImpCasts() ==
            cast<Expr>(Ptr)->IgnoreParenImpCasts() &&
        Z && *Z == 0)
      return U;
  }
  U.K = ArrayUse::PointerKept;
  return U;
}

bool walkUses(const Stmt *S, const VarDecl *Array, unsigned Rank,
              std::vector<const Stmt *> &Parents,
              llvm::function_ref<bool(const ArrayUse &)> Visit) {
  if (!S)
    return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == Array)
    if (!Visit(classifyUse(Array, Rank, D, Parents)))
      return false;
  Parents.push_back(S);
  for (const Stmt *C : S->children())
    if (!walkUses(C, Array, Rank, Parents, Visit))
      return false;
  Parents.pop_back();
  return true;
}

} // namespace

void forEachArrayUse(const Stmt *Body, const VarDecl *Array, unsigned Rank,
                     llvm::function_ref<bool(const ArrayUse &)> Visit) {
  std::vector<const Stmt *> Parents;
  walkUses(Body, Array, Rank, Parents, Visit);
}

namespace {

/// The expression's text, when it is written in the file (a macro name as a
/// whole counts; a piece of a macro body does not).
std::string fileText(const ASTContext &Ctx, const Expr *E) {
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  if (R.isInvalid())
    return "";
  return Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
}

/// The terms of a sum, with their signs (true: subtracted).
void terms(const Expr *E, bool Negative,
           std::vector<std::pair<const Expr *, bool>> &Out) {
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->getOpcode() == BO_Add) {
      terms(B->getLHS(), Negative, Out);
      terms(B->getRHS(), Negative, Out);
      return;
    }
    if (B->getOpcode() == BO_Sub) {
      terms(B->getLHS(), Negative, Out);
      terms(B->getRHS(), !Negative, Out);
      return;
    }
  }
  Out.push_back({E, Negative});
}

/// A term `row * M` (or `M * row`) with M a constant and row not: M, the
/// operand that is M, and row.
struct Scaled {
  int64_t M = 0;
  const Expr *Operand = nullptr;
  const Expr *Row = nullptr;
};
std::optional<Scaled> scaledTerm(const ASTContext &Ctx, const Expr *T) {
  const auto *B = dyn_cast<BinaryOperator>(T->IgnoreParenImpCasts());
  if (!B || B->getOpcode() != BO_Mul)
    return std::nullopt;
  auto L = constantValue(Ctx, B->getLHS());
  auto R = constantValue(Ctx, B->getRHS());
  if (R && !L)
    return Scaled{*R, B->getRHS(), B->getLHS()};
  if (L && !R)
    return Scaled{*L, B->getLHS(), B->getRHS()};
  return std::nullopt;
}

/// The subscripts `a[i]` (\p Rank deep) that use \p VD, or null with \p Why
/// when one use is not a subscript of that depth whose element is read,
/// written, or has its address cast and dereferenced.
std::optional<std::vector<const ArraySubscriptExpr *>>
subscriptsOf(const VarDecl *VD, const FunctionDecl *Kernel, unsigned Rank,
             std::string &Why) {
  const Stmt *Body = Kernel ? Kernel->getBody() : nullptr;
  if (!Body) {
    Why = "the kernel's body is not available";
    return std::nullopt;
  }
  std::vector<const ArraySubscriptExpr *> Out;
  std::string Name = "`" + VD->getNameAsString() + "`";
  bool Ok = true;
  forEachArrayUse(Body, VD, Rank, [&](const ArrayUse &U) {
    switch (U.K) {
    case ArrayUse::Element:
      Out.push_back(U.Subscript);
      return true;
    case ArrayUse::Sizeof:
      Why = Name + " is used in sizeof, which a new layout would change";
      break;
    case ArrayUse::NotElement:
      Why = Name + " is also used other than element by element (a pointer "
                   "into it), where a new layout would change what the code "
                   "assumes";
      break;
    case ArrayUse::PointerKept:
      Why = "a pointer into " + Name +
            " is kept, where a new layout would change what the code "
            "assumes";
      break;
    }
    Ok = false;
    return false;
  });
  if (!Ok)
    return std::nullopt;
  if (Out.empty()) {
    Why = "no use found";
    return std::nullopt;
  }
  return Out;
}

/// The size expression of a one-dimensional array's declaration.
const Expr *declaredSizeExpr(const VarDecl *VD) {
  const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
  if (!TSI)
    return nullptr;
  TypeLoc TL = TSI->getTypeLoc().getUnqualifiedLoc();
  if (auto A = TL.getAs<ArrayTypeLoc>())
    return A.getSizeExpr();
  return nullptr;
}

/// The factors of a product.
void factors(const Expr *E, std::vector<const Expr *> &Out) {
  const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (B && B->getOpcode() == BO_Mul) {
    factors(B->getLHS(), Out);
    factors(B->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

std::string trimParens(std::string S) {
  auto Trim = [](std::string &T) {
    while (!T.empty() && isspace(static_cast<unsigned char>(T.front())))
      T.erase(T.begin());
    while (!T.empty() && isspace(static_cast<unsigned char>(T.back())))
      T.pop_back();
  };
  Trim(S);
  return S;
}

Expr *literal(ASTContext &Ctx, int64_t V, QualType T) {
  if (!T->isIntegerType())
    T = Ctx.IntTy;
  return IntegerLiteral::Create(
      Ctx, llvm::APInt(Ctx.getIntWidth(T), uint64_t(V), /*isSigned=*/true), T,
      SourceLocation());
}

Expr *as(ASTContext &Ctx, const Expr *E, QualType T) {
  Expr *X = const_cast<Expr *>(E);
  if (Ctx.hasSameUnqualifiedType(E->getType(), T))
    return X;
  return ImplicitCastExpr::Create(Ctx, T, CK_IntegralCast, X, nullptr,
                                  VK_PRValue, FPOptionsOverride());
}

Expr *binary(ASTContext &Ctx, BinaryOperatorKind Op, Expr *L, Expr *R,
             QualType T) {
  return BinaryOperator::Create(Ctx, L, R, Op, T, VK_PRValue, OK_Ordinary,
                                SourceLocation(), FPOptionsOverride());
}

/// `column ^ (row % Width)`, in \p T.
Expr *swizzled(ASTContext &Ctx, Expr *Column, const Expr *Row, int64_t Width,
               QualType T) {
  Expr *Mod = binary(Ctx, BO_Rem, as(Ctx, Row, T), literal(Ctx, Width, T), T);
  return binary(Ctx, BO_Xor, Column, Mod, T);
}

} // namespace

std::optional<RowLayout> findRowLayout(ASTContext &Ctx, const VarDecl *Array,
                                       const FunctionDecl *Kernel,
                                       std::string *Why) {
  std::string W;
  auto Fail = [&](std::string S) -> std::optional<RowLayout> {
    if (Why)
      *Why = std::move(S);
    return std::nullopt;
  };
  const auto *CA = Ctx.getAsConstantArrayType(Array->getType());
  if (!CA || Ctx.getAsConstantArrayType(CA->getElementType()))
    return Fail("not a one-dimensional array of constant size");
  RowLayout L;
  L.Array = Array;
  L.Size = CA->getSize().getSExtValue();
  auto Subs = subscriptsOf(Array, Kernel, 1, W);
  if (!Subs)
    return Fail(W);
  std::string Name = Array->getNameAsString();
  for (const ArraySubscriptExpr *A : *Subs) {
    std::vector<std::pair<const Expr *, bool>> Ts;
    terms(A->getIdx(), false, Ts);
    std::optional<Scaled> Best;
    for (auto &[T, Neg] : Ts)
      if (auto S = scaledTerm(Ctx, T); S && !Neg && (!Best || S->M > Best->M))
        Best = S;
    if (!Best || Best->M <= 1)
      return Fail("`" + fileText(Ctx, A) + "` has no row stride in its index");
    if (L.Stride && Best->M != L.Stride)
      return Fail("the indices of `" + Name +
                  "` have different row strides (" + std::to_string(L.Stride) +
                  " and " + std::to_string(Best->M) + ")");
    L.Stride = Best->M;
    RowLayout::Use U;
    U.Subscript = A;
    U.StrideOperand = Best->Operand;
    U.Row = Best->Row;
    unsigned AtStride = 0;
    for (auto &[T, Neg] : Ts) {
      auto S = scaledTerm(Ctx, T);
      if (S && S->M == L.Stride && !Neg && S->Operand == Best->Operand) {
        ++AtStride;
        continue;
      }
      if (S && S->M == L.Stride)
        ++AtStride;
      if (Neg)
        return Fail("`" + fileText(Ctx, A) +
                    "` subtracts in its index (not read as row and column)");
      U.Column.push_back(T);
    }
    if (AtStride != 1)
      return Fail("`" + fileText(Ctx, A) + "` has several terms of stride " +
                  std::to_string(L.Stride));
    L.Uses.push_back(U);
  }
  if (L.Size % L.Stride != 0 || L.Size == L.Stride)
    return Fail("the declared size " + std::to_string(L.Size) +
                " is not several rows of " + std::to_string(L.Stride));
  // The stride as written: the same spelling everywhere makes the pad one
  // edit per index and one in the declaration.
  L.StrideText = trimParens(fileText(Ctx, L.Uses.front().StrideOperand));
  L.SameSpelling = !L.StrideText.empty();
  for (const RowLayout::Use &U : L.Uses)
    L.SameSpelling = L.SameSpelling &&
                     trimParens(fileText(Ctx, U.StrideOperand)) == L.StrideText;
  if (const Expr *Size = declaredSizeExpr(Array)) {
    std::vector<const Expr *> Fs;
    factors(Size, Fs);
    for (const Expr *F : Fs)
      if (constantValue(Ctx, F) == L.Stride &&
          trimParens(fileText(Ctx, F)) == L.StrideText && Fs.size() > 1) {
        L.SizeFactor = F;
        break;
      }
  }
  return L;
}

std::map<const Expr *, const Expr *>
rowPaddingRewrites(ASTContext &Ctx, const RowLayout &L, int64_t Pad) {
  std::map<const Expr *, const Expr *> M;
  for (const RowLayout::Use &U : L.Uses) {
    QualType T = U.StrideOperand->getType();
    if (!T->isIntegerType())
      continue;
    M[U.StrideOperand] = binary(Ctx, BO_Add, const_cast<Expr *>(U.StrideOperand),
                                literal(Ctx, Pad, T), T);
  }
  return M;
}

std::map<const Expr *, const Expr *>
rowSwizzleRewrites(ASTContext &Ctx, const RowLayout &L, int64_t Width) {
  std::map<const Expr *, const Expr *> M;
  for (const RowLayout::Use &U : L.Uses) {
    const Expr *Idx = U.Subscript->getIdx();
    QualType T = Idx->getType();
    if (!T->isIntegerType() || U.Row->HasSideEffects(Ctx))
      return {};
    Expr *Column = nullptr;
    for (const Expr *C : U.Column)
      Column = Column ? binary(Ctx, BO_Add, Column, as(Ctx, C, T), T)
                      : as(Ctx, C, T);
    if (!Column)
      Column = literal(Ctx, 0, T);
    Expr *RowTerm = binary(Ctx, BO_Mul, as(Ctx, U.Row, T),
                           as(Ctx, U.StrideOperand, T), T);
    M[Idx] = binary(Ctx, BO_Add, RowTerm,
                    swizzled(Ctx, Column, U.Row, Width, T), T);
  }
  return M;
}

std::map<const Expr *, const Expr *>
swizzle2DRewrites(ASTContext &Ctx, const VarDecl *Array,
                  const FunctionDecl *Kernel, int64_t Width) {
  const auto *CA = Ctx.getAsConstantArrayType(Array->getType());
  if (!CA)
    return {};
  const auto *Inner = Ctx.getAsConstantArrayType(CA->getElementType());
  if (!Inner || Ctx.getAsConstantArrayType(Inner->getElementType()))
    return {};
  std::string Why;
  auto Subs = subscriptsOf(Array, Kernel, 2, Why);
  if (!Subs)
    return {};
  std::map<const Expr *, const Expr *> M;
  for (const ArraySubscriptExpr *A : *Subs) {
    const auto *RowSub =
        dyn_cast<ArraySubscriptExpr>(A->getBase()->IgnoreParenImpCasts());
    if (!RowSub)
      return {};
    const Expr *Col = A->getIdx();
    QualType T = Col->getType();
    if (!T->isIntegerType() || RowSub->getIdx()->HasSideEffects(Ctx))
      return {};
    M[Col] = swizzled(Ctx, const_cast<Expr *>(Col), RowSub->getIdx(), Width, T);
  }
  return M;
}

AnalysisResult
analyzeLayout(ASTContext &Ctx, const AnalysisOptions &Opts,
              const KernelInfo &Kernel, const VarDecl *Array,
              const std::map<const Expr *, const Expr *> &Rewrites,
              int64_t Pad, bool FirstWarpOnly) {
  AnalysisOptions O = Opts;
  O.Padding = {{Array, Pad}};
  O.OnlyPaddedArrays = true;
  O.FirstWarpOnly = FirstWarpOnly;
  O.Rewrites = Rewrites;
  O.RecordRows = false;
  return analyzeKernel(Ctx, Kernel, O);
}

namespace {

/// Whether \p Rec records \p Array's rows as a padding of \p Rows (1-D) or
/// of the innermost dimension needs them; why not.
std::string whyNotRecorded(const pipeline::RecordedWalks *Rec,
                           const VarDecl *Array, const RowLayout *Rows) {
  if (!Rec)
    return "the kernel's rows are not recorded (no shared array indexed "
           "element by element in its body, or its analysis stopped)";
  if (auto It = Rec->NotRecorded.find(Array); It != Rec->NotRecorded.end())
    return It->second;
  if (!Rec->Recorded.count(Array))
    return "its rows are not recorded (not indexed element by element in "
           "the kernel's body)";
  // The rows recorded are those being padded: the innermost dimension's
  // (two dimensions or more), or the row stride of the same 1-D layout.
  const ASTContext &Ctx = Array->getASTContext();
  bool OneD = !Ctx.getAsConstantArrayType(
      Ctx.getAsConstantArrayType(Array->getType())->getElementType());
  if (OneD != (Rows != nullptr))
    return "not the rows recorded";
  if (Rows)
    for (const RowLayout::Use &U : Rows->Uses) {
      auto It = Rec->Recipes.Rows.find(U.Subscript);
      if (It == Rec->Recipes.Rows.end() || It->second.size() != 1 ||
          It->second.front().first != U.Row || It->second.front().second != 1)
        return "not the rows recorded";
    }
  return "";
}

} // namespace

PaddingSource paddingSource(const AnalysisResult &R, size_t Kernel,
                            const VarDecl *Array, const RowLayout *Rows,
                            std::string *Why) {
  const pipeline::RecordedWalks *Rec =
      Kernel < R.Kernels.size() ? R.Kernels[Kernel].Rows.get() : nullptr;
  std::string W = whyNotRecorded(Rec, Array, Rows);
  if (Why)
    *Why = W;
  if (!W.empty())
    return PaddingSource::Reanalysis;
  return Rec->NotTheSearchWalk.count(Array) ? PaddingSource::SearchWalkRows
                                            : PaddingSource::AnalysisRows;
}

std::optional<AnalysisResult>
paddedFacts(ASTContext &Ctx, const AnalysisOptions &Opts,
            const AnalysisResult &R, size_t Kernel, const VarDecl *Array,
            int64_t Pad, bool FirstWarpOnly, const RowLayout *Rows) {
  PaddingSource From = paddingSource(R, Kernel, Array, Rows);
  if (From == PaddingSource::Reanalysis)
    return std::nullopt;
  const KernelInfo &KI = R.Kernels[Kernel];
  const pipeline::RecordedWalks *Rec = KI.Rows.get();
  if (From == PaddingSource::SearchWalkRows) {
    auto [It, New] = Rec->SearchWalks.try_emplace(Array);
    if (New) {
      AnalysisOptions O = Opts;
      O.Padding = {{Array, 0}};
      O.OnlyPaddedArrays = true;
      O.FirstWarpOnly = false;
      O.Rewrites.clear();
      O.RecordRows = true;
      It->second = analyzeKernel(Ctx, KI, O).Kernels.front().Rows;
      ++R.PaddingSearchWalks;
    }
    Rec = It->second.get();
    if (!whyNotRecorded(Rec, Array, Rows).empty() ||
        Rec->NotTheSearchWalk.count(Array))
      return std::nullopt;
  }
  return pipeline::KernelAnalysis::replayPadded(Ctx, KI, *Rec, Array, Pad,
                                                FirstWarpOnly);
}

double instructionsPerWarp(const AccessFacts &F) {
  if (F.ExecutionsPerWarp)
    return *F.ExecutionsPerWarp;
  const EmittedWidth &E = F.Emitted;
  return E.RunAccesses > 1 && E.Bytes > F.BytesPerLane
             ? double(E.RunInstructions) / E.RunAccesses
             : 1.0;
}

const AccessFacts *sameAccess(const AnalysisResult &R, const AccessFacts &F) {
  for (const AccessFacts &A : R.Accesses)
    if (A.E == F.E && A.Kind == F.Kind && A.Piece == F.Piece &&
        A.CallStack == F.CallStack)
      return &A;
  return nullptr;
}

LayoutOutcome judgeLayout(const AnalysisResult &Before, size_t Kernel,
                          const VarDecl *Array, AnalysisResult After,
                          const std::vector<const Expr *> &Replaced) {
  LayoutOutcome O;
  O.Valid = true;
  O.ConflictFree = true;
  SourceLocation Key = arrayKey(Array);
  auto Wavefronts = [](const AccessFacts &F) {
    return F.WavefrontsPerRequest.value_or(1) * instructionsPerWarp(F);
  };
  for (const AccessFacts &F : Before.Accesses) {
    const auto *VD = dyn_cast_or_null<VarDecl>(F.Region ? F.Region->Decl
                                                        : nullptr);
    if (F.Kernel != Kernel || !VD || arrayKey(VD) != Key ||
        std::find(Replaced.begin(), Replaced.end(), F.E) != Replaced.end())
      continue;
    const AccessFacts *A = sameAccess(After, F);
    std::string Where = "`" + F.Array + "`";
    auto Worse = [&](std::string Why) {
      if (O.Valid)
        O.Why = std::move(Why);
      O.Valid = false;
    };
    if (!A || !A->AddressKnown) {
      Worse("an access's address is no longer known");
      continue;
    }
    if (A->VectorAligned && !*A->VectorAligned)
      Worse("a vector access would be misaligned (a fault)");
    double Wb = Wavefronts(F), Wa = Wavefronts(*A);
    if (Wa > Wb + 1e-9)
      Worse("an access would take more wavefronts (" + std::to_string(Wa) +
            " per warp instead of " + std::to_string(Wb) + ")");
    if (instructionsPerWarp(*A) > instructionsPerWarp(F) + 1e-9)
      Worse("an access would take more instructions (" +
            A->Emitted.Opcode + " instead of " + F.Emitted.Opcode + ")");
    if (A->BankConflictWays && *A->BankConflictWays > 1.0 + 1e-9)
      O.ConflictFree = false;
    O.WavefrontsBefore += Wb;
    O.WavefrontsAfter += Wa;
  }
  O.After = std::move(After);
  return O;
}

} // namespace cal

//===- LayoutRewrites.cpp -------------------------------------------------===//

#include "rules/LayoutRewrites.h"

#include "rules/Suggest.h"

#include "analyzer/Poly.h"
#include "analyzer/WarpModel.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <regex>
#include <set>

namespace cal {

using namespace clang;

namespace {

constexpr int64_t MaxStaticShared = 48 * 1024;

std::string plural(double N, const std::string &One) {
  return number(N) + " " + One + (std::abs(N - 1) < 1e-9 ? "" : "s");
}

std::string waysText(double Ways) {
  return Ways <= 1.0 + 1e-9 ? "conflict-free" : number(Ways) + "-way";
}

double wavefrontsPerWarp(const AccessFacts &F) {
  return F.WavefrontsPerRequest.value_or(1) * instructionsPerWarp(F);
}

CharSourceRange fileRange(const ASTContext &Ctx, const Expr *E) {
  return Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
}

/// `BM` + 4 -> `(BM + 4)`, `128` + 4 -> `132`, `(BN + 5)` + 3 -> `(BN + 8)`.
std::string paddedText(const std::string &Text, int64_t Pad) {
  int64_t V;
  if (!llvm::StringRef(Text).trim().getAsInteger(10, V))
    return std::to_string(V + Pad);
  std::smatch M;
  static const std::regex Sum(R"(^\((.*[^ ])\s*\+\s*([0-9]+)\)$)");
  if (std::regex_match(Text, M, Sum))
    return "(" + M[1].str() + " + " +
           std::to_string(std::stoll(M[2].str()) + Pad) + ")";
  // `(X)`: the sum goes inside the parentheses.
  if (Text.size() > 2 && Text.front() == '(' && Text.back() == ')') {
    int Depth = 0;
    bool Outer = true;
    for (size_t I = 0; I + 1 < Text.size() && Outer; ++I) {
      Depth += Text[I] == '(' ? 1 : Text[I] == ')' ? -1 : 0;
      Outer = Depth > 0;
    }
    if (Outer)
      return Text.substr(0, Text.size() - 1) + " + " + std::to_string(Pad) +
             ")";
  }
  return "(" + Text + " + " + std::to_string(Pad) + ")";
}

/// \p Range's text with the given sub-ranges replaced.
std::string textWith(const ASTContext &Ctx, CharSourceRange Range,
                     std::vector<std::pair<CharSourceRange, std::string>> Subs) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Out;
  std::sort(Subs.begin(), Subs.end(), [&](auto &A, auto &B) {
    return SM.isBeforeInTranslationUnit(A.first.getBegin(), B.first.getBegin());
  });
  SourceLocation At = Range.getBegin();
  for (auto &[R, T] : Subs) {
    if (R.isInvalid() || SM.isBeforeInTranslationUnit(R.getBegin(), At))
      continue;
    Out += Lexer::getSourceText(CharSourceRange::getCharRange(At, R.getBegin()),
                                SM, Ctx.getLangOpts())
               .str();
    Out += T;
    At = R.getEnd();
  }
  Out += Lexer::getSourceText(CharSourceRange::getCharRange(At, Range.getEnd()),
                              SM, Ctx.getLangOpts())
             .str();
  // One line.
  std::string One;
  bool Space = false;
  for (char C : Out) {
    if (C == '\n' || C == '\t' || C == ' ') {
      Space = true;
      continue;
    }
    if (Space && !One.empty())
      One += ' ';
    Space = false;
    One += C;
  }
  return One;
}

/// The use of the layout that is the access \p F (its subscript).
const RowLayout::Use *useOf(const ASTContext &Ctx, const RowLayout &L,
                            const AccessFacts &F) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange FR = F.E->getSourceRange();
  for (const RowLayout::Use &U : L.Uses) {
    SourceRange UR = U.Subscript->getSourceRange();
    if (U.Subscript == F.E->IgnoreParenImpCasts() ||
        (!SM.isBeforeInTranslationUnit(UR.getBegin(), FR.getBegin()) &&
         !SM.isBeforeInTranslationUnit(FR.getEnd(), UR.getEnd())))
      return &U;
  }
  return nullptr;
}

int64_t elementBytes(const ASTContext &Ctx, QualType T) {
  while (const auto *CA = Ctx.getAsConstantArrayType(T))
    T = CA->getElementType();
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

/// Tries \p Candidates in order over every configuration: the first that
/// makes every access conflict-free with none worse, else the one with the
/// most wavefronts saved and none worse; Kind::None when none saves any.
/// \p Analyze gives the array's facts under a candidate in a configuration
/// (std::nullopt: the candidate cannot be written there).
LayoutPlan search(
    const RuleContext &Ctx, const std::map<size_t, const VarDecl *> &Configs,
    const std::vector<int64_t> &Candidates, LayoutPlan::Kind K,
    const std::function<std::optional<AnalysisResult>(size_t, const VarDecl *,
                                                      int64_t)> &Analyze) {
  LayoutPlan Best;
  Best.Why = "no candidate";
  double BestSaved = 0;
  for (int64_t C : Candidates) {
    LayoutPlan P;
    P.K = K;
    P.Amount = C;
    P.ConflictFree = true;
    bool Valid = true;
    double Saved = 0;
    for (auto &[Kernel, VD] : Configs) {
      std::optional<AnalysisResult> After = Analyze(Kernel, VD, C);
      if (!After) {
        Valid = false;
        break;
      }
      LayoutOutcome O = judgeLayout(Ctx.Result, Kernel, VD, std::move(*After));
      if (!O.Valid) {
        Valid = false;
        break;
      }
      P.ConflictFree = P.ConflictFree && O.ConflictFree;
      Saved += O.WavefrontsBefore - O.WavefrontsAfter;
      P.After[Kernel] = std::move(O.After);
    }
    if (!Valid || Saved <= 1e-9)
      continue;
    if (P.ConflictFree)
      return P;
    if (Saved > BestSaved + 1e-9) {
      BestSaved = Saved;
      Best = std::move(P);
    }
  }
  if (Best.K == LayoutPlan::Kind::None)
    Best.Why = "no candidate saves wavefronts without making an access worse";
  return Best;
}

} // namespace

std::map<size_t, const VarDecl *> configurationsOf(const RuleContext &Ctx,
                                                   SourceLocation Key) {
  std::map<size_t, const VarDecl *> Configs;
  for (const AccessFacts &F : Ctx.Result.Accesses) {
    auto *VD = dyn_cast_or_null<VarDecl>(F.Region ? F.Region->Decl : nullptr);
    if (VD && F.Space == MemSpace::Shared && arrayKey(VD) == Key)
      Configs[F.Kernel] = VD;
  }
  return Configs;
}

std::string afterText(const AccessFacts &Before, const AccessFacts &After) {
  double Ways = After.BankConflictWays.value_or(1);
  double Wave = After.WavefrontsPerRequest.value_or(1);
  std::string S = "after: " + waysText(Ways) + ", " + plural(Wave, "wavefront") +
                  " per " + After.Emitted.Opcode;
  S += " (now " + waysText(Before.BankConflictWays.value_or(1)) + ", " +
       number(Before.WavefrontsPerRequest.value_or(1)) + " per " +
       Before.Emitted.Opcode;
  // The thread's run (an unrolled loop, adjacent statements): how many
  // instructions it becomes.
  const EmittedWidth &Eb = Before.Emitted, &Ea = After.Emitted;
  unsigned Run = std::max(Ea.RunAccesses, Eb.RunAccesses);
  unsigned Ib = Eb.RunAccesses > 1 ? Eb.RunInstructions : Run;
  unsigned Ia = Ea.RunAccesses > 1 ? Ea.RunInstructions : Run;
  if (Run > 1 && Ia != Ib)
    S += "; the thread's " + std::to_string(Run) + " " +
         (Before.Kind == AccessKind::Store ? "stores" : "loads") + ": " +
         plural(Ia, "instruction") + " instead of " + std::to_string(Ib);
  return S + ")";
}

FixAfter afterOf(const AccessFacts &After) {
  FixAfter A;
  A.Instruction = After.Emitted.Opcode;
  A.Numbers = {{"bank_conflict_ways", After.BankConflictWays.value_or(1)},
               {"wavefronts_per_request", After.WavefrontsPerRequest.value_or(1)},
               {"ideal_wavefronts", After.IdealWavefronts.value_or(1)}};
  if (After.ExecutionsPerWarp)
    A.Numbers.push_back({"executions_per_warp", *After.ExecutionsPerWarp});
  return A;
}

LayoutPlan planRowPadding(const RuleContext &Ctx,
                          const std::map<size_t, const VarDecl *> &Configs) {
  LayoutPlan None;
  std::map<size_t, RowLayout> Rows;
  for (auto &[K, VD] : Configs) {
    std::string Why;
    auto L = findRowLayout(Ctx.Ctx, VD, Ctx.Result.Kernels[K].Decl, &Why);
    if (!L) {
      None.Why = Why;
      return None;
    }
    Rows[K] = *L;
  }
  const VarDecl *Any = Configs.begin()->second;
  int64_t Elem = std::max<int64_t>(1, elementBytes(Ctx.Ctx, Any->getType()));
  std::vector<int64_t> Pads;
  for (int64_t P = 1; P <= std::max<int64_t>(1, 128 / Elem); ++P) {
    bool Fits = true;
    for (auto &[K, L] : Rows)
      Fits = Fits && (L.Size / L.Stride) * (L.Stride + P) * Elem <= MaxStaticShared;
    if (Fits)
      Pads.push_back(P);
  }
  LayoutPlan Plan = search(Ctx, Configs, Pads, LayoutPlan::Kind::RowPad,
                           [&](size_t K, const VarDecl *VD, int64_t P)
                               -> std::optional<AnalysisResult> {
                             return Ctx.padded(K, VD, P, false, &Rows[K]);
                           });
  Plan.Rows = std::move(Rows);
  return Plan;
}

LayoutPlan planSwizzle(const RuleContext &Ctx,
                       const std::map<size_t, const VarDecl *> &Configs) {
  LayoutPlan None;
  const VarDecl *Any = Configs.begin()->second;
  const ASTContext &AC = Ctx.Ctx;
  const auto *Outer = AC.getAsConstantArrayType(Any->getType());
  if (!Outer) {
    None.Why = "dynamic shared memory: swizzle the index by hand";
    return None;
  }
  int64_t Elem = std::max<int64_t>(1, elementBytes(AC, Any->getType()));
  bool OneD = !AC.getAsConstantArrayType(Outer->getElementType());
  std::map<size_t, RowLayout> Rows;
  int64_t Row = 0; // elements per row, the same in every configuration
  for (auto &[K, VD] : Configs) {
    int64_t R = 0;
    if (OneD) {
      std::string Why;
      auto L = findRowLayout(Ctx.Ctx, VD, Ctx.Result.Kernels[K].Decl, &Why);
      if (!L) {
        None.Why = Why;
        return None;
      }
      R = L->Stride;
      Rows[K] = *L;
    } else {
      QualType T = VD->getType();
      while (const auto *CA = AC.getAsConstantArrayType(T)) {
        R = CA->getSize().getSExtValue();
        T = CA->getElementType();
      }
    }
    Row = Row ? std::min(Row, R) : R;
  }
  // The XOR keeps each column within its aligned block of W: a
  // permutation of the row when W divides it. Widest first: the bank
  // period is 128 bytes.
  std::vector<int64_t> Widths;
  for (int64_t W = std::max<int64_t>(2, 128 / Elem); W >= 2; W /= 2)
    if (Row % W == 0)
      Widths.push_back(W);
  LayoutPlan Plan = search(
      Ctx, Configs, Widths, LayoutPlan::Kind::Swizzle,
      [&](size_t K, const VarDecl *VD,
          int64_t W) -> std::optional<AnalysisResult> {
        auto M = OneD ? rowSwizzleRewrites(Ctx.Ctx, Rows[K], W)
                      : swizzle2DRewrites(Ctx.Ctx, VD,
                                          Ctx.Result.Kernels[K].Decl, W);
        if (M.empty())
          return std::nullopt;
        return analyzeLayout(Ctx.Ctx, Ctx.Opts, Ctx.Result.Kernels[K], VD, M);
      });
  Plan.Rows = std::move(Rows);
  return Plan;
}

std::optional<Fix> layoutFix(const RuleContext &Ctx, const LayoutPlan &Plan,
                             const AccessFacts &F, const VarDecl *VD) {
  if (Plan.K == LayoutPlan::Kind::None || Plan.K == LayoutPlan::Kind::Pad)
    return std::nullopt;
  auto It = Plan.After.find(F.Kernel);
  if (It == Plan.After.end())
    return std::nullopt;
  const AccessFacts *A = sameAccess(It->second, F);
  if (!A || wavefrontsPerWarp(*A) >= wavefrontsPerWarp(F) - 1e-9)
    return std::nullopt;
  const ASTContext &AC = Ctx.Ctx;
  std::string Name = VD->getNameAsString();
  Fix X;
  X.After = afterOf(*A);
  std::string After = afterText(F, *A);
  std::string Every = Plan.ConflictFree
                          ? "every access to it becomes conflict-free"
                          : "no access to it gets worse";
  if (Plan.K == LayoutPlan::Kind::RowPad) {
    const RowLayout &L = Plan.Rows.at(F.Kernel);
    int64_t P = Plan.Amount;
    X.Kind = FixKind::Pad;
    bool Merged = false;
    for (const AccessFacts &O : It->second.Accesses)
      Merged = Merged || O.Emitted.Bytes > O.BytesPerLane;
    std::string NewStride = paddedText(L.StrideText, P);
    X.Description =
        "pad the row stride of `" + Name + "` from " +
        (L.StrideText.empty() ? std::to_string(L.Stride) : L.StrideText) +
        " to " + NewStride + " (" + std::to_string(L.Stride + P) +
        " elements) in every index and in its declaration (each index's "
        "column part taken to stay within a row, below " +
        std::to_string(L.Stride) + "): " + Every +
        (Merged ? " and its merged vector accesses stay aligned" : "") + "; " +
        After;
    // Machine-applicable when every configuration writes the stride the
    // same way and the declared size has it as a factor.
    bool Machine = true;
    std::map<unsigned, Edit> Edits;
    const SourceManager &SM = AC.getSourceManager();
    for (auto &[K, RL] : Plan.Rows) {
      Machine = Machine && RL.SameSpelling && RL.SizeFactor &&
                RL.StrideText == L.StrideText;
      if (!Machine)
        break;
      std::vector<const Expr *> Sites{RL.SizeFactor};
      for (const RowLayout::Use &U : RL.Uses)
        Sites.push_back(U.StrideOperand);
      for (const Expr *E : Sites) {
        CharSourceRange R = fileRange(AC, E);
        if (R.isInvalid()) {
          Machine = false;
          break;
        }
        Edits[SM.getFileOffset(R.getBegin())] = {R, NewStride};
      }
    }
    if (Machine) {
      X.Apply = Applicability::MachineApplicable;
      for (auto &[Off, E] : Edits)
        X.Edits.push_back(E);
    } else {
      X.Apply = Applicability::Suggestion;
      std::string T = VD->getType()
                          ->getAsArrayTypeUnsafe()
                          ->getElementType()
                          .getAsString();
      X.Code = "__shared__ " + T + " " + Name + "[" +
               std::to_string(L.Size / L.Stride) + " * " + NewStride + "];";
      if (const RowLayout::Use *U = useOf(AC, L, F))
        X.Code += "\n" + textWith(AC, fileRange(AC, F.E),
                                  {{fileRange(AC, U->StrideOperand), NewStride}});
    }
    return X;
  }
  // Swizzle.
  int64_t W = Plan.Amount;
  X.Kind = FixKind::Swizzle;
  X.Apply = Applicability::Suggestion;
  std::string Code;
  std::string ColText, RowText;
  auto Txt = [&](const Expr *E) { return Ctx.text(E->getSourceRange()); };
  if (auto R = Plan.Rows.find(F.Kernel); R != Plan.Rows.end()) {
    const RowLayout::Use *U = useOf(AC, R->second, F);
    if (!U)
      return std::nullopt;
    for (const Expr *C : U->Column)
      ColText += (ColText.empty() ? "" : " + ") + Txt(C);
    if (ColText.empty())
      ColText = "0";
    RowText = Txt(U->Row);
    std::string Swz = "(" + ColText + ") ^ ((" + RowText + ") % " +
                      std::to_string(W) + ")";
    if (U->Column.size() == 1)
      Swz = ColText + " ^ ((" + RowText + ") % " + std::to_string(W) + ")";
    Code = textWith(AC, fileRange(AC, F.E),
                    {{fileRange(AC, U->Subscript->getIdx()),
                      RowText + " * " + Txt(U->StrideOperand) + " + (" + Swz +
                          ")"}});
  } else {
    const auto *Sub = dyn_cast<ArraySubscriptExpr>(F.E->IgnoreParenImpCasts());
    const auto *RowSub =
        Sub ? dyn_cast<ArraySubscriptExpr>(Sub->getBase()->IgnoreParenImpCasts())
            : nullptr;
    if (!RowSub)
      return std::nullopt;
    ColText = Txt(Sub->getIdx());
    RowText = Txt(RowSub->getIdx());
    Code = textWith(AC, fileRange(AC, F.E),
                    {{fileRange(AC, Sub->getIdx()),
                      ColText + " ^ ((" + RowText + ") % " + std::to_string(W) +
                          ")"}});
  }
  X.Description = "XOR-swizzle the column of `" + Name + "` by its row, " +
                  "`column ^ (row % " + std::to_string(W) +
                  ")`, in every access to it (a permutation within each "
                  "row): " + Every + "; " + After;
  X.Code = Code;
  return X;
}

std::optional<Fix> vectorStoreFix(const RuleContext &Ctx, const AccessFacts &F,
                                  const VarDecl *VD) {
  if (F.Kind != AccessKind::Store || F.Space != MemSpace::Shared ||
      (F.SiblingRun != 2 && F.SiblingRun != 4) ||
      (F.BytesPerLane != 4 && F.BytesPerLane != 8) || !F.LaneOffsets ||
      F.LaneGroups != 1)
    return std::nullopt;
  unsigned Width = F.SiblingRun * F.BytesPerLane;
  if (Width != 8 && Width != 16)
    return std::nullopt;
  // The run: this access's siblings, in source order.
  const AccessFacts *Run[4] = {};
  size_t Me = &F - Ctx.Result.Accesses.data();
  if (Me >= Ctx.Result.Accesses.size() || Me < F.SiblingIndex)
    return std::nullopt;
  for (unsigned I = 0; I < F.SiblingRun; ++I) {
    size_t At = Me - F.SiblingIndex + I;
    if (At >= Ctx.Result.Accesses.size())
      return std::nullopt;
    const AccessFacts &S = Ctx.Result.Accesses[At];
    if (S.Kernel != F.Kernel || S.Region != F.Region ||
        S.Kind != AccessKind::Store || S.SiblingIndex != I ||
        S.SiblingRun != F.SiblingRun)
      return std::nullopt;
    Run[I] = &S;
  }
  // Each stores the next part of one vector: `= tmp.x`, `= tmp.y` ...
  ASTContext &AC = Ctx.Ctx;
  std::string Base;
  QualType VecT;
  for (unsigned I = 0; I < F.SiblingRun; ++I) {
    const BinaryOperator *Assign = nullptr;
    for (const DynTypedNode &P : AC.getParents(*Run[I]->E))
      if (const auto *B = P.get<BinaryOperator>();
          B && B->getOpcode() == BO_Assign && B->getLHS() == Run[I]->E)
        Assign = B;
    if (!Assign)
      return std::nullopt;
    const auto *M = dyn_cast<MemberExpr>(Assign->getRHS()->IgnoreParenImpCasts());
    if (!M || M->isArrow())
      return std::nullopt;
    static const char *Parts[] = {"x", "y", "z", "w"};
    if (M->getMemberDecl()->getName() != Parts[I])
      return std::nullopt;
    std::string B = Ctx.text(M->getBase()->getSourceRange());
    if (I == 0) {
      Base = B;
      VecT = M->getBase()->getType();
    } else if (B != Base) {
      return std::nullopt;
    }
  }
  if (VecT.isNull() || AC.getTypeSizeInChars(VecT).getQuantity() != Width ||
      AC.getTypeAlignInChars(VecT).getQuantity() != Width)
    return std::nullopt;
  std::string VecName = VecT.getUnqualifiedType().getAsString();
  const AccessFacts &First = *Run[0];
  double Before = 0;
  for (unsigned I = 0; I < F.SiblingRun; ++I)
    Before += Run[I]->WavefrontsPerRequest.value_or(1);

  // The vector store's cost, at \p S's lanes (the first part, under a
  // layout): wavefronts, when every lane's address is Width-aligned.
  auto VectorCost = [&](const AccessFacts &S) -> std::optional<RequestCost> {
    // Aligned at the innermost loop's first iteration and at every other.
    bool Steps = S.Loops.empty() || (S.Loops.back().StrideBytes &&
                                     *S.Loops.back().StrideBytes % Width == 0);
    if (!S.LaneOffsets || !Steps || S.RunStartModulus < Width ||
        floorMod(S.RunStartResidue, Width) != 0)
      return std::nullopt;
    WarpRequest Req;
    Req.BytesPerLane = Width;
    Req.Active = S.ActiveMask;
    for (unsigned L = 0; L < WarpSize; ++L)
      Req.Offset[L] = (*S.LaneOffsets)[L];
    return costOf(Req, floorMod(S.RunStartResidue, 128));
  };
  std::string Stmt = "*reinterpret_cast<" + VecName + " *>(&" +
                     Ctx.text(First.E->getSourceRange()) + ") = " + Base + ";";
  auto Describe = [&](const RequestCost &C, const std::string &With) {
    Fix X;
    X.Kind = FixKind::Vectorize;
    X.Apply = Applicability::Suggestion;
    double Ways = C.IdealWavefronts ? double(C.Wavefronts) / C.IdealWavefronts : 1;
    X.Description =
        "store `" + Base + "` whole with one " + std::to_string(Width) +
        "-byte " + VecName + " store instead of its " +
        std::to_string(F.SiblingRun) + " parts" + With + "; after: " +
        waysText(Ways) + ", " + plural(C.Wavefronts, "wavefront") +
        " per STS." + std::to_string(Width * 8) + " (now " +
        std::to_string(F.SiblingRun) + " STS, " + number(Before) +
        " wavefronts in all)";
    X.After = FixAfter{{{"bank_conflict_ways", Ways},
                        {"wavefronts_per_request", double(C.Wavefronts)},
                        {"ideal_wavefronts", double(C.IdealWavefronts)}},
                       "STS." + std::to_string(Width * 8)};
    return X;
  };
  if (auto C = VectorCost(First)) {
    if (C->Wavefronts >= Before - 1e-9)
      return std::nullopt;
    Fix X = Describe(*C, ": every lane's address is " + std::to_string(Width) +
                             "-byte aligned (proven)");
    X.Code = Stmt;
    return X;
  }
  // Not provably aligned: with a padded row stride that makes it aligned
  // (and no other access worse), else not offered (a misaligned vector
  // store faults).
  std::string Why;
  auto L = findRowLayout(AC, VD, Ctx.Result.Kernels[F.Kernel].Decl, &Why);
  if (!L)
    return std::nullopt;
  std::vector<const Expr *> Replaced;
  for (unsigned I = 0; I < F.SiblingRun; ++I)
    Replaced.push_back(Run[I]->E);
  int64_t Elem = F.BytesPerLane;
  for (int64_t P = 1; P <= 128 / Elem; ++P) {
    if ((L->Size / L->Stride) * (L->Stride + P) * Elem > MaxStaticShared)
      break;
    if (((L->Stride + P) * Elem) % Width != 0)
      continue;
    LayoutOutcome O = judgeLayout(
        Ctx.Result, F.Kernel, VD,
        analyzeLayout(AC, Ctx.Opts, Ctx.Result.Kernels[F.Kernel], VD,
                      rowPaddingRewrites(AC, *L, P)),
        Replaced);
    if (!O.Valid)
      continue;
    const AccessFacts *S = sameAccess(O.After, First);
    auto C = S ? VectorCost(*S) : std::nullopt;
    if (!C || C->Wavefronts >= Before - 1e-9)
      continue;
    std::string NewStride = paddedText(L->StrideText, P);
    bool Merges = S->Emitted.Bytes == Width;
    Fix X = Describe(
        *C, ", together with the row stride padded from " + L->StrideText +
                " to " + NewStride + " (" + std::to_string(L->Stride + P) +
                " elements, a multiple of " + std::to_string(Width / Elem) +
                ": with " + std::to_string(L->Stride) +
                " the vector store would be misaligned, a fault) in every "
                "index and the declaration, which leaves no other access "
                "worse" +
                (Merges ? std::string(" (with that padding ptxas merges the " +
                                      std::to_string(F.SiblingRun) +
                                      " stores into this instruction by "
                                      "itself: the vector store says so in "
                                      "the source)")
                        : std::string()));
    const RowLayout::Use *U = useOf(AC, *L, First);
    std::string T =
        VD->getType()->getAsArrayTypeUnsafe()->getElementType().getAsString();
    X.Code = "__shared__ " + T + " " + VD->getNameAsString() + "[" +
             std::to_string(L->Size / L->Stride) + " * " + NewStride + "];\n" +
             "*reinterpret_cast<" + VecName + " *>(&" +
             (U ? textWith(AC, fileRange(AC, First.E),
                           {{fileRange(AC, U->StrideOperand), NewStride}})
                : Ctx.text(First.E->getSourceRange())) +
             ") = " + Base + ";";
    return X;
  }
  return std::nullopt;
}

} // namespace cal

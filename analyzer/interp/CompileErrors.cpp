//===- CompileErrors.cpp --------------------------------------------------===//
//
// Code that does not compile. Clang goes on after an error and hands on
// what it could make of the code: a recovery expression where an
// expression did not compile (a call with the wrong arguments, a name of an
// undeclared type), an invalid declaration (`x128 packed;` with x128 not
// declared), a declaration whose initializer it dropped
// (`int k = i * x128::size;`: `k` has no initializer in the AST), and
// nothing at all where a statement did not parse (`k = i * x128::size;` is
// gone). What such code computes is unknown, and says so: never
// "uninitialized", never the value from before the statement that is gone.
//
// A dropped statement is found from where clang reported the error: inside
// a block, between two of its statements. Its text (raw tokens) says which
// variables it may assign: a name followed by an assignment, `++`, `--` or
// `.` (a member of a local struct), after `++`, `--` or `&`, or passed
// whole to a call (by reference, perhaps). A name that is only read keeps
// its value.
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/InterpImpl.h"

#include "clang/Lex/Lexer.h"

namespace cal {

using namespace clang;
using interp::LValue;

std::string Interpreter::Impl::errorReason(const Expr *E) const {
  if (!E || !E->containsErrors())
    return "";
  if (isa<RecoveryExpr>(E)) {
    // A use of a declaration that did not compile (`packed.x`, with
    // `x128 packed;` and x128 not declared).
    std::string Name = text(E);
    for (const auto &KV : Env)
      if (KV.first->isInvalidDecl() && KV.first->getName() == Name)
        return uncompiledDecl(KV.first);
    return "`" + Name + "` does not compile";
  }
  for (const Stmt *Child : E->children())
    if (auto *CE = dyn_cast_or_null<Expr>(Child))
      if (std::string Why = errorReason(CE); !Why.empty())
        return Why;
  return "";
}

AbsValue Interpreter::Impl::evalRecovery(const RecoveryExpr *R) {
  for (const Expr *Sub : R->subExpressions())
    if (Sub)
      eval(Sub);
  return AbsValue::unknown(errorReason(R));
}

LValue Interpreter::Impl::subscriptWithErrors(const ArraySubscriptExpr *A) {
  const Expr *BaseE = A->getLHS(), *IdxE = A->getRHS();
  auto IsBase = [](const Expr *E) {
    QualType T = E->getType();
    return T->isPointerType() || T->isArrayType();
  };
  if (!IsBase(BaseE))
    std::swap(BaseE, IdxE);
  if (!IsBase(BaseE)) {
    eval(BaseE);
    eval(IdxE);
    return LValue::unknown(errorReason(A));
  }
  AbsValue Base;
  QualType ElemT;
  if (BaseE->getType()->isArrayType()) {
    // An array not decayed (the subscript's type is not known).
    ElemT = QualType(BaseE->getType()->getArrayElementTypeNoTypeQual(), 0);
    LValue L = evalLValue(BaseE);
    Base = L.K == LValue::Memory && L.Offset
               ? AbsValue::pointer(L.Region, *L.Offset, ElemT)
               : AbsValue::unknown(L.Why);
  } else {
    ElemT = BaseE->getType()->getPointeeType();
    Base = eval(BaseE);
  }
  AbsValue Idx = eval(IdxE);
  if (!Base.isPointer())
    return LValue::unknown(Base.Why.empty() ? "base pointer unknown"
                                            : Base.Why);
  return offsetBy(Base, Idx, ElemT, IdxE);
}

std::string Interpreter::Impl::correctedName(const Expr *E) const {
  if (ErrorAt.empty())
    return "";
  SourceLocation L;
  const NamedDecl *Took = nullptr;
  if (auto *D = dyn_cast<DeclRefExpr>(E)) {
    L = D->getLocation();
    Took = D->getDecl();
  } else if (auto *M = dyn_cast<MemberExpr>(E)) {
    L = M->getMemberLoc();
    Took = M->getMemberDecl();
  }
  if (L.isInvalid() || !ErrorAt.count(L))
    return "";
  std::string Written =
      Lexer::getSourceText(CharSourceRange::getTokenRange(L, L),
                           Ctx.getSourceManager(), Ctx.getLangOpts())
          .str();
  std::string Name = Took->getNameAsString();
  if (Written.empty() || Written == Name)
    return "`" + Name + "` does not compile";
  return "`" + Written + "` does not compile (clang took it for `" + Name +
         "`)";
}

std::string Interpreter::Impl::uncompiledDecl(const VarDecl *VD) const {
  std::string Name = "`" + VD->getNameAsString() + "`";
  if (VD->isInvalidDecl())
    return "the declaration of " + Name + " does not compile";
  if (VD->getInit())
    return "";
  // No initializer in the AST, yet one written after the declarator.
  SourceLocation End = VD->getEndLoc();
  if (End.isInvalid() || End.isMacroID())
    return "";
  std::optional<Token> Next =
      Lexer::findNextToken(End, Ctx.getSourceManager(), Ctx.getLangOpts());
  if (Next && Next->isOneOf(tok::equal, tok::l_paren, tok::l_brace))
    return "the initializer of " + Name + " does not compile";
  return "";
}

namespace {

bool isAssignment(tok::TokenKind K) {
  switch (K) {
  case tok::equal:
  case tok::plusequal:
  case tok::minusequal:
  case tok::starequal:
  case tok::slashequal:
  case tok::percentequal:
  case tok::ampequal:
  case tok::pipeequal:
  case tok::caretequal:
  case tok::lesslessequal:
  case tok::greatergreaterequal:
    return true;
  default:
    return false;
  }
}

/// The names the raw tokens of a dropped statement may assign.
std::vector<std::string> writtenNames(llvm::ArrayRef<Token> Toks) {
  std::vector<std::string> Out;
  for (size_t K = 0; K < Toks.size(); ++K) {
    if (!Toks[K].is(tok::raw_identifier))
      continue;
    tok::TokenKind Prev = K ? Toks[K - 1].getKind() : tok::unknown;
    tok::TokenKind Next =
        K + 1 < Toks.size() ? Toks[K + 1].getKind() : tok::unknown;
    if (Prev == tok::period || Prev == tok::arrow || Prev == tok::coloncolon)
      continue; // a member's or a qualified name
    bool Written =
        isAssignment(Next) ||
        llvm::is_contained({tok::plusplus, tok::minusminus, tok::period},
                           Next) ||
        llvm::is_contained({tok::plusplus, tok::minusminus, tok::amp}, Prev) ||
        (llvm::is_contained({tok::l_paren, tok::comma}, Prev) &&
         llvm::is_contained({tok::r_paren, tok::comma}, Next));
    std::string Name = Toks[K].getRawIdentifier().str();
    if (Written && !llvm::is_contained(Out, Name))
      Out.push_back(Name);
  }
  return Out;
}

/// The raw tokens of the file between \p From and \p To.
std::vector<Token> rawTokens(const SourceManager &SM, const LangOptions &LO,
                             SourceLocation From, SourceLocation To) {
  std::vector<Token> Out;
  auto [FID, Begin] = SM.getDecomposedLoc(From);
  auto [EndFID, End] = SM.getDecomposedLoc(To);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || FID != EndFID || Begin >= End || End > Buf.size())
    return Out;
  Lexer Lex(SM.getLocForStartOfFile(FID), LO, Buf.begin(), Buf.begin() + Begin,
            Buf.end());
  Token T;
  for (bool AtEnd = false; !AtEnd;) {
    AtEnd = Lex.LexFromRawLexer(T);
    if (T.is(tok::eof) || SM.getFileOffset(T.getLocation()) >= End)
      break;
    Out.push_back(T);
  }
  return Out;
}

} // namespace

const std::vector<Interpreter::Impl::DroppedStmt> &
Interpreter::Impl::droppedIn(const CompoundStmt *CS) {
  auto It = Dropped.find(CS);
  if (It != Dropped.end())
    return It->second;
  std::vector<DroppedStmt> &Out = Dropped[CS];
  if (!CompileErrors || CompileErrors->empty())
    return Out;
  const SourceManager &SM = Ctx.getSourceManager();
  auto At = [&](SourceLocation L) { return SM.getExpansionLoc(L); };
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  auto EndOf = [&](SourceLocation L) {
    SourceLocation E =
        Lexer::getLocForEndOfToken(At(L), 0, SM, Ctx.getLangOpts());
    return E.isValid() ? E : At(L);
  };
  SourceLocation LB = At(CS->getLBracLoc()), RB = At(CS->getRBracLoc());
  if (LB.isInvalid() || RB.isInvalid())
    return Out;
  std::vector<const Stmt *> Body(CS->body_begin(), CS->body_end());
  // The index of the statement each error lies before, unless it lies in
  // one (a nested block sees it there).
  std::map<unsigned, unsigned> Gaps; // index -> line of its first error
  for (SourceLocation E : *CompileErrors) {
    SourceLocation L = At(E);
    if (L.isInvalid() || !Before(LB, L) || !Before(L, RB))
      continue;
    unsigned I = 0;
    bool Inside = false;
    for (; I < Body.size() && !Inside; ++I) {
      if (Before(L, At(Body[I]->getBeginLoc())))
        break;
      Inside = Before(L, EndOf(Body[I]->getEndLoc()));
    }
    if (!Inside)
      Gaps.emplace(I, SM.getExpansionLineNumber(L));
  }
  for (auto [I, Line] : Gaps) {
    SourceLocation From =
        I ? EndOf(Body[I - 1]->getEndLoc()) : LB.getLocWithOffset(1);
    SourceLocation To = I < Body.size() ? At(Body[I]->getBeginLoc()) : RB;
    std::vector<Token> Toks = rawTokens(SM, Ctx.getLangOpts(), From, To);
    Out.push_back({I, Line, writtenNames(Toks)});
  }
  return Out;
}

void Interpreter::Impl::droppedTargets(
    const DroppedStmt &D, llvm::SmallPtrSetImpl<const VarDecl *> &Out) const {
  for (const std::string &Name : D.Written) {
    for (const auto &KV : Env)
      if (KV.first->getName() == Name)
        Out.insert(KV.first);
    // An assignment through a reference assigns what it refers to.
    for (const auto &KV : Refs)
      if (KV.first->getName() == Name && KV.second.K == LValue::Var)
        Out.insert(KV.second.VD);
  }
}

void Interpreter::Impl::forgetDropped(const CompoundStmt *CS, unsigned Index) {
  for (const DroppedStmt &D : droppedIn(CS)) {
    if (D.Before != Index)
      continue;
    llvm::SmallPtrSet<const VarDecl *, 4> Targets;
    droppedTargets(D, Targets);
    for (const VarDecl *VD : Targets)
      Env[VD] = unknownPointer(
          Env[VD], "`" + VD->getNameAsString() + "` may be assigned at line " +
                       std::to_string(D.Line) +
                       " by a statement that does not compile");
  }
}

} // namespace cal

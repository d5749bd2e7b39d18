//===- SourceText.cpp - Source text of an expression, on one line ---------===//

#include "analyzer/SourceText.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

namespace cal {

std::string oneLineSourceText(clang::SourceRange R,
                              const clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  clang::CharSourceRange CR = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
  if (CR.isInvalid())
    return "";
  llvm::StringRef T = clang::Lexer::getSourceText(CR, SM, Ctx.getLangOpts());
  std::string Out;
  bool Space = false;
  for (char C : T) {
    if (C == '\n' || C == '\t' || C == ' ' || C == '\r') {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

std::string fileLine(const clang::SourceManager &SM,
                     clang::SourceLocation Loc) {
  clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return "<unknown>";
  return (llvm::sys::path::filename(P.getFilename()) + ":" +
          llvm::Twine(P.getLine()))
      .str();
}

bool inSystemOrPrelude(const clang::SourceManager &SM,
                       clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return true;
  Loc = SM.getExpansionLoc(Loc);
  return SM.isInSystemHeader(Loc) ||
         SM.getFilename(Loc).starts_with("/__cuda_access_lint__/");
}

} // namespace cal

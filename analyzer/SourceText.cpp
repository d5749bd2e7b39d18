//===- SourceText.cpp - Source text of an expression, on one line ---------===//

#include "analyzer/SourceText.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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

} // namespace cal

//===- Location.cpp -------------------------------------------------------===//

#include "support/Location.h"

#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"

namespace cal {

std::string displayPath(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return Path.str();
  llvm::StringRef Rest = Path;
  if (Rest.consume_front(Cwd) && Rest.consume_front("/") && !Rest.empty())
    return Rest.str();
  return Path.str();
}

Position positionOf(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  Position P;
  if (Loc.isInvalid())
    return P;
  clang::SourceLocation E = SM.getExpansionLoc(Loc);
  clang::PresumedLoc PL = SM.getPresumedLoc(E, /*UseLineDirectives=*/false);
  if (PL.isInvalid())
    return P;
  P.File = displayPath(PL.getFilename());
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  P.Offset = SM.getFileOffset(E);
  return P;
}

Position endPositionOf(const clang::SourceManager &SM,
                       const clang::LangOptions &LO,
                       clang::SourceLocation Loc) {
  clang::SourceLocation E = SM.getExpansionRange(Loc).getEnd();
  unsigned Len = clang::Lexer::MeasureTokenLength(E, SM, LO);
  Position P = positionOf(SM, E);
  if (P.valid() && Len > 0) {
    P.Column += Len - 1;
    P.Offset += Len - 1;
  }
  return P;
}

} // namespace cal

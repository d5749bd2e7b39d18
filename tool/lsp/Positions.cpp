//===- Positions.cpp ------------------------------------------------------===//

#include "tool/lsp/Positions.h"

#include "clang/Lex/Lexer.h"

namespace cal::lsp {

llvm::StringRef encodingName(PositionEncoding E) {
  switch (E) {
  case PositionEncoding::UTF8:
    return "utf-8";
  case PositionEncoding::UTF16:
    return "utf-16";
  case PositionEncoding::UTF32:
    return "utf-32";
  }
  return "utf-16";
}

PositionEncoding negotiateEncoding(const llvm::json::Value *ClientOffers) {
  const llvm::json::Array *A = ClientOffers ? ClientOffers->getAsArray() : nullptr;
  if (!A)
    return PositionEncoding::UTF16;
  bool Has16 = false, Has32 = false;
  for (const llvm::json::Value &V : *A) {
    std::optional<llvm::StringRef> S = V.getAsString();
    if (!S)
      continue;
    if (*S == "utf-8")
      return PositionEncoding::UTF8;
    Has16 |= *S == "utf-16";
    Has32 |= *S == "utf-32";
  }
  if (!Has16 && Has32)
    return PositionEncoding::UTF32;
  return PositionEncoding::UTF16;
}

llvm::lsp::Position positionAt(llvm::StringRef Text, unsigned Offset,
                               PositionEncoding E) {
  Offset = std::min<size_t>(Offset, Text.size());
  llvm::StringRef Before = Text.take_front(Offset);
  int Line = static_cast<int>(Before.count('\n'));
  size_t LineStart = Before.rfind('\n');
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  return llvm::lsp::Position(
      Line, static_cast<int>(codeUnits(Before.drop_front(LineStart), E)));
}

unsigned offsetAt(llvm::StringRef Text, llvm::lsp::Position P,
                  PositionEncoding E) {
  size_t Start = 0;
  for (int L = 0; L < P.line; ++L) {
    size_t NL = Text.find('\n', Start);
    if (NL == llvm::StringRef::npos)
      return Text.size();
    Start = NL + 1;
  }
  return Start + byteColumn(Text.drop_front(Start),
                            static_cast<unsigned>(std::max(P.character, 0)), E);
}

std::optional<FilePosition> filePosition(const clang::SourceManager &SM,
                                         clang::SourceLocation Loc,
                                         PositionEncoding E) {
  if (Loc.isInvalid())
    return std::nullopt;
  clang::SourceLocation F = SM.getExpansionLoc(Loc);
  auto [FID, Offset] = SM.getDecomposedLoc(F);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid)
    return std::nullopt;
  FilePosition P;
  P.File = FID;
  P.Offset = Offset;
  P.Pos = positionAt(Buffer, Offset, E);
  return P;
}

std::optional<std::pair<FilePosition, FilePosition>>
tokenRange(const clang::SourceManager &SM, const clang::LangOptions &LO,
           clang::SourceRange R, PositionEncoding E) {
  std::optional<FilePosition> B = filePosition(SM, R.getBegin(), E);
  clang::SourceLocation EndTok = SM.getExpansionRange(R.getEnd()).getEnd();
  unsigned Len = clang::Lexer::MeasureTokenLength(EndTok, SM, LO);
  std::optional<FilePosition> End =
      filePosition(SM, EndTok.getLocWithOffset(Len), E);
  if (!B || !End || B->File != End->File || End->Offset < B->Offset)
    return std::nullopt;
  return std::make_pair(*B, *End);
}

} // namespace cal::lsp

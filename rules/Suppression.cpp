//===- Suppression.cpp ----------------------------------------------------===//

#include "rules/Suppression.h"

#include "rules/Registry.h"

#include "llvm/Support/GlobPattern.h"

namespace cal {

namespace {

/// Whether the comment's rule list (the text after NOLINT...; empty = all)
/// names \p Rule.
bool listNames(llvm::StringRef After, llvm::StringRef Rule) {
  if (!After.starts_with("("))
    return true; // bare NOLINT: every rule
  size_t Close = After.find(')');
  llvm::StringRef List = After.slice(1, Close == llvm::StringRef::npos
                                            ? After.size()
                                            : Close);
  llvm::SmallVector<llvm::StringRef, 4> Names;
  List.split(Names, ',', -1, false);
  for (llvm::StringRef N : Names) {
    auto G = llvm::GlobPattern::create(canonicalRuleId(N));
    if (G && G->match(Rule))
      return true;
    if (!G)
      llvm::consumeError(G.takeError());
  }
  return false;
}

/// Finds `Marker` in a line's comment and checks its rule list. The marker
/// must not continue with a longer marker (NOLINT vs NOLINTNEXTLINE).
bool lineSays(llvm::StringRef Line, llvm::StringRef Marker,
              llvm::StringRef Rule) {
  size_t Comment = Line.find("//");
  size_t Block = Line.find("/*");
  size_t Start = std::min(Comment, Block);
  if (Start == llvm::StringRef::npos)
    return false;
  llvm::StringRef Text = Line.substr(Start);
  size_t At = 0;
  while ((At = Text.find(Marker, At)) != llvm::StringRef::npos) {
    llvm::StringRef After = Text.substr(At + Marker.size());
    At += Marker.size();
    if (!After.empty() && (llvm::isAlnum(After[0]) || After[0] == '_'))
      continue;
    if (listNames(After, Rule))
      return true;
  }
  return false;
}

} // namespace

bool isSuppressed(const clang::SourceManager &SM, clang::SourceLocation Loc,
                  llvm::StringRef Rule) {
  clang::SourceLocation E = SM.getExpansionLoc(Loc);
  clang::FileID File = SM.getFileID(E);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return false;
  unsigned Offset = SM.getFileOffset(E);
  // The line of the finding, and the one before it.
  size_t NL = Buf.rfind('\n', Offset); // the last newline before Offset
  size_t LineStart = NL == llvm::StringRef::npos ? 0 : NL + 1;
  size_t LineEnd = Buf.find('\n', Offset);
  llvm::StringRef Line = Buf.slice(LineStart, LineEnd);
  if (lineSays(Line, "NOLINT", Rule))
    return true;
  if (LineStart > 0) {
    size_t PrevEnd = LineStart - 1;
    size_t PNL = Buf.rfind('\n', PrevEnd);
    size_t PrevStart = PNL == llvm::StringRef::npos ? 0 : PNL + 1;
    if (lineSays(Buf.slice(PrevStart, PrevEnd), "NOLINTNEXTLINE", Rule))
      return true;
  }
  // NOLINTBEGIN / NOLINTEND blocks before the finding.
  int Depth = 0;
  llvm::StringRef Before = Buf.substr(0, LineStart);
  size_t Pos = 0;
  while (Pos < Before.size()) {
    size_t End = Before.find('\n', Pos);
    llvm::StringRef L = Before.slice(Pos, End);
    if (lineSays(L, "NOLINTBEGIN", Rule))
      ++Depth;
    if (lineSays(L, "NOLINTEND", Rule) && Depth > 0)
      --Depth;
    if (End == llvm::StringRef::npos)
      break;
    Pos = End + 1;
  }
  return Depth > 0;
}

} // namespace cal

//===- Positions.h - LSP positions: lines and characters per encoding -----===//
//
// LSP counts a position's character in the code units of the encoding the
// client and server agreed on in `initialize` (`positionEncoding`): UTF-16
// by default, UTF-8 (bytes, what clang counts) when the client offers it,
// or UTF-32. The analyzer's and clang's locations are byte offsets; these
// convert them with the text of the line (output/CodeUnits.h counts the
// units).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_POSITIONS_H
#define CUDA_ACCESS_LINT_TOOL_LSP_POSITIONS_H

#include "output/CodeUnits.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <optional>

namespace cal::lsp {

using cal::byteColumn;
using cal::codeUnits;
using cal::PositionEncoding;

/// "utf-8", "utf-16", "utf-32": the names LSP uses.
llvm::StringRef encodingName(PositionEncoding E);

/// The encoding to use given the client's `general.positionEncodings`
/// (missing: UTF-16, the protocol's default): UTF-8 when offered, else
/// UTF-16 when offered, else UTF-32 when offered, else UTF-16.
PositionEncoding negotiateEncoding(const llvm::json::Value *ClientOffers);

/// The LSP position of byte \p Offset of \p Text.
llvm::lsp::Position positionAt(llvm::StringRef Text, unsigned Offset,
                               PositionEncoding E);

/// The byte offset in \p Text of an LSP position (clamped to the text).
unsigned offsetAt(llvm::StringRef Text, llvm::lsp::Position P,
                  PositionEncoding E);

/// The position of a file location (a macro location: where it is
/// expanded), with the file it lies in.
struct FilePosition {
  clang::FileID File;
  unsigned Offset = 0;
  llvm::lsp::Position Pos;
};
std::optional<FilePosition> filePosition(const clang::SourceManager &SM,
                                         clang::SourceLocation Loc,
                                         PositionEncoding E);

/// The range a token range covers: from its first character to the end of
/// its last token (expansion locations for macros); nullopt when the two
/// ends are not in one file.
std::optional<std::pair<FilePosition, FilePosition>>
tokenRange(const clang::SourceManager &SM, const clang::LangOptions &LO,
           clang::SourceRange R, PositionEncoding E);

} // namespace cal::lsp

#endif

//===- CodeUnits.h - Columns and offsets in the code units of an encoding -===//
//
// Clang and the analyzer count bytes (UTF-8 code units). What editors and
// review tools read counts the code units of their own encoding: LSP the
// encoding negotiated in `initialize` (UTF-16 by default), SARIF the run's
// columnKind (UTF-16 code units, as code scanning reads it). These convert
// a UTF-8 text's byte counts to those units and back; a byte that is not
// valid UTF-8 counts as one unit.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_OUTPUT_CODEUNITS_H
#define CUDA_ACCESS_LINT_OUTPUT_CODEUNITS_H

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace cal {

enum class PositionEncoding { UTF8, UTF16, UTF32 };

/// The number of code units in \p E of the UTF-8 text \p Prefix (a line's
/// start up to a position, a file's start up to an offset).
unsigned codeUnits(llvm::StringRef Prefix, PositionEncoding E);

/// The byte offset in \p Line of the position \p Character code units in
/// (clamped to the line's end: the newline is not part of the line).
unsigned byteColumn(llvm::StringRef Line, unsigned Character,
                    PositionEncoding E);

/// The byte length of the code point that starts \p Text (1 for a byte that
/// does not start valid UTF-8; 0 for an empty text).
unsigned codePointBytes(llvm::StringRef Text);

/// A text with its line starts, for converting line and byte column (what
/// the records hold, 1-based) to code units.
class LineTable {
public:
  explicit LineTable(llvm::StringRef Text);
  llvm::StringRef text() const { return Text; }
  /// Line \p Line (1-based) without its newline; empty past the end.
  llvm::StringRef line(unsigned Line) const;
  /// The 1-based column in units of \p E of 1-based byte column \p Column
  /// of line \p Line; \p Column itself when the line has no such column.
  unsigned column(unsigned Line, unsigned Column, PositionEncoding E) const;

private:
  llvm::StringRef Text;
  std::vector<size_t> Starts;
};

} // namespace cal

#endif

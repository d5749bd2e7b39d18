//===- CodeUnits.cpp ------------------------------------------------------===//

#include "output/CodeUnits.h"

#include "llvm/Support/ConvertUTF.h"

#include <algorithm>

namespace cal {

unsigned codePointBytes(llvm::StringRef Text) {
  if (Text.empty())
    return 0;
  unsigned char C = static_cast<unsigned char>(Text[0]);
  if (C < 0x80)
    return 1;
  unsigned Len = llvm::getNumBytesForUTF8(C);
  if (Len == 0 || Len > Text.size() ||
      !llvm::isLegalUTF8Sequence(
          reinterpret_cast<const llvm::UTF8 *>(Text.data()),
          reinterpret_cast<const llvm::UTF8 *>(Text.data() + Len)))
    return 1; // not UTF-8: a byte is a unit
  return Len;
}

namespace {

/// Walks \p Text one code point at a time: \p Step(bytes, units) for each,
/// until it returns false.
template <typename StepT>
void walkCodePoints(llvm::StringRef Text, PositionEncoding E, StepT Step) {
  for (size_t I = 0; I < Text.size();) {
    unsigned Len = codePointBytes(Text.drop_front(I));
    unsigned Units = 1;
    if (E == PositionEncoding::UTF8)
      Units = Len;
    else if (E == PositionEncoding::UTF16)
      Units = Len == 4 ? 2 : 1; // outside the BMP: a surrogate pair
    if (!Step(Len, Units))
      return;
    I += Len;
  }
}

} // namespace

unsigned codeUnits(llvm::StringRef Prefix, PositionEncoding E) {
  if (E == PositionEncoding::UTF8)
    return Prefix.size();
  unsigned N = 0;
  walkCodePoints(Prefix, E, [&](unsigned, unsigned Units) {
    N += Units;
    return true;
  });
  return N;
}

unsigned byteColumn(llvm::StringRef Line, unsigned Character,
                    PositionEncoding E) {
  Line = Line.take_until([](char C) { return C == '\n' || C == '\r'; });
  if (E == PositionEncoding::UTF8)
    return std::min<size_t>(Character, Line.size());
  unsigned Bytes = 0, Units = 0;
  walkCodePoints(Line, E, [&](unsigned Len, unsigned U) {
    if (Units + U > Character)
      return false;
    Units += U;
    Bytes += Len;
    return true;
  });
  return Bytes;
}

LineTable::LineTable(llvm::StringRef Text) : Text(Text) {
  Starts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

llvm::StringRef LineTable::line(unsigned Line) const {
  if (Line == 0 || Line > Starts.size())
    return {};
  return Text.drop_front(Starts[Line - 1])
      .take_until([](char C) { return C == '\n' || C == '\r'; });
}

unsigned LineTable::column(unsigned Line, unsigned Column,
                           PositionEncoding E) const {
  llvm::StringRef L = this->line(Line);
  if (Column == 0 || Column - 1 > L.size())
    return Column;
  return codeUnits(L.take_front(Column - 1), E) + 1;
}

} // namespace cal

//===- PositionsTest.cpp - LSP columns per encoding -----------------------===//

#include "tool/lsp/Positions.h"

#include <gtest/gtest.h>

namespace cal::lsp {
namespace {

// "é" is 2 bytes, 1 UTF-16 unit; "×" 2 bytes, 1 unit; "𝄞" 4 bytes, 2 units
// (a surrogate pair), 1 UTF-32 unit.
const char Line[] = "/* é×𝄞 */ x";

TEST(Positions, CodeUnitsPerEncoding) {
  llvm::StringRef Prefix(Line, sizeof(Line) - 2); // up to "x"
  EXPECT_EQ(codeUnits(Prefix, PositionEncoding::UTF8), 15u);
  EXPECT_EQ(codeUnits(Prefix, PositionEncoding::UTF16), 11u);
  EXPECT_EQ(codeUnits(Prefix, PositionEncoding::UTF32), 10u);
}

TEST(Positions, ByteColumnInvertsCodeUnits) {
  for (PositionEncoding E : {PositionEncoding::UTF8, PositionEncoding::UTF16,
                             PositionEncoding::UTF32}) {
    llvm::StringRef L(Line);
    for (size_t B = 0; B <= L.size(); ++B) {
      // Only offsets at a code point's start are positions.
      if (B < L.size() && (static_cast<unsigned char>(L[B]) & 0xC0) == 0x80)
        continue;
      EXPECT_EQ(byteColumn(L, codeUnits(L.take_front(B), E), E), B)
          << "byte " << B << " in " << encodingName(E).str();
    }
  }
  // Past the end of the line: its end (the newline is not part of it).
  EXPECT_EQ(byteColumn("ab\ncd", 10, PositionEncoding::UTF16), 2u);
  // Inside a surrogate pair: the code point's start.
  EXPECT_EQ(byteColumn("𝄞x", 1, PositionEncoding::UTF16), 0u);
}

TEST(Positions, PositionsAndOffsetsOfAText) {
  llvm::StringRef Text = "int a;\n  é = 1;\n";
  llvm::lsp::Position P = positionAt(Text, Text.find('='), PositionEncoding::UTF16);
  EXPECT_EQ(P.line, 1);
  EXPECT_EQ(P.character, 4);
  EXPECT_EQ(offsetAt(Text, P, PositionEncoding::UTF16), Text.find('='));
  EXPECT_EQ(offsetAt(Text, llvm::lsp::Position(9, 0), PositionEncoding::UTF16),
            Text.size());
}

// SARIF's columns (output/CodeUnits.h): 1-based, a line's bytes counted in
// UTF-16 units; a column the line does not have is kept as it is.
TEST(Positions, LineTableColumns) {
  LineTable T("int a;\n/* é×𝄞 */ x = 1;\r\nend");
  EXPECT_EQ(T.line(2), "/* é×𝄞 */ x = 1;");
  EXPECT_EQ(T.line(3), "end");
  EXPECT_EQ(T.line(4), "");
  EXPECT_EQ(T.column(1, 5, PositionEncoding::UTF16), 5u);
  unsigned X = T.line(2).find('x') + 1; // byte column 16
  EXPECT_EQ(T.column(2, X, PositionEncoding::UTF16), 12u);
  EXPECT_EQ(T.column(2, X, PositionEncoding::UTF32), 11u);
  EXPECT_EQ(T.column(2, 99, PositionEncoding::UTF16), 99u);
  EXPECT_EQ(codePointBytes("𝄞x"), 4u);
  EXPECT_EQ(codePointBytes("\xffx"), 1u);
}

TEST(Positions, UTF8IsPreferredWhenOffered) {
  llvm::json::Value Both = llvm::json::Array{"utf-16", "utf-8"};
  llvm::json::Value Only32 = llvm::json::Array{"utf-32"};
  llvm::json::Value Unknown = llvm::json::Array{"ebcdic"};
  EXPECT_EQ(negotiateEncoding(&Both), PositionEncoding::UTF8);
  EXPECT_EQ(negotiateEncoding(&Only32), PositionEncoding::UTF32);
  EXPECT_EQ(negotiateEncoding(&Unknown), PositionEncoding::UTF16);
  EXPECT_EQ(negotiateEncoding(nullptr), PositionEncoding::UTF16);
}

} // namespace
} // namespace cal::lsp

//===- SourceText.h - Source text of an expression, on one line -----------===//
//
// The code as the user wrote it, for messages and readable forms: the file
// characters a (possibly macro-expanded) range covers, with every run of
// whitespace collapsed to one space so that names and expressions stay on
// one line. Shared by the analyzer (names of symbols and unknown reasons) and
// the rules (the index term a message quotes). Also where a place is, for
// notes ("file.cu:12"), and whether it is the user's code.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_SOURCETEXT_H
#define CUDA_ACCESS_LINT_ANALYZER_SOURCETEXT_H

#include "clang/AST/ASTContext.h"

#include <string>

namespace cal {

/// The source text of \p R on one line; empty when the range does not map to
/// characters of one file.
std::string oneLineSourceText(clang::SourceRange R,
                              const clang::ASTContext &Ctx);

/// "file.cu:12": the file name (no directory) and line of \p Loc's
/// expansion; "<unknown>" for no place.
std::string fileLine(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// \p Loc (its expansion) is in a system header or the built-in prelude, or
/// is no place at all: not the user's code.
bool inSystemOrPrelude(const clang::SourceManager &SM,
                       clang::SourceLocation Loc);

} // namespace cal

#endif

//===- TextReport.h - Findings as clang diagnostics -----------------------===//
//
// Each finding goes through a clang DiagnosticsEngine on the translation
// unit's SourceManager: "file:line:col: warning: message [rule-id]", the
// source line with a caret and the access underlined, macro-expansion notes
// and fix-it lines for free. The explanatory notes (kernel, symbolic offset,
// assumptions, suggested code) follow as plain notes. Note-severity findings
// print as "remark:" so they are not mistaken for notes of the finding
// before them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_OUTPUT_TEXTREPORT_H
#define CUDA_ACCESS_LINT_OUTPUT_TEXTREPORT_H

#include "analyzer/Analyzer.h"
#include "report/FindingRecord.h"
#include "rules/Rule.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace cal {

/// The findings' records, rendered on the files as they are on disk.
void printFindings(const std::vector<FindingRecord> &Findings,
                   llvm::raw_ostream &OS, bool Color);

/// --explain: the analyzer's facts at each access, for people.
void printAccessFacts(clang::ASTContext &Ctx, const AnalysisResult &R,
                      llvm::raw_ostream &OS, bool Color);

} // namespace cal

#endif

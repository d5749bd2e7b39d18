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
#include "analyzer/CostModel.h"
#include "report/FindingRecord.h"
#include "rules/Rule.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace cal {

/// The findings' records, rendered on the files as they are on disk.
void printFindings(const std::vector<FindingRecord> &Findings,
                   llvm::raw_ostream &OS, bool Color);

/// The analyzer's facts about one access, for people: a heading ("load of
/// `tile` (shared, 4 bytes per lane) in `transpose`") and one line per fact
/// (byte offset, sectors, bank conflicts, assumptions ...). What --explain
/// prints at each access and the editor's hover card shows.
struct AccessExplanation {
  std::string Head;
  std::vector<std::string> Facts;
};
AccessExplanation explainAccess(const AccessFacts &F, const AnalysisResult &R);

/// The lanes' byte offsets from the first lane, compactly: runs of equal
/// steps as "lanes 0-15: 0, 4, ..., 60"; empty when unknown or when not all
/// 32 lanes are active.
std::string compactLaneOffsets(const AccessFacts &F);

/// --explain: the analyzer's facts at each access, for people.
/// A kernel configuration whose analysis stopped (KernelInfo::Stopped), for
/// people: "analysis of kernel 'k' stopped: budget exceeded (time: 5 s);
/// its 3 accesses are unknown [--analysis-time-limit]".
std::string stoppedKernelSummary(const AnalysisResult &R, size_t Kernel);
/// The same as a diagnostic line, "file:line:col: warning: ...".
std::string stoppedKernelMessage(const AnalysisResult &R, size_t Kernel,
                                 const clang::SourceManager &SM);

void printAccessFacts(clang::ASTContext &Ctx, const AnalysisResult &R,
                      llvm::raw_ostream &OS, bool Color);

/// The cost model's prediction for a kernel configuration, one line for
/// people: "kernel 'k' <256x1x1>: predicted 3.42 ms on the H200 model, bound
/// by fp32 (fp32 2.08 ms, L1 3.01 ms of which shared 2.9 ms, DRAM 0.09 ms);
/// 137 GFLOP, 355 FLOP per DRAM byte"; what it misses when incomplete.
std::string kernelPredictionLine(const KernelInfo &K, const KernelPrediction &P);
/// --explain: that line as a remark at the kernel's definition.
void printKernelPrediction(clang::ASTContext &Ctx, const KernelInfo &K,
                           const KernelPrediction &P, llvm::raw_ostream &OS,
                           bool Color);

} // namespace cal

#endif

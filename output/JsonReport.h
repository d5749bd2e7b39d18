//===- JsonReport.h - The --format=json document --------------------------===//
//
// Formats what the analyzer and the rules found; decides nothing. The schema
// is documented in docs/json-output.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_OUTPUT_JSONREPORT_H
#define CUDA_ACCESS_LINT_OUTPUT_JSONREPORT_H

#include "analyzer/Analyzer.h"
#include "analyzer/CostModel.h"
#include "report/FindingRecord.h"
#include "report/Metrics.h"
#include "rules/Rule.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace cal {

/// One access record (the `accesses` array).
nlohmann::json accessJson(const AccessFacts &F, const AnalysisResult &R,
                          const clang::SourceManager &SM);

/// A kernel's predicted cost (kernels[].prediction).
nlohmann::json predictionJson(const KernelPrediction &P);

/// One kernel record (the `kernels` array).
nlohmann::json kernelJson(const KernelInfo &K, const clang::SourceManager &SM);

/// One finding (the `findings` array).
nlohmann::json findingJson(const FindingRecord &F);

/// A finding read back from the `findings` array (--merge): what every
/// format needs; the notes elsewhere come back as notes at the finding, the
/// absolute paths from the paths relative to the working directory.
std::optional<FindingRecord> findingFromJson(const nlohmann::json &J);

/// The finding's notes as the formats show them: those at the finding, then
/// those elsewhere as "file:line:col: message".
std::vector<std::string> allNotes(const FindingRecord &F);

class JsonReport {
public:
  nlohmann::json &files() { return Doc["files"]; }
  nlohmann::json &kernels() { return Doc["kernels"]; }
  nlohmann::json &findings() { return Doc["findings"]; }
  nlohmann::json &accesses() { return Doc["accesses"]; }
  JsonReport();
  /// Writes the document; \p WithAccesses keeps the accesses array.
  void write(llvm::raw_ostream &OS, bool WithAccesses);

private:
  nlohmann::json Doc;
};

} // namespace cal

#endif

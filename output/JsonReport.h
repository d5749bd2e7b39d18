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
#include "rules/Rule.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace cal {

/// A number as JSON: an integer when it is one, else rounded to 6
/// significant digits.
nlohmann::json jsonNumber(double V);

/// One access record (the `accesses` array).
nlohmann::json accessJson(const AccessFacts &F, const AnalysisResult &R,
                          const clang::SourceManager &SM);

/// A kernel's predicted cost (kernels[].prediction).
nlohmann::json predictionJson(const KernelPrediction &P);

/// One kernel record (the `kernels` array).
nlohmann::json kernelJson(const KernelInfo &K, const clang::SourceManager &SM);

/// One finding (the `findings` array).
nlohmann::json findingJson(const Finding &F, clang::ASTContext &Ctx);

/// The metrics of an access, as findings carry them.
nlohmann::json metricsJson(const AccessFacts &F);

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

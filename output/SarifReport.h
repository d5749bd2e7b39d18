//===- SarifReport.h - --format=sarif for code scanning -------------------===//
//
// SARIF 2.1.0, as GitHub code scanning and other review tools read it: the
// rules' metadata from their declarations (with a helpUri to each rule's
// page), one result per finding with its location (columns and offsets in
// UTF-16 code units, the run's columnKind, counted on the files' text), its
// fingerprint as partialFingerprints (so code scanning follows a finding
// across commits that move its line) and the machine-applicable fixes as
// SARIF fixes. Paths are relative to --source-root, through the uriBaseId
// SRCROOT, when one is given. Built from the findings' records (formatting
// only).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_OUTPUT_SARIFREPORT_H
#define CUDA_ACCESS_LINT_OUTPUT_SARIFREPORT_H

#include "report/FindingRecord.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cal {

struct SarifOptions {
  /// Absolute directory the artifact URIs are relative to (uriBaseId
  /// SRCROOT); empty: paths as displayed (relative to the working
  /// directory, else absolute file:// URIs).
  std::string SourceRoot;
  /// Where the rule pages are: helpUri = RuleDocsBase + "<id>.md".
  std::string RuleDocsBase;
};

/// The partialFingerprints key.
inline constexpr const char *SarifFingerprintKey = "cudaAccessLint/v1";

nlohmann::json sarifDocument(const std::vector<FindingRecord> &Findings,
                             const SarifOptions &Options);

/// A file:// URI for an absolute path (percent-encoded as RFC 3986 asks).
std::string fileUri(llvm::StringRef Path);

} // namespace cal

#endif

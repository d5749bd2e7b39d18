//===- SarifReport.h - --format=sarif for code scanning -------------------===//
//
// SARIF 2.1.0, as GitHub code scanning and other review tools read it: the
// rules' metadata from their declarations, one result per finding with its
// location, and the machine-applicable fixes as SARIF fixes. Built from the
// same JSON findings --format=json prints (formatting only).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_OUTPUT_SARIFREPORT_H
#define CUDA_ACCESS_LINT_OUTPUT_SARIFREPORT_H

#include <nlohmann/json.hpp>

namespace cal {

/// \p Findings: the `findings` array of the JSON document.
nlohmann::json sarifDocument(const nlohmann::json &Findings);

} // namespace cal

#endif

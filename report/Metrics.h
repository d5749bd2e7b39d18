//===- Metrics.h - The numbers a finding carries, as JSON values ----------===//

#ifndef CUDA_ACCESS_LINT_REPORT_METRICS_H
#define CUDA_ACCESS_LINT_REPORT_METRICS_H

#include "analyzer/Analyzer.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace cal {

/// A number as JSON: an integer when it is one, else rounded to 6
/// significant digits.
nlohmann::json jsonNumber(double V);

/// An optional number as JSON: null when there is none.
template <typename T> nlohmann::json optNumber(const std::optional<T> &V) {
  if (!V)
    return nullptr;
  return jsonNumber(static_cast<double>(*V));
}

/// The metrics of an access, as findings carry them (docs/json-output.md).
nlohmann::json metricsJson(const AccessFacts &F);

} // namespace cal

#endif

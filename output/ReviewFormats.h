//===- ReviewFormats.h - What CI annotations and review bots read ---------===//
//
//   --format=github       GitHub Actions workflow commands (::warning file=...)
//   --format=rdjsonl      reviewdog's JSON lines (suggestions included)
//   --export-fixes=FILE   clang-tidy's YAML (clang-apply-replacements, review
//                         tooling built for clang-tidy), via clang's own writer
//
// All built from the JSON findings (formatting only).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_OUTPUT_REVIEWFORMATS_H
#define CUDA_ACCESS_LINT_OUTPUT_REVIEWFORMATS_H

#include <nlohmann/json.hpp>

#include <string>

namespace cal {

std::string githubAnnotations(const nlohmann::json &Findings);
std::string reviewdogJsonLines(const nlohmann::json &Findings);
/// clang-tidy's --export-fixes document; \p MainSourceFile may be empty.
std::string exportFixesYaml(const nlohmann::json &Findings,
                            const std::string &MainSourceFile);

} // namespace cal

#endif

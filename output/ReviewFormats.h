//===- ReviewFormats.h - What CI annotations and review bots read ---------===//
//
//   --format=github       GitHub Actions workflow commands (::warning file=...),
//                         most costly first, at most GithubAnnotationsPerLevel
//                         of each level (what GitHub shows per step), then a
//                         closing ::notice that counts the findings and names
//                         what was left out
//   --format=rdjsonl      reviewdog's JSON lines (suggestions included), most
//                         costly first
//   --export-fixes=FILE   clang-tidy's YAML (clang-apply-replacements, review
//                         tooling built for clang-tidy), via clang's own writer
//
// All built from the findings' records (formatting only).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_OUTPUT_REVIEWFORMATS_H
#define CUDA_ACCESS_LINT_OUTPUT_REVIEWFORMATS_H

#include "report/FindingRecord.h"

#include <string>
#include <vector>

namespace cal {

/// GitHub shows at most 10 annotations of each level (error, warning,
/// notice) per step; the closing notice takes one of the notices.
inline constexpr unsigned GithubAnnotationsPerLevel = 10;

std::string githubAnnotations(const std::vector<FindingRecord> &Findings);
std::string reviewdogJsonLines(const std::vector<FindingRecord> &Findings,
                               const std::string &RuleDocsBase);
/// clang-tidy's --export-fixes document; \p MainSourceFile may be empty.
std::string exportFixesYaml(const std::vector<FindingRecord> &Findings,
                            const std::string &MainSourceFile);

} // namespace cal

#endif

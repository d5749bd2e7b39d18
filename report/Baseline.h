//===- Baseline.h - Fingerprints, baselines, changed lines ----------------===//
//
// A finding's fingerprint survives lines moving: it hashes the rule, the
// file (relative to the source root), the kernel's name (without template
// arguments), the array and the access's text with whitespace removed, and
// the finding's ordinal among those with the same five in the file (two
// identical accesses in one kernel). Inserting lines above a finding, or
// reindenting it, keeps its fingerprint; editing the access, renaming the
// kernel or moving the file gives a new one.
//
// --write-baseline=F records the run's fingerprints (with the finding's
// place and message, for people); --baseline=F reports only findings whose
// fingerprint F does not hold (as many times as it holds it).
//
// Changed lines: clang-tidy's --line-filter JSON
//   [{"name": "src/a.cu", "lines": [[10, 20], [31, 31]]}, {"name": "b.cu"}]
// (a file without "lines" has all of them; a file not named has none), or
// a unified diff (`git diff -U0`), whose new-side hunks are the lines.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_REPORT_BASELINE_H
#define CUDA_ACCESS_LINT_REPORT_BASELINE_H

#include "report/FindingRecord.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cal {

/// Sets each record's Fingerprint; paths relative to \p SourceRoot
/// (absolute; empty: the working directory).
void assignFingerprints(std::vector<FindingRecord> &Records,
                        const std::string &SourceRoot);

/// The baseline document of \p Records.
std::string baselineJson(const std::vector<FindingRecord> &Records);

/// Fingerprint -> how many times the baseline holds it.
using Baseline = std::map<std::string, unsigned>;
llvm::Expected<Baseline> readBaseline(llvm::StringRef Path);

/// Removes the records the baseline holds; returns how many.
unsigned applyBaseline(std::vector<FindingRecord> &Records, Baseline B);

class LineFilter {
public:
  struct File {
    std::string Name;
    std::vector<std::pair<unsigned, unsigned>> Lines; ///< empty: all
  };
  std::vector<File> Files;

  /// True when the place is in a named file and on one of its lines (a
  /// name matches a path it ends, at a path boundary, as clang-tidy does).
  bool accepts(const SourcePlace &P) const;
  /// The files named, for --diff: every name as given.
  std::vector<std::string> names() const;
};

/// clang-tidy's --line-filter JSON; errors are one line.
llvm::Expected<LineFilter> parseLineFilter(llvm::StringRef Json);
/// A unified diff's new side (`+++ b/path`, `@@ -a,b +c,d @@`); a file
/// deleted by the diff has no lines.
llvm::Expected<LineFilter> parseUnifiedDiff(llvm::StringRef Diff);

} // namespace cal

#endif

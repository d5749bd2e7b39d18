//===- Run.h - Every file of a run, in parallel, merged in input order ----===//
//
// The files are parsed and linted by -j worker threads (each parse has its
// own compiler instance; the frontend's caches are locked), taken in input
// order. Each file's outcome is self-contained (finding records, kernel and
// access records, its diagnostics as text), so nothing of it depends on
// which thread ran it or when. A kernel configuration that several
// translation units contain (a kernel of a shared header) is claimed by
// the first of them, in input order, to reach it; a later file skips it,
// and whatever an earlier file's late claim makes redundant is dropped
// when the outcomes are merged: the file first in input order reports it,
// whatever -j is, and a serial run analyzes it once.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_RUN_H
#define CUDA_ACCESS_LINT_TOOL_RUN_H

#include "frontend/Frontend.h"
#include "report/Baseline.h"
#include "report/FindingRecord.h"
#include "tool/Lint.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cal {

struct RunOptions {
  unsigned Jobs = 1;
  bool Accesses = false;   ///< access records for --format=json --accesses
  bool Explain = false;    ///< --explain text
  bool Color = false;
  bool TimePhases = false; ///< --time-phases lines
};

/// A record of a kernel configuration (kernels[], accesses[] or --explain
/// text) with the configuration it belongs to.
template <typename T> struct Keyed {
  std::string Key;
  T Value;
};

struct FileOutcome {
  std::string File;
  ParsedFile Info;
  FileRun Run;
  /// The tool's messages about the file and clang's diagnostics, in order.
  std::string Diagnostics;
  std::vector<FindingRecord> Findings; ///< one configuration each
  std::vector<Keyed<nlohmann::json>> Kernels, Accesses;
  std::vector<Keyed<std::string>> Explain;
  unsigned Suppressed = 0;
  /// Files with machine-applicable edits, as the parse read them.
  std::map<std::string, std::string> Contents;
};

/// Lints \p Files with \p Opts.Jobs threads. \p SettingsFor gives each
/// file's settings (its configuration); \p OnDone is called on the calling
/// thread with each outcome, in input order, as soon as it and every file
/// before it are done (for stderr). Returns the outcomes in input order,
/// with the records of configurations another file reports removed.
std::vector<FileOutcome>
lintFiles(Frontend &FE, const std::vector<std::string> &Files,
          const std::function<const LintSettings &(const std::string &)>
              &SettingsFor,
          const RunOptions &Opts,
          const std::function<void(const FileOutcome &)> &OnDone);

/// A whole run, merged: one finding per place across every file and
/// configuration (report/Grouping.h), in input order.
struct MergedRun {
  std::vector<FileOutcome> Outcomes;
  std::vector<FindingRecord> Findings;
  /// The outcome that reports each finding (the first with its place).
  std::vector<size_t> FileOf;
  unsigned Suppressed = 0; ///< by NOLINT comments
  unsigned Baselined = 0;  ///< held by --baseline
  unsigned OutsideLines = 0; ///< off --line-filter's or --diff's lines
  unsigned FilesFailed = 0, FilesWithErrors = 0;
  unsigned Kernels = 0; ///< kernel configurations analyzed
};

MergedRun mergeOutcomes(std::vector<FileOutcome> Outcomes);

/// Gives every finding its fingerprint (paths relative to \p SourceRoot)
/// and drops those off the lines of any of \p Lines (--line-filter,
/// --diff), counted in OutsideLines.
void fingerprintAndFilterLines(MergedRun &M, const std::string &SourceRoot,
                               const std::vector<const LineFilter *> &Lines);

/// Drops the findings \p Known holds (as many times as it holds each),
/// counted in Baselined.
void applyBaselineTo(MergedRun &M, Baseline Known);

} // namespace cal

#endif

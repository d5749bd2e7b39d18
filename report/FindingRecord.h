//===- FindingRecord.h - One finding, as every output format reads it -----===//
//
// A rule's Finding points into the AST (source ranges, the analyzer's
// facts); it lives only as long as its translation unit. A FindingRecord is
// the same finding made self-contained while the AST is alive: places as
// file, line, column and byte offset, notes and fixes with their places,
// the metrics, what the cost model predicts it costs. It is what the run
// merges across translation units (in input order, whatever -j is), groups
// into one finding per place, filters (baseline, changed lines) and ranks,
// and what every format serializes: text (through clang's diagnostic
// printer on the file as it is on disk), JSON, SARIF, GitHub annotations,
// reviewdog, clang-tidy's export-fixes YAML (as clang::tooling::Diagnostic,
// whose fields it carries) and the LSP server's diagnostics. No format
// re-reads another's output.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_REPORT_FINDINGRECORD_H
#define CUDA_ACCESS_LINT_REPORT_FINDINGRECORD_H

#include "analyzer/Analyzer.h"
#include "rules/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cal {

/// A place in a file: where a macro's expansion is, for a location in a
/// macro (the line the user wrote).
struct SourcePlace {
  std::string Path; ///< absolute, normalized: what fixes and rendering read
  std::string File; ///< as displayed: relative to the working directory
                    ///< when below it
  unsigned Line = 0, Column = 0; ///< 1-based; column in bytes
  unsigned Offset = 0;           ///< 0-based byte offset in the file
  bool valid() const { return Line != 0; }
};

/// Where a location in a macro was written: the macro and the place in its
/// definition (text output shows it as clang does, "expanded from macro").
struct MacroPlace {
  std::string Name;
  SourcePlace At;
};

struct NoteRecord {
  SourcePlace At;
  std::string Message;
  std::optional<MacroPlace> Macro;
};

struct EditRecord {
  SourcePlace At;
  unsigned Length = 0;
  std::string Text;
};

struct FixRecord {
  FixKind Kind = FixKind::Pad;
  Applicability Apply = Applicability::Suggestion;
  std::string Description;
  std::string Code; ///< suggestions: the code to write
  /// What the rewrite gives (Fix::After), as JSON; null when not computed.
  nlohmann::json After;
  std::vector<EditRecord> Edits;
  bool machineApplicable() const {
    return Apply == Applicability::MachineApplicable;
  }
};

/// One kernel configuration (instantiation x block shape) in which a place
/// has the finding, with that configuration's own numbers.
struct ConfigurationRecord {
  std::string Kernel;       ///< "row_product<256, 16>"
  std::string Shape;        ///< "256 threads per block", "unknown"
  std::optional<Dim3> BlockDim;
  Severity Sev = Severity::Warning;
  std::string Message;
  nlohmann::json Metrics = nlohmann::json::object();
  double Cost = 0;
  /// The configuration's identity across translation units (the kernel's
  /// definition, instantiation and launch shape): the first file in input
  /// order that has it reports it.
  std::string Key;
};

struct FindingRecord {
  std::string Rule;
  Severity Sev = Severity::Warning;
  SourcePlace Begin;
  /// Where the access's last token starts (the underline runs to its end)
  /// and its last character.
  SourcePlace EndToken;
  unsigned EndLine = 0, EndColumn = 0;
  std::optional<MacroPlace> Macro;
  std::string Kernel; ///< the configuration whose numbers are reported
  /// The kernel's name without template arguments (fingerprints).
  std::string KernelBase;
  std::string Array;
  std::string Message;
  /// The access as written, whitespace collapsed (fingerprints).
  std::string AccessText;
  nlohmann::json Metrics = nlohmann::json::object();
  /// Notes at the finding's place (assumptions, the symbolic offset ...).
  std::vector<std::string> Notes;
  /// Notes elsewhere (the declaration of a padded array); a machine-
  /// applicable fix is shown on the first.
  std::vector<NoteRecord> LocatedNotes;
  std::vector<FixRecord> Fixes;
  /// The predicted cost of the access over what a coalesced, conflict-free
  /// access would cost: L1 work per warp (lines, sectors, wavefronts, in the
  /// cost model's units) times its executions per warp. What ranking uses.
  double Cost = 0;
  /// Every configuration with a finding at this place, worst first (one
  /// before grouping).
  std::vector<ConfigurationRecord> Configurations;
  /// Survives lines moving: rule, file, kernel, array and the access's text
  /// (see report/Fingerprint.h).
  std::string Fingerprint;

  bool hasMachineApplicableFix() const;
  /// The place's identity: file, offsets, rule, array.
  std::string placeKey() const;
  /// As clang-tidy's record (export-fixes YAML): the machine-applicable
  /// edits as Replacements, the notes as messages.
  clang::tooling::Diagnostic toToolingDiagnostic() const;
};

/// The record of \p F (one configuration), while its translation unit is
/// alive.
FindingRecord makeRecord(const Finding &F, clang::ASTContext &Ctx,
                         const AnalysisResult &R);

/// A place as users see it; an invalid location gives an invalid place.
SourcePlace placeOf(const clang::SourceManager &SM, clang::SourceLocation Loc);

/// The identity of a kernel configuration across translation units.
std::string configurationKey(const KernelInfo &K,
                             const clang::SourceManager &SM);

Severity severityFromName(llvm::StringRef Name);

} // namespace cal

#endif

//===- DocumentLint.h - One lint of an editor's text, as LSP records ------===//
//
// Runs the frontend and the rules on the text the editor holds for a
// document (one version of it) and keeps what the editor asks about after
// the AST is gone: the diagnostics (findings grouped per place, clang's
// errors, the tool's own), the code actions of each, and each access's
// facts for hover and inlay hints, with every position already in the
// negotiated encoding for that very text.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_LSP_DOCUMENTLINT_H
#define CUDA_ACCESS_LINT_TOOL_LSP_DOCUMENTLINT_H

#include "frontend/Frontend.h"
#include "tool/Lint.h"
#include "tool/lsp/Positions.h"

#include "llvm/Support/LSP/Protocol.h"

#include <memory>
#include <string>
#include <vector>

namespace cal::lsp {

struct TextEditRecord {
  llvm::lsp::Range Range;
  std::string NewText;
};

/// A code action of a diagnostic: the machine-applicable fix (a quick fix,
/// preferred) or a suggested rewrite (a preview, not preferred).
struct ActionRecord {
  std::string Title;
  std::string Kind; ///< "quickfix", "refactor.rewrite"
  bool Preferred = false;
  std::vector<TextEditRecord> Edits; ///< in the document
};

struct RelatedRecord {
  std::string File; ///< absolute path
  llvm::lsp::Range Range;
  std::string Message;
};

struct DiagnosticRecord {
  llvm::lsp::Range Range;
  int Severity = 2; ///< LSP: 1 error, 2 warning, 3 information
  std::string Code; ///< the rule id; empty for clang's and the tool's errors
  std::string Message;
  std::vector<RelatedRecord> Related;
  std::vector<ActionRecord> Actions;
};

/// The accesses of one expression (one per kernel configuration that
/// reaches it), or a kernel's name (its configurations' predicted times).
struct AccessRecord {
  llvm::lsp::Range Range;
  std::string Hover;     ///< markdown: the --explain facts of each
  std::string InlayHint; ///< "⟨32 sect/req⟩", "⟨8-way⟩"; empty: none
};

struct DocumentSnapshot {
  std::string File; ///< absolute path
  std::string Text;
  int64_t Version = 0;
  /// The document's preamble, kept between its lints (null: none kept).
  std::shared_ptr<KeptPreamble> Preamble;
};

struct DocumentLint {
  int64_t Version = 0;
  std::vector<DiagnosticRecord> Diagnostics;
  /// Accesses and kernel names, in document order.
  std::vector<AccessRecord> Accesses;
  unsigned Findings = 0, CompilerErrors = 0;
  /// What the frontend said (notes such as the built-in prelude's).
  std::string Log;
  /// What the preamble cache did (ParsedFile::Preamble: "kept", "built").
  std::string Preamble;
};

DocumentLint lintDocument(const DocumentSnapshot &Doc,
                          const FrontendOptions &Base,
                          const LintSettings &Settings, PositionEncoding E);

} // namespace cal::lsp

#endif

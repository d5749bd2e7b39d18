//===- ParseAction.h - One file's parse, on a preamble when there is one -===//
//
// The clang action that parses one file for the frontend (Frontend.h):
// clang's diagnostics held until it is known which errors touch the kernels,
// the departures from clang's parse (ParseAdjustments.h), a cached preamble
// when there is one (PreambleCache.h), and the callback that receives the
// translation unit while its AST is alive.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_PARSEACTION_H
#define CUDA_ACCESS_LINT_FRONTEND_PARSEACTION_H

#include "frontend/Frontend.h"
#include "frontend/ParseAdjustments.h"
#include "frontend/PreambleCache.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"

#include <functional>
#include <string>
#include <vector>

namespace cal {

/// Holds clang's diagnostics, rendered, until the parse is over: only then
/// is it known which errors touch the kernels (ParseProblems.h). A note
/// belongs to the error or warning before it.
class BufferingDiagnosticConsumer : public clang::DiagnosticConsumer {
public:
  struct Entry {
    clang::DiagnosticsEngine::Level Level;
    clang::SourceLocation Loc;
    std::string Message;       ///< clang's message, without location
    size_t Begin, End;         ///< the rendered text, notes included
    std::string MissingHeader; ///< a header that was not found
    /// An error clang gives where nvcc accepts the code and the parse
    /// recovers to what nvcc sees (NvccDifferences below): not shown, not
    /// counted.
    bool NvccAccepted = false;
  };
  /// Tells which diagnostics are such errors.
  std::function<bool(const clang::Diagnostic &)> IsNvccAccepted;

  BufferingDiagnosticConsumer(bool Color, const FrontendOptions &Opts)
      : Stream(Text), Printer(Stream, DiagOpts),
        Hook(Opts.OnCompilerDiagnostic) {
    DiagOpts.ShowColors = Color;
  }
  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override {
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }
  void finish() override { Printer.finish(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    size_t Before = Text.size();
    Printer.HandleDiagnostic(Level, Info);
    if (Hook)
      Hook(Level, Info);
    if (Level == clang::DiagnosticsEngine::Note && !Entries.empty()) {
      Entries.back().End = Text.size();
      return;
    }
    Entry E{Level, Info.getLocation(), "", Before, Text.size(), "", false};
    E.NvccAccepted = Level >= clang::DiagnosticsEngine::Error &&
                     IsNvccAccepted && IsNvccAccepted(Info);
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    E.Message = Msg.str().str();
    if (Info.getID() == clang::diag::err_pp_file_not_found ||
        Info.getID() ==
            clang::diag::err_pp_file_not_found_angled_include_not_fatal ||
        Info.getID() == clang::diag::err_pp_file_not_found_typo_not_fatal)
      E.MissingHeader = Info.getArgStdStr(0);
    Entries.push_back(std::move(E));
  }

  static bool isError(const Entry &E) {
    return E.Level >= clang::DiagnosticsEngine::Error && !E.NvccAccepted;
  }
  /// Writes the entries \p Keep selects, in order.
  void flush(llvm::raw_ostream &OS, const std::vector<bool> &Keep) {
    for (size_t I = Flushed; I < Entries.size(); ++I)
      if (!Entries[I].NvccAccepted &&
          (I - Flushed >= Keep.size() || Keep[I - Flushed]))
        OS << llvm::StringRef(Text).slice(Entries[I].Begin, Entries[I].End);
    Flushed = Entries.size();
    OS.flush();
  }
  void flushAll(llvm::raw_ostream &OS) { flush(OS, {}); }
  /// Forgets what a parse that is tried again reported.
  void reset() {
    clang::DiagnosticConsumer::clear();
    Entries.clear();
    Flushed = 0;
    Text.clear();
  }

  std::vector<Entry> Entries;
  size_t Flushed = 0;

private:
  clang::DiagnosticOptions DiagOpts;
  std::string Text;
  llvm::raw_string_ostream Stream;
  clang::TextDiagnosticPrinter Printer;
  const std::function<void(clang::DiagnosticsEngine::Level,
                           const clang::Diagnostic &)> &Hook;
};

/// What one file's parse shares between its action, its consumer and
/// Frontend::run.
struct ParseState {
  ParsedFile Info;
  const TranslationUnitCallback *Callback = nullptr;
  BufferingDiagnosticConsumer *Diags = nullptr;
  llvm::raw_ostream *DiagOut = nullptr;
  bool Strict = false;
  bool Called = false;
  std::vector<clang::SourceLocation> GlobalExpansions;
  /// The parse is on a preamble, and what is known of it (TraversalScope.h).
  bool OnPreamble = false;
  std::vector<std::string> PreambleFacts;
  /// clang's closing "N errors generated", said only when the errors are.
  std::string Stats;
  /// `__shared__` objects with a constructor, to be made valid again.
  std::vector<clang::SourceLocation> PendingSharedInits;
  llvm::IntrusiveRefCntPtr<HostTypoCorrection> Typos =
      llvm::makeIntrusiveRefCnt<HostTypoCorrection>();
};

class CallbackActionFactory : public clang::tooling::FrontendActionFactory {
public:
  /// \p Kept: the file's preamble kept in memory (may be null).
  CallbackActionFactory(ParseState &S, PreambleCache *Cache,
                        KeptPreamble *Kept = nullptr)
      : S(S), Cache(Cache), Kept(Kept) {}

  /// Runs the parse, on a cached preamble when there is one to use.
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Inv,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                     clang::DiagnosticConsumer *DiagConsumer) override;

  std::unique_ptr<clang::FrontendAction> create() override;

private:
  ParseState &S;
  PreambleCache *Cache;
  KeptPreamble *Kept;
};
} // namespace cal

#endif

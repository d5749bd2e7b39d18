//===- TextReport.cpp -----------------------------------------------------===//

#include "output/TextReport.h"

#include "output/JsonReport.h"
#include "rules/Suggest.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

namespace cal {

using namespace clang;

namespace {

/// A DiagnosticsEngine of our own on the TU's SourceManager, so findings do
/// not count as the parse's errors.
class FindingEmitter {
public:
  FindingEmitter(ASTContext &Ctx, llvm::raw_ostream &OS, bool Color)
      : Printer(OS, Opts),
        Diags(new DiagnosticIDs(), Opts, &Printer, /*ShouldOwnClient=*/false) {
    Opts.ShowColors = Color;
    Diags.setSourceManager(&Ctx.getSourceManager());
    Printer.BeginSourceFile(Ctx.getLangOpts(), nullptr);
  }
  ~FindingEmitter() { Printer.EndSourceFile(); }

  /// With \p Carets false, the diagnostic shows its location but not the
  /// source line again (the notes that explain a finding).
  DiagnosticBuilder report(SourceLocation Loc, DiagnosticsEngine::Level L,
                           const std::string &Msg, bool Carets = true) {
    Opts.ShowCarets = Carets;
    unsigned ID = Diags.getDiagnosticIDs()->getCustomDiagID(
        static_cast<DiagnosticIDs::Level>(L), "%0");
    return std::move(Diags.Report(Loc, ID) << Msg);
  }

private:
  DiagnosticOptions Opts;
  TextDiagnosticPrinter Printer;
  DiagnosticsEngine Diags;
};

DiagnosticsEngine::Level levelOf(Severity S) {
  switch (S) {
  case Severity::Error:
    return DiagnosticsEngine::Error;
  case Severity::Warning:
    return DiagnosticsEngine::Warning;
  case Severity::Note:
    return DiagnosticsEngine::Remark;
  }
  return DiagnosticsEngine::Warning;
}

std::string indent(const std::string &Code) {
  std::string Out = "    ";
  for (char C : Code) {
    Out += C;
    if (C == '\n')
      Out += "    ";
  }
  return Out;
}

} // namespace

void printFindings(ASTContext &Ctx, const std::vector<Finding> &Findings,
                   llvm::raw_ostream &OS, bool Color) {
  if (Findings.empty())
    return;
  FindingEmitter E(Ctx, OS, Color);
  for (const Finding &F : Findings) {
    {
      DiagnosticBuilder B = E.report(F.Range.getBegin(), levelOf(F.Sev),
                                     F.Message + " [" + F.Rule + "]");
      B << CharSourceRange::getTokenRange(F.Range);
    }
    SourceLocation At = F.Range.getBegin();
    for (const std::string &N : F.Notes)
      E.report(At, DiagnosticsEngine::Note, N, /*Carets=*/false);
    for (const Fix &X : F.Fixes) {
      std::string Head = X.Apply == Applicability::MachineApplicable
                             ? "fix (" + std::string(fixKindName(X.Kind)) +
                                   ", applied by --fix): "
                             : "suggested rewrite (" +
                                   std::string(fixKindName(X.Kind)) + "): ";
      std::string Msg = Head + X.Description;
      if (!X.Code.empty())
        Msg += ":\n" + indent(X.Code);
      if (X.Apply == Applicability::MachineApplicable && !X.Edits.empty()) {
        // The fix-it hint goes on the note at the declaration, if any.
        SourceLocation NoteAt = F.LocatedNotes.empty()
                                    ? X.Edits.front().Range.getBegin()
                                    : F.LocatedNotes.front().Loc;
        DiagnosticBuilder B = E.report(
            NoteAt, DiagnosticsEngine::Note,
            (F.LocatedNotes.empty() ? "" : F.LocatedNotes.front().Message + "; ") +
                Msg);
        for (const Edit &Ed : X.Edits)
          B << FixItHint::CreateReplacement(Ed.Range, Ed.Text);
        continue;
      }
      E.report(At, DiagnosticsEngine::Note, Msg, /*Carets=*/false);
    }
    bool FixOnDecl = false;
    for (const Fix &X : F.Fixes)
      FixOnDecl = FixOnDecl || (X.Apply == Applicability::MachineApplicable &&
                                !X.Edits.empty());
    for (size_t I = FixOnDecl ? 1 : 0; I < F.LocatedNotes.size(); ++I)
      E.report(F.LocatedNotes[I].Loc, DiagnosticsEngine::Note,
               F.LocatedNotes[I].Message);
  }
}

void printAccessFacts(ASTContext &Ctx, const AnalysisResult &R,
                      llvm::raw_ostream &OS, bool Color) {
  if (R.Accesses.empty())
    return;
  FindingEmitter E(Ctx, OS, Color);
  for (const AccessFacts &F : R.Accesses) {
    std::string Head = std::string(accessKindName(F.Kind)) + " of `" +
                       F.Array + "` (" + spaceName(F.Space) + ", " +
                       std::to_string(F.BytesPerLane) +
                       " bytes per lane) in `" + R.Kernels[F.Kernel].Name + "`";
    E.report(F.E->getBeginLoc(), DiagnosticsEngine::Remark, Head)
        << CharSourceRange::getTokenRange(F.E->getSourceRange());
    auto Note = [&](const std::string &S) {
      E.report(F.E->getBeginLoc(), DiagnosticsEngine::Note, S,
               /*Carets=*/false);
    };
    if (!F.Symbolic.empty())
      Note("byte offset: " + F.Symbolic);
    if (!F.AddressKnown) {
      Note("addresses unknown: " + F.UnknownReason + " (no metric is given)");
    } else {
      if (F.LaneStrideBytes)
        Note("adjacent lanes " + std::to_string(*F.LaneStrideBytes) +
             " bytes apart");
      if (F.SectorsPerRequest)
        Note(number(*F.SectorsPerRequest) + " sectors per request, " +
             percent(F.SectorUtilization.value_or(0)) +
             " sector utilization; run " + alignmentName(F.Alignment));
      if (F.BankConflictWays)
        Note(number(*F.WavefrontsPerRequest) + " wavefronts per request: " +
             number(*F.BankConflictWays) + "-way bank conflict");
      if (F.PerThreadContiguousBytes)
        Note(std::to_string(*F.PerThreadContiguousBytes) +
             " contiguous bytes per thread across its innermost loop");
      if (F.FootprintUtilization)
        Note("footprint over the loop: " +
             percent(*F.FootprintUtilization) +
             " of the bytes of the sectors touched are used");
    }
    for (const std::string &A : F.Assumptions)
      Note("assumption: " + A);
  }
}

} // namespace cal

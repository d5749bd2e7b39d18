//===- TextReport.cpp -----------------------------------------------------===//

#include "output/TextReport.h"

#include "output/JsonReport.h"
#include "support/Location.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "rules/Suggest.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

#include <cstdio>
#include <map>

namespace cal {

using namespace clang;

namespace {

/// \p Msg as a diagnostic of level \p L at \p Loc; with \p Carets false,
/// the location without the source line.
DiagnosticBuilder customDiagnostic(DiagnosticsEngine &Diags,
                                   DiagnosticOptions &Opts, SourceLocation Loc,
                                   DiagnosticsEngine::Level L,
                                   const std::string &Msg, bool Carets) {
  Opts.ShowCarets = Carets;
  unsigned ID = Diags.getDiagnosticIDs()->getCustomDiagID(
      static_cast<DiagnosticIDs::Level>(L), "%0");
  return std::move(Diags.Report(Loc, ID) << Msg);
}

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
    return customDiagnostic(Diags, Opts, Loc, L, Msg, Carets);
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

/// Renders records on the files as they are on disk, through a SourceManager
/// of its own (as clang-tidy's reporter does): the same carets, ranges and
/// fix-it lines as the translation unit's own would give.
class RecordRenderer {
public:
  RecordRenderer(llvm::raw_ostream &OS, bool Color)
      : Files(new FileManager(FileSystemOptions())),
        Printer(OS, Opts),
        Diags(new DiagnosticIDs(), Opts, &Printer, /*ShouldOwnClient=*/false),
        SM(Diags, *Files) {
    Opts.ShowColors = Color;
    Diags.setSourceManager(&SM);
    LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
    LO.CUDA = true;
    Printer.BeginSourceFile(LO, nullptr);
  }
  ~RecordRenderer() { Printer.EndSourceFile(); }

  SourceLocation loc(const SourcePlace &P) {
    if (!P.valid() || P.Path.empty())
      return SourceLocation();
    auto It = IDs.find(P.Path);
    if (It == IDs.end()) {
      FileID ID;
      if (OptionalFileEntryRef FE = Files->getOptionalFileRef(P.Path))
        ID = SM.getOrCreateFileID(*FE, SrcMgr::C_User);
      It = IDs.emplace(P.Path, ID).first;
    }
    if (It->second.isInvalid())
      return SourceLocation();
    return SM.getLocForStartOfFile(It->second).getLocWithOffset(P.Offset);
  }

  DiagnosticBuilder report(SourceLocation Loc, DiagnosticsEngine::Level L,
                           const std::string &Msg, bool Carets = true) {
    return customDiagnostic(Diags, Opts, Loc, L, Msg, Carets);
  }

  /// "expanded from macro 'NAME'" at the macro's definition.
  void macroNote(const std::optional<MacroPlace> &M) {
    if (M)
      report(loc(M->At), DiagnosticsEngine::Note,
             "expanded from macro '" + M->Name + "'");
  }

private:
  IntrusiveRefCntPtr<FileManager> Files;
  DiagnosticOptions Opts;
  TextDiagnosticPrinter Printer;
  DiagnosticsEngine Diags;
  SourceManager SM;
  LangOptions LO;
  std::map<std::string, FileID> IDs;
};

} // namespace

void printFindings(const std::vector<FindingRecord> &Findings,
                   llvm::raw_ostream &OS, bool Color) {
  if (Findings.empty())
    return;
  RecordRenderer E(OS, Color);
  for (const FindingRecord &F : Findings) {
    SourceLocation At = E.loc(F.Begin);
    {
      DiagnosticBuilder B =
          E.report(At, levelOf(F.Sev), F.Message + " [" + F.Rule + "]");
      SourceLocation End = E.loc(F.EndToken);
      if (At.isValid() && End.isValid())
        B << CharSourceRange::getTokenRange(At, End);
    }
    E.macroNote(F.Macro);
    for (const std::string &N : F.Notes)
      E.report(At, DiagnosticsEngine::Note, N, /*Carets=*/false);
    for (const FixRecord &X : F.Fixes) {
      std::string Head = X.machineApplicable()
                             ? "fix (" + std::string(fixKindName(X.Kind)) +
                                   ", applied by --fix): "
                             : "suggested rewrite (" +
                                   std::string(fixKindName(X.Kind)) + "): ";
      std::string Msg = Head + X.Description;
      if (!X.Code.empty())
        Msg += ":\n" + indent(X.Code);
      if (X.machineApplicable() && !X.Edits.empty()) {
        // The fix-it hint goes on the note at the declaration, if any.
        SourceLocation NoteAt = F.LocatedNotes.empty()
                                    ? E.loc(X.Edits.front().At)
                                    : E.loc(F.LocatedNotes.front().At);
        {
        DiagnosticBuilder B = E.report(
            NoteAt, DiagnosticsEngine::Note,
            (F.LocatedNotes.empty() ? "" : F.LocatedNotes.front().Message + "; ") +
                Msg);
        for (const EditRecord &Ed : X.Edits) {
          SourceLocation S = E.loc(Ed.At);
          if (S.isValid())
            B << FixItHint::CreateReplacement(
                CharSourceRange::getCharRange(S, S.getLocWithOffset(Ed.Length)),
                Ed.Text);
        }
        }
        if (!F.LocatedNotes.empty())
          E.macroNote(F.LocatedNotes.front().Macro);
        continue;
      }
      E.report(At, DiagnosticsEngine::Note, Msg, /*Carets=*/false);
    }
    bool FixOnDecl = F.hasMachineApplicableFix();
    for (size_t I = FixOnDecl ? 1 : 0; I < F.LocatedNotes.size(); ++I) {
      E.report(E.loc(F.LocatedNotes[I].At), DiagnosticsEngine::Note,
               F.LocatedNotes[I].Message);
      E.macroNote(F.LocatedNotes[I].Macro);
    }
  }
}

namespace {

/// "with 16-byte accesses (striped, 2 accesses): the kernel 528.78 ->
/// 521.73 us predicted, 1.01x"
std::string vectorizedText(const VectorizedFacts &V) {
  std::string S =
      "with " + std::to_string(V.BytesPerLane) + "-byte accesses (" +
      vectorFormName(V.Form) +
      (V.Group.size() > 1 ? ", " + std::to_string(V.Group.size()) + " accesses"
                          : std::string()) +
      "): ";
  if (!V.gain()) {
    std::string Missing;
    for (const std::string &M : V.Missing)
      Missing += (Missing.empty() ? "" : ", ") + M;
    return S + "no time predicted (unknown: " + Missing + ")";
  }
  char Gain[32];
  std::snprintf(Gain, sizeof Gain, "%.2fx", *V.gain());
  return S + "the kernel " + number(*V.TimeBefore * 1e6) + " -> " +
         number(*V.TimeAfter * 1e6) + " us predicted, " + Gain;
}

} // namespace

AccessExplanation explainAccess(const AccessFacts &F, const AnalysisResult &R) {
  AccessExplanation X;
  X.Head = std::string(accessKindName(F.Kind)) + " of `" + F.Array + "` (" +
           spaceName(F.Space) + ", " + std::to_string(F.BytesPerLane) +
           " bytes per lane) in `" + R.Kernels[F.Kernel].Name + "`";
  auto Note = [&](const std::string &S) { X.Facts.push_back(S); };
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
    if (F.AlignedIf)
      Note("run aligned only if `" + F.AlignedIf->text() + "`; otherwise " +
           number(F.AlignedIf->SectorsIfNotMin) +
           (F.AlignedIf->SectorsIfNotMax > F.AlignedIf->SectorsIfNotMin + 0.01
                ? " to " + number(F.AlignedIf->SectorsIfNotMax)
                : std::string()) +
           " sectors per request");
    if (F.BankConflictWays)
      Note(number(*F.WavefrontsPerRequest) + " wavefronts per request: " +
           number(*F.BankConflictWays) + "-way bank conflict");
    if (F.PerThreadContiguousBytes)
      Note(std::to_string(*F.PerThreadContiguousBytes) +
           " contiguous bytes per thread across its innermost loop");
    if (F.FootprintUtilization)
      Note("footprint over the loop: " + percent(*F.FootprintUtilization) +
           " of the bytes of the sectors touched are used");
    if (F.Vectorized)
      Note(vectorizedText(*F.Vectorized));
  }
  for (const Assumption &A : F.Assumptions)
    Note("assumption: " + A.Message);
  return X;
}

std::string compactLaneOffsets(const AccessFacts &F) {
  if (!F.AddressKnown || !F.LaneOffsets || F.ActiveLanes != WarpSize)
    return "";
  const std::array<int64_t, WarpSize> &O = *F.LaneOffsets;
  // Maximal runs of lanes with one step between neighbours.
  struct Run {
    unsigned First, Last;
  };
  std::vector<Run> Runs;
  for (unsigned L = 0; L < WarpSize;) {
    unsigned E = L;
    if (L + 1 < WarpSize) {
      int64_t Step = O[L + 1] - O[L];
      E = L + 1;
      while (E + 1 < WarpSize && O[E + 1] - O[E] == Step)
        ++E;
    }
    Runs.push_back({L, E});
    L = E + 1;
  }
  auto Lanes = [](const Run &R) {
    return R.First == R.Last
               ? "lane " + std::to_string(R.First)
               : "lanes " + std::to_string(R.First) + "-" +
                     std::to_string(R.Last);
  };
  auto Values = [&](const Run &R) {
    std::string S = std::to_string(O[R.First]);
    if (R.Last == R.First)
      return S;
    S += ", " + std::to_string(O[R.First + 1]);
    if (R.Last > R.First + 2)
      S += ", ...";
    if (R.Last > R.First + 1)
      S += ", " + std::to_string(O[R.Last]);
    return S;
  };
  if (Runs.size() > 6) {
    std::string S;
    for (unsigned L = 0; L < WarpSize; ++L)
      S += (L ? " " : "") + std::to_string(O[L]);
    return S;
  }
  if (Runs.size() == 1)
    return Values(Runs.front());
  std::string S;
  for (const Run &R : Runs)
    S += (S.empty() ? "" : "; ") + Lanes(R) + ": " + Values(R);
  return S;
}

void printAccessFacts(ASTContext &Ctx, const AnalysisResult &R,
                      llvm::raw_ostream &OS, bool Color) {
  if (R.Accesses.empty())
    return;
  FindingEmitter E(Ctx, OS, Color);
  for (const AccessFacts &F : R.Accesses) {
    AccessExplanation X = explainAccess(F, R);
    E.report(F.E->getBeginLoc(), DiagnosticsEngine::Remark, X.Head)
        << CharSourceRange::getTokenRange(F.E->getSourceRange());
    for (const std::string &S : X.Facts)
      E.report(F.E->getBeginLoc(), DiagnosticsEngine::Note, S,
               /*Carets=*/false);
  }
}

namespace {
std::string timeText(double Seconds) {
  char B[32];
  if (Seconds >= 1e-3)
    std::snprintf(B, sizeof B, "%.3g ms", Seconds * 1e3);
  else
    std::snprintf(B, sizeof B, "%.3g us", Seconds * 1e6);
  return B;
}
} // namespace

std::string kernelPredictionLine(const KernelInfo &K, const KernelPrediction &P) {
  std::string S = "kernel '" + K.Name + "'";
  if (K.Shape.Dim)
    S += " <" + std::to_string((*K.Shape.Dim)[0]) + "x" +
         std::to_string((*K.Shape.Dim)[1]) + "x" + std::to_string((*K.Shape.Dim)[2]) + ">";
  if (!P.Complete) {
    S += ": no time predicted (unknown: ";
    for (size_t I = 0; I < P.Missing.size() && I < 3; ++I)
      S += (I ? ", " : "") + P.Missing[I];
    return S + (P.Missing.size() > 3 ? ", ...)" : ")");
  }
  char B[96];
  S += ": predicted " + timeText(P.Time) + " on the H200 model, bound by " + P.Bound +
       " (DRAM " + timeText(P.DramTime);
  if (P.DramRangeFactor > 1) {
    std::snprintf(B, sizeof B, " at %.3gx for the %.3g MB its resident warps read through",
                  P.DramRangeFactor, P.ResidentRangeBytes / 1e6);
    S += B;
    if (P.RegionsInFlight > 1) {
      std::snprintf(B, sizeof B, ", counting each warp's loads in flight in %.3g places apart",
                    P.RegionsInFlight);
      S += B;
    }
  }
  if (P.LatencyTime > 0)
    S += ", latency " + timeText(P.LatencyTime);
  S += ", L1 " + timeText(P.L1Time);
  if (P.SharedTime > 0)
    S += " of which shared " + timeText(P.SharedTime);
  if (P.L2Time > 0)
    S += ", L2 stores " + timeText(P.L2Time);
  if (P.ComputeTime > 0)
    S += ", fp32 " + timeText(P.ComputeTime);
  S += ", requests " + timeText(P.IssueTime) + ", blocks " + timeText(P.BlockTime) + ")";
  if (P.TotalFlops > 0) {
    std::snprintf(B, sizeof B, "; %.3g GFLOP", P.TotalFlops / 1e9);
    S += B;
    if (P.DramBytes > 0) {
      std::snprintf(B, sizeof B, ", %.3g FLOP per DRAM byte", P.ArithmeticIntensity);
      S += B;
    }
  }
  return S;
}

void printKernelPrediction(ASTContext &Ctx, const KernelInfo &K,
                           const KernelPrediction &P, llvm::raw_ostream &OS,
                           bool Color) {
  if (!K.Decl)
    return;
  FindingEmitter E(Ctx, OS, Color);
  E.report(K.Decl->getLocation(), DiagnosticsEngine::Remark, kernelPredictionLine(K, P),
           /*Carets=*/false);
}

std::string stoppedKernelSummary(const AnalysisResult &R, size_t Kernel) {
  const KernelInfo &K = R.Kernels[Kernel];
  size_t Seen = 0;
  for (const AccessFacts &F : R.Accesses)
    Seen += F.Kernel == Kernel;
  std::string S = "analysis of kernel '" + K.Name + "' stopped: " + K.Stopped;
  S += Seen == 0 ? "; its accesses are unknown"
                 : "; its " + std::to_string(Seen) +
                       (Seen == 1 ? " access seen is unknown"
                                  : " accesses seen are unknown");
  S += llvm::StringRef(K.Stopped).contains("memory")
           ? " [--analysis-memory-limit]"
           : " [--analysis-time-limit]";
  return S;
}

std::string stoppedKernelMessage(const AnalysisResult &R, size_t Kernel,
                                 const clang::SourceManager &SM) {
  Position P = positionOf(SM, R.Kernels[Kernel].Decl->getLocation());
  return displayPath(P.File) + ":" + std::to_string(P.Line) + ":" +
         std::to_string(P.Column) +
         ": warning: " + stoppedKernelSummary(R, Kernel);
}

} // namespace cal

//===- DocumentLint.cpp ---------------------------------------------------===//

#include "tool/lsp/DocumentLint.h"

#include "analyzer/CostModel.h"
#include "output/TextReport.h"
#include "report/FindingRecord.h"
#include "report/Grouping.h"
#include "rules/Suggest.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

namespace cal::lsp {

namespace {

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

std::string fileName(const clang::SourceManager &SM, clang::FileID FID) {
  if (clang::OptionalFileEntryRef F = SM.getFileEntryRefForID(FID))
    return absolutePath(F->getName());
  return "";
}

llvm::lsp::Range rangeOf(const std::pair<FilePosition, FilePosition> &R) {
  return llvm::lsp::Range(R.first.Pos, R.second.Pos);
}

/// The LSP position of a place: in the document from its text, elsewhere
/// (a header) from the file's text in the parse's SourceManager.
class PlacePositions {
public:
  PlacePositions(const clang::SourceManager &SM, const DocumentSnapshot &Doc,
                 PositionEncoding E)
      : SM(SM), Doc(Doc), E(E) {}
  std::optional<llvm::lsp::Position> at(const SourcePlace &P) {
    return at(P.Path, P.Offset);
  }
  std::optional<llvm::lsp::Position> at(const std::string &Path,
                                        unsigned Offset) {
    if (Path == Doc.File)
      return positionAt(Doc.Text, Offset, E);
    auto It = Texts.find(Path);
    if (It == Texts.end()) {
      std::optional<std::string> Text;
      if (auto F = SM.getFileManager().getOptionalFileRef(Path)) {
        clang::FileID FID = SM.translateFile(*F);
        bool Invalid = false;
        llvm::StringRef B =
            FID.isValid() ? SM.getBufferData(FID, &Invalid) : "";
        if (FID.isValid() && !Invalid)
          Text = B.str();
      }
      It = Texts.emplace(Path, std::move(Text)).first;
    }
    if (!It->second)
      return std::nullopt;
    return positionAt(*It->second, Offset, E);
  }

private:
  const clang::SourceManager &SM;
  const DocumentSnapshot &Doc;
  PositionEncoding E;
  std::map<std::string, std::optional<std::string>> Texts;
};

/// clang's diagnostics about the parse, as the editor shows them: those in
/// the document at their place, those in a header at the #include that
/// brings it in (as clangd does), each note as related information.
class CompilerDiagnostics {
public:
  CompilerDiagnostics(PositionEncoding E) : Encoding(E) {}

  void handle(clang::DiagnosticsEngine::Level Level,
              const clang::Diagnostic &Info) {
    if (Level == clang::DiagnosticsEngine::Ignored)
      return;
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid()) {
      if (Level >= clang::DiagnosticsEngine::Error)
        add(Level, llvm::lsp::Range(), Msg.str().str(), {});
      return;
    }
    const clang::SourceManager &SM = Info.getSourceManager();
    std::optional<FilePosition> At =
        filePosition(SM, Info.getLocation(), Encoding);
    if (!At)
      return;
    if (Level == clang::DiagnosticsEngine::Note) {
      if (!Records.empty() && LastKept) {
        std::string File = fileName(SM, At->File);
        if (!File.empty())
          Records.back().Related.push_back(
              {File, llvm::lsp::Range(At->Pos), Msg.str().str()});
      }
      return;
    }
    LastKept = false;
    clang::FileID Main = SM.getMainFileID();
    if (At->File == Main) {
      llvm::lsp::Range R(At->Pos);
      clang::LangOptions LO;
      if (auto T = tokenRange(
              SM, LO,
              clang::SourceRange(Info.getLocation(), Info.getLocation()),
              Encoding))
        R = rangeOf(*T);
      add(Level, R, Msg.str().str(), {});
      return;
    }
    // In a header: at the #include of the document that leads to it.
    clang::SourceLocation Include = SM.getIncludeLoc(At->File);
    while (Include.isValid() && SM.getFileID(Include) != Main)
      Include = SM.getIncludeLoc(SM.getFileID(Include));
    if (Include.isInvalid() || Level < clang::DiagnosticsEngine::Error)
      return;
    std::optional<FilePosition> Inc = filePosition(SM, Include, Encoding);
    std::string File = fileName(SM, At->File);
    clang::PresumedLoc PL =
        SM.getPresumedLoc(SM.getExpansionLoc(Info.getLocation()));
    std::string Where =
        PL.isValid()
            ? std::string(llvm::sys::path::filename(PL.getFilename())) + ":" +
                  std::to_string(PL.getLine()) + ":" +
                  std::to_string(PL.getColumn())
            : File;
    std::vector<RelatedRecord> Related;
    if (!File.empty())
      Related.push_back({File, llvm::lsp::Range(At->Pos), Msg.str().str()});
    add(Level, Inc ? llvm::lsp::Range(Inc->Pos) : llvm::lsp::Range(),
        "in included file: " + Where + ": " + Msg.str().str(),
        std::move(Related));
  }

  std::vector<DiagnosticRecord> Records;
  unsigned Errors = 0;

private:
  void add(clang::DiagnosticsEngine::Level Level, llvm::lsp::Range R,
           std::string Msg, std::vector<RelatedRecord> Related) {
    DiagnosticRecord D;
    D.Range = R;
    D.Severity = Level >= clang::DiagnosticsEngine::Error ? 1 : 2;
    D.Message = std::move(Msg);
    D.Related = std::move(Related);
    if (D.Severity == 1)
      ++Errors;
    Records.push_back(std::move(D));
    LastKept = true;
  }

  PositionEncoding Encoding;
  bool LastKept = false;
};

int lspSeverity(Severity S) {
  switch (S) {
  case Severity::Error:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Note:
    return 3;
  }
  return 2;
}

/// The line's leading white space.
std::string indentationAt(llvm::StringRef Text, unsigned Offset) {
  size_t Start = Text.take_front(Offset).rfind('\n');
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  llvm::StringRef Line = Text.drop_front(Start);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

/// A suggested rewrite with code and no edits, as a preview: the code in a
/// comment block above the access's line, for the user to take from.
ActionRecord previewAction(const FixRecord &X, llvm::StringRef Text,
                           unsigned Offset, int Line) {
  std::string Indent = indentationAt(Text, Offset);
  std::string Block = Indent + "// cuda-access-lint: suggested rewrite (" +
                      fixKindName(X.Kind) + "): " + X.Description + ":\n";
  llvm::StringRef Code(X.Code);
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Code.rtrim('\n').split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    Block += Indent + "//   " + L.rtrim().str() + "\n";
  ActionRecord A;
  A.Title = std::string("Preview the suggested rewrite (") +
            fixKindName(X.Kind) + ") as a comment";
  A.Kind = "refactor.rewrite";
  A.Preferred = false;
  A.Edits.push_back(
      {llvm::lsp::Range(llvm::lsp::Position(Line, 0)), std::move(Block)});
  return A;
}

std::optional<ActionRecord> editAction(const FixRecord &X,
                                       const DocumentSnapshot &Doc,
                                       PositionEncoding E) {
  ActionRecord A;
  bool MachineApplicable = X.machineApplicable();
  A.Title = MachineApplicable ? X.Description
                              : std::string("Suggested rewrite (") +
                                    fixKindName(X.Kind) + "): " + X.Description;
  A.Kind = MachineApplicable ? "quickfix" : "refactor.rewrite";
  A.Preferred = MachineApplicable;
  for (const EditRecord &Ed : X.Edits) {
    // An edit outside the document (in a header) is not offered.
    if (Ed.At.Path != Doc.File)
      return std::nullopt;
    A.Edits.push_back(
        {llvm::lsp::Range(positionAt(Doc.Text, Ed.At.Offset, E),
                          positionAt(Doc.Text, Ed.At.Offset + Ed.Length, E)),
         Ed.Text});
  }
  return A;
}

/// One place's finding (grouped across configurations by report/Grouping)
/// as a diagnostic: the other configurations and the notes elsewhere (the
/// array's declaration) as related information, the fixes as actions.
DiagnosticRecord findingDiagnostic(const FindingRecord &F,
                                   PlacePositions &Places,
                                   const DocumentSnapshot &Doc,
                                   PositionEncoding E) {
  DiagnosticRecord D;
  llvm::lsp::Position Begin = positionAt(Doc.Text, F.Begin.Offset, E);
  unsigned EndOffset = F.EndToken.Offset;
  if (F.EndLine == F.EndToken.Line && F.EndColumn >= F.EndToken.Column)
    EndOffset += F.EndColumn - F.EndToken.Column + 1;
  D.Range = llvm::lsp::Range(Begin, positionAt(Doc.Text, EndOffset, E));
  D.Severity = lspSeverity(F.Sev);
  D.Code = F.Rule;
  D.Message = F.Message;
  for (const std::string &N : F.Notes)
    D.Message += "\n" + N;
  for (const NoteRecord &N : F.LocatedNotes)
    if (std::optional<llvm::lsp::Position> P = Places.at(N.At))
      D.Related.push_back({N.At.Path, llvm::lsp::Range(*P), N.Message});
  for (size_t I = 1; I < F.Configurations.size(); ++I)
    D.Related.push_back({Doc.File, D.Range,
                         "in `" + F.Configurations[I].Kernel +
                             "`: " + F.Configurations[I].Message});
  for (const FixRecord &X : F.Fixes) {
    if (!X.Edits.empty()) {
      if (auto A = editAction(X, Doc, E))
        D.Actions.push_back(std::move(*A));
    } else if (!X.Code.empty()) {
      D.Actions.push_back(
          previewAction(X, Doc.Text, F.Begin.Offset, Begin.line));
    }
  }
  return D;
}

/// "⟨32 sect/req⟩" for global memory, "⟨8-way⟩" for shared: the worst of
/// the configurations, with the best when they differ.
std::string inlayLabel(const std::vector<const AccessFacts *> &Fs) {
  std::optional<double> Lo, Hi;
  bool Shared = false, Global = false;
  for (const AccessFacts *F : Fs) {
    std::optional<double> V;
    if (F->Space == MemSpace::Shared && F->BankConflictWays) {
      Shared = true;
      V = F->BankConflictWays;
    } else if (F->Space == MemSpace::Global && F->SectorsPerRequest) {
      Global = true;
      V = F->SectorsPerRequest;
    }
    if (!V)
      continue;
    Lo = Lo ? std::min(*Lo, *V) : *V;
    Hi = Hi ? std::max(*Hi, *V) : *V;
  }
  if (!Hi || Shared == Global)
    return "";
  std::string N = *Lo == *Hi ? number(*Hi) : number(*Lo) + "-" + number(*Hi);
  if (Shared)
    return *Hi <= 1 ? "⟨no bank conflict⟩" : "⟨" + N + "-way⟩";
  return "⟨" + N + " sect/req⟩";
}

std::vector<AccessRecord> accessRecords(const AnalysisResult &Result,
                                        const clang::ASTContext &Ctx,
                                        PositionEncoding E) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  // One record per expression, its configurations in order.
  std::map<std::pair<unsigned, unsigned>, std::vector<const AccessFacts *>>
      ByPlace;
  std::map<std::pair<unsigned, unsigned>, llvm::lsp::Range> Ranges;
  for (const AccessFacts &F : Result.Accesses) {
    auto R = tokenRange(SM, Ctx.getLangOpts(), F.E->getSourceRange(), E);
    if (!R || R->first.File != SM.getMainFileID())
      continue;
    std::pair<unsigned, unsigned> Key{R->first.Offset, R->second.Offset};
    ByPlace[Key].push_back(&F);
    Ranges[Key] = rangeOf(*R);
  }
  std::vector<AccessRecord> Out;
  for (const auto &[Key, Fs] : ByPlace) {
    AccessRecord A;
    A.Range = Ranges[Key];
    const size_t Shown = 4;
    for (size_t I = 0; I < Fs.size() && I < Shown; ++I) {
      AccessExplanation X = explainAccess(*Fs[I], Result);
      if (I)
        A.Hover += "\n---\n\n";
      A.Hover += "**" + X.Head + "**\n\n";
      for (const std::string &S : X.Facts)
        A.Hover += "- " + S + "\n";
      std::string Lanes = compactLaneOffsets(*Fs[I]);
      if (!Lanes.empty())
        A.Hover += "- lanes' byte offsets from lane 0: " + Lanes + "\n";
    }
    if (Fs.size() > Shown)
      A.Hover += "\n(and " + std::to_string(Fs.size() - Shown) +
                 " more kernel configurations)\n";
    A.InlayHint = inlayLabel(Fs);
    Out.push_back(std::move(A));
  }
  return Out;
}

/// Hover on a kernel's name: the cost model's line for each of its
/// configurations (what `--explain` prints at the kernel): the predicted
/// time on the H200 model, the bound and each budget.
std::vector<AccessRecord> kernelRecords(const AnalysisResult &Result,
                                        const clang::ASTContext &Ctx,
                                        PositionEncoding E) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  std::map<std::pair<unsigned, unsigned>, AccessRecord> ByName;
  for (size_t I = 0; I < Result.Kernels.size(); ++I) {
    const KernelInfo &K = Result.Kernels[I];
    if (!K.Decl)
      continue;
    auto R = tokenRange(SM, Ctx.getLangOpts(),
                        clang::SourceRange(K.Decl->getLocation()), E);
    if (!R || R->first.File != SM.getMainFileID())
      continue;
    AccessRecord &A = ByName[{R->first.Offset, R->second.Offset}];
    A.Range = rangeOf(*R);
    A.Hover += (A.Hover.empty() ? "" : "\n") + std::string("- ") +
               kernelPredictionLine(K, predictKernel(Result, I)) + "\n";
  }
  std::vector<AccessRecord> Out;
  for (auto &[Key, A] : ByName) {
    A.Hover = "**cost model**\n\n" + A.Hover;
    Out.push_back(std::move(A));
  }
  return Out;
}

/// The tool's own one-line errors ("cuda-access-lint: error: ..."), as
/// diagnostics at the top of the document.
void addToolErrors(llvm::StringRef Log, std::vector<DiagnosticRecord> &Out) {
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Log.split(Lines, '\n', -1, false);
  for (llvm::StringRef L : Lines) {
    if (!L.consume_front("cuda-access-lint: error: "))
      continue;
    DiagnosticRecord D;
    D.Severity = 1;
    D.Message = L.str();
    Out.push_back(std::move(D));
  }
}

DiagnosticRecord hostErrorsSummary(const ParsedFile &Info,
                                   const std::vector<DiagnosticRecord> &Errors,
                                   const std::string &File) {
  DiagnosticRecord D;
  D.Severity = 2;
  D.Message = hostParseSummary(Info);
  bool Placed = false;
  for (const DiagnosticRecord &E : Errors) {
    if (E.Severity != 1)
      continue;
    if (!Placed) {
      D.Range = E.Range;
      Placed = true;
    }
    D.Related.push_back({File, E.Range, E.Message});
  }
  return D;
}

} // namespace

DocumentLint lintDocument(const DocumentSnapshot &Doc,
                          const FrontendOptions &Base,
                          const LintSettings &Settings, PositionEncoding E) {
  DocumentLint Out;
  Out.Version = Doc.Version;
  FrontendOptions FO = Base;
  FO.Files = {Doc.File};
  FO.Overrides = {{Doc.File, Doc.Text}};
  if (Doc.Preamble)
    FO.KeptPreambles = {{Doc.File, Doc.Preamble}};
  FO.Color = false;
  CompilerDiagnostics Compiler(E);
  FO.OnCompilerDiagnostic = [&](clang::DiagnosticsEngine::Level L,
                                const clang::Diagnostic &Info) {
    Compiler.handle(L, Info);
  };
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  std::string ClangText; // clang's own rendering: the records replace it
  llvm::raw_string_ostream ClangOS(ClangText);
  Frontend FE(FO, LogOS);
  std::vector<DiagnosticRecord> Findings;
  bool Parsed = false;
  ParsedFile Info;
  if (FE.prepare()) {
    FE.run(
        [&](clang::ASTContext &Ctx, clang::CompilerInstance &,
            const ParsedFile &File) {
          Parsed = true;
          Info = File;
          Out.Preamble = File.Preamble;
          AnalysisResult R;
          std::vector<Finding> Fs =
              lintTranslationUnit(Ctx, Settings, File.ErrorLocs, R);
          const clang::SourceManager &SM = Ctx.getSourceManager();
          std::vector<FindingRecord> Records;
          for (const Finding &F : Fs)
            if (SM.getFileID(SM.getExpansionLoc(F.Range.getBegin())) ==
                SM.getMainFileID())
              Records.push_back(makeRecord(F, Ctx, R));
          PlacePositions Places(SM, Doc, E);
          for (const FindingRecord &G : groupByPlace(std::move(Records)))
            Findings.push_back(findingDiagnostic(G, Places, Doc, E));
          Out.Findings = Findings.size();
          // A kernel whose analysis stopped (budget): a warning at its name.
          for (size_t K = 0; K < R.Kernels.size(); ++K) {
            if (R.Kernels[K].Stopped.empty())
              continue;
            SourcePlace P = placeOf(SM, R.Kernels[K].Decl->getLocation());
            if (P.Path != Doc.File)
              continue;
            DiagnosticRecord D;
            D.Severity = 2;
            D.Message = stoppedKernelSummary(R, K);
            if (auto Begin = Places.at(P)) {
              D.Range.start = *Begin;
              D.Range.end = *Begin;
              D.Range.end.character += R.Kernels[K].Decl->getName().size();
            }
            Findings.push_back(std::move(D));
          }
          Out.Accesses = accessRecords(R, Ctx, E);
          for (AccessRecord &K : kernelRecords(R, Ctx, E))
            Out.Accesses.push_back(std::move(K));
          std::stable_sort(Out.Accesses.begin(), Out.Accesses.end(),
                           [](const AccessRecord &A, const AccessRecord &B) {
                             return A.Range.start < B.Range.start;
                           });
        },
        ClangOS);
  }
  LogOS.flush();
  Out.Log = Log;
  addToolErrors(Log, Out.Diagnostics);
  Out.CompilerErrors = Compiler.Errors;
  if (Parsed && Info.ParseErrors == 0 && Info.HostParseErrors > 0)
    // As on the command line: errors in host code only are one warning
    // (the errors themselves as its related information).
    Out.Diagnostics.push_back(
        hostErrorsSummary(Info, Compiler.Records, Doc.File));
  else
    for (DiagnosticRecord &D : Compiler.Records)
      Out.Diagnostics.push_back(std::move(D));
  if (!Parsed && Out.Diagnostics.empty()) {
    DiagnosticRecord D;
    D.Severity = 1;
    D.Message = "the file could not be parsed";
    Out.Diagnostics.push_back(std::move(D));
  }
  for (DiagnosticRecord &D : Findings)
    Out.Diagnostics.push_back(std::move(D));
  return Out;
}

} // namespace cal::lsp

//===- FindingRecord.cpp --------------------------------------------------===//

#include "report/FindingRecord.h"

#include "analyzer/CostModel.h"
#include "analyzer/SourceText.h"
#include "report/Metrics.h"
#include "support/Location.h"

#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace cal {

namespace {

std::string absolutePathOf(const clang::SourceManager &SM, clang::FileID FID,
                           llvm::StringRef Fallback) {
  llvm::SmallString<256> P;
  if (clang::OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID))
    P = FE->getName();
  else
    P = Fallback;
  if (!llvm::sys::path::is_absolute(P))
    (void)SM.getFileManager().getVirtualFileSystem().makeAbsolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

std::optional<MacroPlace> macroOf(const clang::SourceManager &SM,
                                  const clang::LangOptions &LO,
                                  clang::SourceLocation Loc) {
  if (!Loc.isMacroID())
    return std::nullopt;
  // A macro argument: where the parameter is used in the macro's body.
  clang::SourceLocation Body = Loc;
  while (SM.isMacroArgExpansion(Body))
    Body = SM.getImmediateExpansionRange(Body).getBegin();
  if (!Body.isMacroID())
    return std::nullopt;
  MacroPlace M;
  M.Name = clang::Lexer::getImmediateMacroName(Body, SM, LO).str();
  clang::SourceLocation Spelling = SM.getSpellingLoc(Body);
  M.At = placeOf(SM, Spelling);
  if (M.Name.empty() || !M.At.valid())
    return std::nullopt;
  return M;
}

} // namespace

SourcePlace placeOf(const clang::SourceManager &SM, clang::SourceLocation Loc) {
  SourcePlace P;
  if (Loc.isInvalid())
    return P;
  clang::SourceLocation E = SM.getExpansionLoc(Loc);
  clang::PresumedLoc PL = SM.getPresumedLoc(E, /*UseLineDirectives=*/false);
  if (PL.isInvalid())
    return P;
  P.Path = absolutePathOf(SM, SM.getFileID(E), PL.getFilename());
  P.File = displayPath(P.Path);
  P.Line = PL.getLine();
  P.Column = PL.getColumn();
  P.Offset = SM.getFileOffset(E);
  return P;
}

std::string configurationKey(const KernelInfo &K,
                             const clang::SourceManager &SM) {
  SourcePlace P = placeOf(SM, K.Decl->getLocation());
  std::string Key = P.Path + ":" + std::to_string(P.Offset) + "|" + K.Name +
                    "|" + K.Shape.Source + "|";
  if (K.Shape.Dim)
    Key += dimText(*K.Shape.Dim);
  for (const Assumption &A : K.Shape.Assumptions)
    Key += "|" + A.Message;
  return Key;
}

Severity severityFromName(llvm::StringRef Name) {
  if (Name == "error")
    return Severity::Error;
  if (Name == "warning")
    return Severity::Warning;
  return Severity::Note;
}

bool FindingRecord::hasMachineApplicableFix() const {
  for (const FixRecord &X : Fixes)
    if (X.machineApplicable() && !X.Edits.empty())
      return true;
  return false;
}

std::string FindingRecord::placeKey() const {
  return Begin.Path + ":" + std::to_string(Begin.Offset) + "-" +
         std::to_string(EndToken.Offset) + "|" + Rule + "|" + Array;
}

clang::tooling::Diagnostic FindingRecord::toToolingDiagnostic() const {
  using clang::tooling::Diagnostic;
  Diagnostic D(Rule,
               Sev == Severity::Error     ? Diagnostic::Error
               : Sev == Severity::Warning ? Diagnostic::Warning
                                          : Diagnostic::Remark,
               "");
  D.Message.Message = Message;
  D.Message.FilePath = Begin.Path;
  D.Message.FileOffset = Begin.Offset;
  for (const FixRecord &X : Fixes) {
    if (!X.machineApplicable())
      continue;
    for (const EditRecord &E : X.Edits) {
      clang::tooling::Replacement Rep(E.At.Path, E.At.Offset, E.Length,
                                      E.Text);
      llvm::consumeError(D.Message.Fix[E.At.Path].add(Rep));
    }
  }
  for (const std::string &N : Notes)
    D.Notes.push_back(clang::tooling::DiagnosticMessage(N));
  for (const NoteRecord &N : LocatedNotes) {
    clang::tooling::DiagnosticMessage M(N.Message);
    M.FilePath = N.At.Path;
    M.FileOffset = N.At.Offset;
    D.Notes.push_back(M);
  }
  return D;
}

FindingRecord makeRecord(const Finding &F, clang::ASTContext &Ctx,
                         const AnalysisResult &R) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  FindingRecord Rec;
  Rec.Rule = F.Rule;
  Rec.Sev = F.Sev;
  Rec.Begin = placeOf(SM, F.Range.getBegin());
  Rec.EndToken = placeOf(SM, SM.getExpansionRange(F.Range.getEnd()).getEnd());
  Position E = endPositionOf(SM, Ctx.getLangOpts(), F.Range.getEnd());
  Rec.EndLine = E.valid() ? E.Line : Rec.Begin.Line;
  Rec.EndColumn = E.valid() ? E.Column : Rec.Begin.Column;
  Rec.Macro = macroOf(SM, Ctx.getLangOpts(), F.Range.getBegin());
  Rec.Kernel = F.Kernel;
  Rec.Array = F.Array;
  Rec.Message = F.Message;
  Rec.AccessText = oneLineSourceText(F.Range, Ctx);
  Rec.Metrics = F.Facts ? metricsJson(*F.Facts) : nlohmann::json::object();
  Rec.Notes = F.Notes;
  for (const LocatedNote &N : F.LocatedNotes)
    Rec.LocatedNotes.push_back(
        {placeOf(SM, N.Loc), N.Message, macroOf(SM, Ctx.getLangOpts(), N.Loc)});
  for (const Fix &X : F.Fixes) {
    FixRecord FR;
    FR.Kind = X.Kind;
    FR.Apply = X.Apply;
    FR.Description = X.Description;
    FR.Code = X.Code;
    if (X.After) {
      FR.After = nlohmann::json::object();
      if (!X.After->Instruction.empty())
        FR.After["instruction"] = X.After->Instruction;
      for (const auto &[K, V] : X.After->Numbers)
        FR.After[K] = V;
    }
    for (const Edit &Ed : X.Edits) {
      EditRecord ER;
      ER.At = placeOf(SM, Ed.Range.getBegin());
      SourcePlace End = placeOf(SM, Ed.Range.getEnd());
      ER.Length = End.Offset - ER.At.Offset;
      ER.Text = Ed.Text;
      FR.Edits.push_back(ER);
    }
    Rec.Fixes.push_back(FR);
  }
  Rec.Cost = F.Facts ? accessExcessCost(*F.Facts) : 0;

  ConfigurationRecord C;
  C.Kernel = F.Kernel;
  C.Sev = F.Sev;
  C.Message = F.Message;
  C.Metrics = Rec.Metrics;
  C.Cost = Rec.Cost;
  if (F.Facts && F.Facts->Kernel < R.Kernels.size()) {
    const KernelInfo &K = R.Kernels[F.Facts->Kernel];
    C.BlockDim = K.Shape.Dim;
    C.Shape = K.Shape.Dim ? dimText(*K.Shape.Dim) : "unknown";
    C.Key = configurationKey(K, SM);
    Rec.KernelBase = K.Decl ? K.Decl->getNameAsString() : F.Kernel;
  } else {
    Rec.KernelBase = llvm::StringRef(F.Kernel).split('<').first.str();
  }
  Rec.Configurations.push_back(C);
  return Rec;
}

} // namespace cal

//===- SarifReport.cpp ----------------------------------------------------===//

#include "output/SarifReport.h"

#include "output/CodeUnits.h"
#include "rules/Registry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <memory>
#include <optional>

namespace cal {

using nlohmann::json;

namespace {

const char *sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "note";
}

std::string percentEncode(llvm::StringRef Path) {
  std::string U;
  for (char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-._~").contains(C))
      U += C;
    else
      U += "%" + llvm::utohexstr(static_cast<unsigned char>(C), false, 2);
  }
  return U;
}

/// The artifactLocation of a place.
json artifactLocation(const SourcePlace &P, const SarifOptions &O) {
  if (!O.SourceRoot.empty()) {
    llvm::StringRef Rest = P.Path;
    if (Rest.consume_front(O.SourceRoot) &&
        (Rest.consume_front("/") || O.SourceRoot.back() == '/'))
      return {{"uri", percentEncode(Rest)}, {"uriBaseId", "SRCROOT"}};
    return {{"uri", fileUri(P.Path)}};
  }
  if (!llvm::sys::path::is_absolute(P.File))
    return {{"uri", percentEncode(P.File)}};
  return {{"uri", fileUri(P.File)}};
}

/// The findings' files, read once each, for SARIF's columns and offsets in
/// UTF-16 code units (the run's columnKind). A file that cannot be read (a
/// --merge of another machine's JSON) keeps the byte counts: right for
/// ASCII, the common case.
class SourceTexts {
public:
  /// 1-based UTF-16 column of 1-based byte column \p Column of \p Line.
  unsigned column(llvm::StringRef Path, unsigned Line, unsigned Column) {
    const File *F = get(Path);
    return F ? F->Lines.column(Line, Column, PositionEncoding::UTF16) : Column;
  }
  /// The exclusive end column, in UTF-16 units, of the character at byte
  /// column \p Column (a region's last character's, 1-based).
  unsigned endColumn(llvm::StringRef Path, unsigned Line, unsigned Column) {
    const File *F = get(Path);
    if (!F)
      return Column + 1;
    llvm::StringRef L = F->Lines.line(Line);
    if (Column == 0 || Column > L.size())
      return F->Lines.column(Line, Column, PositionEncoding::UTF16) + 1;
    unsigned Through = Column - 1 + codePointBytes(L.drop_front(Column - 1));
    return codeUnits(L.take_front(Through), PositionEncoding::UTF16) + 1;
  }
  /// The UTF-16 offset and length of \p Length bytes at byte \p Offset.
  std::pair<unsigned, unsigned> span(llvm::StringRef Path, unsigned Offset,
                                     unsigned Length) {
    const File *F = get(Path);
    llvm::StringRef T = F ? F->Lines.text() : llvm::StringRef();
    if (!F || Offset + Length > T.size())
      return {Offset, Length};
    return {codeUnits(T.take_front(Offset), PositionEncoding::UTF16),
            codeUnits(T.substr(Offset, Length), PositionEncoding::UTF16)};
  }

private:
  struct File {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    LineTable Lines;
  };
  const File *get(llvm::StringRef Path) {
    auto [It, New] = Files.try_emplace(Path);
    if (New && !Path.empty())
      if (auto Buf = llvm::MemoryBuffer::getFile(Path)) {
        LineTable Lines((*Buf)->getBuffer());
        It->second.emplace(File{std::move(*Buf), std::move(Lines)});
      }
    return It->second ? &*It->second : nullptr;
  }
  llvm::StringMap<std::optional<File>> Files;
};

json ruleDescriptors(const SarifOptions &O) {
  json Rules = json::array();
  for (const auto &R : allRules()) {
    const RuleInfo &I = R->info();
    json D = {{"id", I.Id},
              {"name", I.Id},
              {"shortDescription", {{"text", I.Summary}}},
              {"fullDescription", {{"text", I.Rationale}}},
              {"help",
               {{"text", I.Summary + " " + I.FixDescription},
                {"markdown", ruleDoc(*R)}}},
              {"defaultConfiguration",
               {{"level", sarifLevel(I.DefaultSeverity)}}},
              {"properties", {{"tags", {"performance", "cuda"}}}}};
    if (!O.RuleDocsBase.empty())
      D["helpUri"] = O.RuleDocsBase + I.Id + ".md";
    Rules.push_back(D);
  }
  return Rules;
}

json sarifResult(const FindingRecord &F, const SarifOptions &O,
                 SourceTexts &Texts) {
  json Region = {
      {"startLine", F.Begin.Line},
      {"startColumn", Texts.column(F.Begin.Path, F.Begin.Line, F.Begin.Column)},
      {"endLine", F.EndLine},
      {"endColumn", Texts.endColumn(F.Begin.Path, F.EndLine, F.EndColumn)}};
  json Loc;
  Loc["physicalLocation"]["artifactLocation"] = artifactLocation(F.Begin, O);
  Loc["physicalLocation"]["region"] = Region;
  std::string Text = F.Message;
  for (const std::string &N : F.Notes)
    Text += "\n" + N;
  for (const NoteRecord &N : F.LocatedNotes)
    Text += "\n" + N.At.File + ":" + std::to_string(N.At.Line) + ":" +
            std::to_string(N.At.Column) + ": " + N.Message;
  json Kernels = json::array();
  for (const ConfigurationRecord &C : F.Configurations)
    Kernels.push_back(C.Kernel);
  json Result = {{"ruleId", F.Rule},
                 {"level", sarifLevel(F.Sev)},
                 {"message", {{"text", Text}}},
                 {"locations", json::array({Loc})},
                 {"properties",
                  {{"kernel", F.Kernel},
                   {"kernels", Kernels},
                   {"array", F.Array},
                   {"metrics", F.Metrics}}}};
  if (!F.Fingerprint.empty())
    Result["partialFingerprints"] = {{SarifFingerprintKey, F.Fingerprint}};
  json Fixes = json::array();
  for (const FixRecord &X : F.Fixes) {
    if (!X.machineApplicable())
      continue;
    json Changes = json::array();
    for (const EditRecord &E : X.Edits) {
      auto [Offset, Length] = Texts.span(E.At.Path, E.At.Offset, E.Length);
      Changes.push_back(
          {{"artifactLocation", artifactLocation(E.At, O)},
           {"replacements",
            json::array({{{"deletedRegion",
                           {{"charOffset", Offset}, {"charLength", Length}}},
                          {"insertedContent", {{"text", E.Text}}}}})}});
    }
    Fixes.push_back({{"description", {{"text", X.Description}}},
                     {"artifactChanges", Changes}});
  }
  if (!Fixes.empty())
    Result["fixes"] = Fixes;
  return Result;
}

} // namespace

std::string fileUri(llvm::StringRef Path) {
  return "file://" + percentEncode(Path);
}

json sarifDocument(const std::vector<FindingRecord> &Findings,
                   const SarifOptions &O) {
  json Results = json::array();
  SourceTexts Texts;
  for (const FindingRecord &F : Findings)
    Results.push_back(sarifResult(F, O, Texts));
  json Run = {{"tool",
               {{"driver",
                 {{"name", "cuda-access-lint"},
                  {"version", CAL_VERSION},
                  {"rules", ruleDescriptors(O)}}}}},
              {"columnKind", "utf16CodeUnits"},
              {"results", Results}};
  if (!O.SourceRoot.empty()) {
    std::string Root = O.SourceRoot;
    if (Root.back() != '/')
      Root += '/';
    Run["originalUriBaseIds"] = {{"SRCROOT", {{"uri", fileUri(Root)}}}};
  }
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", json::array({Run})}};
}

} // namespace cal

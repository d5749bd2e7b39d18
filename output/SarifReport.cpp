//===- SarifReport.cpp ----------------------------------------------------===//

#include "output/SarifReport.h"

#include "rules/Registry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

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

json sarifResult(const FindingRecord &F, const SarifOptions &O) {
  json Region = {{"startLine", F.Begin.Line},
                 {"startColumn", F.Begin.Column},
                 {"endLine", F.EndLine},
                 {"endColumn", F.EndColumn + 1}};
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
    for (const EditRecord &E : X.Edits)
      Changes.push_back(
          {{"artifactLocation", artifactLocation(E.At, O)},
           {"replacements",
            json::array({{{"deletedRegion",
                           {{"charOffset", E.At.Offset},
                            {"charLength", E.Length}}},
                          {"insertedContent", {{"text", E.Text}}}}})}});
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
  for (const FindingRecord &F : Findings)
    Results.push_back(sarifResult(F, O));
  json Run = {{"tool",
               {{"driver",
                 {{"name", "cuda-access-lint"},
                  {"version", CAL_VERSION},
                  {"rules", ruleDescriptors(O)}}}}},
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

//===- SarifReport.cpp ----------------------------------------------------===//

#include "output/SarifReport.h"

#include "rules/Registry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cal {

using nlohmann::json;

namespace {

const char *sarifLevel(const std::string &Severity) {
  if (Severity == "error")
    return "error";
  if (Severity == "warning")
    return "warning";
  return "note";
}

/// A file:// URI for a path (absolute) or the path as given (relative,
/// resolved against the checkout by code scanning).
std::string uriOf(const std::string &Path) {
  if (!llvm::sys::path::is_absolute(Path))
    return Path;
  std::string U = "file://";
  for (char C : Path) {
    if (C == ' ')
      U += "%20";
    else
      U += C;
  }
  return U;
}

} // namespace

json sarifDocument(const json &Findings) {
  json Rules = json::array();
  for (const auto &R : allRules()) {
    const RuleInfo &I = R->info();
    Rules.push_back(
        {{"id", I.Id},
         {"name", I.Id},
         {"shortDescription", {{"text", I.Summary}}},
         {"fullDescription", {{"text", I.Rationale}}},
         {"help", {{"text", I.Summary + " " + I.FixDescription},
                   {"markdown", ruleDoc(*R)}}},
         {"defaultConfiguration",
          {{"level", sarifLevel(severityName(I.DefaultSeverity))}}},
         {"properties", {{"tags", {"performance", "cuda"}}}}});
  }
  json Results = json::array();
  for (const json &F : Findings) {
    json Region;
    Region["startLine"] = F["line"];
    Region["startColumn"] = F["column"];
    Region["endLine"] = F["end_line"];
    Region["endColumn"] = F["end_column"].get<int>() + 1;
    json Loc;
    Loc["physicalLocation"]["artifactLocation"]["uri"] =
        uriOf(F["file"].get<std::string>());
    Loc["physicalLocation"]["region"] = Region;
    std::string Text = F["message"].get<std::string>();
    for (const json &N : F["notes"])
      Text += "\n" + N.get<std::string>();
    json Result = {{"ruleId", F["rule"]},
                   {"level", sarifLevel(F["severity"])},
                   {"message", {{"text", Text}}},
                   {"locations", json::array({Loc})},
                   {"properties",
                    {{"kernel", F["kernel"]},
                     {"array", F["array"]},
                     {"metrics", F["metrics"]}}}};
    json Fixes = json::array();
    for (const json &X : F["fixes"]) {
      if (X["applicability"] != "machine-applicable")
        continue;
      json Changes = json::array();
      for (const json &Rep : X["replacements"])
        Changes.push_back(
            {{"artifactLocation", {{"uri", uriOf(Rep["file"].get<std::string>())}}},
             {"replacements",
              json::array({{{"deletedRegion",
                             {{"charOffset", Rep["offset"]},
                              {"charLength", Rep["length"]}}},
                            {"insertedContent", {{"text", Rep["text"]}}}}})}});
      Fixes.push_back({{"description", {{"text", X["description"]}}},
                       {"artifactChanges", Changes}});
    }
    if (!Fixes.empty())
      Result["fixes"] = Fixes;
    Results.push_back(Result);
  }
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs",
           json::array({{{"tool",
                          {{"driver",
                            {{"name", "cuda-access-lint"},
                             {"version", CAL_VERSION},
                             {"rules", Rules}}}}},
                         {"results", Results}}})}};
}

} // namespace cal

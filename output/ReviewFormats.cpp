//===- ReviewFormats.cpp --------------------------------------------------===//

#include "output/ReviewFormats.h"

#include "output/JsonReport.h"
#include "report/Grouping.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace cal {

using nlohmann::json;

namespace {

/// GitHub's workflow-command escaping: properties and messages.
std::string ghEscape(const std::string &S, bool Property) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    case ':':
      Out += Property ? "%3A" : ":";
      break;
    case ',':
      Out += Property ? "%2C" : ",";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

const char *githubCommand(Severity S) {
  return S == Severity::Error     ? "error"
         : S == Severity::Warning ? "warning"
                                  : "notice";
}

std::string plural(size_t N, const char *Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : "s");
}

std::string countsText(const size_t (&Count)[3]) {
  std::string Out;
  const char *Names[] = {"error", "warning", "note"};
  for (int I = 0; I < 3; ++I) {
    if (!Count[I])
      continue;
    Out += (Out.empty() ? "" : ", ") + plural(Count[I], Names[I]);
  }
  return Out;
}

int levelIndex(Severity S) {
  return S == Severity::Error ? 0 : S == Severity::Warning ? 1 : 2;
}

} // namespace

std::string githubAnnotations(const std::vector<FindingRecord> &Findings) {
  std::string Out;
  size_t Total[3] = {0, 0, 0}, Shown[3] = {0, 0, 0};
  std::vector<const FindingRecord *> LeftOut;
  for (const FindingRecord *F : rankByCost(Findings)) {
    int L = levelIndex(F->Sev);
    ++Total[L];
    // Notices keep a place for the closing one.
    unsigned Limit = GithubAnnotationsPerLevel - (L == 2 ? 1 : 0);
    if (Shown[L] >= Limit) {
      LeftOut.push_back(F);
      continue;
    }
    ++Shown[L];
    std::string Msg = F->Message;
    for (const std::string &N : allNotes(*F))
      Msg += "\n" + N;
    Out += std::string("::") + githubCommand(F->Sev) +
           " file=" + ghEscape(F->Begin.File, true) +
           ",line=" + std::to_string(F->Begin.Line) +
           ",col=" + std::to_string(F->Begin.Column) +
           ",endLine=" + std::to_string(F->EndLine) +
           ",endColumn=" + std::to_string(F->EndColumn) +
           ",title=" + ghEscape(F->Rule, true) + "::" + ghEscape(Msg, false) +
           "\n";
  }
  if (Findings.empty())
    return Out;
  std::string Summary = "cuda-access-lint: " + plural(Findings.size(), "finding") +
                        " (" + countsText(Total) + "), most costly first";
  if (LeftOut.empty()) {
    Summary += "; all shown as annotations";
  } else {
    size_t Left[3] = {Total[0] - Shown[0], Total[1] - Shown[1],
                      Total[2] - Shown[2]};
    Summary += "; GitHub shows " + std::to_string(GithubAnnotationsPerLevel) +
               " annotations per level: " + countsText(Left) +
               " not annotated (see the SARIF or text output):";
    const size_t Named = 20;
    for (size_t I = 0; I < LeftOut.size() && I < Named; ++I)
      Summary += "\n" + LeftOut[I]->Begin.File + ":" +
                 std::to_string(LeftOut[I]->Begin.Line) + ": " +
                 severityName(LeftOut[I]->Sev) + ": " + LeftOut[I]->Message +
                 " [" + LeftOut[I]->Rule + "]";
    if (LeftOut.size() > Named)
      Summary += "\n... and " + std::to_string(LeftOut.size() - Named) + " more";
  }
  Out += "::notice title=cuda-access-lint summary::" + ghEscape(Summary, false) +
         "\n";
  return Out;
}

std::string reviewdogJsonLines(const std::vector<FindingRecord> &Findings,
                               const std::string &RuleDocsBase) {
  std::string Out;
  for (const FindingRecord *F : rankByCost(Findings)) {
    json D;
    D["message"] = F->Message;
    D["location"]["path"] = F->Begin.File;
    D["location"]["range"]["start"]["line"] = F->Begin.Line;
    D["location"]["range"]["start"]["column"] = F->Begin.Column;
    D["location"]["range"]["end"]["line"] = F->EndLine;
    D["location"]["range"]["end"]["column"] = F->EndColumn + 1;
    D["severity"] = F->Sev == Severity::Error     ? "ERROR"
                    : F->Sev == Severity::Warning ? "WARNING"
                                                  : "INFO";
    D["source"] = {{"name", "cuda-access-lint"}};
    D["code"] = {{"value", F->Rule},
                 {"url", (RuleDocsBase.empty() ? std::string("docs/rules/")
                                               : RuleDocsBase) +
                             F->Rule + ".md"}};
    json Suggestions = json::array();
    for (const FixRecord &X : F->Fixes) {
      if (!X.machineApplicable())
        continue;
      for (const EditRecord &E : X.Edits) {
        json S;
        S["range"]["start"]["line"] = E.At.Line;
        S["range"]["start"]["column"] = E.At.Column;
        S["range"]["end"]["line"] = E.At.Line;
        S["range"]["end"]["column"] = E.At.Column + E.Length;
        S["text"] = E.Text;
        Suggestions.push_back(S);
      }
    }
    if (!Suggestions.empty())
      D["suggestions"] = Suggestions;
    Out += D.dump() + "\n";
  }
  return Out;
}

std::string exportFixesYaml(const std::vector<FindingRecord> &Findings,
                            const std::string &MainSourceFile) {
  clang::tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile;
  for (const FindingRecord &F : Findings)
    TU.Diagnostics.push_back(F.toToolingDiagnostic());
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output YAML(OS);
  YAML << TU;
  OS.flush();
  return Out;
}

} // namespace cal

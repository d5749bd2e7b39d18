//===- Merge.cpp ----------------------------------------------------------===//

#include "tool/Merge.h"

#include "output/JsonReport.h"
#include "output/ReviewFormats.h"
#include "output/TextReport.h"

#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

#include <set>

namespace cal {

using nlohmann::json;

namespace {

enum class Kind { Json, Sarif, Rdjsonl };

int fail(llvm::raw_ostream &Err, const std::string &Msg) {
  Err << "cuda-access-lint: error: --merge: " << Msg << "\n";
  return 3;
}

int mergeSarif(const std::vector<json> &Docs, llvm::raw_ostream &Out) {
  json Doc = Docs.front();
  json &Run = Doc["runs"][0];
  json Results = json::array();
  std::set<std::string> Seen;
  for (const json &D : Docs)
    for (const json &R : D["runs"][0].value("results", json::array())) {
      std::string Key = R.value("ruleId", "") + "|" +
                        R.value("partialFingerprints", json::object()).dump() +
                        "|" + R.value("locations", json::array()).dump();
      if (Seen.insert(Key).second)
        Results.push_back(R);
    }
  unsigned Failing = 0;
  for (const json &R : Results)
    Failing += R.value("level", "warning") != "note";
  Run["results"] = Results;
  Out << Doc.dump(2) << "\n";
  return Failing ? 1 : 0;
}

} // namespace

int runMerge(const std::vector<std::string> &Inputs, const std::string &Format,
             const SarifOptions &Sarif, bool Color, llvm::raw_ostream &Out,
             llvm::raw_ostream &Err) {
  if (Inputs.empty())
    return fail(Err, "no documents to merge");
  std::vector<json> Docs;
  std::vector<std::string> Lines;
  std::optional<Kind> Kinds;
  for (const std::string &In : Inputs) {
    auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(In);
    if (!Buf)
      return fail(Err, "cannot read '" + In + "': " + Buf.getError().message());
    llvm::StringRef Text = (*Buf)->getBuffer();
    json D = json::parse(Text.begin(), Text.end(), nullptr, false);
    Kind K;
    if (!D.is_discarded() && D.is_object() && D.contains("runs") &&
        D["runs"].is_array() && D["runs"].size() == 1) {
      K = Kind::Sarif;
    } else if (!D.is_discarded() && D.is_object() && D.value("version", 0) == 1 &&
               D.contains("findings") && D["findings"].is_array()) {
      K = Kind::Json;
    } else {
      // reviewdog lines: every non-empty line a JSON object with a location.
      llvm::SmallVector<llvm::StringRef, 0> Ls;
      Text.split(Ls, '\n', -1, false);
      for (llvm::StringRef L : Ls) {
        json J = json::parse(L.begin(), L.end(), nullptr, false);
        if (J.is_discarded() || !J.is_object() || !J.contains("location"))
          return fail(Err, "'" + In + "' is not a cuda-access-lint JSON, SARIF "
                           "or rdjsonl document");
        Lines.push_back(L.str());
      }
      K = Kind::Rdjsonl;
    }
    if (Kinds && *Kinds != K)
      return fail(Err, "'" + In + "' is of another format than '" +
                           Inputs.front() + "'");
    Kinds = K;
    if (K != Kind::Rdjsonl)
      Docs.push_back(std::move(D));
  }
  std::string Want = Format;
  if (*Kinds == Kind::Sarif) {
    if (!Want.empty() && Want != "sarif")
      return fail(Err, "SARIF documents merge into SARIF only (merge the JSON "
                       "documents for --format=" + Want + ")");
    return mergeSarif(Docs, Out);
  }
  if (*Kinds == Kind::Rdjsonl) {
    if (!Want.empty() && Want != "rdjsonl")
      return fail(Err, "rdjsonl documents merge into rdjsonl only");
    std::set<std::string> Seen;
    for (const std::string &L : Lines)
      if (Seen.insert(L).second)
        Out << L << "\n";
    return Seen.empty() ? 0 : 1;
  }

  // JSON: back to records; one finding per place.
  std::vector<FindingRecord> Findings;
  std::set<std::string> Places;
  JsonReport Merged;
  std::set<std::string> Kernels;
  for (const json &D : Docs) {
    for (const json &F : D["files"])
      Merged.files().push_back(F);
    for (const json &K : D.value("kernels", json::array()))
      if (Kernels.insert(K.dump()).second)
        Merged.kernels().push_back(K);
    for (const json &A : D.value("accesses", json::array()))
      Merged.accesses().push_back(A);
    for (const json &F : D["findings"]) {
      std::optional<FindingRecord> R = findingFromJson(F);
      if (!R)
        return fail(Err, "a finding that is not a cuda-access-lint finding: " +
                             F.dump().substr(0, 80));
      if (Places.insert(R->placeKey()).second)
        Findings.push_back(std::move(*R));
    }
  }
  unsigned Failing = 0;
  for (const FindingRecord &F : Findings)
    Failing += F.Sev != Severity::Note;
  if (Want.empty() || Want == "json") {
    for (const FindingRecord &F : Findings)
      Merged.findings().push_back(findingJson(F));
    Merged.write(Out, !Merged.accesses().empty());
  } else if (Want == "sarif") {
    Out << sarifDocument(Findings, Sarif).dump(2) << "\n";
  } else if (Want == "github") {
    Out << githubAnnotations(Findings);
  } else if (Want == "rdjsonl") {
    Out << reviewdogJsonLines(Findings, Sarif.RuleDocsBase);
  } else {
    printFindings(Findings, Out, Color);
  }
  return Failing ? 1 : 0;
}

} // namespace cal

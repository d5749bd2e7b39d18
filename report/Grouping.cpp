//===- Grouping.cpp -------------------------------------------------------===//

#include "report/Grouping.h"

#include "rules/Suggest.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>

namespace cal {

namespace {

int rank(Severity S) {
  return S == Severity::Error ? 2 : S == Severity::Warning ? 1 : 0;
}

/// A worse than B: higher severity, then higher cost.
bool worse(Severity SA, double CA, Severity SB, double CB) {
  if (rank(SA) != rank(SB))
    return rank(SA) > rank(SB);
  return CA > CB;
}

std::string quotedList(const std::vector<std::string> &Names) {
  const size_t Shown = 8;
  std::string Out;
  for (size_t I = 0; I < Names.size() && I < Shown; ++I)
    Out += (I ? ", `" : "`") + Names[I] + "`";
  if (Names.size() > Shown)
    Out += " and " + std::to_string(Names.size() - Shown) + " more";
  return Out;
}

std::string configurationName(const ConfigurationRecord &C,
                              bool ShapesDiffer) {
  if (!ShapesDiffer)
    return C.Kernel;
  return C.Kernel + " (" + C.Shape + ")";
}

/// The note that names the configurations sharing a place.
std::string configurationsNote(const std::string &Rule,
                               const std::vector<ConfigurationRecord> &Cs) {
  // The same kernel name in several configurations: they differ by shape.
  llvm::StringMap<unsigned> Names;
  bool ShapesDiffer = false;
  for (const ConfigurationRecord &C : Cs)
    ShapesDiffer = ShapesDiffer || ++Names[C.Kernel] > 1;
  // Configurations by what they say, in the order of the first (the worst).
  std::vector<std::pair<std::string, std::vector<std::string>>> ByHeadline;
  for (const ConfigurationRecord &C : Cs) {
    std::string H = headline(Rule, C.Metrics);
    if (H.empty())
      H = severityName(C.Sev);
    else if (C.Sev != Cs.front().Sev)
      H += std::string(" (") + severityName(C.Sev) + ")";
    auto It = std::find_if(ByHeadline.begin(), ByHeadline.end(),
                           [&](const auto &P) { return P.first == H; });
    if (It == ByHeadline.end()) {
      ByHeadline.push_back({H, {}});
      It = ByHeadline.end() - 1;
    }
    It->second.push_back(configurationName(C, ShapesDiffer));
  }
  if (ByHeadline.size() == 1) {
    std::vector<std::string> All = ByHeadline.front().second;
    return "the same in " + std::to_string(Cs.size()) +
           " configurations: " + quotedList(All);
  }
  std::string Out = "differs by configuration: ";
  for (size_t I = 0; I < ByHeadline.size(); ++I)
    Out += (I ? "; " : "") + ByHeadline[I].first + " in " +
           quotedList(ByHeadline[I].second);
  return Out;
}

} // namespace

std::string headline(const std::string &Rule, const nlohmann::json &M) {
  auto Num = [&](const char *Key) -> std::optional<double> {
    auto It = M.find(Key);
    if (It == M.end() || !It->is_number())
      return std::nullopt;
    return It->get<double>();
  };
  if (auto W = Num("bank_conflict_ways"); W && Rule == "shared-bank-conflict")
    return number(*W) + "-way";
  if (Rule == "missing-vectorization")
    if (auto B = Num("bytes_per_lane"))
      return number(*B) + " bytes per lane";
  if (auto S = Num("sectors_per_request"))
    return number(*S) + " sectors per request";
  if (auto W = Num("wavefronts_per_request"))
    return number(*W) + " wavefronts per request";
  return "";
}

std::vector<FindingRecord> groupByPlace(std::vector<FindingRecord> Records) {
  std::vector<FindingRecord> Out;
  std::map<std::string, size_t> Index;
  for (FindingRecord &R : Records) {
    auto [It, New] = Index.try_emplace(R.placeKey(), Out.size());
    if (New) {
      Out.push_back(std::move(R));
      continue;
    }
    FindingRecord &G = Out[It->second];
    // The same configuration twice (a load and a store): the worse.
    for (ConfigurationRecord &C : R.Configurations) {
      auto Same = std::find_if(
          G.Configurations.begin(), G.Configurations.end(),
          [&](const ConfigurationRecord &O) {
            return O.Kernel == C.Kernel && O.Key == C.Key;
          });
      if (Same == G.Configurations.end())
        G.Configurations.push_back(C);
      else if (worse(C.Sev, C.Cost, Same->Sev, Same->Cost))
        *Same = C;
    }
    if (worse(R.Sev, R.Cost, G.Sev, G.Cost)) {
      // The worse configuration's numbers, notes and fixes are reported.
      std::vector<ConfigurationRecord> Cs = std::move(G.Configurations);
      G = std::move(R);
      G.Configurations = std::move(Cs);
    }
  }
  for (FindingRecord &G : Out) {
    if (G.Configurations.size() < 2)
      continue;
    std::stable_sort(G.Configurations.begin(), G.Configurations.end(),
                     [](const ConfigurationRecord &A,
                        const ConfigurationRecord &B) {
                       return worse(A.Sev, A.Cost, B.Sev, B.Cost);
                     });
    // After the note naming the reported kernel.
    auto At = G.Notes.empty() ? G.Notes.end() : G.Notes.begin() + 1;
    G.Notes.insert(At, configurationsNote(G.Rule, G.Configurations));
  }
  return Out;
}

std::vector<const FindingRecord *>
rankByCost(const std::vector<FindingRecord> &Records) {
  std::vector<const FindingRecord *> Out;
  for (const FindingRecord &R : Records)
    Out.push_back(&R);
  std::stable_sort(Out.begin(), Out.end(),
                   [](const FindingRecord *A, const FindingRecord *B) {
                     return worse(A->Sev, A->Cost, B->Sev, B->Cost);
                   });
  return Out;
}

} // namespace cal

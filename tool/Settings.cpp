//===- Settings.cpp -------------------------------------------------------===//

#include "tool/Settings.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace cal {

namespace {

llvm::Error configError(const LintConfig &C, const std::string &Field,
                        const std::string &Msg) {
  std::string From = C.Sources.empty() ? "configuration" : C.Sources.back();
  if (C.Sources.size() > 1)
    From = C.Sources.front();
  for (size_t I = 1; I < C.Sources.size(); ++I)
    From += ", " + C.Sources[I];
  return llvm::createStringError(std::errc::invalid_argument, "%s: %s: %s",
                                 From.c_str(), Field.c_str(), Msg.c_str());
}

std::string absolute(llvm::StringRef P) {
  llvm::SmallString<256> S(P);
  llvm::sys::fs::make_absolute(S);
  llvm::sys::path::remove_dots(S, true);
  return S.str().str();
}

} // namespace

llvm::Expected<LintSettings> settingsFromConfig(const LintConfig &C) {
  LintSettings S;
  std::string Error;
  std::optional<RuleSelection> Sel =
      RuleSelection::parse(C.Checks.value_or(""), Error);
  if (!Sel)
    return configError(C, "Checks", Error);
  S.Selection = *Sel;
  if (C.WarningsAsErrors && !C.WarningsAsErrors->empty()) {
    std::optional<RuleSelection> W = RuleSelection::parse("-*," + *C.WarningsAsErrors, Error);
    if (!W)
      return configError(C, "WarningsAsErrors", Error);
    S.WarningsAsErrors = *W;
  }
  for (const auto &[K, V] : C.CheckOptions) {
    std::string Warning;
    if (!parseRuleOption(K + "=" + V, S.RuleOptions, Error, &Warning))
      return configError(C, "CheckOptions", K + ": " + Error);
    if (!Warning.empty())
      S.Warnings.push_back(
          llvm::toString(configError(C, "CheckOptions", K + ": " + Warning)));
  }
  for (const auto &[K, V] : C.BlockDims) {
    std::string Text = K == "*" ? V : K + "=" + V;
    std::optional<BlockDimSetting> B = parseBlockDimSetting(Text, Error);
    if (!B)
      return configError(C, "BlockDims", K + ": " + Error);
    S.Analysis.BlockDims.push_back(*B);
  }
  for (const auto &[K, V] : C.Assume) {
    auto Src = C.AssumeSources.find(K);
    std::string Source = Src == C.AssumeSources.end() || Src->second.empty()
                             ? "Assume in the configuration"
                             : Src->second;
    if (!parseAssumedValues(K + "=" + V, Source, S.Analysis.Assumed, Error))
      return configError(C, "Assume", K + ": " + Error);
  }
  for (auto [Field, Into, Name] :
       {std::make_tuple(&C.HeaderFilterRegex, &S.HeaderFilter, "HeaderFilterRegex"),
        std::make_tuple(&C.ExcludeHeaderFilterRegex, &S.ExcludeHeaderFilter,
                        "ExcludeHeaderFilterRegex")}) {
    if (!*Field || (*Field)->empty())
      continue;
    auto Re = std::make_shared<llvm::Regex>(**Field);
    if (!Re->isValid(Error))
      return configError(C, Name, Error);
    *Into = Re;
  }
  if (C.AnalysisTimeLimit) {
    if (!(*C.AnalysisTimeLimit >= 0))
      return configError(C, "AnalysisTimeLimit",
                         "expected seconds, 0 or more (0: no limit)");
    S.Analysis.Budget.Seconds = *C.AnalysisTimeLimit;
  }
  if (C.AnalysisMemoryLimit)
    S.Analysis.Budget.MemoryMB = *C.AnalysisMemoryLimit;
  S.ExtraArgs = C.ExtraArgs;
  S.ExtraArgsBefore = C.ExtraArgsBefore;
  S.Config = C;
  return S;
}

std::string gitWorkTreeOf(llvm::StringRef Dir) {
  llvm::SmallString<256> D(Dir);
  while (!D.empty()) {
    llvm::SmallString<256> Git(D);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return D.str().str();
    llvm::StringRef Parent = llvm::sys::path::parent_path(D);
    if (Parent == D)
      break;
    D = Parent;
  }
  return "";
}

llvm::Expected<const LintSettings *> SettingsCache::get(const std::string &File) {
  std::string Dir = absolute(File);
  Dir = llvm::sys::path::parent_path(Dir).str();
  {
    std::lock_guard<std::mutex> L(Lock);
    auto It = ByDirectory.find(Dir);
    if (It != ByDirectory.end())
      return It->second.get();
  }
  llvm::Expected<LintConfig> C = Finder.configFor(File);
  if (!C)
    return C.takeError();
  LintConfig Effective = *C;
  Effective.refineWith(Cli);
  llvm::Expected<LintSettings> S = settingsFromConfig(Effective);
  if (!S)
    return S.takeError();
  if (!ProjectRoot.empty()) {
    S->ProjectRoots.push_back(absolute(ProjectRoot));
  } else {
    std::string Git = gitWorkTreeOf(Dir);
    if (!Git.empty())
      S->ProjectRoots.push_back(Git);
    if (!BuildDir.empty())
      S->ProjectRoots.push_back(absolute(BuildDir));
  }
  std::lock_guard<std::mutex> L(Lock);
  auto &Slot = ByDirectory[Dir];
  if (!Slot)
    Slot = std::make_unique<LintSettings>(std::move(*S));
  return Slot.get();
}

} // namespace cal

//===- Config.cpp ---------------------------------------------------------===//

#include "tool/Config.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using ConfigStringMap = std::map<std::string, std::string>;

namespace llvm {
namespace yaml {

template <> struct CustomMappingTraits<ConfigStringMap> {
  static void inputOne(IO &IO, StringRef Key, ConfigStringMap &V) {
    IO.mapRequired(Key.str().c_str(), V[Key.str()]);
  }
  static void output(IO &IO, ConfigStringMap &V) {
    for (auto &[K, Val] : V)
      IO.mapRequired(K.c_str(), Val);
  }
};

template <> struct ScalarEnumerationTraits<cal::PreambleBuild> {
  static void enumeration(IO &IO, cal::PreambleBuild &V) {
    IO.enumCase(V, "first", cal::PreambleBuild::FirstSight);
    IO.enumCase(V, "second", cal::PreambleBuild::SecondSight);
  }
};

template <> struct MappingTraits<cal::LintConfig> {
  static void mapping(IO &IO, cal::LintConfig &C) {
    IO.mapOptional("Checks", C.Checks);
    IO.mapOptional("WarningsAsErrors", C.WarningsAsErrors);
    IO.mapOptional("HeaderFilterRegex", C.HeaderFilterRegex);
    IO.mapOptional("ExcludeHeaderFilterRegex", C.ExcludeHeaderFilterRegex);
    IO.mapOptional("CheckOptions", C.CheckOptions);
    IO.mapOptional("BlockDims", C.BlockDims);
    IO.mapOptional("Assume", C.Assume);
    IO.mapOptional("ExtraArgs", C.ExtraArgs);
    IO.mapOptional("ExtraArgsBefore", C.ExtraArgsBefore);
    IO.mapOptional("AnalysisTimeLimit", C.AnalysisTimeLimit);
    IO.mapOptional("AnalysisMemoryLimit", C.AnalysisMemoryLimit);
    IO.mapOptional("PreambleCache", C.PreambleCache);
    IO.mapOptional("PreambleCacheDir", C.PreambleCacheDir);
    IO.mapOptional("PreambleBuild", C.BuildPreamble);
    IO.mapOptional("PreambleCacheSize", C.PreambleCacheSize);
    IO.mapOptional("InheritParentConfig", C.InheritParentConfig);
  }
};

} // namespace yaml
} // namespace llvm

namespace cal {

namespace {

void appendGlobs(std::optional<std::string> &Into,
                 const std::optional<std::string> &More) {
  if (!More)
    return;
  if (!Into || Into->empty())
    Into = More;
  else if (!More->empty())
    Into = *Into + "," + *More;
}

struct DiagCapture {
  std::string First;
};

void captureDiag(const llvm::SMDiagnostic &D, void *Ctx) {
  auto *C = static_cast<DiagCapture *>(Ctx);
  if (!C->First.empty())
    return;
  C->First = std::to_string(D.getLineNo()) + ":" +
             std::to_string(D.getColumnNo() + 1) + ": " + D.getMessage().str();
}

} // namespace

void LintConfig::refineWith(const LintConfig &Child) {
  appendGlobs(Checks, Child.Checks);
  appendGlobs(WarningsAsErrors, Child.WarningsAsErrors);
  if (Child.HeaderFilterRegex)
    HeaderFilterRegex = Child.HeaderFilterRegex;
  if (Child.ExcludeHeaderFilterRegex)
    ExcludeHeaderFilterRegex = Child.ExcludeHeaderFilterRegex;
  for (const auto &[K, V] : Child.CheckOptions)
    CheckOptions[K] = V;
  for (const auto &[K, V] : Child.BlockDims)
    BlockDims[K] = V;
  for (const auto &[K, V] : Child.Assume) {
    Assume[K] = V;
    auto S = Child.AssumeSources.find(K);
    AssumeSources[K] = S == Child.AssumeSources.end() ? "" : S->second;
  }
  if (Child.AnalysisTimeLimit)
    AnalysisTimeLimit = Child.AnalysisTimeLimit;
  if (Child.AnalysisMemoryLimit)
    AnalysisMemoryLimit = Child.AnalysisMemoryLimit;
  if (Child.PreambleCache)
    PreambleCache = Child.PreambleCache;
  if (Child.PreambleCacheDir)
    PreambleCacheDir = Child.PreambleCacheDir;
  if (Child.BuildPreamble)
    BuildPreamble = Child.BuildPreamble;
  if (Child.PreambleCacheSize)
    PreambleCacheSize = Child.PreambleCacheSize;
  ExtraArgs.insert(ExtraArgs.end(), Child.ExtraArgs.begin(),
                   Child.ExtraArgs.end());
  ExtraArgsBefore.insert(ExtraArgsBefore.end(), Child.ExtraArgsBefore.begin(),
                         Child.ExtraArgsBefore.end());
  Sources.insert(Sources.end(), Child.Sources.begin(), Child.Sources.end());
  InheritParentConfig = Child.InheritParentConfig;
}

llvm::Expected<LintConfig> parseConfig(llvm::StringRef Text,
                                       llvm::StringRef Path) {
  LintConfig C;
  DiagCapture Diag;
  llvm::yaml::Input In(Text, nullptr, captureDiag, &Diag);
  if (!Text.trim().empty())
    In >> C;
  if (In.error()) {
    std::string Msg = Diag.First.empty() ? In.error().message() : Diag.First;
    return llvm::createStringError(std::errc::invalid_argument, "%s:%s",
                                   Path.str().c_str(), Msg.c_str());
  }
  C.Sources = {Path.str()};
  if (C.PreambleCacheDir && !C.PreambleCacheDir->empty() &&
      !llvm::sys::path::is_absolute(*C.PreambleCacheDir)) {
    llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Path));
    llvm::sys::path::append(Dir, *C.PreambleCacheDir);
    llvm::sys::fs::make_absolute(Dir);
    C.PreambleCacheDir = Dir.str().str();
  }
  for (const auto &[K, V] : C.Assume)
    C.AssumeSources[K] = "Assume in " + Path.str();
  return C;
}

llvm::Expected<LintConfig> readConfigFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot read '%s': %s", Path.str().c_str(),
                                   Buf.getError().message().c_str());
  return parseConfig((*Buf)->getBuffer(), Path);
}

std::string configYaml(const LintConfig &C) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const std::string &S : C.Sources)
    OS << "# from " << S << "\n";
  llvm::yaml::Output Y(OS);
  LintConfig Copy = C;
  Y << Copy;
  OS.flush();
  return Out;
}

llvm::Expected<LintConfig> ConfigFinder::configFor(llvm::StringRef File) {
  if (!ExplicitFile.empty()) {
    std::lock_guard<std::mutex> L(Lock);
    auto It = ByDirectory.find("");
    if (It == ByDirectory.end()) {
      llvm::Expected<LintConfig> C = readConfigFile(ExplicitFile);
      if (!C)
        return C.takeError();
      It = ByDirectory.emplace("", std::make_shared<LintConfig>(*C)).first;
    }
    return *It->second;
  }
  llvm::SmallString<256> Dir(File);
  llvm::sys::fs::make_absolute(Dir);
  llvm::sys::path::remove_dots(Dir, true);
  llvm::sys::path::remove_filename(Dir);
  return configForDirectory(Dir);
}

llvm::Expected<LintConfig>
ConfigFinder::configForDirectory(llvm::StringRef Dir) {
  {
    std::lock_guard<std::mutex> L(Lock);
    auto It = ByDirectory.find(Dir.str());
    if (It != ByDirectory.end())
      return *It->second;
  }
  LintConfig Result;
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, ConfigFileName);
  llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
  bool HasParent = !Parent.empty() && Parent != Dir;
  if (llvm::sys::fs::exists(Path)) {
    llvm::Expected<LintConfig> Own = readConfigFile(Path);
    if (!Own)
      return Own.takeError();
    if (Own->InheritParentConfig.value_or(true) && HasParent) {
      llvm::Expected<LintConfig> Above = configForDirectory(Parent);
      if (!Above)
        return Above.takeError();
      Result = *Above;
    }
    Result.refineWith(*Own);
  } else if (HasParent) {
    llvm::Expected<LintConfig> Above = configForDirectory(Parent);
    if (!Above)
      return Above.takeError();
    Result = *Above;
  }
  std::lock_guard<std::mutex> L(Lock);
  ByDirectory[Dir.str()] = std::make_shared<LintConfig>(Result);
  return Result;
}

} // namespace cal

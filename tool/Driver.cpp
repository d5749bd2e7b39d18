//===- Driver.cpp - The command line of cuda-access-lint ------------------===//

#include "tool/Driver.h"

#include "analyzer/Analyzer.h"
#include "frontend/CompileCommandsExport.h"
#include "frontend/Frontend.h"
#include "output/JsonReport.h"
#include "output/ReviewFormats.h"
#include "output/SarifReport.h"
#include "output/TextReport.h"
#include "report/Baseline.h"
#include "rules/Registry.h"
#include "tool/FixApplier.h"
#include "tool/Launcher.h"
#include "tool/Lint.h"
#include "tool/LspServer.h"
#include "tool/Merge.h"
#include "tool/Options.h"
#include "tool/Run.h"
#include "tool/Settings.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <set>
#include <string>
#include <vector>

namespace cal {
namespace {

namespace cl = llvm::cl;

void printVersion(llvm::raw_ostream &OS) {
  OS << "cuda-access-lint version " << CAL_VERSION << "\n"
     << "  built with LLVM " << LLVM_VERSION_STRING << "\n";
}

/// --launcher: the compile command that follows it.
std::optional<std::vector<std::string>> LauncherCommand;

/// The run's source root (absolute; empty: none), for SARIF.
std::string SarifRoot;
/// The executable, as main() was given it.
std::string Argv0;

/// helpUri's base: CAL_RULE_DOCS_URL when the build set one, else the rule
/// pages installed beside the binary (<prefix>/share/doc/cuda-access-lint/
/// rules/), found at run time.
std::string ruleDocsBase() {
#ifdef CAL_RULE_DOCS_URL
  if (std::string(CAL_RULE_DOCS_URL) != "")
    return CAL_RULE_DOCS_URL;
#endif
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0.c_str(), &Anchor);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Dir, "..", "share", "doc");
  llvm::sys::path::append(Dir, "cuda-access-lint", "rules");
  llvm::sys::path::remove_dots(Dir, true);
  return fileUri(Dir) + "/";
}

/// What a configuration says without effect (a retired rule option), on
/// stderr, each line once per run.
void sayConfigWarnings(const LintSettings &S, std::set<std::string> &Said) {
  for (const std::string &W : S.Warnings)
    if (Said.insert(W).second)
      llvm::errs() << "cuda-access-lint: warning: " << W << "\n";
}

/// --warnings-as-errors: a warning of a selected rule is an error, in the
/// finding and in each of its configurations.
void promoteWarnings(FindingRecord &F, const RuleSelection &Rules) {
  if (!Rules.enabled(F.Rule))
    return;
  if (F.Sev == Severity::Warning)
    F.Sev = Severity::Error;
  for (ConfigurationRecord &C : F.Configurations)
    if (C.Sev == Severity::Warning)
      C.Sev = Severity::Error;
}

/// The gate: each finding under the settings of the file that reports it.
/// True when any file of the run has one.
bool applyGate(MergedRun &M, SettingsCache &SettingsOf) {
  bool Gated = false;
  for (size_t I = 0; I < M.Findings.size(); ++I) {
    const LintSettings &S =
        *llvm::cantFail(SettingsOf.get(M.Outcomes[M.FileOf[I]].File));
    Gated = Gated || S.WarningsAsErrors.has_value();
    if (S.WarningsAsErrors)
      promoteWarnings(M.Findings[I], *S.WarningsAsErrors);
  }
  for (const FileOutcome &O : M.Outcomes) {
    if (Gated)
      break;
    if (auto S = SettingsOf.get(O.File))
      Gated = (*S)->WarningsAsErrors.has_value();
    else
      llvm::consumeError(S.takeError());
  }
  return Gated;
}

std::string plural(size_t N, const char *Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : "s");
}

/// The closing line of a text run: what was linted and found.
std::string summaryLine(const MergedRun &M) {
  size_t Count[3] = {0, 0, 0};
  for (const FindingRecord &F : M.Findings)
    ++Count[F.Sev == Severity::Error ? 0 : F.Sev == Severity::Warning ? 1 : 2];
  std::string Line = "cuda-access-lint: " + plural(M.Outcomes.size(), "file") +
                     ", " + plural(M.Kernels, "kernel configuration") + ", " +
                     plural(M.Findings.size(), "finding");
  std::string Per;
  const char *Names[] = {"error", "warning", "note"};
  for (int I = 0; I < 3; ++I)
    if (Count[I])
      Per += (Per.empty() ? "" : ", ") + plural(Count[I], Names[I]);
  if (!Per.empty())
    Line += " (" + Per + ")";
  Line += ", " + std::to_string(M.Suppressed) + " suppressed by NOLINT";
  if (!BaselineFile.empty())
    Line += ", " + std::to_string(M.Baselined) + " in the baseline";
  if (LineFilterJson.getNumOccurrences() || DiffInput.getNumOccurrences())
    Line += ", " + std::to_string(M.OutsideLines) + " outside the lines";
  Line += ", " + plural(M.FilesWithErrors + M.FilesFailed, "file") +
          " with parse problems";
  size_t Stopped = 0;
  for (const FileOutcome &O : M.Outcomes)
    for (const Keyed<nlohmann::json> &K : O.Kernels)
      Stopped += K.Value.contains("analysis_stopped");
  if (Stopped)
    Line += ", " + plural(Stopped, "kernel configuration") +
            " over the analysis budget";
  return Line;
}

/// Writes the run's findings in the chosen format; returns the exit status.
int reportRun(MergedRun &M, Frontend &FE, bool Gated) {
  if (Format == OutputFormat::Text) {
    // Each file's findings, then its --explain facts.
    for (size_t I = 0; I < M.Outcomes.size(); ++I) {
      std::vector<FindingRecord> Mine;
      for (size_t J = 0; J < M.Findings.size(); ++J)
        if (M.FileOf[J] == I)
          Mine.push_back(M.Findings[J]);
      bool Colored = UseColor.getNumOccurrences() ? bool(UseColor)
                                                  : llvm::outs().has_colors();
      llvm::raw_ostream &Out = LauncherCommand ? llvm::errs() : llvm::outs();
      printFindings(Mine, Out,
                    LauncherCommand ? llvm::errs().has_colors() : Colored);
      for (const Keyed<std::string> &E : M.Outcomes[I].Explain)
        Out << E.Value;
    }
    llvm::outs().flush();
  }
  if (Format == OutputFormat::Json) {
    JsonReport Json;
    for (const FileOutcome &O : M.Outcomes) {
      if (!O.Run.Parsed)
        continue;
      nlohmann::json FileJ = {{"file", O.Info.Path},
                              {"arch", O.Info.Arch},
                              {"parse_errors", O.Run.Errors},
                              {"builtin_prelude", O.Info.UsesBuiltinPrelude}};
      if (O.Info.HostParseErrors > 0)
        FileJ["host_parse_errors"] = {
            {"count", O.Info.HostParseErrors},
            {"first", O.Info.FirstHostParseError},
            {"missing_headers", O.Info.MissingHeaders}};
      Json.files().push_back(std::move(FileJ));
      for (const Keyed<nlohmann::json> &K : O.Kernels)
        Json.kernels().push_back(K.Value);
      for (const Keyed<nlohmann::json> &A : O.Accesses)
        Json.accesses().push_back(A.Value);
    }
    for (const FindingRecord &F : M.Findings)
      Json.findings().push_back(findingJson(F));
    Json.write(llvm::outs(), Accesses);
  }
  SarifOptions SO;
  SO.SourceRoot = SarifRoot;
  SO.RuleDocsBase = ruleDocsBase();
  if (Format == OutputFormat::Sarif)
    llvm::outs() << sarifDocument(M.Findings, SO).dump(2) << "\n";
  if (Format == OutputFormat::Github)
    llvm::outs() << githubAnnotations(M.Findings);
  if (Format == OutputFormat::Rdjsonl)
    llvm::outs() << reviewdogJsonLines(M.Findings, SO.RuleDocsBase);
  if (!ExportFixes.empty()) {
    std::string MainFile = FE.files().size() == 1 ? FE.files().front() : "";
    if (llvm::Error E = llvm::writeToOutput(
            ExportFixes, [&](llvm::raw_ostream &OS) -> llvm::Error {
              OS << exportFixesYaml(M.Findings, MainFile);
              return llvm::Error::success();
            })) {
      llvm::errs() << "cuda-access-lint: error: cannot write '" << ExportFixes
                   << "': " << llvm::toString(std::move(E)) << "\n";
      return ExitUsageError;
    }
  }
  if (ApplyFixes) {
    FixApplier Fixer;
    for (const FileOutcome &O : M.Outcomes)
      for (const auto &[Path, Contents] : O.Contents)
        Fixer.noteContents(Path, Contents);
    for (const FindingRecord &F : M.Findings)
      Fixer.add(F);
    if (Fixer.applyAll(llvm::errs(), llvm::errs()) < 0)
      return ExitUsageError;
  }
  if (Format == OutputFormat::Text && !Quiet && M.FilesFailed == 0)
    llvm::errs() << summaryLine(M) << "\n";

  // Under a gate, only errors fail; without one, warnings too.
  unsigned Failing = 0;
  for (const FindingRecord &F : M.Findings)
    if (Gated ? F.Sev == Severity::Error : F.Sev != Severity::Note)
      ++Failing;
  if (M.FilesFailed > 0)
    return ExitUsageError;
  if (M.FilesWithErrors > 0)
    return ExitParseError;
  return Failing > 0 ? ExitFindings : ExitClean;
}

/// The configuration the command line gives (checked as given; an error
/// is one line on stderr).
std::optional<LintConfig> commandLineConfig() {
  LintConfig Cli;
  if (!Checks.empty())
    Cli.Checks = Checks;
  if (WarningsAsErrors.getNumOccurrences()) {
    std::string Error;
    if (!RuleSelection::parse(WarningsAsErrors, Error)) {
      llvm::errs() << "cuda-access-lint: error: --warnings-as-errors: " << Error
                   << "\n";
      return std::nullopt;
    }
    Cli.WarningsAsErrors = WarningsAsErrors;
  }
  for (const std::string &B : BlockDims) {
    std::string Error;
    auto S = parseBlockDimSetting(B, Error);
    if (!S) {
      llvm::errs() << "cuda-access-lint: error: --block-dim=" << B << ": "
                   << Error << "\n";
      return std::nullopt;
    }
    auto [K, V] =
        llvm::StringRef(B).contains('=')
            ? llvm::StringRef(B).split('=')
            : std::make_pair(llvm::StringRef("*"), llvm::StringRef(B));
    Cli.BlockDims[K.trim().str()] = V.trim().str();
  }
  for (const std::string &A : Assume) {
    std::string Error;
    std::vector<AssumedValue> Values;
    if (!parseAssumedValues(A, "--assume", Values, Error)) {
      llvm::errs() << "cuda-access-lint: error: --assume=" << A << ": " << Error
                   << "\n";
      return std::nullopt;
    }
    for (const AssumedValue &V : Values) {
      std::string Key = V.Kernel.empty() ? V.Name : V.Kernel + ":" + V.Name;
      Cli.Assume[Key] = std::to_string(V.Value);
      Cli.AssumeSources[Key] = "--assume";
    }
  }
  for (const std::string &O : RuleOptionSettings) {
    std::string Error, Warning;
    RuleOptionValues Values;
    if (!parseRuleOption(O, Values, Error, &Warning)) {
      llvm::errs() << "cuda-access-lint: error: --rule-option=" << O << ": "
                   << Error << "\n";
      return std::nullopt;
    }
    if (!Warning.empty())
      llvm::errs() << "cuda-access-lint: warning: --rule-option=" << O << ": "
                   << Warning << "\n";
    for (const auto &[K, V] : Values)
      Cli.CheckOptions[K] = V;
  }
  for (auto [Opt, Field] :
       {std::make_pair(&HeaderFilter, &Cli.HeaderFilterRegex),
        std::make_pair(&ExcludeHeaderFilter, &Cli.ExcludeHeaderFilterRegex)}) {
    if (!Opt->getNumOccurrences())
      continue;
    llvm::Regex Re(*Opt);
    std::string ReError;
    if (!Re.isValid(ReError)) {
      llvm::errs() << "cuda-access-lint: error: --" << Opt->ArgStr << ": "
                   << ReError << "\n";
      return std::nullopt;
    }
    *Field = *Opt;
  }
  if (AnalysisTimeLimit.getNumOccurrences()) {
    if (!(AnalysisTimeLimit >= 0)) {
      llvm::errs() << "cuda-access-lint: error: --analysis-time-limit: "
                      "expected seconds, 0 or more (0: no limit)\n";
      return std::nullopt;
    }
    Cli.AnalysisTimeLimit = AnalysisTimeLimit;
  }
  if (AnalysisMemoryLimit.getNumOccurrences())
    Cli.AnalysisMemoryLimit = AnalysisMemoryLimit;
  Cli.Sources = {"the command line"};
  return Cli;
}

/// --line-filter and --diff (which picks the files when none are given).
/// Returns -1 to go on, else the exit status.
int readChangedLines(FrontendOptions &FO,
                     std::optional<LineFilter> &LinesWanted,
                     std::optional<LineFilter> &DiffLines) {
  if (LineFilterJson.getNumOccurrences()) {
    llvm::Expected<LineFilter> F = parseLineFilter(LineFilterJson);
    if (!F) {
      llvm::errs() << "cuda-access-lint: error: --line-filter: "
                   << llvm::toString(F.takeError()) << "\n";
      return ExitUsageError;
    }
    LinesWanted = *F;
  }
  if (DiffInput.getNumOccurrences()) {
    std::string Path = DiffInput.empty() ? "-" : std::string(DiffInput);
    auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(Path);
    if (!Buf) {
      llvm::errs() << "cuda-access-lint: error: --diff: cannot read '" << Path
                   << "': " << Buf.getError().message() << "\n";
      return ExitUsageError;
    }
    llvm::Expected<LineFilter> F = parseUnifiedDiff((*Buf)->getBuffer());
    if (!F) {
      llvm::errs() << "cuda-access-lint: error: --diff: "
                   << llvm::toString(F.takeError()) << "\n";
      return ExitUsageError;
    }
    DiffLines = *F;
    if (FO.Files.empty()) {
      bool HeaderChanged = false;
      for (const LineFilter::File &C : F->Files) {
        llvm::StringRef Ext = llvm::sys::path::extension(C.Name);
        bool Added = C.Lines.size() != 1 || C.Lines.front().first != 0;
        if (!Added || !llvm::sys::fs::exists(C.Name))
          continue;
        if (Ext == ".cu")
          FO.Files.push_back(C.Name);
        else if (Ext == ".cuh" || Ext == ".h" || Ext == ".hpp" || Ext == ".inl")
          HeaderChanged = true;
      }
      // A changed header: every file of the database may include it.
      if (HeaderChanged && !FO.BuildPath.empty())
        FO.Files.clear();
      else if (FO.Files.empty()) {
        if (!Quiet)
          llvm::errs() << "cuda-access-lint: the diff changes no CUDA file\n";
        return ExitClean;
      }
    }
  }
  return -1;
}

/// Splits the command line at `--` (the compile command, as with
/// clang-tidy) or `--launcher` (the compile command to lint, then run).
void splitCommandLine(int argc, const char **argv,
                      std::vector<const char *> &Own,
                      std::optional<std::vector<std::string>> &Fixed) {
  for (int I = 0; I < argc; ++I) {
    if (llvm::StringRef(argv[I]) == "--launcher" && I > 0) {
      LauncherCommand.emplace(argv + I + 1, argv + argc);
      break;
    }
    if (llvm::StringRef(argv[I]) == "--" && I > 0) {
      Fixed.emplace(argv + I + 1, argv + argc);
      break;
    }
    Own.push_back(argv[I]);
  }
}

/// The tool's own options; false after a one-line error.
bool parseOwnOptions(std::vector<const char *> &Own) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  llvm::raw_string_ostream ParseErrorStream(ParseErrors);
  if (cl::ParseCommandLineOptions(static_cast<int>(Own.size()), Own.data(),
                                  Overview, &ParseErrorStream))
    return true;
  // llvm::cl writes several lines ("Unknown command line argument",
  // "Try: ...", "Did you mean"); say it in one.
  llvm::StringRef Msg(ParseErrors);
  Msg = Msg.trim();
  llvm::StringRef First = Msg.split('\n').first;
  First.consume_front("cuda-access-lint: ");
  First = First.split("  Try:").first.trim();
  First.consume_back(".");
  std::string Line = First.str();
  if (!Line.empty())
    Line[0] = llvm::toLower(Line[0]);
  size_t Mean = Msg.find("Did you mean");
  if (Mean != llvm::StringRef::npos)
    Line += " (did you mean " +
            Msg.substr(Mean + strlen("Did you mean "))
                .split('\n')
                .first.trim()
                .str() +
            ")";
  // (Some errors llvm::cl has already printed itself, as one line.)
  if (!Line.empty())
    llvm::errs() << "cuda-access-lint: error: " << Line << "; see --help\n";
  return false;
}

/// --list-rules, --rule-doc, and the check of --checks: an exit status, or
/// -1 to go on.
int ruleQueries() {
  if (ListRules) {
    for (const auto &R : allRules()) {
      const RuleInfo &I = R->info();
      llvm::outs() << I.Id << " (" << severityName(I.DefaultSeverity) << ", "
                   << applicabilityName(I.FixApplicability) << " fix)\n    "
                   << I.Summary << "\n";
    }
    return ExitClean;
  }
  if (!RuleDoc.empty()) {
    const Rule *R = findRule(RuleDoc);
    if (!R) {
      llvm::errs() << "cuda-access-lint: error: no rule '" << RuleDoc
                   << "' (see --list-rules)\n";
      return ExitUsageError;
    }
    llvm::outs() << ruleDoc(*R);
    return ExitClean;
  }
  std::string SelectionError;
  if (!RuleSelection::parse(Checks, SelectionError)) {
    llvm::errs() << "cuda-access-lint: error: --checks: " << SelectionError
                 << "\n";
    return ExitUsageError;
  }
  return -1;
}

FrontendOptions
frontendOptions(const std::optional<std::vector<std::string>> &Fixed,
                bool Colored) {
  FrontendOptions FO;
  FO.Files.assign(SourcePaths.begin(), SourcePaths.end());
  FO.BuildPath = BuildPath;
  FO.FixedArgs = Fixed;
  FO.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  FO.ExtraArgsBefore.assign(ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  FO.CudaPath = CudaPath;
  FO.NoCudaToolkit = NoCudaToolkit;
  FO.DefaultArch = Arch;
  FO.CompilerWarnings = CompilerWarnings;
  FO.Color = Colored;
  FO.StrictParse = StrictParse;
  return FO;
}

/// The settings of \p Path, or null after a one-line error (a bad
/// configuration).
const LintSettings *settingsOrError(SettingsCache &SettingsOf,
                                    const std::string &Path) {
  llvm::Expected<const LintSettings *> S = SettingsOf.get(Path);
  if (!S) {
    llvm::errs() << "cuda-access-lint: error: " << llvm::toString(S.takeError())
                 << "\n";
    return nullptr;
  }
  return *S;
}

/// --dump-config and --verify-config.
int configQueries(SettingsCache &SettingsOf, std::set<std::string> &Said) {
  std::vector<std::string> Where(SourcePaths.begin(), SourcePaths.end());
  if (Where.empty())
    Where.push_back("./-");
  for (const std::string &W : Where) {
    const LintSettings *S = settingsOrError(SettingsOf, W);
    if (!S)
      return ExitUsageError;
    sayConfigWarnings(*S, Said);
    if (DumpConfig) {
      llvm::outs() << configYaml(S->Config);
      break;
    }
  }
  if (VerifyConfig)
    llvm::outs() << "No config errors detected.\n";
  return ExitClean;
}

/// The preamble cache: the command line, else the working directory's
/// configuration, else on in the default directory.
void preambleOptions(FrontendOptions &FO, const LintConfig &Config) {
  FO.PreambleCache = Config.PreambleCache.value_or(true);
  if (PreambleCacheOpt)
    FO.PreambleCache = true;
  if (NoPreambleCache)
    FO.PreambleCache = false;
  FO.PreambleCacheDir = PreambleCacheDir.getNumOccurrences()
                            ? std::string(PreambleCacheDir)
                            : Config.PreambleCacheDir.value_or("");
  // The editor relints the same file on every change: its preambles are
  // built on first sight unless the command line says otherwise.
  FO.BuildPreamble = PreambleBuildOpt.getNumOccurrences()
                         ? PreambleBuild(PreambleBuildOpt)
                     : Config.BuildPreamble ? *Config.BuildPreamble
                     : (Lsp || ClangdProxy) ? PreambleBuild::FirstSight
                                            : PreambleBuild::SecondSight;
  FO.PreambleCacheMiB =
      PreambleCacheSize.getNumOccurrences()
          ? uint64_t(PreambleCacheSize)
          : Config.PreambleCacheSize.value_or(PreambleCacheSize);
}

/// The absolute, normalized --source-root; empty when not given.
std::string sourceRoot() {
  if (SourceRoot.empty())
    return "";
  llvm::SmallString<256> R(SourceRoot);
  llvm::sys::fs::make_absolute(R);
  llvm::sys::path::remove_dots(R, true);
  return R.str().str();
}

/// The modes that are not a lint of files: --lsp, --clangd, --merge; and
/// --launcher's setup (the file its command compiles). An exit status, or
/// -1 to lint.
int otherModes(FrontendOptions &FO, const LintSettings &Settings,
               const std::optional<std::vector<std::string>> &Fixed,
               bool Colored) {
  if (Lsp)
    return runLspServer(FO, Settings);
  // --clangd: what follows -- is clangd's, not a compile command.
  if (ClangdProxy) {
    FrontendOptions Ours = FO;
    Ours.FixedArgs.reset();
    return runClangdProxy(Ours, Settings, ClangdPath,
                          Fixed ? *Fixed : std::vector<std::string>{});
  }
  // --launcher: lint the file the command compiles (with that command,
  // any ccache-like launcher before the compiler left out), then compile.
  if (LauncherCommand) {
    if (LauncherCommand->empty()) {
      llvm::errs() << "cuda-access-lint: error: --launcher: no compile command "
                      "follows it\n";
      return ExitUsageError;
    }
    std::vector<std::string> Compile = *LauncherCommand;
    while (Compile.size() > 1 && isCompilerLauncher(Compile.front()))
      Compile.erase(Compile.begin());
    std::optional<std::string> Source = sourceOfCommand(Compile);
    if (!Source)
      return runCompiler(*LauncherCommand);
    FO.LauncherCommand = Compile;
    FO.Files = {*Source};
    Quiet.setValue(true);
    Format.setValue(OutputFormat::Text);
  }
  if (MergeDocuments) {
    const char *Names[] = {"text", "json", "sarif", "github", "rdjsonl"};
    SarifOptions SO;
    SO.SourceRoot = sourceRoot();
    SO.RuleDocsBase = ruleDocsBase();
    return runMerge(
        std::vector<std::string>(SourcePaths.begin(), SourcePaths.end()),
        Format.getNumOccurrences() ? Names[int(Format.getValue())] : "", SO,
        Colored, llvm::outs(), llvm::errs());
  }
  return -1;
}

/// What a lint run reads before any file: the changed lines (--line-filter,
/// --diff, which also picks the files), --baseline and --shard. An exit
/// status, or -1 to go on.
struct RunInputs {
  std::optional<LineFilter> LinesWanted, DiffLines;
  std::optional<Baseline> Known;
  unsigned ShardK = 1, ShardN = 1;
};
int readRunInputs(FrontendOptions &FO, RunInputs &In) {
  if (int Status = readChangedLines(FO, In.LinesWanted, In.DiffLines);
      Status >= 0)
    return Status;
  if (!BaselineFile.empty()) {
    llvm::Expected<Baseline> B = readBaseline(BaselineFile);
    if (!B) {
      llvm::errs() << "cuda-access-lint: error: --baseline: "
                   << llvm::toString(B.takeError()) << "\n";
      return ExitUsageError;
    }
    In.Known = std::move(*B);
  }
  if (!Shard.empty()) {
    auto [K, N] = llvm::StringRef(Shard).split('/');
    if (K.getAsInteger(10, In.ShardK) || N.getAsInteger(10, In.ShardN) ||
        In.ShardN == 0 || In.ShardK == 0 || In.ShardK > In.ShardN) {
      llvm::errs() << "cuda-access-lint: error: --shard=" << Shard
                   << ": expected K/N with 1 <= K <= N\n";
      return ExitUsageError;
    }
  }
  return -1;
}

/// --shard=K/N: every N-th file of the sorted list, from the K-th.
std::vector<std::string> shardOf(std::vector<std::string> Files,
                                 const RunInputs &In) {
  if (In.ShardN <= 1)
    return Files;
  llvm::sort(Files);
  std::vector<std::string> Mine;
  for (size_t I = In.ShardK - 1; I < Files.size(); I += In.ShardN)
    Mine.push_back(Files[I]);
  return Mine;
}

/// Lints the files and merges their outcomes; the diagnostics of each file
/// are printed as it ends.
MergedRun lintAndMerge(Frontend &FE, const std::vector<std::string> &Files,
                       SettingsCache &SettingsOf, bool Colored) {
  RunOptions RO;
  RO.Jobs =
      Jobs ? unsigned(Jobs)
           : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  RO.Accesses = Accesses && Format == OutputFormat::Json;
  RO.Explain = Explain && Format == OutputFormat::Text;
  RO.Color = Colored;
  RO.TimePhases = PrintStats;
  bool SaidPrelude = false;
  std::vector<FileOutcome> Outcomes = lintFiles(
      FE, Files,
      [&](const std::string &F) -> const LintSettings & {
        return *llvm::cantFail(SettingsOf.get(F));
      },
      RO,
      [&](const FileOutcome &O) {
        if (LauncherCommand)
          return; // the compiler speaks for the parse
        if (!O.Run.PreludeNote.empty() && !SaidPrelude) {
          SaidPrelude = true;
          llvm::errs() << O.Run.PreludeNote;
        }
        llvm::errs() << O.Diagnostics;
        llvm::errs().flush();
      });
  MergedRun M = mergeOutcomes(std::move(Outcomes));
  if (LauncherCommand) {
    // Clang's view of a file nvcc compiles may differ: a parse problem is
    // one note, never a failed build.
    for (FileOutcome &O : M.Outcomes)
      if (O.Run.Errors > 0 || O.Run.Failed) {
        llvm::errs() << "cuda-access-lint: note: " << O.File
                     << " did not parse cleanly for the lint (" << O.Run.Errors
                     << " errors); its findings may be incomplete\n";
        O.Run.Errors = 0;
        O.Run.Failed = false;
      }
    M.FilesWithErrors = M.FilesFailed = 0;
  }
  return M;
}

/// After the lint: the line filters, --write-baseline, --baseline, the
/// gate, the report; under --launcher, the compile. The exit status.
int finishRun(MergedRun &M, Frontend &FE, SettingsCache &SettingsOf,
              const RunInputs &In) {
  std::string Root = sourceRoot();
  std::vector<const LineFilter *> Lines;
  for (const std::optional<LineFilter> *F : {&In.LinesWanted, &In.DiffLines})
    if (*F)
      Lines.push_back(&**F);
  fingerprintAndFilterLines(M, Root, Lines);
  if (!WriteBaseline.empty()) {
    if (llvm::Error E = llvm::writeToOutput(
            WriteBaseline, [&](llvm::raw_ostream &OS) -> llvm::Error {
              OS << baselineJson(M.Findings);
              return llvm::Error::success();
            })) {
      llvm::errs() << "cuda-access-lint: error: cannot write '" << WriteBaseline
                   << "': " << llvm::toString(std::move(E)) << "\n";
      return ExitUsageError;
    }
  }
  if (In.Known)
    applyBaselineTo(M, *In.Known);
  SarifRoot = Root;
  bool Gated = applyGate(M, SettingsOf);
  if (!LauncherCommand)
    return reportRun(M, FE, Gated);
  int Lint = reportRun(M, FE, Gated);
  int Compiled = runCompiler(*LauncherCommand);
  if (Compiled != 0)
    return Compiled;
  // The build fails for the lint only under a gate.
  if (Gated && Lint == ExitFindings) {
    llvm::errs() << "cuda-access-lint: error: " << FE.files().front()
                 << ": findings are errors under --warnings-as-errors\n";
    return ExitFindings;
  }
  return ExitClean;
}

/// The lint of files: the command line's, --diff's, or the compile
/// database's.
int lintCommand(FrontendOptions &FO, SettingsCache &SettingsOf,
                std::set<std::string> &Said, bool Colored) {
  RunInputs In;
  if (int Status = readRunInputs(FO, In); Status >= 0)
    return Status;
  Frontend FE(FO, llvm::errs());
  if (!FE.prepare())
    return ExitUsageError;
  if (!ExportCompileCommands.empty()) {
    if (llvm::Error E =
            exportCompileCommands(FE, BuildPath, ExportCompileCommands)) {
      llvm::errs() << "cuda-access-lint: error: "
                   << llvm::toString(std::move(E)) << "\n";
      return ExitUsageError;
    }
    return ExitClean;
  }
  std::vector<std::string> Files = shardOf(FE.files(), In);
  // Each file's settings, read before any file is parsed: a bad
  // configuration is one line and exit 3.
  for (const std::string &F : Files) {
    const LintSettings *S = settingsOrError(SettingsOf, F);
    if (!S)
      return ExitUsageError;
    sayConfigWarnings(*S, Said);
  }
  MergedRun M = lintAndMerge(FE, Files, SettingsOf, Colored);
  return finishRun(M, FE, SettingsOf, In);
}

} // namespace

int runDriver(int argc, const char **argv) {
  Argv0 = argc > 0 ? argv[0] : "cuda-access-lint";
  std::vector<const char *> Own;
  std::optional<std::vector<std::string>> Fixed;
  splitCommandLine(argc, argv, Own, Fixed);
  if (!parseOwnOptions(Own))
    return ExitUsageError;
  if (int Status = ruleQueries(); Status >= 0)
    return Status;
  bool Colored =
      UseColor.getNumOccurrences() ? bool(UseColor) : llvm::outs().has_colors();
  FrontendOptions FO = frontendOptions(Fixed, Colored);

  // The command line's settings, checked as given; then each file's
  // configuration, refined by them.
  std::optional<LintConfig> CliConfig = commandLineConfig();
  if (!CliConfig)
    return ExitUsageError;
  ConfigFinder Configs(ConfigFile);
  SettingsCache SettingsOf(Configs, *CliConfig, ProjectRoot, BuildPath);
  std::set<std::string> Said; // configuration warnings, each said once
  if (DumpConfig || VerifyConfig)
    return configQueries(SettingsOf, Said);
  // The working directory's settings: the LSP's, and the preamble cache's.
  const LintSettings *Base = settingsOrError(SettingsOf, "./-");
  if (!Base)
    return ExitUsageError;
  LintSettings Settings = *Base;
  preambleOptions(FO, Settings.Config);
  if (int Status = otherModes(FO, Settings, Fixed, Colored); Status >= 0)
    return Status;
  return lintCommand(FO, SettingsOf, Said, Colored);
}

} // namespace cal

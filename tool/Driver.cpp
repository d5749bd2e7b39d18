//===- Driver.cpp - The command line of cuda-access-lint ------------------===//

#include "tool/Driver.h"

#include "analyzer/Analyzer.h"
#include "frontend/Frontend.h"
#include "output/JsonReport.h"
#include "output/ReviewFormats.h"
#include "output/SarifReport.h"
#include "output/TextReport.h"
#include "rules/Registry.h"
#include "tool/FixApplier.h"
#include "tool/Lint.h"
#include "tool/LspServer.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>
#include <vector>

namespace cal {
namespace {

namespace cl = llvm::cl;

cl::OptionCategory Category("cuda-access-lint options");

const char Overview[] = R"(cuda-access-lint: finds wasteful memory access patterns in CUDA kernels

Works out which addresses the 32 lanes of a warp touch at each load and
store, and reports accesses that waste 32-byte sectors (blocked strides),
move fewer than 16 bytes per lane (missing vectorization), start off a
32-byte boundary (misalignment) or conflict in shared-memory banks, with the
numbers and a rewrite.

Compile commands come from -p <build dir> (compile_commands.json, nvcc
commands included), from a compile_commands.json found above each file, or
from the arguments after `--`.

Exit status: 0 no findings, 1 findings, 2 the kernels did not parse cleanly
(a clang error in a kernel or in what one uses; with --strict-parse, any
clang error), 3 invalid invocation or input.
)";

cl::list<std::string> SourcePaths(cl::Positional,
                                  cl::desc("<source files...>"),
                                  cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory holding compile_commands.json"),
    cl::value_desc("build-path"), cl::cat(Category));
cl::list<std::string> ExtraArgs(
    "extra-arg",
    cl::desc("Additional argument to append to the compiler command line"),
    cl::cat(Category));
cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Additional argument to prepend to the compiler command line"),
    cl::cat(Category));
cl::opt<std::string> CudaPath(
    "cuda-path",
    cl::desc("CUDA toolkit to parse with (default: CUDA_PATH, CUDA_HOME, the\n"
             "nvcc of the compile command or on PATH, /usr/local/cuda)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoCudaToolkit(
    "no-cuda-toolkit",
    cl::desc("Parse on the built-in CUDA prelude even when a toolkit exists"),
    cl::cat(Category));
cl::opt<std::string> Arch(
    "arch",
    cl::desc("GPU arch when the compile command names none (default sm_90)"),
    cl::init("sm_90"), cl::value_desc("sm_XX"), cl::cat(Category));
cl::opt<bool> CompilerWarnings(
    "compiler-warnings",
    cl::desc("Also show clang's own warnings about the code (errors are\n"
             "always shown)"),
    cl::cat(Category));
cl::opt<bool> UseColor(
    "use-color",
    cl::desc("Colour in the output (default: when writing to a terminal);\n"
             "--use-color=false turns it off"),
    cl::cat(Category));

enum class OutputFormat { Text, Json, Sarif, Github, Rdjsonl };
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "clang-style diagnostics (default)"),
               clEnumValN(OutputFormat::Json, "json",
                          "one JSON document (docs/json-output.md)"),
               clEnumValN(OutputFormat::Sarif, "sarif",
                          "SARIF 2.1.0, for code scanning"),
               clEnumValN(OutputFormat::Github, "github",
                          "GitHub Actions annotations (::warning ...)"),
               clEnumValN(OutputFormat::Rdjsonl, "rdjsonl",
                          "reviewdog's JSON lines")),
    cl::cat(Category));
cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the findings and their machine-applicable fixes to a\n"
             "YAML file in clang-tidy's format (clang-apply-replacements)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> Accesses(
    "accesses",
    cl::desc("With --format=json: add the analyzer's facts for every access"),
    cl::cat(Category));
cl::list<std::string> BlockDims(
    "block-dim",
    cl::desc("Block shape a kernel runs with: [kernel=]X[,Y[,Z]]; without a\n"
             "kernel name, for every kernel (repeatable)"),
    cl::value_desc("[kernel=]X,Y,Z"), cl::cat(Category));

cl::opt<std::string> Checks(
    "checks",
    cl::desc("Rules to run, clang-tidy style: a comma-separated list of\n"
             "globs, '-' to disable (\"-*,shared-bank-conflict\")"),
    cl::value_desc("globs"), cl::cat(Category));
cl::list<std::string> RuleOptionSettings(
    "rule-option",
    cl::desc("Set a rule's option, e.g.\n"
             "missing-vectorization.OneElementPerThread=true (repeatable;\n"
             "the options are on each rule's page, --rule-doc)"),
    cl::value_desc("rule.Option=value"), cl::cat(Category));
cl::opt<bool> ListRules("list-rules", cl::desc("List the rules and exit"),
                        cl::cat(Category));
cl::opt<std::string> RuleDoc(
    "rule-doc",
    cl::desc("Print a rule's documentation (docs/rules/<id>.md) and exit"),
    cl::value_desc("rule-id"), cl::cat(Category));
cl::opt<bool> ApplyFixes(
    "fix", cl::desc("Apply the machine-applicable fixes in place (atomically)"),
    cl::cat(Category));
cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Also analyze kernels defined in headers whose path matches this\n"
             "regular expression (kernels of headers that the file launches\n"
             "are always analyzed)"),
    cl::value_desc("regex"), cl::cat(Category));
cl::opt<bool> Lsp(
    "lsp",
    cl::desc("Serve the Language Server Protocol on stdin/stdout (for an\n"
             "editor, beside clangd): findings as diagnostics on open and\n"
             "save, the padding fix as a quick fix"),
    cl::cat(Category));
cl::opt<bool> PrintStats(
    "time-phases",
    cl::desc("Print the time spent parsing, analyzing and checking, per file,\n"
             "on stderr"),
    cl::cat(Category));
cl::opt<bool> StrictParse(
    "strict-parse",
    cl::desc("Every clang error fails the parse (exit 2). By default an error\n"
             "outside the kernels and what they use (host code, a header only\n"
             "the host side needs) is reported in one warning per file, and\n"
             "the kernels are analyzed and reported as usual"),
    cl::cat(Category));
cl::opt<bool> Explain(
    "explain",
    cl::desc("Text output: print the analyzer's facts at every access"),
    cl::cat(Category));

void printVersion(llvm::raw_ostream &OS) {
  OS << "cuda-access-lint version " << CAL_VERSION << "\n"
     << "  built with LLVM " << LLVM_VERSION_STRING << "\n";
}

} // namespace

int runDriver(int argc, const char **argv) {
  // Everything after "--" is the compile command, as with clang-tidy.
  std::vector<const char *> Own;
  std::optional<std::vector<std::string>> Fixed;
  for (int I = 0; I < argc; ++I) {
    if (llvm::StringRef(argv[I]) == "--" && I > 0) {
      Fixed.emplace(argv + I + 1, argv + argc);
      break;
    }
    Own.push_back(argv[I]);
  }

  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  std::string ParseErrors;
  llvm::raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(static_cast<int>(Own.size()), Own.data(),
                                   Overview, &ParseErrorStream)) {
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
              Msg.substr(Mean + strlen("Did you mean ")).split('\n').first.trim().str() +
              ")";
    // (Some errors llvm::cl has already printed itself, as one line.)
    if (!Line.empty())
      llvm::errs() << "cuda-access-lint: error: " << Line << "; see --help\n";
    return ExitUsageError;
  }

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
  std::optional<RuleSelection> Selection =
      RuleSelection::parse(Checks, SelectionError);
  if (!Selection) {
    llvm::errs() << "cuda-access-lint: error: --checks: " << SelectionError
                 << "\n";
    return ExitUsageError;
  }

  bool Colored = UseColor.getNumOccurrences() ? bool(UseColor)
                                              : llvm::outs().has_colors();

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

  AnalysisOptions AO;
  for (const std::string &B : BlockDims) {
    std::string Error;
    auto S = parseBlockDimSetting(B, Error);
    if (!S) {
      llvm::errs() << "cuda-access-lint: error: --block-dim=" << B << ": "
                   << Error << "\n";
      return ExitUsageError;
    }
    AO.BlockDims.push_back(*S);
  }

  LintSettings Settings{AO, *Selection, {}, nullptr};
  for (const std::string &O : RuleOptionSettings) {
    std::string Error;
    if (!parseRuleOption(O, Settings.RuleOptions, Error)) {
      llvm::errs() << "cuda-access-lint: error: --rule-option=" << O << ": "
                   << Error << "\n";
      return ExitUsageError;
    }
  }
  if (!HeaderFilter.empty()) {
    auto Re = std::make_shared<llvm::Regex>(HeaderFilter);
    std::string ReError;
    if (!Re->isValid(ReError)) {
      llvm::errs() << "cuda-access-lint: error: --header-filter: " << ReError
                   << "\n";
      return ExitUsageError;
    }
    Settings.HeaderFilter = Re;
  }

  if (Lsp)
    return runLspServer(FO, Settings);

  Frontend FE(FO, llvm::errs());
  if (!FE.prepare())
    return ExitUsageError;

  JsonReport Json;
  FixApplier Fixer;
  auto FileStart = std::chrono::steady_clock::now();
  unsigned Failing = 0;
  FrontendStats Stats = FE.run(
      [&](clang::ASTContext &Ctx, clang::CompilerInstance &CI,
          const ParsedFile &File) {
        const clang::SourceManager &SM = Ctx.getSourceManager();
        auto T0 = std::chrono::steady_clock::now();
        AnalysisResult R;
        LintTimes Times;
        std::vector<Finding> Findings =
            lintTranslationUnit(Ctx, Settings, R, &Times);
        if (PrintStats)
          llvm::errs() << "cuda-access-lint: time: " << File.Path << ": parse "
                       << llvm::format("%.0f", std::chrono::duration<double, std::milli>(
                                                   T0 - FileStart)
                                                   .count())
                       << " ms, analysis " << llvm::format("%.1f", Times.AnalysisMs)
                       << " ms (" << R.Kernels.size()
                       << " kernel configurations, " << R.Accesses.size()
                       << " accesses), rules " << llvm::format("%.1f", Times.RulesMs)
                       << " ms\n";
        for (const Finding &F : Findings) {
          if (F.Sev != Severity::Note)
            ++Failing;
          if (ApplyFixes)
            Fixer.add(F, SM);
        }
        if (Format == OutputFormat::Text) {
          printFindings(Ctx, Findings, llvm::outs(), Colored);
          if (Explain)
            printAccessFacts(Ctx, R, llvm::outs(), Colored);
          llvm::outs().flush();
        }
        nlohmann::json FileJ = {{"file", File.Path},
                                {"arch", File.Arch},
                                {"parse_errors", File.ParseErrors},
                                {"builtin_prelude", File.UsesBuiltinPrelude}};
        if (File.HostParseErrors > 0)
          FileJ["host_parse_errors"] = {
              {"count", File.HostParseErrors},
              {"first", File.FirstHostParseError},
              {"missing_headers", File.MissingHeaders}};
        Json.files().push_back(std::move(FileJ));
        for (size_t I = 0; I < R.Kernels.size(); ++I) {
          nlohmann::json KJ = kernelJson(R.Kernels[I], SM);
          KJ["prediction"] = predictionJson(predictKernel(R, I));
          Json.kernels().push_back(KJ);
        }
        for (const Finding &F : Findings)
          Json.findings().push_back(findingJson(F, Ctx));
        if (Accesses)
          for (const AccessFacts &F : R.Accesses)
            Json.accesses().push_back(accessJson(F, R, SM));
        FileStart = std::chrono::steady_clock::now();
      },
      llvm::errs());

  if (Format == OutputFormat::Json)
    Json.write(llvm::outs(), Accesses);
  if (Format == OutputFormat::Sarif)
    llvm::outs() << sarifDocument(Json.findings()).dump(2) << "\n";
  if (Format == OutputFormat::Github)
    llvm::outs() << githubAnnotations(Json.findings());
  if (Format == OutputFormat::Rdjsonl)
    llvm::outs() << reviewdogJsonLines(Json.findings());
  if (!ExportFixes.empty()) {
    std::string MainFile = FE.files().size() == 1 ? FE.files().front() : "";
    if (llvm::Error E = llvm::writeToOutput(
            ExportFixes, [&](llvm::raw_ostream &OS) -> llvm::Error {
              OS << exportFixesYaml(Json.findings(), MainFile);
              return llvm::Error::success();
            })) {
      llvm::errs() << "cuda-access-lint: error: cannot write '" << ExportFixes
                   << "': " << llvm::toString(std::move(E)) << "\n";
      return ExitUsageError;
    }
  }
  if (ApplyFixes && Fixer.applyAll(llvm::errs(), llvm::errs()) < 0)
    return ExitUsageError;

  if (Stats.FilesFailed > 0)
    return ExitUsageError;
  if (Stats.FilesWithErrors > 0)
    return ExitParseError;
  return Failing > 0 ? ExitFindings : ExitClean;
}

} // namespace cal

//===- Options.cpp --------------------------------------------------------===//

#include "tool/Options.h"

namespace cal {

namespace cl = llvm::cl;

cl::OptionCategory Category("cuda-access-lint options");

extern const char Overview[];
const char Overview[] = R"(cuda-access-lint: finds wasteful memory access patterns in CUDA kernels

Works out which addresses the 32 lanes of a warp touch at each load and
store, and reports accesses that waste 32-byte sectors (blocked strides),
move fewer than 16 bytes per lane (missing vectorization), start off a
32-byte boundary (misalignment) or conflict in shared-memory banks, with the
numbers and a rewrite.

Compile commands come from -p <build dir> (compile_commands.json, nvcc
commands included), from a compile_commands.json found above each file, or
from the arguments after `--`. Settings also come from .cuda-access-lint.yaml
files found above each file.

As a compiler launcher (CMAKE_CUDA_COMPILER_LAUNCHER): cuda-access-lint
[options] --launcher [ccache] nvcc <flags...> lints the file with that
command, then runs it.

Exit status: 0 no findings, 1 findings (under --warnings-as-errors: errors),
2 the kernels did not parse cleanly (a clang error in a kernel or in what one
uses; with --strict-parse, any clang error), 3 invalid invocation or input.
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
             "always shown; parses without the preamble cache)"),
    cl::cat(Category));
cl::opt<bool> UseColor(
    "use-color",
    cl::desc("Colour in the output (default: when writing to a terminal);\n"
             "--use-color=false turns it off"),
    cl::cat(Category));

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

cl::list<std::string> Assume(
    "assume",
    cl::desc("Runtime values to assume: NAME=VALUE[,NAME=VALUE...], for a\n"
             "kernel's integer parameters and the host variables of its\n"
             "launch (grid, block); 'kernel:NAME=VALUE' for one kernel only\n"
             "(repeatable), e.g. --assume M=4096,N=4096,K=4096"),
    cl::value_desc("[kernel:]NAME=VALUE,..."), cl::cat(Category));

cl::opt<std::string> Checks(
    "checks",
    cl::desc("Rules to run, clang-tidy style: a comma-separated list of\n"
             "globs, '-' to disable (\"-*,shared-bank-conflict\")"),
    cl::value_desc("globs"), cl::cat(Category));
cl::list<std::string> RuleOptionSettings(
    "rule-option",
    cl::desc("Set a rule's option, e.g.\n"
             "missing-vectorization.MinGain=1.2 (repeatable;\n"
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
cl::opt<bool> ClangdProxy(
    "clangd",
    cl::desc("Stand in for clangd (an editor's clangd path): run clangd on\n"
             "the translated compile database, relay its LSP session and\n"
             "merge the findings, quick fixes, hover and inlay hints into it\n"
             "for CUDA files; arguments after -- go to clangd"),
    cl::cat(Category));
cl::opt<std::string> ClangdPath(
    "clangd-path",
    cl::desc("The clangd that --clangd runs (default: clangd-22, else clangd,\n"
             "on PATH)"),
    cl::value_desc("path"), cl::cat(Category));
cl::opt<std::string> ExportCompileCommands(
    "export-compile-commands",
    cl::desc("Write <dir>/compile_commands.json with each CUDA file's command\n"
             "translated to clang's flags (nvcc's included), for clangd\n"
             "(--compile-commands-dir=<dir>), and exit"),
    cl::value_desc("dir"), cl::cat(Category));
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
cl::opt<bool> PreambleCacheOpt(
    "preamble-cache",
    cl::desc("Reuse each file's precompiled preamble (its leading includes,\n"
             "the CUDA headers) from the cache directory, building it when\n"
             "missing or stale (the default; --no-preamble-cache turns it\n"
             "off; config key PreambleCache)"),
    cl::cat(Category));
cl::opt<bool> NoPreambleCache(
    "no-preamble-cache",
    cl::desc("Parse every file's headers again; no cache is read or written"),
    cl::cat(Category));
cl::opt<std::string> PreambleCacheDir(
    "preamble-cache-dir",
    cl::desc("Where preambles are cached (default:\n"
             "$XDG_CACHE_HOME/cuda-access-lint, else\n"
             "~/.cache/cuda-access-lint; config key PreambleCacheDir)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<PreambleBuild> PreambleBuildOpt(
    "preamble-build",
    cl::desc("When a preamble that is not cached is built (config key\n"
             "PreambleBuild)"),
    cl::values(
        clEnumValN(PreambleBuild::SecondSight, "second",
                   "the second run that sees it; the first only records it\n"
                   "and parses without (the default: a one-off run costs no\n"
                   "more than a parse)"),
        clEnumValN(PreambleBuild::FirstSight, "first",
                   "at once (the editor's default; a CI job whose cache is\n"
                   "saved for the next)")),
    cl::init(PreambleBuild::SecondSight), cl::cat(Category));
cl::opt<uint64_t> PreambleCacheSize(
    "preamble-cache-size",
    cl::desc("Keep the cache's precompiled preambles under this many MiB,\n"
             "removing the least recently used (default 4096; 0: no limit;\n"
             "config key PreambleCacheSize)"),
    cl::value_desc("MiB"), cl::init(4096), cl::cat(Category));
cl::opt<double> AnalysisTimeLimit(
    "analysis-time-limit",
    cl::desc("Seconds one kernel configuration's analysis may take (default\n"
             "5; 0: no limit). A kernel over it is reported as 'analysis\n"
             "stopped: budget exceeded', its accesses as unknown, and the\n"
             "rest of the file is analyzed"),
    cl::value_desc("seconds"), cl::cat(Category));
cl::opt<unsigned> AnalysisMemoryLimit(
    "analysis-memory-limit",
    cl::desc("Megabytes the heap may grow by while one kernel configuration\n"
             "is analyzed (default 512; 0: no limit); as --analysis-time-limit"),
    cl::value_desc("MB"), cl::cat(Category));
cl::opt<bool> Explain(
    "explain",
    cl::desc("Text output: print the analyzer's facts at every access"),
    cl::cat(Category));

cl::opt<unsigned> Jobs(
    "j",
    cl::desc("Files to lint at once (default: the number of cores); the\n"
             "output is the same as a serial run's, in input order"),
    cl::value_desc("N"), cl::init(0), cl::Prefix, cl::cat(Category));
cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors",
    cl::desc("Findings of these rules are errors (clang-tidy style globs);\n"
             "with it, only errors make the exit status 1"),
    cl::value_desc("globs"), cl::cat(Category));
cl::opt<std::string> ExcludeHeaderFilter(
    "exclude-header-filter",
    cl::desc("Do not analyze kernels defined in headers whose path matches\n"
             "this regular expression (the project's headers included)"),
    cl::value_desc("regex"), cl::cat(Category));
cl::opt<std::string> ProjectRoot(
    "project-root",
    cl::desc("The project's directory: kernels of headers below it are\n"
             "analyzed (default: the nearest enclosing git work tree and the\n"
             "compile database's directory)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("Read the configuration from this file instead of the\n"
             ".cuda-access-lint.yaml files found above each source file"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> DumpConfig(
    "dump-config",
    cl::desc("Print the configuration that applies to the first file (or\n"
             "the working directory) as YAML and exit"),
    cl::cat(Category));
cl::opt<bool> VerifyConfig(
    "verify-config",
    cl::desc("Check the configuration files that apply to the files (or the\n"
             "working directory) and exit: 0 when valid, else 3"),
    cl::cat(Category));
cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Write the findings' fingerprints to this file (a baseline for\n"
             "--baseline; fingerprints survive lines moving)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> BaselineFile(
    "baseline",
    cl::desc("Report only findings that this baseline does not hold"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> LineFilterJson(
    "line-filter",
    cl::desc("Report only findings on these lines, clang-tidy's format:\n"
             "[{\"name\":\"a.cu\",\"lines\":[[1,3],[5,5]]},{\"name\":\"b.cu\"}]"),
    cl::value_desc("json"), cl::cat(Category));
cl::opt<std::string> DiffInput(
    "diff",
    cl::desc("Read a unified diff (`git diff -U0 | cuda-access-lint --diff\n"
             "-p build`, or --diff=FILE): lint the CUDA files it changes and\n"
             "report only findings on the lines it adds or changes"),
    cl::value_desc("file"), cl::ValueOptional, cl::cat(Category));
cl::opt<std::string> SourceRoot(
    "source-root",
    cl::desc("SARIF paths are relative to this directory (uriBaseId\n"
             "SRCROOT), and so are the paths fingerprints hash (default:\n"
             "the working directory)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> Shard(
    "shard",
    cl::desc("Lint the K-th of N parts of the files (1 <= K <= N), split\n"
             "deterministically, for a CI matrix; --merge combines the parts"),
    cl::value_desc("K/N"), cl::cat(Category));
cl::opt<bool> MergeDocuments(
    "merge",
    cl::desc("Merge the documents given as files (JSON, SARIF or rdjsonl of\n"
             "several runs or shards) into one, in --format (JSON merges\n"
             "into any format)"),
    cl::cat(Category));
cl::opt<bool> Quiet(
    "quiet",
    cl::desc("Text output: no closing summary line on stderr"),
    cl::cat(Category));

} // namespace cal

//===- Options.h - The command line's options -----------------------------===//
//
// llvm::cl options, defined once in Options.cpp; the driver reads them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_OPTIONS_H
#define CUDA_ACCESS_LINT_TOOL_OPTIONS_H

#include "frontend/PreambleCache.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace cal {

enum class OutputFormat { Text, Json, Sarif, Github, Rdjsonl };

extern llvm::cl::OptionCategory Category;
/// --help's overview.
extern const char Overview[];

extern llvm::cl::list<std::string> SourcePaths;
extern llvm::cl::opt<std::string> BuildPath;
extern llvm::cl::list<std::string> ExtraArgs;
extern llvm::cl::list<std::string> ExtraArgsBefore;
extern llvm::cl::opt<std::string> CudaPath;
extern llvm::cl::opt<bool> NoCudaToolkit;
extern llvm::cl::opt<std::string> Arch;
extern llvm::cl::opt<bool> CompilerWarnings;
extern llvm::cl::opt<bool> UseColor;
extern llvm::cl::opt<OutputFormat> Format;
extern llvm::cl::opt<std::string> ExportFixes;
extern llvm::cl::opt<bool> Accesses;
extern llvm::cl::list<std::string> BlockDims;
extern llvm::cl::list<std::string> Assume;
extern llvm::cl::opt<std::string> Checks;
extern llvm::cl::list<std::string> RuleOptionSettings;
extern llvm::cl::opt<bool> ListRules;
extern llvm::cl::opt<std::string> RuleDoc;
extern llvm::cl::opt<bool> ApplyFixes;
extern llvm::cl::opt<std::string> HeaderFilter;
extern llvm::cl::opt<bool> Lsp;
extern llvm::cl::opt<bool> ClangdProxy;
extern llvm::cl::opt<std::string> ClangdPath;
extern llvm::cl::opt<std::string> ExportCompileCommands;
extern llvm::cl::opt<bool> PrintStats;
extern llvm::cl::opt<bool> StrictParse;
extern llvm::cl::opt<bool> NoPreambleCache;
extern llvm::cl::opt<PreambleBuild> PreambleBuildOpt;
extern llvm::cl::opt<uint64_t> PreambleCacheSize;
extern llvm::cl::opt<bool> PreambleCacheOpt;
extern llvm::cl::opt<std::string> PreambleCacheDir;
extern llvm::cl::opt<double> AnalysisTimeLimit;
extern llvm::cl::opt<unsigned> AnalysisMemoryLimit;
extern llvm::cl::opt<bool> Explain;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<std::string> WarningsAsErrors;
extern llvm::cl::opt<std::string> ExcludeHeaderFilter;
extern llvm::cl::opt<std::string> ProjectRoot;
extern llvm::cl::opt<std::string> ConfigFile;
extern llvm::cl::opt<bool> DumpConfig;
extern llvm::cl::opt<bool> VerifyConfig;
extern llvm::cl::opt<std::string> WriteBaseline;
extern llvm::cl::opt<std::string> BaselineFile;
extern llvm::cl::opt<std::string> LineFilterJson;
extern llvm::cl::opt<std::string> DiffInput;
extern llvm::cl::opt<std::string> SourceRoot;
extern llvm::cl::opt<std::string> Shard;
extern llvm::cl::opt<bool> MergeDocuments;
extern llvm::cl::opt<bool> Quiet;

} // namespace cal

#endif

//===- Frontend.h - From files and build databases to ASTs ----------------===//
//
// Turns the files to lint and their compile commands (a compile_commands.json
// given with -p or found by walking up from the file, a fixed command after
// `--`, or a default) into one device-side clang parse per file, for one GPU
// arch, on the CUDA toolkit found or the built-in prelude, and hands each
// parsed translation unit to a callback while its AST is alive.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_FRONTEND_H
#define CUDA_ACCESS_LINT_FRONTEND_FRONTEND_H

#include "frontend/CudaToolkit.h"
#include "frontend/PreambleCache.h"

#include "clang/Basic/Diagnostic.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInstance;
} // namespace clang

namespace cal {

struct FrontendOptions {
  /// Files to lint. With a build database and no files: every CUDA file in it.
  std::vector<std::string> Files;
  /// -p: a directory holding compile_commands.json (or the file itself).
  std::string BuildPath;
  /// --launcher: the whole compile command (compiler, flags, the file, -o
  /// ...), read as a database entry in the working directory; when set, no
  /// database is used.
  std::optional<std::vector<std::string>> LauncherCommand;
  /// The compiler arguments after `--`; when set, no database is used.
  std::optional<std::vector<std::string>> FixedArgs;
  /// Added after / before the command's own flags (--extra-arg, ...).
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  /// --cuda-path; empty: search (CUDA_PATH, CUDA_HOME, nvcc, /usr/local/cuda).
  std::string CudaPath;
  /// Parse on the built-in prelude even when a toolkit exists.
  bool NoCudaToolkit = false;
  /// Arch when the compile command names none.
  std::string DefaultArch = "sm_90";
  /// Show clang's own warnings about the code (errors are always shown).
  bool CompilerWarnings = false;
  /// Colour in clang's diagnostics.
  bool Color = false;
  /// --strict-parse: every clang error counts. By default an error outside
  /// the kernels and what they use (host code, a header only the host side
  /// needs) is summed up in one warning and does not fail the parse.
  bool StrictParse = false;
  /// Reuse precompiled preambles from PreambleCacheDir (PreambleCache.h);
  /// --no-preamble-cache turns it off.
  bool PreambleCache = true;
  /// --preamble-cache-dir; empty: defaultPreambleCacheDir().
  std::string PreambleCacheDir;
  /// --preamble-build: when a preamble with no entry is built (the command
  /// line's one-off runs: on second sight; the editor: at once).
  cal::PreambleBuild BuildPreamble = cal::PreambleBuild::SecondSight;
  /// --preamble-cache-size: the cache's PCHs are kept under this many MiB
  /// (0: no limit).
  uint64_t PreambleCacheMiB = 4096;
  /// Contents to parse instead of what is on disk, by absolute path (an
  /// editor's unsaved buffers).
  std::map<std::string, std::string> Overrides;
  /// Preambles kept in memory between parses, by absolute path (an
  /// editor's open documents): a parse of such a file reuses its kept
  /// preamble while it is fresh, and keeps the one it used
  /// (PreambleCache.h).
  std::map<std::string, std::shared_ptr<KeptPreamble>> KeptPreambles;
  /// Called with each of clang's diagnostics about the code as it is
  /// reported, while the parse's SourceManager is alive (an editor wants
  /// them as records, not text).
  std::function<void(clang::DiagnosticsEngine::Level,
                     const clang::Diagnostic &)>
      OnCompilerDiagnostic;
};

/// What the callback learns about the parse it is handed.
struct ParsedFile {
  std::string Path;                 ///< as given (absolute when from a database)
  std::string Arch;                 ///< "sm_90"
  std::vector<std::string> Command; ///< the clang command line used
  bool UsesBuiltinPrelude = false;
  /// Clang errors that count: those in the kernels or in what they use (all
  /// of them with StrictParse, or when a kernel was lost to an error).
  unsigned ParseErrors = 0;
  /// Errors outside the kernels and what they use, not counted above.
  unsigned HostParseErrors = 0;
  /// The first of those, "file:line:col: message", and the headers that
  /// were not found (their names as written).
  std::string FirstHostParseError;
  std::vector<std::string> MissingHeaders;
  /// Where clang reported each error of the parse, counted or not (valid
  /// while the AST is): the analyzer tells code that did not compile (a
  /// statement clang dropped) from code that is not there.
  std::vector<clang::SourceLocation> ErrorLocs;
  std::string ToolkitRoot;          ///< the CUDA toolkit parsed with, if any
  /// The preamble cache's part: "off", "none" (no preamble), "hit",
  /// "built", "kept" (reused from memory), "deferred (why)" (seen for the
  /// first time), "unusable (why)", "unreadable (why)".
  std::string Preamble = "off";
};

/// What is said, once per file, of errors in host code only: "host code
/// did not parse (3 errors; first: ...); every kernel parsed ...".
std::string hostParseSummary(const ParsedFile &Info);

using TranslationUnitCallback = std::function<void(
    clang::ASTContext &, clang::CompilerInstance &, const ParsedFile &)>;

/// Compiler arguments for one file, besides the options' (its
/// configuration's ExtraArgs).
struct FileArgs {
  std::vector<std::string> Before, After;
};

/// The outcome of one file's parse (Frontend::runFile).
struct FileRun {
  bool Parsed = false;      ///< an AST was handed to the callback
  bool Failed = false;      ///< could not be processed at all
  unsigned Errors = 0;      ///< clang errors in the parse
  /// The note that the file was parsed on the built-in prelude, when it
  /// was (a run says it once, before the first such file's diagnostics).
  std::string PreludeNote;
};

/// The outcome of a whole run over files.
struct FrontendStats {
  unsigned FilesParsed = 0;
  unsigned FilesWithErrors = 0; ///< parsed, but clang reported errors
  unsigned FilesFailed = 0;     ///< could not be processed at all
};

class Frontend {
public:
  /// \p Diagnostics receives the tool's own one-line errors and notes.
  Frontend(FrontendOptions Opts, llvm::raw_ostream &Diagnostics);

  /// Checks the options and loads the database: the errors an invocation can
  /// have before any file is parsed (missing -p directory, malformed
  /// compile_commands.json, an invalid --cuda-path, no files). Each is one
  /// line, already written to the diagnostics stream.
  bool prepare();

  /// The files that will be parsed (after prepare()).
  const std::vector<std::string> &files() const { return Files; }

  /// Parses every file, calling \p OnParsed for each translation unit whose
  /// parse produced an AST. Clang's diagnostics go to \p ClangDiagnostics.
  FrontendStats run(const TranslationUnitCallback &OnParsed,
                    llvm::raw_ostream &ClangDiagnostics);

  /// Parses one file (one of files(), or any other), calling \p OnParsed
  /// with its AST. Safe to call from several threads at once: each parse
  /// has its own compiler instance and file system view; the tool's own
  /// one-line messages about the file go to \p ToolDiagnostics, clang's to
  /// \p ClangDiagnostics.
  FileRun runFile(const std::string &File,
                  const TranslationUnitCallback &OnParsed,
                  llvm::raw_ostream &ClangDiagnostics,
                  llvm::raw_ostream &ToolDiagnostics,
                  const FileArgs &Extra = {});

  /// The clang command line for \p File, and the directory it runs in
  /// (for tests and --export-compile-commands).
  llvm::Expected<std::vector<std::string>>
  commandFor(llvm::StringRef File, std::string *Directory = nullptr);

private:
  struct Impl;
  std::shared_ptr<Impl> P;
  std::vector<std::string> Files;
};

} // namespace cal

#endif

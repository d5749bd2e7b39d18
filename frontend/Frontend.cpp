//===- Frontend.cpp -------------------------------------------------------===//

#include "frontend/Frontend.h"

#include "frontend/BuiltinHeaders.h"
#include "frontend/CompilerFlags.h"
#include "frontend/LaunchSyntax.h"
#include "frontend/ParseAction.h"
#include "frontend/PreambleCache.h"
#include "frontend/ResourceDir.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <mutex>

namespace cal {

namespace {

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

/// Turns a possibly multi-line message into one line.
std::string oneLine(llvm::StringRef S) {
  std::string Out;
  for (char C : S.trim()) {
    if (C == '\n') {
      Out += "; ";
      continue;
    }
    Out.push_back(C);
  }
  return Out;
}

std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

/// A database that knows exactly one command.
class SingleCommandDatabase : public CompilationDatabase {
public:
  explicit SingleCommandDatabase(CompileCommand Cmd) : Cmd(std::move(Cmd)) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef) const override {
    return {Cmd};
  }

private:
  CompileCommand Cmd;
};

bool isCudaCommand(const CompileCommand &Cmd) {
  llvm::StringRef Ext = llvm::sys::path::extension(Cmd.Filename);
  if (Ext == ".cu")
    return true;
  for (size_t I = 0; I + 1 < Cmd.CommandLine.size(); ++I)
    if (Cmd.CommandLine[I] == "-x" &&
        (Cmd.CommandLine[I + 1] == "cu" || Cmd.CommandLine[I + 1] == "cuda"))
      return true;
  for (const std::string &A : Cmd.CommandLine)
    if (A == "-xcuda" || A == "--x=cu" || A == "-x=cu")
      return true;
  return false;
}

/// The highest arch of a command that builds for several.
std::string pickArch(const std::vector<std::string> &Archs) {
  std::string Best;
  unsigned BestNum = 0;
  for (const std::string &A : Archs) {
    unsigned N = 0;
    llvm::StringRef(A).drop_front(3).take_while(llvm::isDigit).getAsInteger(10,
                                                                         N);
    if (Best.empty() || N > BestNum) {
      Best = A;
      BestNum = N;
    }
  }
  return Best;
}

/// Loads a compile_commands.json. The JSON is checked first: clang's loader
/// parses it with a YAML parser that prints its own multi-line diagnostics to
/// stderr, and then reports a misleading "Missing key".
std::unique_ptr<CompilationDatabase> loadJsonDatabase(llvm::StringRef Path,
                                                      std::string &Err) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Err = Buffer.getError().message();
    return nullptr;
  }
  if (llvm::Expected<llvm::json::Value> V =
          llvm::json::parse((*Buffer)->getBuffer());
      !V) {
    Err = "not valid JSON: " + llvm::toString(V.takeError());
    return nullptr;
  }
  return clang::tooling::JSONCompilationDatabase::loadFromFile(
      Path, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
}

} // namespace

struct Frontend::Impl {
  FrontendOptions Opts;
  llvm::raw_ostream &Diag;
  std::unique_ptr<CompilationDatabase> Database; // from -p
  /// Databases found by walking up from files, by directory (null: none).
  llvm::StringMap<std::shared_ptr<CompilationDatabase>> Detected;
  std::optional<CudaToolkit> ExplicitToolkit;
  llvm::StringMap<std::optional<CudaToolkit>> FoundToolkits;
  /// Guards the caches above: files are parsed from several threads.
  std::mutex CacheLock;
  /// The preamble cache (null: off, or no directory for it).
  std::unique_ptr<PreambleCache> Preambles;

  Impl(FrontendOptions O, llvm::raw_ostream &D) : Opts(std::move(O)), Diag(D) {}

  void error(const llvm::Twine &Msg) { error(Diag, Msg); }
  static void error(llvm::raw_ostream &OS, const llvm::Twine &Msg) {
    OS << "cuda-access-lint: error: " << oneLine(Msg.str()) << "\n";
  }
  static void note(llvm::raw_ostream &OS, const llvm::Twine &Msg) {
    OS << "cuda-access-lint: note: " << oneLine(Msg.str()) << "\n";
  }

  bool loadBuildDatabase();
  llvm::Expected<const CompilationDatabase *> databaseFor(llvm::StringRef File);
  llvm::Expected<CompileCommand> compileCommandFor(llvm::StringRef File);
  std::optional<CudaToolkit> toolkitFor(const CompileCommand &Cmd);
  llvm::Expected<CompileCommand> clangCommandFor(llvm::StringRef File,
                                                 ParsedFile &Info,
                                                 llvm::raw_ostream &Notes,
                                                 const FileArgs &Extra = {});
};

bool Frontend::Impl::loadBuildDatabase() {
  llvm::SmallString<256> Path(Opts.BuildPath);
  if (!llvm::sys::fs::exists(Path)) {
    error("build directory '" + Opts.BuildPath + "' does not exist");
    return false;
  }
  if (!llvm::sys::fs::is_directory(Path))
    llvm::sys::path::remove_filename(Path);
  llvm::SmallString<256> Json(Path);
  llvm::sys::path::append(Json, "compile_commands.json");
  if (!llvm::sys::fs::exists(Json)) {
    error("no compile_commands.json in '" + Path +
          "' (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
    return false;
  }
  std::string Err;
  auto Base = loadJsonDatabase(Json, Err);
  if (!Base) {
    error("cannot read compilation database '" + Json + "': " + Err);
    return false;
  }
  Database = clang::tooling::inferMissingCompileCommands(
      clang::tooling::expandResponseFiles(std::move(Base),
                                          llvm::vfs::getRealFileSystem()));
  return true;
}

llvm::Expected<const CompilationDatabase *>
Frontend::Impl::databaseFor(llvm::StringRef File) {
  if (Database)
    return Database.get();
  std::lock_guard<std::mutex> Lock(CacheLock);
  // Walk up from the file, as clang-tidy does; remember what each directory
  // on the way resolved to.
  llvm::SmallString<256> Dir(File);
  llvm::sys::path::remove_filename(Dir);
  std::vector<std::string> Visited;
  std::shared_ptr<CompilationDatabase> Found;
  while (!Dir.empty()) {
    auto It = Detected.find(Dir);
    if (It != Detected.end()) {
      Found = It->second;
      break;
    }
    Visited.push_back(Dir.str().str());
    llvm::SmallString<256> Json(Dir);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::exists(Json)) {
      std::string Err;
      auto Base = loadJsonDatabase(Json, Err);
      if (!Base)
        return llvm::createStringError(
            std::errc::invalid_argument,
            "cannot read compilation database '%s': %s", Json.c_str(),
            oneLine(Err).c_str());
      Found = std::shared_ptr<CompilationDatabase>(
          clang::tooling::inferMissingCompileCommands(
              clang::tooling::expandResponseFiles(
                  std::move(Base), llvm::vfs::getRealFileSystem())));
      break;
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  for (const std::string &V : Visited)
    Detected[V] = Found;
  return Found.get();
}

llvm::Expected<CompileCommand>
Frontend::Impl::compileCommandFor(llvm::StringRef File) {
  if (Opts.LauncherCommand) {
    CompileCommand Cmd;
    Cmd.Directory = absolute(".");
    Cmd.Filename = File.str();
    Cmd.CommandLine = *Opts.LauncherCommand;
    return Cmd;
  }
  if (Opts.FixedArgs) {
    CompileCommand Cmd;
    Cmd.Directory = absolute(".");
    Cmd.Filename = File.str();
    Cmd.CommandLine.push_back("clang++");
    Cmd.CommandLine.insert(Cmd.CommandLine.end(), Opts.FixedArgs->begin(),
                           Opts.FixedArgs->end());
    Cmd.CommandLine.push_back(File.str());
    return Cmd;
  }
  llvm::Expected<const CompilationDatabase *> DB = databaseFor(File);
  if (!DB)
    return DB.takeError();
  if (*DB) {
    std::lock_guard<std::mutex> Lock(CacheLock);
    std::vector<CompileCommand> Cmds = (*DB)->getCompileCommands(File);
    if (!Cmds.empty())
      return Cmds.front();
  }
  CompileCommand Cmd;
  Cmd.Directory = absolute(".");
  Cmd.Filename = File.str();
  Cmd.CommandLine = {"clang++", File.str()};
  return Cmd;
}

std::optional<CudaToolkit>
Frontend::Impl::toolkitFor(const CompileCommand &Cmd) {
  if (Opts.NoCudaToolkit)
    return std::nullopt;
  if (ExplicitToolkit)
    return ExplicitToolkit;
  std::string Hint;
  if (!Cmd.CommandLine.empty() && isNvcc(Cmd.CommandLine.front()))
    Hint = Cmd.CommandLine.front();
  std::lock_guard<std::mutex> Lock(CacheLock);
  auto It = FoundToolkits.find(Hint);
  if (It != FoundToolkits.end())
    return It->second;
  std::optional<CudaToolkit> T = findCudaToolkit(Hint);
  FoundToolkits[Hint] = T;
  return T;
}

llvm::Expected<CompileCommand>
Frontend::Impl::clangCommandFor(llvm::StringRef File, ParsedFile &Info,
                                llvm::raw_ostream &Notes,
                                const FileArgs &Extra) {
  llvm::Expected<CompileCommand> Cmd = compileCommandFor(File);
  if (!Cmd)
    return Cmd.takeError();
  llvm::Expected<TranslatedFlags> Flags =
      translateCompilerFlags(Cmd->CommandLine, Cmd->Directory);
  if (!Flags)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "%s: %s", File.str().c_str(),
                                   llvm::toString(Flags.takeError()).c_str());
  for (const std::string &U : Flags->Unknown)
    note(Notes, "ignoring compiler flag '" + U + "' for " + File +
         " (not known to nvcc or clang)");

  Info.Arch = Flags->Archs.empty() ? normalizeArch(Opts.DefaultArch)
                                   : pickArch(Flags->Archs);
  if (Info.Arch.empty())
    Info.Arch = "sm_90";

  std::vector<std::string> Args = {"clang++", "-x", "cuda"};
  Args.insert(Args.end(), Opts.ExtraArgsBefore.begin(),
              Opts.ExtraArgsBefore.end());
  Args.insert(Args.end(), Extra.Before.begin(), Extra.Before.end());
  std::optional<CudaToolkit> Toolkit = toolkitFor(*Cmd);
  for (size_t I = 0; I < Flags->Flags.size(); ++I) {
    const std::string &F = Flags->Flags[I];
    // On the built-in prelude, a toolkit's include directory named by the
    // command would bring the real cuda_runtime.h back in: leave it out.
    if (!Toolkit) {
      llvm::StringRef Dir;
      bool Separate = false;
      for (llvm::StringRef Flag : {"-I", "-isystem"}) {
        if (F == Flag && I + 1 < Flags->Flags.size()) {
          Dir = Flags->Flags[I + 1];
          Separate = true;
        } else if (llvm::StringRef(F).starts_with(Flag) && F.size() > Flag.size() &&
                   Flag == "-I") {
          Dir = llvm::StringRef(F).drop_front(Flag.size());
        }
      }
      llvm::SmallString<256> Probe(Dir);
      llvm::sys::path::append(Probe, "cuda_runtime.h");
      if (!Dir.empty() && llvm::sys::fs::exists(Probe)) {
        if (Separate)
          ++I;
        continue;
      }
    }
    Args.push_back(F);
  }
  Args.push_back("--cuda-device-only");
  Args.push_back("--offload-arch=" + Info.Arch);
  Args.push_back("-resource-dir=" + clangResourceDir());
  std::string Include = BuiltinIncludeDir.str();
  if (Toolkit) {
    Info.ToolkitRoot = Toolkit->Root;
    Args.push_back("--cuda-path=" + Toolkit->Root);
    if (!Toolkit->CcclInclude.empty()) {
      Args.push_back("-isystem");
      Args.push_back(Toolkit->CcclInclude);
    }
    Args.push_back("-include");
    Args.push_back(Include + "/" + SupplementHeader.str());
  } else {
    Info.UsesBuiltinPrelude = true;
    Args.push_back("--cuda-path=" + Include + "/no-cuda-toolkit");
    Args.push_back("-nocudainc");
    Args.push_back("-nocudalib");
    Args.push_back("-isystem");
    Args.push_back(Include);
    Args.push_back("-include");
    Args.push_back(Include + "/" + PreludeHeader.str());
  }
  // Headers nvcc's host compiler would find and clang has none of (GCC's
  // omp.h): stand-ins, behind every other include directory.
  Args.push_back("-idirafter");
  Args.push_back(Include + "/" + FallbackDir.str());
  Args.push_back("-Wno-unknown-cuda-version");
  // Every error is seen: with clang's limit of 20 the parse stops there, and
  // the kernels after it with it.
  Args.push_back("-ferror-limit=0");
  // What nvcc (EDG) warns about and clang makes an error by default: the
  // `register` storage class under C++17 (SHOC, NVIDIA's cuda-vmm sample)
  // and narrowing in a braced initializer.
  Args.push_back("-Wno-register");
  Args.push_back("-Wno-c++11-narrowing");
  if (!Opts.CompilerWarnings)
    Args.push_back("-w");
  Args.insert(Args.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  Args.insert(Args.end(), Extra.After.begin(), Extra.After.end());
  Args.push_back("-fsyntax-only");
  Args.push_back(File.str());

  CompileCommand Out;
  Out.Directory = Cmd->Directory;
  Out.Filename = File.str();
  Out.CommandLine = std::move(Args);
  Info.Command = Out.CommandLine;
  return Out;
}

Frontend::Frontend(FrontendOptions Opts, llvm::raw_ostream &Diagnostics)
    : P(std::make_shared<Impl>(std::move(Opts), Diagnostics)) {}

bool Frontend::prepare() {
  FrontendOptions &O = P->Opts;
  if (clangResourceDir().empty()) {
    P->error("clang's resource directory (lib/clang/" +
             std::to_string(LLVM_VERSION_MAJOR) +
             ") was not found beside the binary, beside libclang-cpp, "
             "or from clang++ on PATH (install libclang-common-22-dev)");
    return false;
  }
  if (!O.CudaPath.empty() && !O.NoCudaToolkit) {
    llvm::Expected<CudaToolkit> T = readCudaToolkit(O.CudaPath);
    if (!T) {
      P->error("--cuda-path: " + llvm::toString(T.takeError()));
      return false;
    }
    P->ExplicitToolkit = *T;
  }
  if (!O.BuildPath.empty() && !P->loadBuildDatabase())
    return false;
  // --compiler-warnings parses without a preamble: a cached preamble's own
  // warnings (an #warning, a deprecated header among the leading includes)
  // would not be shown again when it is reused.
  if (O.PreambleCache && !O.CompilerWarnings) {
    std::string Dir = O.PreambleCacheDir.empty() ? defaultPreambleCacheDir()
                                                 : O.PreambleCacheDir;
    if (!Dir.empty()) {
      // The tool's own headers are part of every preamble.
      // 2: template patterns' __shared__ objects deferred (SharedInTemplates.h).
      std::string Salt = std::string("cuda-access-lint preamble 2\n");
      for (const BuiltinHeader &H : builtinHeaders())
        Salt += H.Name.str() + "\n" + H.Contents.str() + "\n";
      P->Preambles = std::make_unique<PreambleCache>(
          Dir, std::move(Salt), O.BuildPreamble,
          O.PreambleCacheMiB * uint64_t(1) << 20);
    }
  }
  if (O.Files.empty() && P->Database) {
    for (const CompileCommand &Cmd : P->Database->getAllCompileCommands()) {
      if (!isCudaCommand(Cmd))
        continue;
      llvm::SmallString<256> Path(Cmd.Filename);
      if (!llvm::sys::path::is_absolute(Path))
        llvm::sys::path::make_absolute(Cmd.Directory, Path);
      std::string File = Path.str().str();
      if (!llvm::is_contained(Files, File))
        Files.push_back(File);
    }
    if (Files.empty()) {
      P->error("the compilation database in '" + O.BuildPath +
               "' has no CUDA files");
      return false;
    }
    return true;
  }
  if (O.Files.empty()) {
    P->error("no input files (usage: cuda-access-lint [options] <files...> "
             "[-- <compiler args>], or -p <build dir>)");
    return false;
  }
  for (const std::string &F : O.Files)
    Files.push_back(P->Database ? absolute(F) : F);
  return true;
}

llvm::Expected<std::vector<std::string>>
Frontend::commandFor(llvm::StringRef File, std::string *Directory) {
  ParsedFile Info;
  llvm::Expected<CompileCommand> Cmd =
      P->clangCommandFor(absolute(File), Info, P->Diag);
  if (!Cmd)
    return Cmd.takeError();
  if (Directory)
    *Directory = Cmd->Directory;
  return Cmd->CommandLine;
}

std::string hostParseSummary(const ParsedFile &Info) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "host code did not parse (" << Info.HostParseErrors
     << (Info.HostParseErrors == 1 ? " error" : " errors");
  if (!Info.MissingHeaders.empty()) {
    OS << "; not found: ";
    for (size_t I = 0; I < Info.MissingHeaders.size(); ++I)
      OS << (I ? ", " : "") << "'" << Info.MissingHeaders[I] << "'";
  }
  OS << "; first: " << Info.FirstHostParseError
     << "); every kernel parsed [--strict-parse to fail]";
  return S;
}

FrontendStats Frontend::run(const TranslationUnitCallback &OnParsed,
                            llvm::raw_ostream &ClangDiagnostics) {
  FrontendStats Stats;
  bool SaidPrelude = false;
  for (const std::string &File : Files) {
    std::string Clang, Tool;
    llvm::raw_string_ostream ClangOS(Clang), ToolOS(Tool);
    FileRun R = runFile(File, OnParsed, ClangOS, ToolOS);
    if (!R.PreludeNote.empty() && !SaidPrelude) {
      SaidPrelude = true;
      P->Diag << R.PreludeNote;
    }
    P->Diag << Tool;
    ClangDiagnostics << Clang;
    if (R.Failed)
      ++Stats.FilesFailed;
    if (R.Parsed)
      ++Stats.FilesParsed;
    if (R.Parsed && R.Errors > 0)
      ++Stats.FilesWithErrors;
  }
  return Stats;
}

FileRun Frontend::runFile(const std::string &File,
                          const TranslationUnitCallback &OnParsed,
                          llvm::raw_ostream &ClangDiagnostics,
                          llvm::raw_ostream &ToolDiagnostics,
                          const FileArgs &Extra) {
  FileRun Run;
  bool Overridden = P->Opts.Overrides.count(absolute(File)) > 0;
  if (!Overridden && !llvm::sys::fs::exists(File)) {
    Impl::error(ToolDiagnostics, "no such file: '" + File + "'");
    Run.Failed = true;
    return Run;
  }
  if (!Overridden && llvm::sys::fs::is_directory(File)) {
    Impl::error(ToolDiagnostics,
                "'" + File + "' is a directory, not a source file");
    Run.Failed = true;
    return Run;
  }
  std::string Abs = absolute(File);
  ParsedFile Info;
  Info.Path = File;
  llvm::Expected<CompileCommand> Cmd =
      P->clangCommandFor(Abs, Info, ToolDiagnostics, Extra);
  if (!Cmd) {
    Impl::error(ToolDiagnostics, llvm::toString(Cmd.takeError()));
    Run.Failed = true;
    return Run;
  }
  if (Info.UsesBuiltinPrelude) {
    llvm::raw_string_ostream OS(Run.PreludeNote);
    Impl::note(OS, P->Opts.NoCudaToolkit
                       ? "parsing on the built-in CUDA prelude (--no-cuda-toolkit)"
                       : "no CUDA toolkit found (--cuda-path, CUDA_PATH, "
                         "CUDA_HOME, /usr/local/cuda); parsing on the built-in "
                         "CUDA prelude");
  }
  SingleCommandDatabase DB(*Cmd);
  // A file system of its own, whose working directory is the command's:
  // the process's is shared by every thread.
  clang::tooling::ClangTool Tool(
      DB, {Abs}, std::make_shared<clang::PCHContainerOperations>(),
      llvm::vfs::createPhysicalFileSystem());
  // ClangTool keeps the StringRefs it is given: the paths must outlive it.
  std::vector<std::string> VirtualPaths;
  VirtualPaths.reserve(builtinHeaders().size());
  for (const BuiltinHeader &H : builtinHeaders()) {
    VirtualPaths.push_back((BuiltinIncludeDir + "/" + H.Name).str());
    Tool.mapVirtualFile(VirtualPaths.back(), H.Contents);
  }
  // `k<< <g, b >> >(...)`, which nvcc accepts: closed up for clang, every
  // offset unchanged.
  std::optional<std::string> ClosedUp;
  if (auto It = P->Opts.Overrides.find(Abs); It != P->Opts.Overrides.end())
    ClosedUp = closeUpLaunchChevrons(It->second);
  else if (auto Buf = llvm::MemoryBuffer::getFile(Abs))
    ClosedUp = closeUpLaunchChevrons((*Buf)->getBuffer());
  if (ClosedUp)
    Tool.mapVirtualFile(Abs, *ClosedUp);
  for (const auto &[Path, Contents] : P->Opts.Overrides)
    if (!(ClosedUp && Path == Abs))
      Tool.mapVirtualFile(Path, Contents);
  Tool.setPrintErrorMessage(false);
  BufferingDiagnosticConsumer Diags(P->Opts.Color, P->Opts);
  Tool.setDiagnosticConsumer(&Diags);
  ParseState State;
  State.Info = Info;
  State.Callback = &OnParsed;
  State.Diags = &Diags;
  State.DiagOut = &ClangDiagnostics;
  State.Strict = P->Opts.StrictParse;
  auto Kept = P->Opts.KeptPreambles.find(Abs);
  CallbackActionFactory Factory(
      State, P->Preambles.get(),
      Kept == P->Opts.KeptPreambles.end() ? nullptr : Kept->second.get());
  Tool.run(&Factory);
  // What the driver said, or what came after the translation unit.
  Diags.flushAll(ClangDiagnostics);
  if (!State.Called || State.Info.ParseErrors > 0)
    ClangDiagnostics << State.Stats;
  if (!State.Called) {
    Run.Failed = true;
    return Run;
  }
  Run.Parsed = true;
  Run.Errors = State.Info.ParseErrors;
  return Run;
}

} // namespace cal

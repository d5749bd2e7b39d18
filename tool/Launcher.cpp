//===- Launcher.cpp -------------------------------------------------------===//

#include "tool/Launcher.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace cal {

/// Build-system launchers that run the compiler given after them.
bool isCompilerLauncher(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  return Name == "ccache" || Name == "sccache" || Name == "distcc" ||
         Name == "icecc" || Name == "buildcache";
}

/// The CUDA source a compile command compiles, if any.
std::optional<std::string> sourceOfCommand(const std::vector<std::string> &Cmd) {
  bool CudaLanguage = false;
  for (size_t I = 1; I < Cmd.size(); ++I) {
    llvm::StringRef A = Cmd[I];
    if ((A == "-x" || A == "--x") && I + 1 < Cmd.size())
      CudaLanguage = Cmd[I + 1] == "cu" || Cmd[I + 1] == "cuda";
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ" || A == "-x" ||
        A == "--x" || A == "-ccbin" || A == "--compiler-bindir") {
      ++I;
      continue;
    }
    if (A.starts_with("-"))
      continue;
    llvm::StringRef Ext = llvm::sys::path::extension(A);
    if (Ext == ".cu" || (CudaLanguage && (Ext == ".cpp" || Ext == ".cc" ||
                                          Ext == ".cxx" || Ext == ".c")))
      return A.str();
  }
  return std::nullopt;
}

/// Runs the compile command as given (launchers included); its status.
int runCompiler(const std::vector<std::string> &Cmd) {
  llvm::ErrorOr<std::string> Program =
      llvm::sys::path::has_parent_path(Cmd.front())
          ? llvm::ErrorOr<std::string>(Cmd.front())
          : llvm::sys::findProgramByName(Cmd.front());
  if (!Program) {
    llvm::errs() << "cuda-access-lint: error: --launcher: cannot find '"
                 << Cmd.front() << "'\n";
    return 127;
  }
  std::vector<llvm::StringRef> Args(Cmd.begin(), Cmd.end());
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(*Program, Args, std::nullopt, {}, 0, 0,
                                         &Error);
  if (Status < 0) {
    llvm::errs() << "cuda-access-lint: error: --launcher: " << Error << "\n";
    return 127;
  }
  return Status;
}

} // namespace cal

//===- CompileCommandsExport.cpp ------------------------------------------===//

#include "frontend/CompileCommandsExport.h"

#include "frontend/BuiltinHeaders.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cal {

std::vector<std::string>
clangdCommandFrom(llvm::ArrayRef<std::string> AnalysisCommand) {
  std::vector<std::string> Out;
  auto Builtin = [](llvm::StringRef S) {
    return S.starts_with(BuiltinIncludeDir);
  };
  for (size_t I = 0; I < AnalysisCommand.size(); ++I) {
    llvm::StringRef A = AnalysisCommand[I];
    llvm::StringRef Next =
        I + 1 < AnalysisCommand.size() ? llvm::StringRef(AnalysisCommand[I + 1])
                                       : llvm::StringRef();
    // Only the tool's parse: one side, no output, its own clang resources,
    // its warnings off.
    if (A == "--cuda-device-only" || A == "-fsyntax-only" || A == "-w" ||
        A.starts_with("-resource-dir="))
      continue;
    // The built-in headers exist inside the tool only: any flag naming
    // them, joined (--cuda-path=/__cuda...) or with its value apart
    // (-include, -isystem, -idirafter ...).
    if (A.starts_with("-") && !A.contains('=') && Builtin(Next)) {
      ++I;
      continue;
    }
    if (A.contains(BuiltinIncludeDir))
      continue;
    if (A == "-nocudainc" || A == "-nocudalib")
      continue;
    Out.push_back(AnalysisCommand[I]);
  }
  return Out;
}

namespace {

std::string absolute(llvm::StringRef Path, llvm::StringRef Directory) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P))
    llvm::sys::path::make_absolute(Directory, P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

llvm::Error error(const llvm::Twine &Msg) {
  return llvm::createStringError(Msg.str(), std::make_error_code(std::errc::invalid_argument));
}

} // namespace

llvm::Error exportCompileCommands(Frontend &FE, llvm::StringRef BuildPath,
                                  llvm::StringRef OutDir) {
  llvm::SmallString<256> OutFile(OutDir);
  llvm::sys::path::append(OutFile, "compile_commands.json");
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);

  llvm::json::Array Entries;
  llvm::StringSet<> Cuda;
  for (const std::string &F : FE.files()) {
    std::string Directory;
    llvm::Expected<std::vector<std::string>> Cmd = FE.commandFor(F, &Directory);
    if (!Cmd)
      return Cmd.takeError();
    std::string File = absolute(F, Cwd);
    Cuda.insert(File);
    llvm::json::Array Args;
    for (const std::string &A : clangdCommandFrom(*Cmd))
      Args.push_back(A);
    Entries.push_back(llvm::json::Object{{"directory", Directory},
                                         {"file", File},
                                         {"arguments", std::move(Args)}});
  }

  if (!BuildPath.empty()) {
    llvm::SmallString<256> In(BuildPath);
    if (!llvm::sys::fs::is_directory(In))
      llvm::sys::path::remove_filename(In);
    llvm::sys::path::append(In, "compile_commands.json");
    llvm::SmallString<256> RealIn, RealOut;
    if (!llvm::sys::fs::real_path(In, RealIn) &&
        !llvm::sys::fs::real_path(OutFile, RealOut) && RealIn == RealOut)
      return error("--export-compile-commands: '" + OutDir +
                   "' holds the database being read; name another directory");
    auto Buffer = llvm::MemoryBuffer::getFile(In);
    if (!Buffer)
      return error("cannot read '" + In + "': " + Buffer.getError().message());
    llvm::Expected<llvm::json::Value> Doc =
        llvm::json::parse((*Buffer)->getBuffer());
    if (!Doc)
      return error("'" + In + "' is not valid JSON: " +
                   llvm::toString(Doc.takeError()));
    if (const llvm::json::Array *A = Doc->getAsArray()) {
      for (const llvm::json::Value &E : *A) {
        const llvm::json::Object *O = E.getAsObject();
        std::optional<llvm::StringRef> File = O ? O->getString("file") : std::nullopt;
        std::optional<llvm::StringRef> Dir =
            O ? O->getString("directory") : std::nullopt;
        if (File && Cuda.contains(absolute(*File, Dir.value_or(""))))
          continue; // translated above
        Entries.push_back(E);
      }
    }
  }

  if (std::error_code EC = llvm::sys::fs::create_directories(OutDir))
    return error("cannot create '" + OutDir + "': " + EC.message());
  return llvm::writeToOutput(OutFile, [&](llvm::raw_ostream &OS) -> llvm::Error {
    OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Entries))) << "\n";
    return llvm::Error::success();
  });
}

} // namespace cal

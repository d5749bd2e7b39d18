//===- ClangdDatabase.cpp -------------------------------------------------===//

#include "tool/lsp/ClangdDatabase.h"

#include "frontend/CompileCommandsExport.h"
#include "tool/lsp/Session.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace cal::lsp {

std::vector<std::string> databaseDirsAt(llvm::StringRef Dir) {
  std::vector<std::string> Dirs;
  for (const char *Sub : {"", "build"}) {
    llvm::SmallString<256> Build(Dir);
    if (*Sub)
      llvm::sys::path::append(Build, Sub);
    llvm::SmallString<256> Json(Build);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::exists(Json))
      Dirs.push_back(Build.str().str());
  }
  return Dirs;
}

std::string rootDatabase(const FrontendOptions &Base,
                         const llvm::json::Object *InitParams) {
  if (!Base.BuildPath.empty())
    return Base.BuildPath; // -p
  llvm::SmallString<256> Root;
  if (const llvm::json::Object *P = InitParams) {
    if (std::optional<llvm::StringRef> U = P->getString("rootUri")) {
      llvm::lsp::URIForFile F;
      llvm::json::Path::Root R;
      if (llvm::lsp::fromJSON(llvm::json::Value(*U), F, R))
        Root = F.file();
    }
    if (Root.empty())
      if (std::optional<llvm::StringRef> R = P->getString("rootPath"))
        Root = *R;
  }
  if (Root.empty())
    llvm::sys::fs::current_path(Root);
  std::vector<std::string> Dirs = databaseDirsAt(Root);
  return Dirs.empty() ? "" : Dirs.front();
}

std::optional<std::string> translateDatabase(const FrontendOptions &Base,
                                             llvm::StringRef BuildDir) {
  // The translated database, in the user's cache (one per build dir).
  llvm::SmallString<256> Out;
  if (!llvm::sys::path::cache_directory(Out))
    llvm::sys::path::system_temp_directory(true, Out);
  llvm::sys::path::append(Out, "cuda-access-lint", "clangd",
                          llvm::utohexstr(llvm::xxh3_64bits(BuildDir)));
  FrontendOptions FO = Base;
  FO.BuildPath = BuildDir.str();
  FO.Files.clear();
  FO.FixedArgs.reset();
  std::string Notes;
  llvm::raw_string_ostream NotesOS(Notes);
  Frontend FE(FO, NotesOS);
  if (!FE.prepare()) {
    log("clangd proxy: no translated database for clangd: " +
        llvm::StringRef(Notes).trim());
    return std::nullopt;
  }
  if (llvm::Error E = exportCompileCommands(FE, BuildDir, Out)) {
    log("clangd proxy: no translated database for clangd: " +
        llvm::toString(std::move(E)));
    return std::nullopt;
  }
  log("clangd proxy: clangd reads the database of " + BuildDir +
      " translated in " + Out);
  return Out.str().str();
}

} // namespace cal::lsp

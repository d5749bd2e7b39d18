//===- ResourceDir.cpp ----------------------------------------------------===//

#include "frontend/ResourceDir.h"

#include "clang/Options/OptionUtils.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <dlfcn.h>

namespace cal {

namespace {

bool holdsCudaWrappers(llvm::StringRef Dir) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "include", "__clang_cuda_runtime_wrapper.h");
  return !Dir.empty() && llvm::sys::fs::exists(P);
}

std::string versioned(llvm::StringRef LibDir) {
  llvm::SmallString<256> P(LibDir);
  llvm::sys::path::append(P, "clang", std::to_string(LLVM_VERSION_MAJOR));
  llvm::sys::path::remove_dots(P, true);
  return P.str().str();
}

std::string find() {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  if (!Exe.empty()) {
    llvm::SmallString<256> Lib(llvm::sys::path::parent_path(Exe));
    llvm::sys::path::append(Lib, "..", "lib");
    std::string D = versioned(Lib);
    if (holdsCudaWrappers(D))
      return D;
  }
  // The library that holds clang's code.
  Dl_info Info;
  std::string (*InClang)(llvm::StringRef) = &clang::GetResourcesPath;
  if (dladdr(reinterpret_cast<void *>(InClang), &Info) &&
      Info.dli_fname) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Info.dli_fname, Real)) {
      std::string D = versioned(llvm::sys::path::parent_path(Real));
      if (holdsCudaWrappers(D))
        return D;
    }
  }
  std::string Clang = "clang++-" + std::to_string(LLVM_VERSION_MAJOR);
  for (const std::string &Name : {Clang, std::string("clang++")}) {
    llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Name);
    if (!P)
      continue;
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(*P, Real))
      continue;
    std::string D = clang::GetResourcesPath(Real);
    if (holdsCudaWrappers(D))
      return D;
  }
  return "";
}

} // namespace

const std::string &clangResourceDir() {
  static const std::string Dir = find();
  return Dir;
}

} // namespace cal

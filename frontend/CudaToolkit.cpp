//===- CudaToolkit.cpp ----------------------------------------------------===//

#include "frontend/CudaToolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

namespace cal {

bool isCudaToolkit(llvm::StringRef Root) {
  if (Root.empty())
    return false;
  llvm::SmallString<256> P(Root);
  llvm::sys::path::append(P, "include", "cuda_runtime.h");
  return llvm::sys::fs::exists(P);
}

static int readCudaVersion(llvm::StringRef Root) {
  llvm::SmallString<256> P(Root);
  llvm::sys::path::append(P, "include", "cuda.h");
  auto Buf = llvm::MemoryBuffer::getFile(P);
  if (!Buf)
    return 0;
  llvm::StringRef Text = (*Buf)->getBuffer();
  size_t At = Text.find("#define CUDA_VERSION ");
  if (At == llvm::StringRef::npos)
    return 0;
  llvm::StringRef Rest = Text.substr(At + strlen("#define CUDA_VERSION ")).ltrim();
  int V = 0;
  Rest.take_while(llvm::isDigit).getAsInteger(10, V);
  return V;
}

llvm::Expected<CudaToolkit> readCudaToolkit(llvm::StringRef Root) {
  if (!isCudaToolkit(Root))
    return llvm::createStringError(
        std::errc::no_such_file_or_directory,
        "'%s' is not a CUDA toolkit (no include/cuda_runtime.h)",
        Root.str().c_str());
  CudaToolkit T;
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Root, Real))
    Real = Root;
  T.Root = Real.str().str();
  T.Version = readCudaVersion(T.Root);
  llvm::SmallString<256> Cccl(T.Root);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(Cccl))
    T.CcclInclude = Cccl.str().str();
  return T;
}

static std::string rootAboveNvcc(llvm::StringRef Nvcc) {
  // <root>/bin/nvcc
  llvm::SmallString<256> P(Nvcc);
  llvm::sys::path::remove_filename(P);
  llvm::sys::path::remove_filename(P);
  return P.str().str();
}

std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef NvccHint) {
  std::vector<std::string> Candidates;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> V = llvm::sys::Process::GetEnv(Var))
      Candidates.push_back(*V);
  if (!NvccHint.empty() && llvm::sys::path::is_absolute(NvccHint))
    Candidates.push_back(rootAboveNvcc(NvccHint));
  if (llvm::ErrorOr<std::string> Nvcc = llvm::sys::findProgramByName("nvcc")) {
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(*Nvcc, Real))
      Candidates.push_back(rootAboveNvcc(Real));
  }
  Candidates.push_back("/usr/local/cuda");
  for (const std::string &C : Candidates)
    if (llvm::Expected<CudaToolkit> T = readCudaToolkit(C))
      return *T;
    else
      llvm::consumeError(T.takeError());
  return std::nullopt;
}

} // namespace cal

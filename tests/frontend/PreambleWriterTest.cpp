//===- PreambleWriterTest.cpp - A preamble's PCH streamed to a file -------===//
//
// frontend/PreambleWriter.h writes the PCH clang's PrecompiledPreamble::Build
// holds in memory, block by block to a file. The same preamble built both
// ways gives the same bytes: one small enough never to be flushed before its
// end, and one of several MB whose blocks are flushed (1 MB) and backpatched
// in the file. And the callbacks are called as Build calls them.
//
//===----------------------------------------------------------------------===//

#include "frontend/PreambleWriter.h"

#include "support/TestSupport.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

namespace cal {
namespace {

using cal::test::TempDir;
using cal::test::writeFile;

/// Counts what the parse hands the callbacks.
struct Counting : clang::PreambleCallbacks {
  int Before = 0, After = 0, TopLevel = 0, Emitted = 0;
  void BeforeExecute(clang::CompilerInstance &) override { ++Before; }
  void AfterExecute(clang::CompilerInstance &) override { ++After; }
  void AfterPCHEmitted(clang::ASTWriter &) override { ++Emitted; }
  void HandleTopLevelDecl(clang::DeclGroupRef DG) override {
    TopLevel += std::distance(DG.begin(), DG.end());
  }
};

struct Built {
  std::string Bytes;
  Counting Calls;
  std::string Error;
};

std::shared_ptr<clang::CompilerInvocation>
invocation(const std::string &Main, clang::DiagnosticsEngine &Diags) {
  auto Inv = std::make_shared<clang::CompilerInvocation>();
  std::vector<const char *> Args = {"-fsyntax-only", "-x", "c++", "-std=c++17",
                                    Main.c_str()};
  EXPECT_TRUE(clang::CompilerInvocation::CreateFromArgs(*Inv, Args, Diags));
  Inv->getLangOpts().PCHInstantiateTemplates = true;
  return Inv;
}

/// The preamble of \p Main built by clang (in memory) and by the writer.
std::pair<Built, Built> buildBoth(const std::string &Dir,
                                  const std::string &Main) {
  std::pair<Built, Built> R;
  auto VFS = llvm::vfs::getRealFileSystem();
  clang::DiagnosticOptions Opts;
  auto Diags = clang::CompilerInstance::createDiagnostics(*VFS, Opts);
  auto Inv = invocation(Main, *Diags);
  auto Buffer = llvm::MemoryBuffer::getFile(Main);
  EXPECT_TRUE(bool(Buffer));
  clang::PreambleBounds Bounds =
      clang::ComputePreambleBounds(Inv->getLangOpts(), **Buffer, 0);
  auto Ops = std::make_shared<clang::PCHContainerOperations>();

  auto Clang = clang::PrecompiledPreamble::Build(
      *Inv, Buffer->get(), Bounds, Diags, VFS, Ops, /*StoreInMemory=*/true, "",
      R.first.Calls);
  if (Clang) {
    // The in-memory PCH, as a parse on it reads it.
    clang::CompilerInvocation Probe(*Inv);
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> ProbeFS = VFS;
    Clang->AddImplicitPreamble(Probe, ProbeFS, Buffer->get());
    if (auto B = ProbeFS->getBufferForFile(
            Probe.getPreprocessorOpts().ImplicitPCHInclude))
      R.first.Bytes = (*B)->getBuffer().str();
  } else
    R.first.Error = Clang.getError().message();

  std::string Path = Dir + "/preamble.pch";
  if (llvm::Error E = writePreamblePch(*Inv, **Buffer, Bounds, *Diags, VFS, Ops,
                                       R.second.Calls, Path))
    R.second.Error = llvm::toString(std::move(E));
  else if (auto F = llvm::MemoryBuffer::getFile(Path))
    R.second.Bytes = (*F)->getBuffer().str();
  return R;
}

void expectSame(const std::pair<Built, Built> &R) {
  EXPECT_EQ(R.first.Error, "");
  EXPECT_EQ(R.second.Error, "");
  ASSERT_FALSE(R.first.Bytes.empty());
  EXPECT_EQ(R.first.Bytes.size(), R.second.Bytes.size());
  EXPECT_TRUE(R.first.Bytes == R.second.Bytes) << "the PCHs differ";
  EXPECT_EQ(R.second.Calls.Before, 1);
  EXPECT_EQ(R.second.Calls.After, 1);
  EXPECT_EQ(R.second.Calls.Emitted, 1);
  EXPECT_EQ(R.first.Calls.TopLevel, R.second.Calls.TopLevel);
  EXPECT_GT(R.second.Calls.TopLevel, 0);
}

TEST(PreambleWriter, ASmallPreambleIsClangsByteForByte) {
  TempDir D;
  writeFile(D.path() + "/shape.h", R"cpp(#pragma once
#define ROWS 64
template <class T> struct Shape { T rows = ROWS, cols = 2 * ROWS; };
inline int area(Shape<int> s) { return s.rows * s.cols; }
)cpp");
  writeFile(D.path() + "/main.cpp", R"cpp(#include "shape.h"
int main() { return area(Shape<int>{}); }
)cpp");
  auto R = buildBoth(D.path(), D.path() + "/main.cpp");
  expectSame(R);
  EXPECT_LT(R.first.Bytes.size(), size_t(1) << 20); // never flushed early
}

TEST(PreambleWriter, APreambleOfSeveralMegabytesIsFlushedAndTheSame) {
  TempDir D;
  std::string Big = "#pragma once\n";
  for (int I = 0; I < 6000; ++I) {
    std::string N = std::to_string(I);
    Big += "#define LIMIT_" + N + " " + N + "\n";
    Big += "template <class T> struct Holder" + N + " { T value[LIMIT_" + N +
           " + 1]; T get(int i) const { return "
           "value[i % (LIMIT_" +
           N + " + 1)]; } };\n";
    Big += "inline double use" + N + "() { Holder" + N +
           "<double> h{}; return h.get(" + N + "); }\n";
  }
  writeFile(D.path() + "/big.h", Big);
  writeFile(D.path() + "/main.cpp",
            "#include \"big.h\"\nint main() { return int(use7()); }\n");
  auto R = buildBoth(D.path(), D.path() + "/main.cpp");
  expectSame(R);
  EXPECT_GT(R.first.Bytes.size(), size_t(4) << 20); // flushed several times
}

TEST(PreambleWriter, AnUnwritableFileIsAnError) {
  TempDir D;
  writeFile(D.path() + "/main.cpp", "#include <stddef.h>\nint main() {}\n");
  auto VFS = llvm::vfs::getRealFileSystem();
  clang::DiagnosticOptions Opts;
  auto Diags = clang::CompilerInstance::createDiagnostics(*VFS, Opts);
  auto Inv = invocation(D.path() + "/main.cpp", *Diags);
  auto Buffer = llvm::MemoryBuffer::getFile(D.path() + "/main.cpp");
  ASSERT_TRUE(bool(Buffer));
  Counting Calls;
  llvm::Error E = writePreamblePch(
      *Inv, **Buffer,
      clang::ComputePreambleBounds(Inv->getLangOpts(), **Buffer, 0), *Diags,
      VFS, std::make_shared<clang::PCHContainerOperations>(), Calls,
      D.path() + "/no/such/dir/p.pch");
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("cannot write"),
            std::string::npos);
  EXPECT_EQ(Calls.Before, 0);
}

} // namespace
} // namespace cal

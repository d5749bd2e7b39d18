//===- CompilerFlagsTest.cpp - nvcc command lines to clang flags ----------===//

#include "frontend/CompilerFlags.h"

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace cal {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Not;

using Strings = std::vector<std::string>;

/// Translates \p Args (argv[0] first); fails the test on an error.
TranslatedFlags translate(const Strings &Args, const std::string &Dir = "") {
  llvm::Expected<TranslatedFlags> T = translateCompilerFlags(Args, Dir);
  if (!T) {
    ADD_FAILURE() << "translation failed: " << llvm::toString(T.takeError());
    return {};
  }
  return std::move(*T);
}

/// The error message of a translation that must fail.
std::string translationError(const Strings &Args, const std::string &Dir = "") {
  llvm::Expected<TranslatedFlags> T = translateCompilerFlags(Args, Dir);
  if (T) {
    ADD_FAILURE() << "translation did not fail";
    return "";
  }
  return llvm::toString(T.takeError());
}

const std::string Nvcc = "/usr/local/cuda/bin/nvcc";

TEST(CompilerFlags, IsNvcc) {
  EXPECT_TRUE(isNvcc("nvcc"));
  EXPECT_TRUE(isNvcc("/usr/local/cuda-13.0/bin/nvcc"));
  EXPECT_TRUE(isNvcc("C:/CUDA/bin/nvcc.exe"));
  EXPECT_FALSE(isNvcc("clang++"));
  EXPECT_FALSE(isNvcc("/usr/bin/g++"));
  EXPECT_FALSE(isNvcc("/opt/nvcc/bin/clang++"));
  EXPECT_FALSE(isNvcc("nvcc-wrapper"));
}

TEST(CompilerFlags, NormalizeArch) {
  EXPECT_EQ(normalizeArch("sm_90"), "sm_90");
  EXPECT_EQ(normalizeArch("compute_80"), "sm_80");
  EXPECT_EQ(normalizeArch("sm_90a"), "sm_90a");
  EXPECT_EQ(normalizeArch("compute_100a"), "sm_100a");
  EXPECT_EQ(normalizeArch("90"), "sm_90");
  EXPECT_EQ(normalizeArch("lto_90"), "sm_90");
  EXPECT_EQ(normalizeArch(" sm_75 "), "sm_75");
  EXPECT_EQ(normalizeArch("native"), "");
  EXPECT_EQ(normalizeArch("all"), "");
  EXPECT_EQ(normalizeArch("all-major"), "");
  EXPECT_EQ(normalizeArch(""), "");
  EXPECT_EQ(normalizeArch("sm_"), "");
}

TEST(CompilerFlags, NvccIsRecognized) {
  EXPECT_TRUE(translate({Nvcc, "-c", "a.cu"}).IsNvcc);
  EXPECT_FALSE(translate({"clang++", "-c", "a.cu"}).IsNvcc);
}

TEST(CompilerFlags, Gencode) {
  TranslatedFlags T = translate({Nvcc, "-gencode", "arch=compute_80,code=sm_80",
                                 "-gencode=arch=compute_90,code=sm_90", "-c",
                                 "a.cu"});
  EXPECT_THAT(T.Archs, ElementsAre("sm_80", "sm_90"));
  EXPECT_THAT(T.Flags, IsEmpty());
  EXPECT_THAT(T.Unknown, IsEmpty());
  EXPECT_THAT(T.Inputs, ElementsAre("a.cu"));
}

TEST(CompilerFlags, GenerateCodeWithBracketedCodeList) {
  // What CMake writes for CMAKE_CUDA_ARCHITECTURES "80;90".
  TranslatedFlags T =
      translate({Nvcc, "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                 "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                 "-x", "cu", "-c", "a.cu", "-o", "a.o"});
  EXPECT_THAT(T.Archs, ElementsAre("sm_80", "sm_90"));
  EXPECT_THAT(T.Flags, IsEmpty());
  EXPECT_THAT(T.Unknown, IsEmpty());
  EXPECT_THAT(T.Inputs, ElementsAre("a.cu"));
}

TEST(CompilerFlags, GencodeSeparateValueAndDuplicates) {
  TranslatedFlags T =
      translate({Nvcc, "--generate-code", "arch=compute_90a,code=sm_90a",
                 "-gencode", "arch=compute_90a,code=sm_90a", "a.cu"});
  EXPECT_THAT(T.Archs, ElementsAre("sm_90a"));
}

TEST(CompilerFlags, GencodePtxOnlyUsesItsArch) {
  // code=compute_XX only (PTX for JIT): the arch is what gets compiled.
  TranslatedFlags T =
      translate({Nvcc, "-gencode", "arch=compute_90,code=compute_90", "a.cu"});
  EXPECT_THAT(T.Archs, ElementsAre("sm_90"));
}

TEST(CompilerFlags, GencodePtxOnlyAfterAnotherGencode) {
  // The usual "real code for the archs we test, PTX for the newest" list:
  // the PTX-only entry still names an arch the code is built for.
  TranslatedFlags T =
      translate({Nvcc, "-gencode", "arch=compute_80,code=sm_80", "-gencode",
                 "arch=compute_90,code=compute_90", "a.cu"});
  EXPECT_THAT(T.Archs, ElementsAre("sm_80", "sm_90"));
}

TEST(CompilerFlags, ArchSpellings) {
  EXPECT_THAT(translate({Nvcc, "-arch=sm_80", "a.cu"}).Archs,
              ElementsAre("sm_80"));
  EXPECT_THAT(translate({Nvcc, "-arch", "sm_86", "a.cu"}).Archs,
              ElementsAre("sm_86"));
  EXPECT_THAT(translate({Nvcc, "-arch", "compute_75", "a.cu"}).Archs,
              ElementsAre("sm_75"));
  EXPECT_THAT(translate({Nvcc, "--gpu-architecture=sm_90a", "a.cu"}).Archs,
              ElementsAre("sm_90a"));
  EXPECT_THAT(translate({Nvcc, "--gpu-architecture", "sm_70", "a.cu"}).Archs,
              ElementsAre("sm_70"));
  EXPECT_THAT(translate({Nvcc, "-arch=sm_80,sm_90", "a.cu"}).Archs,
              ElementsAre("sm_80", "sm_90"));
  EXPECT_THAT(translate({Nvcc, "-arch=compute_80", "-code=sm_80,sm_90",
                         "a.cu"})
                  .Archs,
              ElementsAre("sm_80", "sm_90"));
  // No single arch: the caller's default applies.
  EXPECT_THAT(translate({Nvcc, "-arch=native", "a.cu"}).Archs, IsEmpty());
  EXPECT_THAT(translate({Nvcc, "-arch=all", "a.cu"}).Archs, IsEmpty());
  EXPECT_THAT(translate({Nvcc, "-arch", "all-major", "a.cu"}).Archs, IsEmpty());
  // Nothing of it is left as a flag.
  EXPECT_THAT(translate({Nvcc, "-arch", "sm_86", "a.cu"}).Flags, IsEmpty());
}

TEST(CompilerFlags, ClangArchFlags) {
  TranslatedFlags T = translate({"clang++", "-x", "cuda",
                                 "--cuda-gpu-arch=sm_80",
                                 "--offload-arch=sm_86,sm_90", "-c", "a.cu"});
  EXPECT_FALSE(T.IsNvcc);
  EXPECT_THAT(T.Archs, ElementsAre("sm_80", "sm_86", "sm_90"));
  EXPECT_THAT(T.Flags, IsEmpty());
  EXPECT_THAT(translate({"clang++", "--offload-arch", "sm_75", "a.cu"}).Archs,
              ElementsAre("sm_75"));
}

TEST(CompilerFlags, XcompilerIsUnwrapped) {
  EXPECT_THAT(translate({Nvcc, "-Xcompiler", "-Wall,-fPIC", "a.cu"}).Flags,
              ElementsAre("-Wall", "-fPIC"));
  EXPECT_THAT(translate({Nvcc, "-Xcompiler=-Wall,-Wextra", "a.cu"}).Flags,
              ElementsAre("-Wall", "-Wextra"));
  EXPECT_THAT(translate({Nvcc, "--compiler-options", "-fno-strict-aliasing",
                         "a.cu"})
                  .Flags,
              ElementsAre("-fno-strict-aliasing"));
  EXPECT_THAT(translate({Nvcc, "-Xcompiler=-DNAME=1", "a.cu"}).Flags,
              ElementsAre("-DNAME=1"));
  // Host compile-mode flags and MSVC flags mean nothing to the parse.
  EXPECT_THAT(translate({Nvcc, "-Xcompiler", "/W4,-c,-Wall", "a.cu"}).Flags,
              ElementsAre("-Wall"));
}

TEST(CompilerFlags, XcompilerWithSeveralFlagsInOneWord) {
  // nvcc hands the text to the host compiler's command line, where spaces
  // separate flags: `-Xcompiler "-Wall -Wextra"` works with nvcc.
  TranslatedFlags T = translate({Nvcc, "-Xcompiler", "-Wall -Wextra", "a.cu"});
  EXPECT_THAT(T.Flags, ElementsAre("-Wall", "-Wextra"));
}

TEST(CompilerFlags, RelocatableDeviceCode) {
  EXPECT_THAT(translate({Nvcc, "-rdc=true", "a.cu"}).Flags,
              ElementsAre("-fgpu-rdc"));
  EXPECT_THAT(translate({Nvcc, "-rdc", "true", "a.cu"}).Flags,
              ElementsAre("-fgpu-rdc"));
  EXPECT_THAT(translate({Nvcc, "--relocatable-device-code=true", "a.cu"}).Flags,
              ElementsAre("-fgpu-rdc"));
  EXPECT_THAT(translate({Nvcc, "-rdc=false", "a.cu"}).Flags, IsEmpty());
  EXPECT_THAT(translate({Nvcc, "-dc", "a.cu"}).Flags, ElementsAre("-fgpu-rdc"));
  EXPECT_THAT(translate({Nvcc, "--device-c", "a.cu"}).Flags,
              ElementsAre("-fgpu-rdc"));
}

TEST(CompilerFlags, OptionsFileIsExpanded) {
  test::TempDir Dir("cal-flags");
  ASSERT_TRUE(test::writeFile(
      Dir / "CMakeFiles/x.dir/includes_CUDA.rsp",
      "-I/opt/inc \"-I/path with space/include\" -isystem /opt/sys\n"
      "-DFROM_FILE=1 -arch=sm_80\n"));
  // Relative to the command's directory, as CMake writes it.
  TranslatedFlags T =
      translate({Nvcc, "--options-file", "CMakeFiles/x.dir/includes_CUDA.rsp",
                 "-DAFTER", "-c", "a.cu"},
                Dir.path());
  EXPECT_THAT(T.Flags, ElementsAre("-I/opt/inc", "-I/path with space/include",
                                   "-isystem", "/opt/sys", "-DFROM_FILE=1",
                                   "-DAFTER"));
  EXPECT_THAT(T.Archs, ElementsAre("sm_80"));
  EXPECT_THAT(T.Unknown, IsEmpty());

  // Absolute, with '=', and the short spelling.
  EXPECT_THAT(translate({Nvcc,
                         "--options-file=" +
                             (Dir / "CMakeFiles/x.dir/includes_CUDA.rsp"),
                         "a.cu"})
                  .Flags,
              Contains("-I/opt/inc"));
  EXPECT_THAT(translate({Nvcc, "-optf",
                         Dir / "CMakeFiles/x.dir/includes_CUDA.rsp", "a.cu"})
                  .Flags,
              Contains("-DFROM_FILE=1"));
}

TEST(CompilerFlags, NestedOptionsFiles) {
  test::TempDir Dir("cal-flags");
  ASSERT_TRUE(test::writeFile(Dir / "outer.rsp",
                              "-DOUTER --options-file inner.rsp\n"));
  ASSERT_TRUE(test::writeFile(Dir / "inner.rsp", "-DINNER\n"));
  EXPECT_THAT(translate({Nvcc, "--options-file", "outer.rsp", "a.cu"},
                        Dir.path())
                  .Flags,
              ElementsAre("-DOUTER", "-DINNER"));
  // A file that includes itself ends with an error, not a hang.
  ASSERT_TRUE(test::writeFile(Dir / "loop.rsp", "--options-file loop.rsp\n"));
  EXPECT_THAT(translationError({Nvcc, "--options-file", "loop.rsp", "a.cu"},
                               Dir.path()),
              ::testing::HasSubstr("nested too deeply"));
}

TEST(CompilerFlags, MissingOptionsFileIsAnError) {
  test::TempDir Dir("cal-flags");
  std::string Error = translationError(
      {Nvcc, "--options-file", "nope.rsp", "a.cu"}, Dir.path());
  EXPECT_THAT(Error, ::testing::HasSubstr("nope.rsp"));
}

TEST(CompilerFlags, NvccOnlyFlagsAreDropped) {
  TranslatedFlags T = translate(
      {Nvcc, "-forward-unknown-to-host-compiler", "--expt-relaxed-constexpr",
       "--expt-extended-lambda", "--extended-lambda", "-lineinfo", "-Xptxas",
       "-v", "-Xptxas=-O3", "-Xfatbin", "-compress-all", "-ccbin", "g++-13",
       "--diag_suppress=177", "--diag-suppress", "20012", "-G",
       "--use_fast_math", "-maxrregcount=64", "--threads", "4", "-c", "a.cu",
       "-o", "a.o"});
  EXPECT_THAT(T.Flags, IsEmpty());
  EXPECT_THAT(T.Unknown, IsEmpty());
  EXPECT_THAT(T.Inputs, ElementsAre("a.cu"));
  EXPECT_THAT(T.Archs, IsEmpty());
}

TEST(CompilerFlags, ParseFlagsAreKept) {
  TranslatedFlags T = translate(
      {Nvcc, "-I/inc", "-I", "/inc2", "-DN=4", "-D", "M", "-UOLD", "-isystem",
       "/sys", "-std=c++17", "-O3", "-include", "pre.h", "-c", "a.cu"});
  EXPECT_THAT(T.Flags,
              ElementsAre("-I/inc", "-I", "/inc2", "-DN=4", "-D", "M", "-UOLD",
                          "-isystem", "/sys", "-std=c++17", "-O3", "-include",
                          "pre.h"));
  EXPECT_THAT(T.Unknown, IsEmpty());
}

TEST(CompilerFlags, NvccLongSpellingsBecomeClangSpellings) {
  TranslatedFlags T = translate(
      {Nvcc, "--include-path=/inc", "--define-macro", "A=1",
       "--system-include", "/sys", "--std", "c++20", "--undefine-macro=B",
       "--pre-include", "p.h", "a.cu"});
  EXPECT_THAT(T.Flags, ElementsAre("-I", "/inc", "-D", "A=1", "-isystem",
                                   "/sys", "-std=c++20", "-U", "B", "-include",
                                   "p.h"));
}

TEST(CompilerFlags, CompileModeFlagsAreRemoved) {
  TranslatedFlags T =
      translate({"clang++", "-x", "cuda", "-c", "a.cu", "-o", "a.o", "-MD",
                 "-MF", "a.d", "-MT", "a.o", "-Wall"});
  EXPECT_THAT(T.Flags, ElementsAre("-Wall"));
  EXPECT_THAT(T.Inputs, ElementsAre("a.cu"));
}

TEST(CompilerFlags, UnknownFlagsAreReportedNotKept) {
  TranslatedFlags T =
      translate({Nvcc, "--no-such-nvcc-flag", "-fno-such-clang-flag", "-Wall",
                 "a.cu"});
  EXPECT_THAT(T.Flags, ElementsAre("-Wall"));
  EXPECT_THAT(T.Unknown,
              ElementsAre("--no-such-nvcc-flag", "-fno-such-clang-flag"));
  // nvcc-only flags on a clang command are not nvcc's to translate.
  TranslatedFlags C =
      translate({"clang++", "--expt-relaxed-constexpr", "-Wall", "a.cu"});
  EXPECT_THAT(C.Flags, ElementsAre("-Wall"));
  EXPECT_THAT(C.Unknown, ElementsAre("--expt-relaxed-constexpr"));
}

TEST(CompilerFlags, MissingValueIsAnError) {
  for (const char *Flag : {"-arch", "-gencode", "--generate-code", "-Xcompiler",
                           "--options-file", "-ccbin", "-Xptxas", "-o",
                           "-rdc", "-std", "-x"}) {
    std::string Error = translationError({Nvcc, "a.cu", Flag});
    EXPECT_THAT(Error, ::testing::HasSubstr("missing its value")) << Flag;
    EXPECT_THAT(Error, ::testing::HasSubstr(Flag)) << Flag;
  }
}

TEST(CompilerFlags, DoubleDashEndsTheOptions) {
  // What clang's InterpolatingCompilationDatabase writes for a file that is
  // not in compile_commands.json (a header, a new file): "... -- file".
  // Kept as a flag, the "--" would turn every flag the front end appends
  // after it (--cuda-device-only, --offload-arch=...) into input files.
  TranslatedFlags T = translate({Nvcc, "-std=c++17", "-c", "--", "b.cu"});
  EXPECT_THAT(T.Flags, ElementsAre("-std=c++17"));
  EXPECT_THAT(T.Inputs, ElementsAre("b.cu"));
  TranslatedFlags C =
      translate({"clang++", "-x", "cuda", "-c", "--", "-odd-name.cu"});
  EXPECT_THAT(C.Flags, IsEmpty());
  EXPECT_THAT(C.Inputs, ElementsAre("-odd-name.cu"));
}

TEST(CompilerFlags, EmptyCommandLine) {
  TranslatedFlags T = translate({});
  EXPECT_THAT(T.Flags, IsEmpty());
  EXPECT_FALSE(T.IsNvcc);
}

TEST(CompilerFlags, WhatCMakeWritesForNvcc) {
  // An entry of a real compile_commands.json (CMake 3.25, Ninja).
  TranslatedFlags T = translate(
      {Nvcc, "-forward-unknown-to-host-compiler", "-I/proj/include",
       "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
       "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
       "--expt-relaxed-constexpr", "-Xcompiler=-Wall", "-std=c++17", "-x", "cu",
       "-rdc=true", "-c", "/proj/src/b.cu", "-o", "CMakeFiles/b.dir/src/b.cu.o"},
      "/proj/build");
  EXPECT_THAT(T.Flags,
              ElementsAre("-I/proj/include", "-Wall", "-std=c++17", "-fgpu-rdc"));
  EXPECT_THAT(T.Archs, ElementsAre("sm_80", "sm_90"));
  EXPECT_THAT(T.Unknown, IsEmpty());
  EXPECT_THAT(T.Inputs, ElementsAre("/proj/src/b.cu"));
  EXPECT_THAT(T.Flags, Not(Contains("cu")));
}

} // namespace
} // namespace cal

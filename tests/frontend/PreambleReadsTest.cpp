//===- PreambleReadsTest.cpp - What the end of a parse reads of a PCH -----===//
//
// frontend/PreambleReads.h: at the end of a parse on a precompiled
// header, Sema's external source does not read back the roots of the
// deferred diagnostics' walk when no error was deferred, nor the file-scoped
// declarations still unused under -w; clang says what it says without the
// shortcut. Plain C++ on a PCH built by clang++-22, diagnostics compared
// with those of the same parse whose external source is clang's own.
//
//===----------------------------------------------------------------------===//

#include "frontend/PreambleReads.h"

#include "support/TestSupport.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Sema/ExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Tooling/Tooling.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace cal {
namespace {

using cal::test::TempDir;
using cal::test::writeFile;

struct Collect : clang::DiagnosticConsumer {
  std::vector<std::string> Messages;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(L, Info);
    llvm::SmallString<128> S;
    Info.FormatDiagnostic(S);
    Messages.push_back(
        (L >= clang::DiagnosticsEngine::Error ? "error: " : "warning: ") +
        S.str().str());
  }
};

class Consumer : public clang::SemaConsumer {
public:
  explicit Consumer(bool OnDemand) : OnDemand(OnDemand) {}
  void InitializeSema(clang::Sema &S) override {
    auto Own = llvm::makeIntrusiveRefCnt<clang::ExternalSemaSource>();
    if (OnDemand)
      addExternalSourceReadingOnDemand(S, Own);
    else
      S.addExternalSource(Own);
  }

private:
  bool OnDemand;
};

class Action : public clang::ASTFrontendAction {
public:
  Action(bool OnDemand, Collect &Diags) : OnDemand(OnDemand), Diags(Diags) {}
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    CI.getDiagnostics().setClient(&Diags, /*ShouldOwnClient=*/false);
    return true;
  }
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<Consumer>(OnDemand);
  }

private:
  bool OnDemand;
  Collect &Diags;
};

const char Header[] = R"cpp(#pragma once
static void unused_in_header() {}
static int unused_variable_in_header;
static void used_in_file() {}
)cpp";
const char File[] = "void f() { used_in_file(); }\n";

struct Pch {
  TempDir Dir{"cal-preamble-reads"};
  std::string Path = Dir / "h.pch";
  Pch() {
    EXPECT_TRUE(writeFile(Dir / "h.h", Header));
    test::ProcessResult R =
        test::runProcess({"/usr/bin/clang++-22", "-x", "c++-header",
                          "-std=c++17", Dir / "h.h", "-o", Path});
    EXPECT_TRUE(R.exitedWith(0)) << R.describe() << R.Stderr;
  }
  /// The diagnostics of a parse of File on the PCH.
  std::vector<std::string> parse(bool OnDemand,
                                 std::vector<std::string> Args) const {
    Collect Diags;
    Args.insert(Args.begin(), {"-std=c++17", "-include-pch", Path});
    clang::tooling::runToolOnCodeWithArgs(
        std::make_unique<Action>(OnDemand, Diags), File, Args,
        Dir / "file.cpp");
    return Diags.Messages;
  }
};

TEST(PreambleReads, UnusedDeclarationsOfThePchAreStillWarnedOf) {
  // Warnings on: they are read, and warned of as clang does.
  Pch P;
  unsigned Before = unusedDeclReadsSkipped();
  std::vector<std::string> Own = P.parse(false, {"-Wunused"});
  std::vector<std::string> OnDemand = P.parse(true, {"-Wunused"});
  EXPECT_THAT(Own, ::testing::Contains(::testing::HasSubstr(
                       "unused function 'unused_in_header'")));
  EXPECT_EQ(OnDemand, Own);
  EXPECT_EQ(unusedDeclReadsSkipped(), Before);
}

TEST(PreambleReads, UnderMinusWTheyAreNotRead) {
  // -w ignores those warnings, even made errors: not read, nothing said.
  Pch P;
  for (std::vector<std::string> Args :
       {std::vector<std::string>{"-w", "-Wunused"},
        std::vector<std::string>{"-w", "-Werror=unused-function",
                                 "-Werror=unused-variable"}}) {
    unsigned Before = unusedDeclReadsSkipped();
    std::vector<std::string> Own = P.parse(false, Args);
    std::vector<std::string> OnDemand = P.parse(true, Args);
    EXPECT_EQ(OnDemand, Own);
    EXPECT_TRUE(Own.empty()) << Own.front();
    EXPECT_EQ(unusedDeclReadsSkipped(), Before + 1);
  }
}

TEST(PreambleReads, NoErrorDeferredNoRootsRead) {
  Pch P;
  unsigned Before = deferredRootReadsSkipped();
  EXPECT_EQ(P.parse(true, {}), P.parse(false, {}));
  EXPECT_EQ(deferredRootReadsSkipped(), Before + 1);
}

} // namespace
} // namespace cal

//===- KeptPreambleTest.cpp - The editor's preamble, kept in memory -------===//
//
// An open document's preamble is kept in memory between its lints
// (frontend/PreambleCache.h, KeptPreamble): an edit below the includes is
// linted on it and finds, byte for byte, what a lint without any preamble
// finds; an edit of the includes, a header changed on disk and another
// compile command each give another preamble, and the findings follow (a
// stride defined in the header). In-process, on the built-in CUDA prelude
// (fast); what the cache did is the lint's Preamble ("built", "kept").
//
//===----------------------------------------------------------------------===//

#include "frontend/PreambleReads.h"
#include "tool/lsp/DocumentLint.h"
#include "tool/lsp/Session.h"

#include "support/TestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>

namespace cal::lsp {
namespace {

using cal::test::TempDir;
using cal::test::writeFile;
using ::testing::HasSubstr;

const char Stride16[] = "#pragma once\n#define STRIDE 16\n";
const char Kernel[] = R"cu(#include "stride.h"

__global__ void strided(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * STRIDE];
}
)cu";

/// The kernel's text with its body edited (the load's stride doubled).
std::string bodyEdited() {
  std::string S = Kernel;
  S.replace(S.find("t * STRIDE"), 10, "t * STRIDE * 2");
  return S;
}

struct Project {
  TempDir Dir{"cal-kept-preamble"};
  std::string File = Dir / "kernel.cu";
  FrontendOptions Options;
  std::shared_ptr<KeptPreamble> Kept = std::make_shared<KeptPreamble>();
  int64_t Version = 0;

  Project() {
    EXPECT_TRUE(writeFile(Dir / "stride.h", Stride16));
    EXPECT_TRUE(writeFile(File, Kernel));
    Options.FixedArgs = std::vector<std::string>{"-std=c++17"};
    Options.NoCudaToolkit = true;
    Options.PreambleCacheDir = Dir / "cache";
    Options.BuildPreamble = PreambleBuild::FirstSight;
  }
  /// A lint of \p Text on the kept preamble, as the server runs it.
  DocumentLint lint(const std::string &Text) {
    return lintDocument({File, Text, ++Version, Kept}, Options, LintSettings(),
                        PositionEncoding::UTF16);
  }
  /// A lint of \p Text with no preamble at all, in memory or on disk.
  DocumentLint fresh(const std::string &Text) {
    FrontendOptions O = Options;
    O.PreambleCache = false;
    return lintDocument({File, Text, ++Version, nullptr}, O, LintSettings(),
                        PositionEncoding::UTF16);
  }
};

/// Everything the editor is sent of a lint, as sent.
std::vector<std::string> published(const DocumentLint &L) {
  std::vector<std::string> Out;
  for (const DiagnosticRecord &D : L.Diagnostics) {
    std::string S;
    llvm::raw_string_ostream(S) << llvm::json::Value(diagnosticJson(D));
    Out.push_back(S);
  }
  for (const AccessRecord &A : L.Accesses)
    Out.push_back(A.Hover + "|" + A.InlayHint);
  return Out;
}

/// What the preamble cache did, without the why ("built", "kept").
std::string outcome(const DocumentLint &L) {
  return L.Preamble.substr(0, L.Preamble.find(' '));
}

std::string messages(const DocumentLint &L) {
  std::string S;
  for (const DiagnosticRecord &D : L.Diagnostics)
    S += D.Message + "\n";
  return S;
}

TEST(KeptPreamble, ABodyEditIsLintedOnItAsWithoutAnyPreamble) {
  Project P;
  DocumentLint Open = P.lint(Kernel);
  EXPECT_EQ(outcome(Open), "built");
  EXPECT_FALSE(P.Kept->empty());
  EXPECT_THAT(messages(Open), HasSubstr("(16 elements)"));
  EXPECT_EQ(published(Open), published(P.fresh(Kernel)));

  DocumentLint Edit = P.lint(bodyEdited());
  EXPECT_EQ(outcome(Edit), "kept");
  EXPECT_THAT(messages(Edit), HasSubstr("(32 elements)"));
  EXPECT_EQ(published(Edit), published(P.fresh(bodyEdited())));
  EXPECT_FALSE(published(Edit).empty());
}

TEST(KeptPreamble, ABodyEditDoesNotReadThePreamblesDeferredRoots) {
  // No error was deferred: the roots of the deferred diagnostics' walk are
  // not read back from the preamble (frontend/PreambleReads.h), and
  // what is published is what a lint without any preamble publishes.
  Project P;
  P.lint(Kernel);
  unsigned Before = deferredRootReadsSkipped();
  unsigned UnusedBefore = unusedDeclReadsSkipped();
  DocumentLint Edit = P.lint(bodyEdited());
  EXPECT_EQ(outcome(Edit), "kept");
  EXPECT_EQ(deferredRootReadsSkipped(), Before + 1);
  // Nor, under -w, its file-scoped declarations still unused.
  EXPECT_EQ(unusedDeclReadsSkipped(), UnusedBefore + 1);
  EXPECT_EQ(published(Edit), published(P.fresh(bodyEdited())));
  // An error deferred in a host-device function: they are read, and the
  // error, reached from the kernel, is published as without a preamble.
  std::string Deferred =
      bodyEdited() + "int host_only(int);\n"
                     "inline __host__ __device__ int hd(int x) {\n"
                     "  return host_only(x);\n}\n"
                     "__global__ void calls_hd(int *p) { p[0] = hd(1); }\n";
  Before = deferredRootReadsSkipped();
  DocumentLint WithError = P.lint(Deferred);
  EXPECT_EQ(outcome(WithError), "kept");
  EXPECT_EQ(deferredRootReadsSkipped(), Before);
  EXPECT_THAT(messages(WithError), HasSubstr("host_only"));
  EXPECT_EQ(published(WithError), published(P.fresh(Deferred)));
}

TEST(KeptPreamble, AnEditOfTheIncludesGivesAnotherPreamble) {
  Project P;
  ASSERT_TRUE(
      writeFile(P.Dir / "stride8.h", "#pragma once\n#define STRIDE 8\n"));
  P.lint(Kernel);
  std::string Text = Kernel;
  Text.replace(Text.find("stride.h"), 8, "stride8.h");
  DocumentLint Edit = P.lint(Text);
  EXPECT_EQ(outcome(Edit), "built");
  EXPECT_THAT(messages(Edit), HasSubstr("(8 elements)"));
  EXPECT_EQ(published(Edit), published(P.fresh(Text)));
  // And back: that preamble is in the cache directory.
  DocumentLint Back = P.lint(Kernel);
  EXPECT_EQ(outcome(Back), "hit");
  EXPECT_THAT(messages(Back), HasSubstr("(16 elements)"));
  EXPECT_EQ(outcome(P.lint(Kernel)), "kept");
}

TEST(KeptPreamble, AHeaderChangedOnDiskGivesAnotherPreamble) {
  Project P;
  P.lint(Kernel);
  ASSERT_EQ(outcome(P.lint(bodyEdited())), "kept");
  // The same size, another stride: only the contents tell.
  ASSERT_TRUE(
      writeFile(P.Dir / "stride.h", "#pragma once\n#define STRIDE 64\n"));
  DocumentLint Changed = P.lint(bodyEdited());
  EXPECT_EQ(outcome(Changed), "built");
  EXPECT_THAT(Changed.Preamble, HasSubstr("stride.h' changed"));
  EXPECT_THAT(messages(Changed), HasSubstr("(128 elements)"));
  EXPECT_EQ(published(Changed), published(P.fresh(bodyEdited())));
  EXPECT_EQ(outcome(P.lint(Kernel)), "kept");
}

TEST(KeptPreamble, AnotherCompileCommandGivesAnotherPreamble) {
  Project P;
  ASSERT_TRUE(writeFile(P.Dir / "stride.h",
                        "#pragma once\n#ifndef STRIDE\n#define STRIDE 16\n"
                        "#endif\n"));
  P.Options.FixedArgs->push_back("-DSTRIDE=8");
  EXPECT_THAT(messages(P.lint(Kernel)), HasSubstr("(8 elements)"));
  P.Options.FixedArgs->back() = "-DSTRIDE=4";
  DocumentLint Other = P.lint(Kernel);
  EXPECT_EQ(outcome(Other), "built");
  EXPECT_THAT(messages(Other), HasSubstr("(4 elements)"));
  EXPECT_EQ(published(Other), published(P.fresh(Kernel)));
}

/// The session's publications, as they come.
struct Publications {
  std::mutex M;
  std::condition_variable Changed;
  std::map<int64_t, llvm::json::Value> ByVersion;

  Session::Hooks hooks() {
    Session::Hooks H;
    H.Publish = [this](llvm::json::Value P) {
      std::lock_guard<std::mutex> Lock(M);
      const llvm::json::Object *O = P.getAsObject();
      if (auto V = O ? O->getInteger("version") : std::nullopt)
        ByVersion.insert_or_assign(*V, std::move(P));
      Changed.notify_all();
    };
    return H;
  }
  /// The diagnostics published for \p Version (null after a minute).
  std::string of(int64_t Version) {
    std::unique_lock<std::mutex> Lock(M);
    Changed.wait_for(Lock, std::chrono::seconds(120),
                     [&] { return ByVersion.count(Version) > 0; });
    auto It = ByVersion.find(Version);
    if (It == ByVersion.end())
      return "null";
    std::string S;
    llvm::raw_string_ostream(S)
        << *It->second.getAsObject()->get("diagnostics");
    return S;
  }
  void forget(int64_t Version) {
    std::lock_guard<std::mutex> Lock(M);
    ByVersion.erase(Version);
  }
};

TEST(KeptPreamble, TheServerKeepsOnePerDocumentAndFollowsItsCompileCommands) {
  Project P;
  ASSERT_TRUE(writeFile(P.Dir / "stride.h",
                        "#pragma once\n#ifndef STRIDE\n#define STRIDE 16\n"
                        "#endif\n"));
  auto Database = [&](int Stride) {
    return writeFile(P.Dir / "compile_commands.json",
                     "[{\"directory\": \"" + P.Dir.path() +
                         "\", \"file\": \"kernel.cu\", \"command\": "
                         "\"clang++ -std=c++17 -DSTRIDE=" +
                         std::to_string(Stride) + " -c kernel.cu\"}]");
  };
  ASSERT_TRUE(Database(8));
  FrontendOptions Base = P.Options;
  Base.FixedArgs.reset();
  Base.BuildPath = P.Dir.path();
  Publications Out;
  Session S(Base, LintSettings(), Out.hooks());
  S.initialize(nullptr);
  S.configure(
      llvm::json::Object{{"settings", llvm::json::Object{{"debounceMs", 0}}}});
  auto Uri = llvm::lsp::URIForFile::fromFile(P.File);
  ASSERT_TRUE(bool(Uri));
  llvm::lsp::DidOpenTextDocumentParams Open;
  Open.textDocument.uri = *Uri;
  Open.textDocument.text = Kernel;
  Open.textDocument.version = 1;
  testing::internal::CaptureStderr();
  S.open(Open);
  EXPECT_THAT(Out.of(1), HasSubstr("(8 elements)"));
  llvm::lsp::DidChangeTextDocumentParams Change;
  Change.textDocument.uri = *Uri;
  Change.textDocument.version = 2;
  llvm::lsp::TextDocumentContentChangeEvent Whole;
  Whole.text = bodyEdited();
  Change.contentChanges.push_back(Whole);
  S.change(Change);
  std::string Edited = Out.of(2);
  EXPECT_THAT(Edited, HasSubstr("(16 elements)"));
  // Another compile command, and a configuration change: linted again on
  // a preamble of that command.
  ASSERT_TRUE(Database(4));
  Out.forget(2);
  S.configure(llvm::json::Object{{"settings", llvm::json::Object{}}});
  EXPECT_THAT(Out.of(2), HasSubstr("(8 elements)"));
  S.stop();
  std::string Log = testing::internal::GetCapturedStderr();
  EXPECT_THAT(Log, HasSubstr("version 1 in"));
  EXPECT_THAT(Log, testing::ContainsRegex("version 2 in [0-9]+ ms: .*; "
                                          "preamble kept"));
  EXPECT_THAT(Log, testing::ContainsRegex("version 2 in [0-9]+ ms: .*; "
                                          "preamble built"));
  // What a lint of the same text without any preamble publishes.
  FrontendOptions Fresh = Base;
  Fresh.PreambleCache = false;
  ASSERT_TRUE(Database(8));
  DocumentLint Expected =
      lintDocument({P.File, bodyEdited(), 2, nullptr}, Fresh, LintSettings(),
                   PositionEncoding::UTF16);
  llvm::json::Array Diags;
  for (const DiagnosticRecord &D : Expected.Diagnostics)
    Diags.push_back(diagnosticJson(D));
  std::string ExpectedText;
  llvm::raw_string_ostream(ExpectedText) << llvm::json::Value(std::move(Diags));
  EXPECT_EQ(Edited, ExpectedText);
}

} // namespace
} // namespace cal::lsp

//===- RuleDeclarationsTest.cpp - One declaration feeds docs and examples -===//
//
// Each rule is declared once (rules/<Rule>.cpp: info()). From that
// declaration: docs/rules/<id>.md must be what --rule-doc prints, --list-rules
// must list it, its bad example must make the rule fire and its good example
// must not.
//
//===----------------------------------------------------------------------===//

#include "rules/Registry.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cal {
namespace {

using test::runProcess;
using test::TempDir;

class RuleDeclaration : public ::testing::TestWithParam<const Rule *> {};

/// The findings of \p Rule on \p Source (a complete .cu file), through the
/// built tool, with and without the CUDA toolkit.
std::vector<nlohmann::json> findingsOf(const std::string &Source,
                                       const std::string &Rule,
                                       bool BuiltinPrelude) {
  TempDir Dir("cal-rule");
  std::string File = Dir / "example.cu";
  EXPECT_TRUE(test::writeFile(File, Source));
  std::vector<std::string> Argv = {CAL_TOOL_PATH, "--format=json", File};
  if (BuiltinPrelude)
    Argv.insert(Argv.begin() + 1, "--no-cuda-toolkit");
  Argv.push_back("--");
  Argv.push_back("-std=c++17");
  test::ProcessResult R = runProcess(Argv);
  EXPECT_TRUE(R.exitedWith(0) || R.exitedWith(1))
      << test::shellLine(Argv) << ": " << R.describe() << "\n" << R.Stderr;
  std::vector<nlohmann::json> Out;
  nlohmann::json Doc = nlohmann::json::parse(R.Stdout, nullptr, false);
  EXPECT_FALSE(Doc.is_discarded()) << R.Stdout;
  if (Doc.is_discarded())
    return Out;
  EXPECT_EQ(Doc["summary"]["parse_errors"], 0) << R.Stderr;
  for (const nlohmann::json &F : Doc["findings"])
    if (F["rule"] == Rule)
      Out.push_back(F);
  return Out;
}

TEST_P(RuleDeclaration, DocumentationIsGeneratedFromIt) {
  const Rule &R = *GetParam();
  std::string Path = std::string(CAL_SOURCE_DIR) + "/docs/rules/" +
                     R.info().Id + ".md";
  std::optional<std::string> Doc = test::readFile(Path);
  ASSERT_TRUE(Doc) << Path << " is missing: run `cuda-access-lint --rule-doc="
                   << R.info().Id << " > " << Path << "`";
  EXPECT_EQ(*Doc, ruleDoc(R))
      << Path << " is out of date: regenerate it with `cuda-access-lint "
      << "--rule-doc=" << R.info().Id << "`";
}

TEST_P(RuleDeclaration, BadExampleFires) {
  const RuleInfo &I = GetParam()->info();
  for (bool Prelude : {false, true}) {
    auto Findings = findingsOf(I.BadExample, I.Id, Prelude);
    EXPECT_FALSE(Findings.empty())
        << I.Id << " does not fire on its own bad example"
        << (Prelude ? " (built-in prelude)" : "");
  }
}

TEST_P(RuleDeclaration, GoodExampleDoesNotFire) {
  const RuleInfo &I = GetParam()->info();
  for (bool Prelude : {false, true}) {
    auto Findings = findingsOf(I.GoodExample, I.Id, Prelude);
    EXPECT_TRUE(Findings.empty())
        << I.Id << " fires on its own good example"
        << (Prelude ? " (built-in prelude)" : "") << ": "
        << (Findings.empty() ? "" : Findings.front()["message"].get<std::string>());
  }
}

TEST_P(RuleDeclaration, IsListed) {
  test::ProcessResult R = runProcess({CAL_TOOL_PATH, "--list-rules"});
  ASSERT_TRUE(R.exitedWith(0)) << R.describe();
  EXPECT_NE(R.Stdout.find(GetParam()->info().Id + " ("), std::string::npos)
      << R.Stdout;
}

std::vector<const Rule *> rules() {
  std::vector<const Rule *> Out;
  for (const auto &R : allRules())
    Out.push_back(R.get());
  return Out;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, RuleDeclaration, ::testing::ValuesIn(rules()),
    [](const ::testing::TestParamInfo<const Rule *> &I) {
      std::string N = I.param->info().Id;
      for (char &C : N)
        if (C == '-')
          C = '_';
      return N;
    });

TEST(RuleSelection, ChecksGlobsAndPrefix) {
  std::string Err;
  auto S = RuleSelection::parse("-*,cuda-shared-bank-conflict", Err);
  ASSERT_TRUE(S) << Err;
  EXPECT_TRUE(S->enabled("shared-bank-conflict"));
  EXPECT_FALSE(S->enabled("blocked-stride"));
  EXPECT_FALSE(RuleSelection::parse("no-such-rule", Err));
  EXPECT_NE(Err.find("matches no rule"), std::string::npos);
}

} // namespace
} // namespace cal

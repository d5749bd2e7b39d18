//===- Registry.cpp - Every rule, listed explicitly -----------------------===//

#include "rules/Registry.h"

#include "rules/BlockedStride.h"
#include "rules/MisalignedAccess.h"
#include "rules/MissingVectorization.h"
#include "rules/SharedBankConflict.h"

#include "llvm/Support/GlobPattern.h"

namespace cal {

const std::vector<std::unique_ptr<Rule>> &allRules() {
  static const std::vector<std::unique_ptr<Rule>> Rules = [] {
    std::vector<std::unique_ptr<Rule>> R;
    R.push_back(std::make_unique<BlockedStride>());
    R.push_back(std::make_unique<MissingVectorization>());
    R.push_back(std::make_unique<MisalignedAccess>());
    R.push_back(std::make_unique<SharedBankConflict>());
    return R;
  }();
  return Rules;
}

llvm::StringRef canonicalRuleId(llvm::StringRef Id) {
  Id = Id.trim();
  Id.consume_front("cuda-");
  return Id;
}

const Rule *findRule(llvm::StringRef Id) {
  Id = canonicalRuleId(Id);
  for (const auto &R : allRules())
    if (R->info().Id == Id)
      return R.get();
  return nullptr;
}

namespace {

/// A declared default that reads as a number (not a boolean).
bool numericDefault(const RuleOption &O) {
  double V;
  return !llvm::StringRef(O.Default).getAsDouble(V);
}

} // namespace

bool parseRuleOption(llvm::StringRef Setting, RuleOptionValues &Values,
                     std::string &Error, std::string *Warning) {
  auto [Key, Value] = Setting.split('=');
  auto [Id, Name] = Key.trim().rsplit('.');
  if (Name.empty() || !Setting.contains('=')) {
    Error = "expected <rule>.<option>=<value>";
    return false;
  }
  const Rule *R = findRule(Id);
  if (!R) {
    Error = "no rule '" + Id.str() + "' (see --list-rules)";
    return false;
  }
  const RuleInfo &I = R->info();
  for (const RuleOption &O : I.Options) {
    if (O.Name != Name)
      continue;
    Value = Value.trim();
    bool Boolean = O.Default == "true" || O.Default == "false";
    if (Boolean && Value != "true" && Value != "false") {
      Error = I.Id + "." + O.Name + " takes true or false, not '" +
              Value.str() + "'";
      return false;
    }
    double Number = 0;
    if (numericDefault(O) && (Value.getAsDouble(Number) || !(Number > 0))) {
      Error = I.Id + "." + O.Name + " takes a positive number, not '" +
              Value.str() + "'";
      return false;
    }
    Values[I.Id + "." + O.Name] = Value.str();
    return true;
  }
  for (const RetiredOption &O : I.RetiredOptions)
    if (O.Name == Name) {
      if (Warning)
        *Warning =
            I.Id + "." + O.Name + " is retired and has no effect: " + O.Why;
      return true;
    }
  std::string Known;
  for (const RuleOption &O : I.Options)
    Known += (Known.empty() ? "" : ", ") + O.Name;
  Error = "rule '" + I.Id + "' has no option '" + Name.str() + "'" +
          (Known.empty() ? std::string(" (it has none)")
                         : " (its options: " + Known + ")");
  return false;
}

std::optional<RuleSelection> RuleSelection::parse(llvm::StringRef Spec,
                                                  std::string &Error) {
  RuleSelection S;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Spec.split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      continue;
    bool Enable = !P.consume_front("-");
    std::string Glob = canonicalRuleId(P).str();
    auto G = llvm::GlobPattern::create(Glob);
    if (!G) {
      Error = "invalid pattern '" + P.str() + "'";
      llvm::consumeError(G.takeError());
      return std::nullopt;
    }
    bool Any = false;
    for (const auto &R : allRules())
      Any = Any || G->match(R->info().Id);
    if (!Any) {
      Error = "'" + P.str() + "' matches no rule (see --list-rules)";
      return std::nullopt;
    }
    S.Globs.push_back({Enable, Glob});
  }
  return S;
}

bool RuleSelection::enabled(llvm::StringRef Id) const {
  bool On = true; // every rule is on by default
  for (const auto &[Enable, Glob] : Globs) {
    auto G = llvm::GlobPattern::create(Glob);
    if (G && G->match(Id))
      On = Enable;
    else if (!G)
      llvm::consumeError(G.takeError());
  }
  return On;
}

std::string ruleDoc(const Rule &R) {
  const RuleInfo &I = R.info();
  std::string S;
  S += "# " + I.Id + "\n\n";
  S += "<!-- Generated from the rule's declaration in rules/; do not edit. "
       "Regenerate with `cuda-access-lint --rule-doc=" + I.Id + "`. -->\n\n";
  S += I.Summary + "\n\n";
  S += "- Default severity: " + std::string(severityName(I.DefaultSeverity)) +
       " (scaled by the predicted cost in each finding)\n";
  S += "- Fix: " + std::string(applicabilityName(I.FixApplicability)) + ". " +
       I.FixDescription + "\n";
  S += "- Suppress with `// NOLINT(" + I.Id + ")`, `// NOLINTNEXTLINE(" +
       I.Id + ")` or a `// NOLINTBEGIN(" + I.Id + ")` ... `// NOLINTEND(" +
       I.Id + ")` block.\n\n";
  S += "## Why\n\n" + I.Rationale + "\n\n";
  S += "## Example that fires\n\n```cuda\n" + I.BadExample + "```\n\n";
  S += "## What to write instead\n\n```cuda\n" + I.GoodExample + "```\n";
  if (!I.Options.empty()) {
    S += "\n## Options\n\n| option | default | meaning |\n|---|---|---|\n";
    for (const RuleOption &O : I.Options)
      S += "| `" + O.Name + "` | `" + O.Default + "` | " + O.Description +
           " |\n";
  }
  if (!I.RetiredOptions.empty()) {
    S += "\n## Retired options\n\nStill accepted (with a warning), without "
         "effect.\n\n| option | why |\n|---|---|\n";
    for (const RetiredOption &O : I.RetiredOptions)
      S += "| `" + O.Name + "` | " + O.Why + " |\n";
  }
  return S;
}

} // namespace cal

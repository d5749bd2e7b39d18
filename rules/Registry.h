//===- Registry.h - Every rule, listed in one place -----------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_REGISTRY_H
#define CUDA_ACCESS_LINT_RULES_REGISTRY_H

#include "rules/Rule.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <vector>

namespace cal {

/// All rules, in the order --list-rules shows them.
const std::vector<std::unique_ptr<Rule>> &allRules();

/// The rule with this id ("blocked-stride"; the module prefix "cuda-" is
/// accepted too), or nullptr.
const Rule *findRule(llvm::StringRef Id);

/// A rule id without the optional "cuda-" module prefix.
llvm::StringRef canonicalRuleId(llvm::StringRef Id);

/// clang-tidy style selection: "-*,blocked-stride", "*", "-misaligned-*".
/// Fails with a message for a pattern that matches no rule.
class RuleSelection {
public:
  static std::optional<RuleSelection> parse(llvm::StringRef Spec,
                                            std::string &Error);
  bool enabled(llvm::StringRef Id) const;

private:
  std::vector<std::pair<bool, std::string>> Globs; // (enable, glob)
};

/// Adds one `<rule>.<Option>=<value>` setting to \p Values, checked
/// against the rules' declared options (a boolean option takes true or
/// false, a numeric one a positive number). Fails with a message naming
/// what is wrong. A retired option is accepted and not added: \p Warning
/// (when given) says why it has no effect.
bool parseRuleOption(llvm::StringRef Setting, RuleOptionValues &Values,
                     std::string &Error, std::string *Warning = nullptr);

/// The rule's documentation page (docs/rules/<id>.md), generated from its
/// declaration.
std::string ruleDoc(const Rule &R);

} // namespace cal

#endif

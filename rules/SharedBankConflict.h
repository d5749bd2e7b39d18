//===- SharedBankConflict.h - shared-bank-conflict ---------------------------------===//
//
// Documented in docs/rules/shared-bank-conflict.md (generated from info()).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_SHAREDBANKCONFLICT_H
#define CUDA_ACCESS_LINT_RULES_SHAREDBANKCONFLICT_H

#include "rules/Rule.h"

namespace cal {

class SharedBankConflict : public Rule {
public:
  const RuleInfo &info() const override;
  void check(const RuleContext &Ctx, std::vector<Finding> &Out) const override;
};

} // namespace cal

#endif

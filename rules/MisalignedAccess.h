//===- MisalignedAccess.h - misaligned-access ---------------------------------===//
//
// Documented in docs/rules/misaligned-access.md (generated from info()).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_MISALIGNEDACCESS_H
#define CUDA_ACCESS_LINT_RULES_MISALIGNEDACCESS_H

#include "rules/Rule.h"

namespace cal {

class MisalignedAccess : public Rule {
public:
  const RuleInfo &info() const override;
  void check(const RuleContext &Ctx, std::vector<Finding> &Out) const override;
};

} // namespace cal

#endif

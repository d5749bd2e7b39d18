//===- BlockedStride.h - blocked-stride ---------------------------------===//
//
// Documented in docs/rules/blocked-stride.md (generated from info()).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_BLOCKEDSTRIDE_H
#define CUDA_ACCESS_LINT_RULES_BLOCKEDSTRIDE_H

#include "rules/Rule.h"

namespace cal {

class BlockedStride : public Rule {
public:
  const RuleInfo &info() const override;
  void check(const RuleContext &Ctx, std::vector<Finding> &Out) const override;
};

} // namespace cal

#endif

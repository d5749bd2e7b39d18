//===- MissingVectorization.h - missing-vectorization ---------------------------------===//
//
// Documented in docs/rules/missing-vectorization.md (generated from info()).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_MISSINGVECTORIZATION_H
#define CUDA_ACCESS_LINT_RULES_MISSINGVECTORIZATION_H

#include "rules/Rule.h"

namespace cal {

class MissingVectorization : public Rule {
public:
  const RuleInfo &info() const override;
  void check(const RuleContext &Ctx, std::vector<Finding> &Out) const override;
};

} // namespace cal

#endif

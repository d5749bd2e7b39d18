//===- RuleUtil.h - What every finding carries ----------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_RULEUTIL_H
#define CUDA_ACCESS_LINT_RULES_RULEUTIL_H

#include "rules/Rule.h"

namespace cal {

/// A finding of \p Info at the access \p F, with the rule's default
/// severity; the rule fills in the message.
Finding makeFinding(const RuleContext &Ctx, const AccessFacts &F,
                    const RuleInfo &Info);

/// The notes every finding ends with: the kernel configuration, the
/// symbolic offset, the call path of inlined functions, the assumptions.
void addCommonNotes(const RuleContext &Ctx, const AccessFacts &F, Finding &R);

} // namespace cal

#endif

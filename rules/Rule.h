//===- Rule.h - Rules read the analyzer's facts and decide ----------------===//
//
// A rule never matches the AST for addresses: it asks AnalysisResult. Each
// rule is declared once (RuleInfo: id, severity, summary, rationale, bad and
// good example, options, fix applicability); that declaration feeds
// --list-rules, docs/rules/<id>.md (--rule-doc) and the test that the bad
// example fires and the good one does not.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_RULES_RULE_H
#define CUDA_ACCESS_LINT_RULES_RULE_H

#include "analyzer/Analyzer.h"
#include "analyzer/LayoutSearch.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace cal {

enum class Severity { Note, Warning, Error };
const char *severityName(Severity S);

enum class FixKind { Pad, Swizzle, Vectorize, StageShared, Interchange, Realign };
const char *fixKindName(FixKind K);

/// clippy's Applicability: may --fix apply it without a person looking?
enum class Applicability { MachineApplicable, Suggestion };
const char *applicabilityName(Applicability A);

struct Edit {
  clang::CharSourceRange Range; ///< file range to replace
  std::string Text;
};

/// What a rewrite gives, computed before it is offered (the analyzer's facts
/// for the access under it): `bank_conflict_ways`, `wavefronts_per_request`,
/// `sectors_per_request` ..., and the instruction it becomes.
struct FixAfter {
  std::vector<std::pair<std::string, double>> Numbers;
  std::string Instruction;
};

struct Fix {
  FixKind Kind;
  Applicability Apply;
  std::string Description;
  std::optional<FixAfter> After;
  /// Machine-applicable fixes: the edits. Suggestions: edits may be empty;
  /// Code then holds the code to write.
  std::vector<Edit> Edits;
  std::string Code;
};

/// A note with its own location (e.g. at a declaration).
struct LocatedNote {
  clang::SourceLocation Loc;
  std::string Message;
};

struct Finding {
  std::string Rule;
  Severity Sev = Severity::Warning;
  const AccessFacts *Facts = nullptr;
  clang::SourceRange Range; ///< the access expression
  std::string Kernel;
  std::string Array;
  std::string Message;
  std::vector<std::string> Notes;          ///< at the finding's location
  std::vector<LocatedNote> LocatedNotes;   ///< elsewhere
  std::vector<Fix> Fixes;
};

struct RuleOption {
  std::string Name;
  std::string Default;
  std::string Description;
};

/// An option a rule no longer has: still accepted, with a message saying
/// why it has no effect (clang-tidy's way with removed options).
struct RetiredOption {
  std::string Name;
  std::string Why;
};

struct RuleInfo {
  std::string Id;
  Severity DefaultSeverity;
  std::string Summary;   ///< one line
  std::string Rationale; ///< why it matters, with the measurements
  std::string BadExample;  ///< a complete .cu file on which the rule fires
  std::string GoodExample; ///< the rewrite, on which it does not
  std::vector<RuleOption> Options;
  std::string FixDescription;
  Applicability FixApplicability;
  std::vector<RetiredOption> RetiredOptions = {};
};

/// Values given to rule options (`--rule-option=<rule>.<Option>=<value>`),
/// keyed "rule.Option"; an option not given has its declared default.
using RuleOptionValues = std::map<std::string, std::string>;

/// What a rule is given.
class RuleContext {
public:
  RuleContext(clang::ASTContext &Ctx, const AnalysisResult &R,
              const AnalysisOptions &Opts,
              const RuleOptionValues *Options = nullptr)
      : Ctx(Ctx), Result(R), Opts(Opts), Options(Options) {}
  clang::ASTContext &Ctx;
  const AnalysisResult &Result;
  const AnalysisOptions &Opts;
  const RuleOptionValues *Options;

  /// The value of the rule's option \p Name: as given, else its default.
  std::string option(const RuleInfo &Rule, llvm::StringRef Name) const;
  /// A boolean option ("true"/"false", validated when it was given).
  bool flag(const RuleInfo &Rule, llvm::StringRef Name) const {
    return option(Rule, Name) == "true";
  }
  /// A numeric option (validated when it was given).
  double number(const RuleInfo &Rule, llvm::StringRef Name) const;

  /// Source text of an expression or range, on one line.
  std::string text(clang::SourceRange R) const;
  /// The analyzer's facts for the accesses of the padded arrays of a
  /// kernel, under hypothetical padding.
  /// With \p FirstWarpOnly, of the block's first warp only (when the
  /// warps are walked one by one): a quick test for conflicts.
  AnalysisResult reanalyze(size_t Kernel,
                           const std::map<const clang::VarDecl *, int64_t> &Pad,
                           bool FirstWarpOnly = false) const;
  /// The facts of \p Array's accesses in kernel configuration \p Kernel
  /// with its rows padded by \p Pad elements: the innermost dimension, or
  /// with \p Rows the 1-D layout's row stride. From the rows the analysis
  /// recorded (paddedFacts, LayoutSearch.h), else by analyzing the kernel
  /// again (reanalyze, or analyzeLayout under rowPaddingRewrites): the same
  /// numbers either way. Counted in Result.PaddingsFromRows and
  /// PaddingsReanalyzed.
  AnalysisResult padded(size_t Kernel, const clang::VarDecl *Array,
                        int64_t Pad, bool FirstWarpOnly = false,
                        const RowLayout *Rows = nullptr) const;
};

class Rule {
public:
  virtual ~Rule() = default;
  virtual const RuleInfo &info() const = 0;
  virtual void check(const RuleContext &Ctx,
                     std::vector<Finding> &Out) const = 0;
};

} // namespace cal

#endif

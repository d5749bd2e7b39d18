//===- FixApplier.h - --fix: machine-applicable edits, written atomically -===//
//
// Edits are collected while each translation unit's AST is alive (as
// clang::tooling::Replacements, deduplicated: a header's fix may come from
// several files) and applied at the end with clang's own machinery. Each
// file is rewritten through a temporary file and a rename, so an
// interrupted run never leaves a damaged source; a file that changed since
// it was read is left alone.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_FIXAPPLIER_H
#define CUDA_ACCESS_LINT_TOOL_FIXAPPLIER_H

#include "report/FindingRecord.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

namespace cal {

class FixApplier {
public:
  /// The contents of \p Path as the parse read it (what an edit's offsets
  /// are into); the first one given for a file is kept.
  void noteContents(const std::string &Path, std::string Contents);
  /// Records the machine-applicable edits of \p F.
  void add(const FindingRecord &F);

  /// Applies everything recorded; one line on \p Errs per file that could
  /// not be fixed. Returns the number of files changed, or -1 on an error.
  int applyAll(llvm::raw_ostream &Errs, llvm::raw_ostream &Log);

private:
  struct FileEdits {
    clang::tooling::Replacements Replacements;
    std::string ContentsWhenRead;
    bool HaveContents = false;
    unsigned Conflicts = 0;
  };
  std::map<std::string, FileEdits> Files;
};

} // namespace cal

#endif

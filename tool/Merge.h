//===- Merge.h - --merge: one document from several runs' documents ------===//
//
//   cuda-access-lint --merge a.json b.json ... [--format=sarif|github|...]
//   cuda-access-lint --merge a.sarif b.sarif ...
//
// The shards of a CI matrix (--shard=K/N), or the runs of several build
// directories, each wrote a document; --merge writes one. JSON documents
// are read back into finding records, so they merge into any format (one
// finding per place: a header's finding that two shards report is kept
// once); SARIF documents merge into SARIF (results concatenated, one per
// fingerprint and place); reviewdog lines into lines. The input format is
// recognized from the content; a document that is none of them is one line
// and exit 3.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_TOOL_MERGE_H
#define CUDA_ACCESS_LINT_TOOL_MERGE_H

#include "output/SarifReport.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cal {

/// \p Format: "json", "sarif", "github", "rdjsonl", "text", or empty for
/// the inputs' own. Returns the exit status (0 clean, 1 findings, 3 bad
/// input).
int runMerge(const std::vector<std::string> &Inputs, const std::string &Format,
             const SarifOptions &Sarif, bool Color, llvm::raw_ostream &Out,
             llvm::raw_ostream &Err);

} // namespace cal

#endif

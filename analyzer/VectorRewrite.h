//===- VectorRewrite.h - An access rewritten with vector accesses, priced -===//
//
// missing-vectorization's question, answered by the cost model (CostModel.h):
// what would the kernel's time be if this access, and the accesses the same
// rewrite changes, moved 16 bytes per lane? The rewrite follows the access's
// pattern (VectorForm):
//
//   Run           in[i], in[i + 1], in[i + 2], in[i + 3]    (i = 4 * tid)
//                 -> one float4 at the same lanes
//   Striped       for (i = tid; i < n; i += blockDim.x) x[i]
//   WarpStride    for (c = lane; c < C; c += 32) row[c]
//                 -> 16 bytes a lane, lanes 16 bytes apart, 1/K the trips
//   Tile          for (j = 0; j < 32; j += 8) out[(y + j) * W + x] = in[...]
//                 -> K trips' rows in one instruction, 1/K the trips
//   OnePerThread  out[k] = in[k]                            (no loop)
//                 -> K elements a thread, K times fewer blocks
//
// (K = 16 / element size.) A loop's rewrite changes every access of the loop
// that moves the same way, a one-element-per-thread rewrite every such access
// of the kernel: they are priced together, as one group. The kernel is
// predicted as it is and with the group rewritten, with the same arithmetic;
// where the prediction is incomplete (grid, a trip count, an address
// unknown) the times are unset and Missing says why: no gain is guessed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_VECTORREWRITE_H
#define CUDA_ACCESS_LINT_ANALYZER_VECTORREWRITE_H

#include "analyzer/Analyzer.h"

namespace cal {

/// Fills AccessFacts::Vectorized for every access of \p R whose pattern
/// admits a vector rewrite (a global load or store of fewer than 16 bytes a
/// lane, lanes contiguous or filled by the thread's own neighbours).
void predictVectorizedRewrites(AnalysisResult &R);

} // namespace cal

#endif

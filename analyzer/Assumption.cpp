//===- Assumption.cpp - What a fact rests on ------------------------------===//

#include "analyzer/Assumption.h"

#include <algorithm>

namespace cal {

void addAssumption(AssumptionList &L, Assumption A) {
  if (std::find(L.begin(), L.end(), A) == L.end())
    L.push_back(std::move(A));
}

void addAssumptions(AssumptionList &L, const AssumptionList &From) {
  for (const Assumption &A : From)
    addAssumption(L, A);
}

bool hasAssumption(const AssumptionList &L, Assumption::Kind K) {
  return std::any_of(L.begin(), L.end(),
                     [&](const Assumption &A) { return A.K == K; });
}

const char *assumptionKindName(Assumption::Kind K) {
  using K_ = Assumption::Kind;
  switch (K) {
  case K_::BlockShape:
    return "block-shape";
  case K_::BlockShapeUnknown:
    return "block-shape-unknown";
  case K_::ParameterValue:
    return "parameter-value";
  case K_::ParameterBlockSize:
    return "parameter-block-size";
  case K_::PointerOffset:
    return "pointer-offset";
  case K_::UserValue:
    return "user-value";
  case K_::HostGlobal:
    return "host-global";
  case K_::FirstWarpOnly:
    return "first-warp-only";
  case K_::BaseAlignment:
    return "base-alignment";
  case K_::BaseAlignmentUnknown:
    return "base-alignment-unknown";
  case K_::OffsetAlignmentUnknown:
    return "offset-alignment-unknown";
  case K_::LargeDistance:
    return "large-distance";
  case K_::WarpUniformQuotient:
    return "warp-uniform-quotient";
  case K_::LaneClass:
    return "lane-class";
  case K_::CommonCaseBound:
    return "common-case-bound";
  case K_::CommonCaseClamp:
    return "common-case-clamp";
  case K_::EdgeCondition:
    return "edge-condition";
  case K_::UndecidedBranch:
    return "undecided-branch";
  case K_::LoopIterations:
    return "loop-iterations";
  case K_::LoopPrefix:
    return "loop-prefix";
  case K_::FootprintIterations:
    return "footprint-iterations";
  case K_::FullUnroll:
    return "full-unroll";
  }
  return "?";
}

} // namespace cal

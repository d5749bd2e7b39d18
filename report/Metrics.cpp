//===- Metrics.cpp --------------------------------------------------------===//

#include "report/Metrics.h"

#include <cmath>

namespace cal {

using nlohmann::json;

json jsonNumber(double V) {
  if (std::isnan(V) || std::isinf(V))
    return nullptr;
  double R = std::round(V);
  if (std::abs(V - R) < 1e-9 && std::abs(R) < 9e15)
    return static_cast<int64_t>(R);
  double Scale = std::pow(10.0, 5 - std::floor(std::log10(std::abs(V))));
  return std::round(V * Scale) / Scale;
}

json metricsJson(const AccessFacts &F) {
  json M;
  M["bytes_per_lane"] = F.BytesPerLane;
  M["active_lanes"] = F.ActiveLanes;
  M["sectors_per_request"] = optNumber(F.SectorsPerRequest);
  M["lines_per_request"] = optNumber(F.LinesPerRequest);
  M["ideal_sectors_per_request"] = optNumber(F.IdealSectors);
  M["sector_utilization"] = optNumber(F.SectorUtilization);
  M["lane_stride_bytes"] = optNumber(F.LaneStrideBytes);
  switch (F.Alignment) {
  case AlignmentFact::Aligned:
    M["aligned"] = true;
    break;
  case AlignmentFact::Misaligned:
    M["aligned"] = false;
    break;
  default:
    M["aligned"] = nullptr;
  }
  M["misalign_bytes"] = optNumber(F.MisalignBytes);
  // (Only where the alignment rests on one kernel parameter.)
  if (const std::optional<AlignmentCondition> &C = F.AlignedIf) {
    M["aligned_if"] = {
        {"condition", C->text()},
        {"variable", C->Variable},
        {"modulus", C->Modulus},
        {"row_pitch", C->RowPitch},
        {"sectors_per_request_if_not", jsonNumber(C->SectorsIfNotMax)},
        {"sectors_per_request_if_not_min", jsonNumber(C->SectorsIfNotMin)},
        {"vector_aligned_if",
         C->VectorModulus > 1
             ? json(alignmentConditionText(C->Variable, C->VectorModulus))
             : json(nullptr)}};
  }
  M["wavefronts_per_request"] = optNumber(F.WavefrontsPerRequest);
  M["bank_conflict_ways"] = optNumber(F.BankConflictWays);
  M["emitted_bytes"] = F.Emitted.Bytes ? json(F.Emitted.Bytes) : json(nullptr);
  M["per_thread_contiguous_bytes"] = optNumber(F.PerThreadContiguousBytes);
  M["footprint_utilization"] = optNumber(F.FootprintUtilization);
  M["same_address_warps"] =
      F.AddressKnown && F.Space == MemSpace::Global && F.Kind == AccessKind::Load
          ? jsonNumber(F.SameAddressWarps)
          : json(nullptr);
  return M;
}

} // namespace cal

//===- CostModel.cpp ------------------------------------------------------===//

#include "analyzer/CostModel.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace cal {

KernelPrediction predictKernel(const AnalysisResult &R, size_t Kernel) {
  KernelPrediction P;
  const KernelInfo &K = R.Kernels[Kernel];
  P.Complete = true;
  if (K.Shape.Dim) {
    const Dim3 &D = *K.Shape.Dim;
    P.WarpsPerBlock = std::ceil(double(D[0] * D[1] * D[2]) / WarpSize);
  } else {
    P.Complete = false;
    P.Missing.push_back("block shape");
  }
  if (K.Shape.Grid) {
    const Dim3 &G = *K.Shape.Grid;
    P.Blocks = double(G[0]) * double(G[1]) * double(G[2]);
  } else {
    P.Complete = false;
    P.Missing.push_back("grid size");
  }
  double Warps = P.WarpsPerBlock * P.Blocks;
  for (const AccessFacts &F : R.Accesses) {
    if (F.Kernel != Kernel || F.Space == MemSpace::Local)
      continue;
    if (!F.ExecutionsPerWarp) {
      P.Complete = false;
      P.Missing.push_back("trip count of a loop around `" + F.Array + "`");
      continue;
    }
    if (!F.AddressKnown) {
      P.Complete = false;
      P.Missing.push_back("addresses of `" + F.Array + "`");
      continue;
    }
    double Requests = *F.ExecutionsPerWarp * Warps;
    if (F.Space == MemSpace::Shared) {
      P.SharedRequests += Requests;
      P.SharedWavefronts += Requests * F.WavefrontsPerRequest.value_or(1);
      continue;
    }
    P.GlobalRequests += Requests;
    P.GlobalLines += Requests * F.LinesPerRequest.value_or(0);
    P.GlobalSectors += Requests * F.SectorsPerRequest.value_or(0);
    if (F.Kind != AccessKind::Load)
      P.PartialStoreSectors +=
          Requests * F.PartialSectorsPerRequest.value_or(0);
    double Bytes = Requests * F.BytesPerRequest.value_or(0);
    // Holes between lanes at a constant stride that the loop never fills
    // stay holes for every warp: whole sectors cross the bus.
    // (Accesses of the same iteration that continue each lane's run --
    // hand-unrolled neighbours, the other pieces of a struct -- fill them.)
    int64_t Filled = int64_t(F.SiblingRun) * F.BytesPerLane;
    bool PermanentHoles = F.LaneGroups == 1 && F.LaneStrideBytes &&
                          std::abs(*F.LaneStrideBytes) > Filled &&
                          F.FootprintUtilization &&
                          *F.FootprintUtilization < 0.99;
    if (PermanentHoles && *F.FootprintUtilization > 0)
      Bytes /= *F.FootprintUtilization;
    P.DramBytes += Bytes;
  }
  P.DramTime = P.DramBytes / H200::DramBytesPerSecond;
  P.L1Time = (P.GlobalLines + P.SharedWavefronts +
              H200::PartialStoreSectorWeight * P.PartialStoreSectors +
              H200::SectorWeight * P.GlobalSectors) /
             H200::L1UnitsPerSecond;
  P.IssueTime = P.GlobalRequests / H200::RequestsPerSecond;
  double E = H200::Overlap;
  P.Time = std::pow(std::pow(P.DramTime, E) + std::pow(P.L1Time, E) +
                        std::pow(P.IssueTime, E),
                    1.0 / E);
  if (!P.Complete)
    P.Regime = "unknown";
  else if (P.DramBytes < H200::L2Bytes)
    P.Regime = "small data: fits in the 60 MB L2, launch overhead and cache "
               "state dominate; the ranking may not hold";
  else if (P.Blocks < 2 * H200::SMs)
    P.Regime = "few blocks: fewer than twice the SM count, load width "
               "matters more than the model says";
  else
    P.Regime = "bandwidth-saturated";
  return P;
}

double accessExcessCost(const AccessFacts &F) {
  if (!F.AddressKnown)
    return 0;
  double Units = 0;
  if (F.Space == MemSpace::Shared) {
    Units = F.WavefrontsPerRequest.value_or(1) - F.IdealWavefronts.value_or(1);
  } else {
    double Ideal = F.IdealSectors.value_or(F.SectorsPerRequest.value_or(0));
    double IdealLines = std::ceil(Ideal / 4);
    Units = F.LinesPerRequest.value_or(0) - IdealLines +
            H200::SectorWeight * (F.SectorsPerRequest.value_or(0) - Ideal);
    if (F.Kind != AccessKind::Load)
      Units += H200::PartialStoreSectorWeight *
               F.PartialSectorsPerRequest.value_or(0);
  }
  return std::max(0.0, Units) * F.ExecutionsPerWarp.value_or(1);
}

} // namespace cal

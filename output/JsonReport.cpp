//===- JsonReport.cpp -----------------------------------------------------===//

#include "output/JsonReport.h"

#include "output/Location.h"

#include "analyzer/CostModel.h"

#include "clang/Lex/Lexer.h"

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

namespace {

template <typename T> json optNumber(const std::optional<T> &V) {
  if (!V)
    return nullptr;
  return jsonNumber(static_cast<double>(*V));
}

} // namespace

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
  M["wavefronts_per_request"] = optNumber(F.WavefrontsPerRequest);
  M["bank_conflict_ways"] = optNumber(F.BankConflictWays);
  M["per_thread_contiguous_bytes"] = optNumber(F.PerThreadContiguousBytes);
  M["footprint_utilization"] = optNumber(F.FootprintUtilization);
  return M;
}

json accessJson(const AccessFacts &F, const AnalysisResult &R,
                const clang::SourceManager &SM) {
  json J;
  Position P = positionOf(SM, F.E->getBeginLoc());
  J["file"] = P.File;
  J["line"] = P.Line;
  J["column"] = P.Column;
  J["kernel"] = R.Kernels[F.Kernel].Name;
  J["array"] = F.Array;
  J["space"] = spaceName(F.Space);
  J["kind"] = accessKindName(F.Kind);
  J["type"] = F.Type.getAsString();
  J["bytes_per_lane"] = F.BytesPerLane;
  J["active_lanes"] = F.ActiveLanes;
  json M = metricsJson(F);
  for (auto &[K, V] : M.items())
    J[K] = V;
  J["alignment"] = alignmentName(F.Alignment);
  J["vector_aligned"] =
      F.VectorAligned ? json(*F.VectorAligned) : json(nullptr);
  J["sibling_run"] = F.SiblingRun;
  json Loops = json::array();
  for (const LoopFact &L : F.Loops) {
    json LJ;
    LJ["var"] = L.VarName.empty() ? json(nullptr) : json(L.VarName);
    LJ["trip_count"] = optNumber(L.Trip);
    LJ["stride_bytes"] = optNumber(L.StrideBytes);
    Loops.push_back(LJ);
  }
  J["loops"] = Loops;
  J["executions_per_warp"] = optNumber(F.ExecutionsPerWarp);
  J["symbolic"] = F.Symbolic.empty() ? json(nullptr) : json(F.Symbolic);
  J["assumptions"] = F.Assumptions;
  J["unknown_reason"] =
      F.AddressKnown ? json(nullptr) : json(F.UnknownReason);
  if (!F.CallStack.empty()) {
    json Via = json::array();
    for (const clang::Expr *C : F.CallStack) {
      Position CP = positionOf(SM, C->getBeginLoc());
      Via.push_back(CP.File + ":" + std::to_string(CP.Line));
    }
    J["inlined_from"] = Via;
  }
  return J;
}

json findingJson(const Finding &F, clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  json J;
  Position B = positionOf(SM, F.Range.getBegin());
  Position E = endPositionOf(SM, Ctx.getLangOpts(), F.Range.getEnd());
  J["rule"] = F.Rule;
  J["severity"] = severityName(F.Sev);
  J["file"] = B.File;
  J["line"] = B.Line;
  J["column"] = B.Column;
  J["offset"] = B.Offset;
  J["end_line"] = E.valid() ? E.Line : B.Line;
  J["end_column"] = E.valid() ? E.Column : B.Column;
  J["kernel"] = F.Kernel;
  J["array"] = F.Array;
  J["message"] = F.Message;
  J["metrics"] = F.Facts ? metricsJson(*F.Facts) : json::object();
  json Notes = F.Notes;
  for (const LocatedNote &N : F.LocatedNotes) {
    Position P = positionOf(SM, N.Loc);
    Notes.push_back(P.File + ":" + std::to_string(P.Line) + ":" +
                    std::to_string(P.Column) + ": " + N.Message);
  }
  J["notes"] = Notes;
  json Fixes = json::array();
  for (const Fix &X : F.Fixes) {
    json FJ;
    FJ["kind"] = fixKindName(X.Kind);
    FJ["applicability"] = applicabilityName(X.Apply);
    FJ["description"] = X.Description;
    if (!X.Code.empty())
      FJ["code"] = X.Code;
    json Reps = json::array();
    for (const Edit &Ed : X.Edits) {
      Position RB = positionOf(SM, Ed.Range.getBegin());
      Position RE = positionOf(SM, Ed.Range.getEnd());
      Reps.push_back({{"file", RB.File},
                      {"offset", RB.Offset},
                      {"length", RE.Offset - RB.Offset},
                      {"line", RB.Line},
                      {"column", RB.Column},
                      {"text", Ed.Text}});
    }
    FJ["replacements"] = Reps;
    Fixes.push_back(FJ);
  }
  J["fixes"] = Fixes;
  return J;
}

json predictionJson(const KernelPrediction &P) {
  json J;
  J["complete"] = P.Complete;
  J["missing"] = P.Missing;
  J["blocks"] = jsonNumber(P.Blocks);
  J["warps_per_block"] = jsonNumber(P.WarpsPerBlock);
  J["global_requests"] = jsonNumber(P.GlobalRequests);
  J["global_lines"] = jsonNumber(P.GlobalLines);
  J["global_sectors"] = jsonNumber(P.GlobalSectors);
  J["partial_store_sectors"] = jsonNumber(P.PartialStoreSectors);
  J["shared_requests"] = jsonNumber(P.SharedRequests);
  J["shared_wavefronts"] = jsonNumber(P.SharedWavefronts);
  J["dram_bytes"] = jsonNumber(P.DramBytes);
  J["dram_time_us"] = jsonNumber(P.DramTime * 1e6);
  J["l1_time_us"] = jsonNumber(P.L1Time * 1e6);
  J["issue_time_us"] = jsonNumber(P.IssueTime * 1e6);
  J["time_us"] = P.Complete ? jsonNumber(P.Time * 1e6) : json(nullptr);
  J["regime"] = P.Regime;
  return J;
}

json kernelJson(const KernelInfo &K, const clang::SourceManager &SM) {
  json J;
  Position P = positionOf(SM, K.Decl->getLocation());
  J["file"] = P.File;
  J["line"] = P.Line;
  J["name"] = K.Name;
  if (K.Shape.Dim)
    J["block_dim"] = {(*K.Shape.Dim)[0], (*K.Shape.Dim)[1], (*K.Shape.Dim)[2]};
  else
    J["block_dim"] = nullptr;
  J["block_dim_source"] = K.Shape.Source;
  J["assumptions"] = K.Shape.Assumptions;
  J["warps_enumerated"] = K.ConcreteWarps;
  if (K.Shape.Grid)
    J["grid_dim"] = {(*K.Shape.Grid)[0], (*K.Shape.Grid)[1], (*K.Shape.Grid)[2]};
  else
    J["grid_dim"] = nullptr;
  return J;
}

JsonReport::JsonReport() {
  Doc["version"] = 1;
  Doc["tool"] = {{"name", "cuda-access-lint"}, {"version", CAL_VERSION}};
  Doc["files"] = json::array();
  Doc["kernels"] = json::array();
  Doc["findings"] = json::array();
  Doc["accesses"] = json::array();
}

void JsonReport::write(llvm::raw_ostream &OS, bool WithAccesses) {
  json Out = Doc;
  if (!WithAccesses)
    Out.erase("accesses");
  unsigned ParseErrors = 0;
  for (const json &F : Doc["files"])
    ParseErrors += F.value("parse_errors", 0u);
  Out["summary"] = {{"files", Doc["files"].size()},
                    {"kernels", Doc["kernels"].size()},
                    {"findings", Doc["findings"].size()},
                    {"parse_errors", ParseErrors}};
  OS << Out.dump(2) << "\n";
}

} // namespace cal

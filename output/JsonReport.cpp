//===- JsonReport.cpp -----------------------------------------------------===//

#include "output/JsonReport.h"

#include "support/Location.h"
#include "report/Metrics.h"

#include "analyzer/CostModel.h"

#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cmath>

namespace cal {

using nlohmann::json;

namespace {

/// The assumptions' sentences, in order.
json assumptionsJson(const AssumptionList &L) {
  json J = json::array();
  for (const Assumption &A : L)
    J.push_back(A.Message);
  return J;
}

/// The access rewritten with vector accesses, as the cost model prices it
/// (analyzer/VectorRewrite.h).
json vectorizedJson(const VectorizedFacts &V) {
  json J;
  J["form"] = vectorFormName(V.Form);
  J["bytes_per_lane"] = V.BytesPerLane;
  J["accesses_rewritten"] = V.Group.size();
  J["requests_per_warp"] =
      V.ExecutionsKnown ? jsonNumber(V.RequestsBefore) : json(nullptr);
  J["requests_per_warp_after"] =
      V.ExecutionsKnown ? jsonNumber(V.RequestsAfter) : json(nullptr);
  J["fewer_requests"] = jsonNumber(V.RequestsBefore / V.RequestsAfter);
  J["lines_per_request_after"] = jsonNumber(V.LinesAfter);
  J["sectors_per_request_after"] = jsonNumber(V.SectorsAfter);
  J["blocks_after"] =
      V.BlocksAfter ? jsonNumber(*V.BlocksAfter) : json(nullptr);
  J["time_us"] = V.TimeBefore ? jsonNumber(*V.TimeBefore * 1e6) : json(nullptr);
  J["time_us_after"] =
      V.TimeAfter ? jsonNumber(*V.TimeAfter * 1e6) : json(nullptr);
  J["gain"] = V.gain() ? jsonNumber(*V.gain()) : json(nullptr);
  J["missing"] = V.Missing;
  return J;
}

} // namespace

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
  // The instruction ptxas emits (analyzer/EmittedWidth.h).
  J["emitted_bytes"] = F.Emitted.Bytes ? json(F.Emitted.Bytes) : json(nullptr);
  J["emitted_instruction"] =
      F.Emitted.Opcode.empty() ? json(nullptr) : json(F.Emitted.Opcode);
  J["run_accesses"] = F.Emitted.RunAccesses;
  J["run_instructions"] = F.Emitted.RunInstructions;
  J["run_widths"] = F.Emitted.RunWidths;
  J["emitted_why"] =
      F.Emitted.Why.empty() ? json(nullptr) : json(F.Emitted.Why);
  J["source_bank_conflict_ways"] = optNumber(F.Emitted.SourceBankConflictWays);
  J["source_wavefronts_per_request"] =
      optNumber(F.Emitted.SourceWavefrontsPerRequest);
  J["symbolic"] = F.Symbolic.empty() ? json(nullptr) : json(F.Symbolic);
  J["assumptions"] = assumptionsJson(F.Assumptions);
  J["vectorized"] =
      F.Vectorized ? vectorizedJson(*F.Vectorized) : json(nullptr);
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

namespace {

std::string noteText(const NoteRecord &N) {
  return N.At.File + ":" + std::to_string(N.At.Line) + ":" +
         std::to_string(N.At.Column) + ": " + N.Message;
}

} // namespace

std::vector<std::string> allNotes(const FindingRecord &F) {
  std::vector<std::string> Notes = F.Notes;
  for (const NoteRecord &N : F.LocatedNotes)
    Notes.push_back(noteText(N));
  return Notes;
}

json findingJson(const FindingRecord &F) {
  json J;
  J["rule"] = F.Rule;
  J["severity"] = severityName(F.Sev);
  J["file"] = F.Begin.File;
  J["line"] = F.Begin.Line;
  J["column"] = F.Begin.Column;
  J["offset"] = F.Begin.Offset;
  J["end_line"] = F.EndLine;
  J["end_column"] = F.EndColumn;
  J["kernel"] = F.Kernel;
  J["array"] = F.Array;
  J["message"] = F.Message;
  J["metrics"] = F.Metrics;
  J["notes"] = allNotes(F);
  json Fixes = json::array();
  for (const FixRecord &X : F.Fixes) {
    json FJ;
    FJ["kind"] = fixKindName(X.Kind);
    FJ["applicability"] = applicabilityName(X.Apply);
    FJ["description"] = X.Description;
    if (!X.Code.empty())
      FJ["code"] = X.Code;
    if (!X.After.is_null())
      FJ["after"] = X.After;
    json Reps = json::array();
    for (const EditRecord &Ed : X.Edits)
      Reps.push_back({{"file", Ed.At.File},
                      {"offset", Ed.At.Offset},
                      {"length", Ed.Length},
                      {"line", Ed.At.Line},
                      {"column", Ed.At.Column},
                      {"text", Ed.Text}});
    FJ["replacements"] = Reps;
    Fixes.push_back(FJ);
  }
  J["fixes"] = Fixes;
  J["cost"] = jsonNumber(F.Cost);
  J["fingerprint"] = F.Fingerprint;
  json Cs = json::array();
  for (const ConfigurationRecord &C : F.Configurations) {
    json CJ;
    CJ["kernel"] = C.Kernel;
    CJ["block_dim"] = C.BlockDim ? json({(*C.BlockDim)[0], (*C.BlockDim)[1],
                                         (*C.BlockDim)[2]})
                                 : json(nullptr);
    CJ["severity"] = severityName(C.Sev);
    CJ["message"] = C.Message;
    CJ["metrics"] = C.Metrics;
    CJ["cost"] = jsonNumber(C.Cost);
    Cs.push_back(CJ);
  }
  J["configurations"] = Cs;
  return J;
}

namespace {

SourcePlace placeFromJson(const json &J, const char *File, const char *Line,
                          const char *Column, const char *Offset) {
  SourcePlace P;
  P.File = J.value(File, "");
  llvm::SmallString<256> Abs(P.File);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  P.Path = Abs.str().str();
  P.Line = J.value(Line, 0u);
  P.Column = J.value(Column, 0u);
  P.Offset = J.value(Offset, 0u);
  return P;
}

std::optional<FixKind> fixKindFromName(const std::string &N) {
  for (FixKind K : {FixKind::Pad, FixKind::Swizzle, FixKind::Vectorize,
                    FixKind::StageShared, FixKind::Interchange,
                    FixKind::Realign})
    if (N == fixKindName(K))
      return K;
  return std::nullopt;
}

} // namespace

std::optional<FindingRecord> findingFromJson(const json &J) {
  if (!J.is_object() || !J.contains("rule") || !J.contains("file") ||
      !J.contains("line") || !J["rule"].is_string() || !J["file"].is_string())
    return std::nullopt;
  try {
    FindingRecord F;
    F.Rule = J["rule"];
    F.Sev = severityFromName(J.value("severity", "warning"));
    F.Begin = placeFromJson(J, "file", "line", "column", "offset");
    F.EndToken = F.Begin;
    F.EndLine = J.value("end_line", F.Begin.Line);
    F.EndColumn = J.value("end_column", F.Begin.Column);
    F.Kernel = J.value("kernel", "");
    F.KernelBase = llvm::StringRef(F.Kernel).split('<').first.str();
    F.Array = J.value("array", "");
    F.Message = J.value("message", "");
    F.Metrics = J.value("metrics", json::object());
    for (const json &N : J.value("notes", json::array()))
      F.Notes.push_back(N.get<std::string>());
    for (const json &X : J.value("fixes", json::array())) {
      FixRecord FR;
      FR.Kind = fixKindFromName(X.value("kind", "")).value_or(FixKind::Pad);
      FR.Apply = X.value("applicability", "") == "machine-applicable"
                     ? Applicability::MachineApplicable
                     : Applicability::Suggestion;
      FR.Description = X.value("description", "");
      FR.Code = X.value("code", "");
      if (auto A = X.find("after"); A != X.end())
        FR.After = *A;
      for (const json &R : X.value("replacements", json::array())) {
        EditRecord E;
        E.At = placeFromJson(R, "file", "line", "column", "offset");
        E.Length = R.value("length", 0u);
        E.Text = R.value("text", "");
        FR.Edits.push_back(E);
      }
      F.Fixes.push_back(FR);
    }
    F.Cost = J.value("cost", 0.0);
    F.Fingerprint = J.value("fingerprint", "");
    for (const json &C : J.value("configurations", json::array())) {
      ConfigurationRecord CR;
      CR.Kernel = C.value("kernel", "");
      CR.Sev = severityFromName(C.value("severity", "warning"));
      CR.Message = C.value("message", "");
      CR.Metrics = C.value("metrics", json::object());
      CR.Cost = C.value("cost", 0.0);
      if (C.contains("block_dim") && C["block_dim"].is_array() &&
          C["block_dim"].size() == 3) {
        CR.BlockDim = Dim3{C["block_dim"][0], C["block_dim"][1],
                           C["block_dim"][2]};
        CR.Shape = dimText(*CR.BlockDim);
      }
      CR.Key = CR.Kernel + "|" + CR.Shape;
      F.Configurations.push_back(CR);
    }
    return F;
  } catch (const json::exception &) {
    return std::nullopt;
  }
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
  J["miss_requests"] = jsonNumber(P.MissRequests);
  J["store_lines"] = jsonNumber(P.StoreLines);
  J["partial_store_sectors"] = jsonNumber(P.PartialStoreSectors);
  J["shared_requests"] = jsonNumber(P.SharedRequests);
  J["shared_wavefronts"] = jsonNumber(P.SharedWavefronts);
  J["dram_bytes"] = jsonNumber(P.DramBytes);
  J["dram_read_bytes"] = jsonNumber(P.DramReadBytes);
  J["dram_time_us"] = jsonNumber(P.DramTime * 1e6);
  J["l1_time_us"] = jsonNumber(P.L1Time * 1e6);
  J["l2_time_us"] = jsonNumber(P.L2Time * 1e6);
  J["issue_time_us"] = jsonNumber(P.IssueTime * 1e6);
  J["latency_time_us"] = jsonNumber(P.LatencyTime * 1e6);
  J["bytes_in_flight_per_warp"] = jsonNumber(P.BytesInFlightPerWarp);
  J["resident_warps_per_sm"] = jsonNumber(P.ResidentWarpsPerSM);
  J["resident_range_bytes"] = jsonNumber(P.ResidentRangeBytes);
  J["regions_in_flight"] = jsonNumber(P.RegionsInFlight);
  J["dram_range_factor"] = jsonNumber(P.DramRangeFactor);
  J["read_write_mix"] = jsonNumber(P.ReadWriteMix);
  J["block_barrier"] = P.BlockBarrier;
  J["mem_core_overlap"] = jsonNumber(P.MemCoreOverlap);
  J["store_fill_bytes"] = jsonNumber(P.StoreFillBytes);
  J["shared_time_us"] = jsonNumber(P.SharedTime * 1e6);
  J["compute_time_us"] = jsonNumber(P.ComputeTime * 1e6);
  J["block_time_us"] = jsonNumber(P.BlockTime * 1e6);
  json A;
  A["fp32"] = {{"fma", jsonNumber(P.Flops.Fma32)}, {"mul", jsonNumber(P.Flops.Mul32)},
               {"add", jsonNumber(P.Flops.Add32)}, {"div", jsonNumber(P.Flops.Div32)}};
  A["fp64"] = {{"fma", jsonNumber(P.Flops.Fma64)}, {"mul", jsonNumber(P.Flops.Mul64)},
               {"add", jsonNumber(P.Flops.Add64)}, {"div", jsonNumber(P.Flops.Div64)}};
  A["complete"] = P.Flops.Complete;
  J["arithmetic_per_thread"] = A;
  J["flops"] = jsonNumber(P.TotalFlops);
  J["arithmetic_intensity"] =
      P.DramBytes > 0 ? jsonNumber(P.ArithmeticIntensity) : json(nullptr);
  J["bound"] = P.Bound.empty() ? json(nullptr) : json(P.Bound);
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
  J["assumptions"] = assumptionsJson(K.Shape.Assumptions);
  // (Only when the user assumed values: --assume.)
  if (!K.Shape.AssumedValues.empty())
    J["assumed_values"] = json::array();
  for (const AssumedUse &A : K.Shape.AssumedValues)
    J["assumed_values"].push_back({{"name", A.Name},
                                   {"value", A.Value},
                                   {"source", A.Source},
                                   {"used_for", A.Where}});
  J["warps_enumerated"] = K.ConcreteWarps;
  if (!K.Stopped.empty())
    J["analysis_stopped"] = K.Stopped;
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

//===- Run.cpp ------------------------------------------------------------===//

#include "tool/Run.h"

#include "analyzer/CostModel.h"
#include "output/JsonReport.h"
#include "output/TextReport.h"
#include "report/Grouping.h"

#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/Format.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace cal {

namespace {

/// Which file (by input index) reports each kernel configuration: the
/// lowest index that reached it.
class ClaimTable {
public:
  /// True when \p Index should analyze \p Key: no earlier file has it.
  bool claim(const std::string &Key, size_t Index) {
    std::lock_guard<std::mutex> L(M);
    auto [It, New] = Owner.try_emplace(Key, Index);
    if (New)
      return true;
    if (It->second < Index)
      return false;
    It->second = Index;
    return true;
  }
  bool owns(const std::string &Key, size_t Index) const {
    if (Key.empty())
      return true;
    auto It = Owner.find(Key);
    return It == Owner.end() || It->second == Index;
  }

private:
  std::mutex M;
  std::map<std::string, size_t> Owner;
};

double msBetween(std::chrono::steady_clock::time_point A,
                 std::chrono::steady_clock::time_point B) {
  return std::chrono::duration<double, std::milli>(B - A).count();
}

void lintParsed(clang::ASTContext &Ctx, const LintSettings &Base,
                const RunOptions &Opts, size_t Index, ClaimTable &Claims,
                FileOutcome &Out, std::chrono::steady_clock::time_point Start,
                llvm::raw_ostream &Log) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  auto T0 = std::chrono::steady_clock::now();
  LintSettings Settings = Base;
  if (!Out.Info.ToolkitRoot.empty())
    Settings.ExcludedRoots.push_back(Out.Info.ToolkitRoot);
  Settings.Analysis.ClaimKernel = [&](const KernelInfo &K) {
    return Claims.claim(configurationKey(K, SM), Index);
  };
  AnalysisResult R;
  LintTimes Times;
  std::vector<Finding> Findings =
      lintTranslationUnit(Ctx, Settings, Out.Info.ErrorLocs, R, &Times);
  Out.Suppressed = Times.Suppressed;
  if (Opts.TimePhases)
    Log << "cuda-access-lint: time: " << Out.File << ": parse "
        << llvm::format("%.0f", msBetween(Start, T0)) << " ms"
        << (Out.Info.Preamble == "off" ? std::string()
                                       : " (preamble " + Out.Info.Preamble + ")")
        << ", analysis "
        << llvm::format("%.1f", Times.AnalysisMs) << " ms ("
        << R.Kernels.size() << " kernel configurations, "
        << R.Accesses.size() << " accesses), rules "
        << llvm::format("%.1f", Times.RulesMs) << " ms"
        << (R.PaddingsFromRows + R.PaddingsReanalyzed
                ? " (paddings priced: " + std::to_string(R.PaddingsFromRows) +
                      " from recorded rows, " +
                      std::to_string(R.PaddingsReanalyzed) + " re-analyzed, " +
                      std::to_string(R.PaddingSearchWalks) +
                      " walks to record rows)"
                : std::string())
        << "\n";

  for (size_t I = 0; I < R.Kernels.size(); ++I) {
    const KernelInfo &K = R.Kernels[I];
    if (K.Stopped.empty())
      continue;
    Log << stoppedKernelMessage(R, I, SM) << "\n";
  }

  std::vector<std::string> Keys;
  for (size_t I = 0; I < R.Kernels.size(); ++I) {
    Keys.push_back(configurationKey(R.Kernels[I], SM));
    nlohmann::json KJ = kernelJson(R.Kernels[I], SM);
    KJ["prediction"] = predictionJson(predictKernel(R, I));
    Out.Kernels.push_back({Keys.back(), KJ});
  }
  for (const Finding &F : Findings) {
    Out.Findings.push_back(makeRecord(F, Ctx, R));
    for (const Fix &X : F.Fixes) {
      if (X.Apply != Applicability::MachineApplicable)
        continue;
      for (const Edit &E : X.Edits) {
        SourcePlace P = placeOf(SM, E.Range.getBegin());
        if (!P.Path.empty() && !Out.Contents.count(P.Path))
          Out.Contents[P.Path] =
              SM.getBufferData(SM.getFileID(SM.getExpansionLoc(
                                   E.Range.getBegin())))
                  .str();
      }
    }
  }
  if (Opts.Explain)
    for (size_t I = 0; I < R.Kernels.size(); ++I) {
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      printKernelPrediction(Ctx, R.Kernels[I], predictKernel(R, I), OS, Opts.Color);
      OS.flush();
      Out.Explain.push_back({Keys[I], Text});
    }
  for (const AccessFacts &F : R.Accesses) {
    const std::string &Key = Keys[F.Kernel];
    if (Opts.Accesses)
      Out.Accesses.push_back({Key, accessJson(F, R, SM)});
    if (Opts.Explain) {
      AnalysisResult One;
      One.Kernels = R.Kernels;
      One.Accesses = {F};
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      printAccessFacts(Ctx, One, OS, Opts.Color);
      OS.flush();
      Out.Explain.push_back({Key, Text});
    }
  }
}

/// Drops what another file reports.
template <typename T>
void keepOwned(std::vector<Keyed<T>> &V, const ClaimTable &Claims,
               size_t Index) {
  llvm::erase_if(V, [&](const Keyed<T> &K) { return !Claims.owns(K.Key, Index); });
}

} // namespace

std::vector<FileOutcome>
lintFiles(Frontend &FE, const std::vector<std::string> &Files,
          const std::function<const LintSettings &(const std::string &)>
              &SettingsFor,
          const RunOptions &Opts,
          const std::function<void(const FileOutcome &)> &OnDone) {
  std::vector<FileOutcome> Out(Files.size());
  std::vector<char> Done(Files.size(), 0);
  std::mutex DoneLock;
  std::condition_variable DoneSignal;
  ClaimTable Claims;
  std::atomic<size_t> Next{0};

  auto Work = [&] {
    for (;;) {
      size_t I = Next.fetch_add(1);
      if (I >= Files.size())
        return;
      FileOutcome &O = Out[I];
      O.File = Files[I];
      const LintSettings &S = SettingsFor(Files[I]);
      std::string Clang, Tool, Time;
      llvm::raw_string_ostream ClangOS(Clang), ToolOS(Tool), TimeOS(Time);
      auto Start = std::chrono::steady_clock::now();
      O.Run = FE.runFile(
          Files[I],
          [&](clang::ASTContext &Ctx, clang::CompilerInstance &,
              const ParsedFile &Info) {
            O.Info = Info;
            lintParsed(Ctx, S, Opts, I, Claims, O, Start, TimeOS);
          },
          ClangOS, ToolOS, FileArgs{S.ExtraArgsBefore, S.ExtraArgs});
      ClangOS.flush();
      ToolOS.flush();
      TimeOS.flush();
      // The tool's lines about the file come before the parse's
      // diagnostics, the timing line after them.
      O.Diagnostics = Tool + Clang + Time;
      {
        std::lock_guard<std::mutex> L(DoneLock);
        Done[I] = 1;
      }
      DoneSignal.notify_all();
    }
  };

  unsigned Jobs = std::max(1u, std::min<unsigned>(Opts.Jobs, Files.size()));
  std::vector<std::thread> Threads;
  for (unsigned J = 0; J < Jobs; ++J)
    Threads.emplace_back(Work);
  for (size_t I = 0; I < Files.size(); ++I) {
    std::unique_lock<std::mutex> L(DoneLock);
    DoneSignal.wait(L, [&] { return Done[I] != 0; });
    L.unlock();
    OnDone(Out[I]);
  }
  for (std::thread &T : Threads)
    T.join();

  for (size_t I = 0; I < Out.size(); ++I) {
    FileOutcome &O = Out[I];
    llvm::erase_if(O.Findings, [&](const FindingRecord &R) {
      return !Claims.owns(R.Configurations.front().Key, I);
    });
    keepOwned(O.Kernels, Claims, I);
    keepOwned(O.Accesses, Claims, I);
    keepOwned(O.Explain, Claims, I);
  }
  return Out;
}

MergedRun mergeOutcomes(std::vector<FileOutcome> Outcomes) {
  MergedRun M;
  std::vector<FindingRecord> All;
  std::map<std::string, size_t> FirstFile;
  for (size_t I = 0; I < Outcomes.size(); ++I) {
    FileOutcome &O = Outcomes[I];
    M.Suppressed += O.Suppressed;
    M.Kernels += O.Kernels.size();
    if (O.Run.Failed)
      ++M.FilesFailed;
    else if (O.Run.Errors > 0)
      ++M.FilesWithErrors;
    for (FindingRecord &R : O.Findings) {
      FirstFile.try_emplace(R.placeKey(), I);
      All.push_back(std::move(R));
    }
    O.Findings.clear();
  }
  M.Findings = groupByPlace(std::move(All));
  for (const FindingRecord &R : M.Findings)
    M.FileOf.push_back(FirstFile[R.placeKey()]);
  M.Outcomes = std::move(Outcomes);
  return M;
}

namespace {

/// Keeps the findings \p Keep accepts, with the files that report them.
template <typename Pred> size_t keepFindingsIf(MergedRun &M, Pred Keep) {
  std::vector<FindingRecord> Kept;
  std::vector<size_t> FileOf;
  for (size_t I = 0; I < M.Findings.size(); ++I)
    if (Keep(M.Findings[I])) {
      Kept.push_back(std::move(M.Findings[I]));
      FileOf.push_back(M.FileOf[I]);
    }
  size_t Dropped = M.Findings.size() - Kept.size();
  M.Findings = std::move(Kept);
  M.FileOf = std::move(FileOf);
  return Dropped;
}

} // namespace

void fingerprintAndFilterLines(MergedRun &M, const std::string &SourceRoot,
                               const std::vector<const LineFilter *> &Lines) {
  assignFingerprints(M.Findings, SourceRoot);
  for (const LineFilter *F : Lines)
    M.OutsideLines += keepFindingsIf(
        M, [&](const FindingRecord &R) { return F->accepts(R.Begin); });
}

void applyBaselineTo(MergedRun &M, Baseline Known) {
  M.Baselined += keepFindingsIf(M, [&](const FindingRecord &R) {
    auto It = Known.find(R.Fingerprint);
    if (It == Known.end() || It->second == 0)
      return true;
    --It->second;
    return false;
  });
}

} // namespace cal

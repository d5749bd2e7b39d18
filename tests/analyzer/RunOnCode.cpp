//===- RunOnCode.cpp ------------------------------------------------------===//

#include "RunOnCode.h"

#include "frontend/Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

#include <gtest/gtest.h>

namespace cal::test {

std::vector<SnippetAccess>
SnippetResult::of(const std::string &Array,
                  std::optional<AccessKind> Kind) const {
  std::vector<SnippetAccess> Out;
  for (const SnippetAccess &A : Accesses)
    if (A.Array == Array && (!Kind || A.Kind == *Kind))
      Out.push_back(A);
  return Out;
}

SnippetAccess SnippetResult::one(const std::string &Array,
                                 std::optional<AccessKind> Kind) const {
  std::vector<SnippetAccess> All = of(Array, Kind);
  EXPECT_EQ(All.size(), 1u) << "accesses of `" << Array << "`\n" << Log;
  return All.empty() ? SnippetAccess() : All.front();
}

AnalysisOptions mainFileOptions(const clang::ASTContext &Ctx,
                                const ParsedFile &Info) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  AnalysisOptions AO;
  AO.CompileErrors = Info.ErrorLocs;
  AO.IncludeKernel = [&SM](clang::SourceLocation Loc) {
    return SM.isInMainFile(SM.getExpansionLoc(Loc));
  };
  return AO;
}

SnippetResult runOnCode(const std::string &Code,
                        const std::vector<std::string> &Args) {
  SnippetResult Out;
  const std::string File = "/cal-snippet/snippet.cu";
  FrontendOptions FO;
  FO.Files = {File};
  FO.Overrides = {{File, Code}};
  FO.NoCudaToolkit = true;
  std::vector<std::string> Fixed = {"-std=c++17"};
  Fixed.insert(Fixed.end(), Args.begin(), Args.end());
  FO.FixedArgs = Fixed;
  llvm::raw_string_ostream LogOS(Out.Log);
  Frontend FE(FO, LogOS);
  if (!FE.prepare())
    return Out;
  FE.run(
      [&](clang::ASTContext &Ctx, clang::CompilerInstance &,
          const ParsedFile &Info) {
        Out.Parsed = Info.ParseErrors == 0;
        const clang::SourceManager &SM = Ctx.getSourceManager();
        AnalysisOptions AO = mainFileOptions(Ctx, Info);
        AnalysisResult R = analyze(Ctx, AO);
        for (size_t K = 0; K < R.Kernels.size(); ++K) {
          SnippetKernel SK;
          SK.Name = R.Kernels[K].Name;
          SK.Block = R.Kernels[K].Shape.Dim;
          SK.Grid = R.Kernels[K].Shape.Grid;
          SK.Prediction = predictKernel(R, K);
          Out.Kernels.push_back(SK);
        }
        for (const AccessFacts &F : R.Accesses) {
          SnippetAccess A;
          A.Kernel = R.Kernels[F.Kernel].Name;
          A.Array = F.Array;
          A.Kind = F.Kind;
          A.Space = F.Space;
          if (F.E)
            A.Line = SM.getExpansionLineNumber(F.E->getBeginLoc());
          A.BytesPerLane = F.BytesPerLane;
          A.ActiveLanes = F.ActiveLanes;
          A.AddressKnown = F.AddressKnown;
          A.UnknownReason = F.UnknownReason;
          A.Symbolic = F.Symbolic;
          A.LaneOffsets = F.LaneOffsets;
          A.LaneStrideBytes = F.LaneStrideBytes;
          A.SectorsPerRequest = F.SectorsPerRequest;
          A.BankConflictWays = F.BankConflictWays;
          A.WavefrontsPerRequest = F.WavefrontsPerRequest;
          A.ExecutionsPerWarp = F.ExecutionsPerWarp;
          A.Loops = F.Loops;
          A.Assumptions = F.Assumptions;
          A.AlignedIf = F.AlignedIf;
          A.ExcessCost = accessExcessCost(F);
          A.SameAddressWarps = F.SameAddressWarps;
          A.Vectorized = F.Vectorized;
          Out.Accesses.push_back(A);
        }
      },
      LogOS);
  return Out;
}

} // namespace cal::test

//===- RecordedRowsTest.cpp - A padding from recorded rows = re-analysis --===//
//
// shared-bank-conflict's padding search prices each candidate padding from
// the rows the analysis recorded (paddedFacts, analyzer/pipeline/
// RecordedRows.cpp) instead of walking the kernel again. For every fixture
// with shared arrays, every kernel configuration, every shared array whose
// padding a search would price and every padding it would try (1 up to 128
// bytes of elements), the facts from the recorded rows must be those of the
// re-analysis, number by number: the innermost dimension of 2-D and deeper
// arrays (analyzeKernel under AnalysisOptions::Padding, and of the first
// warp only where the warps are walked one by one), the row stride of 1-D
// row layouts (analyzeLayout under rowPaddingRewrites).
//
//===----------------------------------------------------------------------===//

#include "RunOnCode.h"

#include "analyzer/LayoutSearch.h"
#include "frontend/Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

namespace cal {
namespace {

namespace fs = std::filesystem;

/// The fixtures with shared arrays, and the compiler arguments each takes.
std::vector<std::pair<std::string, std::vector<std::string>>> cases() {
  std::vector<std::pair<std::string, std::vector<std::string>>> Out;
  fs::path Src = CAL_SOURCE_DIR;
  for (const char *Dir : {"fixtures/transpose", "fixtures/rules/shared-bank-conflict",
                          "fixtures/real_code"}) {
    std::vector<std::string> Files;
    for (const auto &E : fs::directory_iterator(Src / Dir))
      if (E.path().extension() == ".cu")
        Files.push_back(E.path().string());
    std::sort(Files.begin(), Files.end());
    for (const std::string &F : Files)
      Out.push_back({F, {}});
  }
  for (const char *F :
       {"fixtures/patterns/w1_staged.cu",
        "fixtures/patterns/w2_blocked_vec_and_staged.cu",
        "fixtures/analyzer/thread_index_16x16.cu",
        "fixtures/analyzer/shared_memory_forms.cu",
        "fixtures/analyzer/emitted_outer_loop.cu"})
    Out.push_back({(Src / F).string(), {}});
  for (const char *F : {"sgemm.cu", "transpose.cu", "prefix_product.cu"})
    Out.push_back({(Src / "validate/kernels" / F).string(),
                   {"-I" + (Src / "validate/kernels").string()}});
  return Out;
}

std::string str(const std::optional<double> &V) {
  return V ? std::to_string(*V) : "unset";
}

/// Every fact of \p A and \p B that a padding can change or that a rule
/// reads, compared exactly; the differences, one per line.
std::string differences(const AccessFacts &A, const AccessFacts &B) {
  std::ostringstream OS;
#define CAL_SAME(Field)                                                        \
  if (!(A.Field == B.Field))                                                   \
    OS << "  " #Field " differs\n";
  CAL_SAME(E)
  CAL_SAME(Kind)
  CAL_SAME(Piece)
  CAL_SAME(CallStack)
  CAL_SAME(BytesPerLane)
  CAL_SAME(ActiveLanes)
  CAL_SAME(ActiveMask)
  CAL_SAME(AddressKnown)
  CAL_SAME(UnknownReason)
  CAL_SAME(LaneOffsets)
  CAL_SAME(LaneStrideBytes)
  CAL_SAME(LaneGroups)
  CAL_SAME(LaneLayout)
  CAL_SAME(Alignment)
  CAL_SAME(MisalignBytes)
  CAL_SAME(AssumedAlignment)
  CAL_SAME(AssumedMisalignBytes)
  CAL_SAME(VectorAligned)
  CAL_SAME(SectorsPerRequest)
  CAL_SAME(IdealSectors)
  CAL_SAME(PerThreadContiguousBytes)
  CAL_SAME(FootprintUtilization)
  CAL_SAME(SiblingRun)
  CAL_SAME(SiblingIndex)
  CAL_SAME(Neighbour)
  CAL_SAME(RunStartAligned16)
  CAL_SAME(RunStartModulus)
  CAL_SAME(RunStartResidue)
  CAL_SAME(RunStartModulusAt)
  CAL_SAME(ExecutionsPerWarp)
  CAL_SAME(Assumptions)
  CAL_SAME(Emitted.Bytes)
  CAL_SAME(Emitted.Opcode)
  CAL_SAME(Emitted.RunAccesses)
  CAL_SAME(Emitted.RunInstructions)
  CAL_SAME(Emitted.RunWidths)
  CAL_SAME(Emitted.Why)
  CAL_SAME(Emitted.Assumed)
  CAL_SAME(AlignedIf.has_value())
  CAL_SAME(Emitted.SourceWavefrontsPerRequest)
  CAL_SAME(Emitted.SourceIdealWavefronts)
  CAL_SAME(Emitted.SourceBankConflictWays)
  if (A.AlignedIf && B.AlignedIf) {
    CAL_SAME(AlignedIf->Variable)
    CAL_SAME(AlignedIf->Modulus)
    CAL_SAME(AlignedIf->SectorsIfNotMin)
    CAL_SAME(AlignedIf->SectorsIfNotMax)
    CAL_SAME(AlignedIf->VectorModulus)
    CAL_SAME(AlignedIf->RowPitch)
  }
#undef CAL_SAME
  if (A.Loops.size() != B.Loops.size()) {
    OS << "  Loops differ in number\n";
  } else {
    for (size_t I = 0; I < A.Loops.size(); ++I) {
      const LoopFact &X = A.Loops[I], &Y = B.Loops[I];
      if (X.Loop != Y.Loop || X.Attributes != Y.Attributes ||
          X.Trip != Y.Trip || X.TripMin != Y.TripMin ||
          X.TripMax != Y.TripMax || X.StrideBytes != Y.StrideBytes ||
          X.StrideBlockRuns != Y.StrideBlockRuns ||
          X.StrideWholeWarps != Y.StrideWholeWarps ||
          X.StrideSymbolic != Y.StrideSymbolic ||
          X.StrideCoveredRuns != Y.StrideCoveredRuns ||
          X.OrderFree != Y.OrderFree)
        OS << "  Loops[" << I << "] differs\n";
    }
  }
  // The bank figures, with their values: what the search decides on.
  if (A.WavefrontsPerRequest != B.WavefrontsPerRequest ||
      A.IdealWavefronts != B.IdealWavefronts ||
      A.BankConflictWays != B.BankConflictWays)
    OS << "  wavefronts " << str(A.WavefrontsPerRequest) << " / "
       << str(A.IdealWavefronts) << " (" << str(A.BankConflictWays)
       << "-way) from the rows, " << str(B.WavefrontsPerRequest) << " / "
       << str(B.IdealWavefronts) << " (" << str(B.BankConflictWays)
       << "-way) re-analyzed\n";
  return OS.str();
}

int64_t elementBytes(const clang::ASTContext &Ctx, clang::QualType T) {
  while (const auto *CA = Ctx.getAsConstantArrayType(T))
    T = CA->getElementType();
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

struct Tally {
  unsigned Arrays = 0, Paddings = 0, Accesses = 0;
  /// Arrays priced from a walk of the search's own (PaddingSource).
  unsigned SearchWalks = 0;
  /// "file: kernel: array: why" for each array that falls back.
  std::vector<std::string> FellBack;
};

/// Compares the two for \p What; counts what was compared.
void compare(const std::optional<AnalysisResult> &FromRows,
             const AnalysisResult &Again, const std::string &What, Tally &T) {
  ASSERT_TRUE(FromRows) << What;
  ++T.Paddings;
  EXPECT_EQ(FromRows->Kernels.front().ConcreteWarps,
            Again.Kernels.front().ConcreteWarps)
      << What;
  ASSERT_EQ(FromRows->Accesses.size(), Again.Accesses.size()) << What;
  for (size_t I = 0; I < Again.Accesses.size(); ++I) {
    ++T.Accesses;
    std::string D = differences(FromRows->Accesses[I], Again.Accesses[I]);
    EXPECT_TRUE(D.empty()) << What << ", access " << I << " (`"
                           << Again.Accesses[I].Array << "`):\n"
                           << D;
  }
}

void checkFile(const std::string &Path, const std::vector<std::string> &Args,
               Tally &T) {
  FrontendOptions FO;
  FO.Files = {Path};
  FO.NoCudaToolkit = true;
  FO.PreambleCache = false;
  std::vector<std::string> Fixed = {"-std=c++17"};
  Fixed.insert(Fixed.end(), Args.begin(), Args.end());
  FO.FixedArgs = Fixed;
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  Frontend FE(FO, LogOS);
  ASSERT_TRUE(FE.prepare()) << Log;
  std::string Name = fs::path(Path).filename().string();
  bool Ran = false;
  FE.run(
      [&](clang::ASTContext &Ctx, clang::CompilerInstance &,
          const ParsedFile &Info) {
        Ran = true;
        ASSERT_EQ(Info.ParseErrors, 0u) << Log;
        const clang::SourceManager &SM = Ctx.getSourceManager();
        AnalysisOptions AO = test::mainFileOptions(Ctx, Info);
        AnalysisResult R = analyze(Ctx, AO);
        // Each (configuration, shared array) once.
        std::map<std::pair<size_t, const clang::VarDecl *>, bool> Arrays;
        for (const AccessFacts &F : R.Accesses)
          if (const auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(
                  F.Region ? F.Region->Decl : nullptr);
              VD && F.Space == MemSpace::Shared &&
              Ctx.getAsConstantArrayType(VD->getType()))
            Arrays[{F.Kernel, VD}] = true;
        for (const auto &[Key, Unused] : Arrays) {
          auto [K, VD] = Key;
          const KernelInfo &KI = R.Kernels[K];
          bool OneD = !Ctx.getAsConstantArrayType(
              Ctx.getAsConstantArrayType(VD->getType())->getElementType());
          std::optional<RowLayout> Rows;
          if (OneD) {
            Rows = findRowLayout(Ctx, VD, KI.Decl);
            if (!Rows)
              continue; // no row to pad: no search
          }
          std::string Where = Name + ": " + KI.Name + ": `" +
                              VD->getNameAsString() + "`";
          // As the search would: a 2-D array only when the kernel's body
          // indexes it element by element (paddingSafe).
          unsigned Rank = 0;
          for (clang::QualType Q = VD->getType();
               const auto *CA = Ctx.getAsConstantArrayType(Q);
               Q = CA->getElementType())
            ++Rank;
          bool Searched = true;
          if (!OneD)
            forEachArrayUse(KI.Decl->getBody(), VD, Rank,
                            [&](const ArrayUse &U) {
                              Searched = U.K == ArrayUse::Element;
                              return Searched;
                            });
          if (!Searched)
            continue;
          std::string Why;
          PaddingSource From =
              paddingSource(R, K, VD, Rows ? &*Rows : nullptr, &Why);
          if (From == PaddingSource::Reanalysis) {
            T.FellBack.push_back(Name + ": `" + VD->getNameAsString() +
                                 "`: " + Why);
            continue;
          }
          ++T.Arrays;
          if (From == PaddingSource::SearchWalkRows)
            ++T.SearchWalks;
          int64_t MaxPad =
              std::max<int64_t>(1, 128 / std::max<int64_t>(
                                             1, elementBytes(Ctx, VD->getType())));
          for (int64_t P = 1; P <= MaxPad; ++P) {
            std::string What = Where + " padded by " + std::to_string(P);
            if (Rows) {
              compare(paddedFacts(Ctx, AO, R, K, VD, P, false, &*Rows),
                      analyzeLayout(Ctx, AO, KI, VD,
                                    rowPaddingRewrites(Ctx, *Rows, P), 0),
                      What, T);
              continue;
            }
            for (bool First : {false, true}) {
              if (First && !KI.ConcreteWarps)
                continue;
              AnalysisOptions O = AO;
              O.Padding = {{VD, P}};
              O.OnlyPaddedArrays = true;
              O.FirstWarpOnly = First;
              compare(paddedFacts(Ctx, AO, R, K, VD, P, First),
                      analyzeKernel(Ctx, KI, O),
                      What + (First ? ", first warp" : ""), T);
            }
          }
        }
      },
      LogOS);
  EXPECT_TRUE(Ran) << Path << "\n" << Log;
}

TEST(RecordedRows, PaddedFactsAreTheReanalysisNumberByNumber) {
  Tally T;
  for (const auto &[Path, Args] : cases())
    checkFile(Path, Args, T);
  std::cout << "compared " << T.Paddings << " paddings (" << T.Accesses
            << " accesses) of " << T.Arrays << " arrays (" << T.SearchWalks
            << " from a walk of the search's own); " << T.FellBack.size()
            << " fall back to re-analysis:\n";
  for (const std::string &F : T.FellBack)
    std::cout << "  " << F << "\n";
  EXPECT_GE(T.Arrays, 50u);
  EXPECT_GE(T.SearchWalks, 10u);
  // What falls back: the arrays declared in the device function that the
  // staged kernels call (their rows are not recorded in the kernel's body).
  for (const std::string &F : T.FellBack)
    EXPECT_NE(F.find("`scan`"), std::string::npos) << F;
}

/// Where the rows cannot be recorded, the search analyzes again: an element
/// written through a reference bound to it has no subscript to record.
TEST(RecordedRows, AnElementReachedThroughAReferenceFallsBack) {
  const std::string File = "/cal-snippet/reference.cu";
  FrontendOptions FO;
  FO.Files = {File};
  FO.Overrides = {{File, R"cu(#include <cuda_runtime.h>
__global__ void through_ref(const float *in, float *out) {
  __shared__ float t[32][32];
  float &e = t[threadIdx.x][threadIdx.y];
  e = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
__global__ void by_subscript(const float *in, float *out) {
  __shared__ float t[32][32];
  t[threadIdx.x][threadIdx.y] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
void launch(const float *in, float *out) {
  through_ref<<<1, dim3(32, 32)>>>(in, out);
  by_subscript<<<1, dim3(32, 32)>>>(in, out);
}
)cu"}};
  FO.NoCudaToolkit = true;
  FO.PreambleCache = false;
  FO.FixedArgs = std::vector<std::string>{"-std=c++17"};
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  Frontend FE(FO, LogOS);
  ASSERT_TRUE(FE.prepare()) << Log;
  unsigned Checked = 0;
  FE.run(
      [&](clang::ASTContext &Ctx, clang::CompilerInstance &,
          const ParsedFile &) {
        AnalysisOptions AO;
        AnalysisResult R = analyze(Ctx, AO);
        for (const AccessFacts &F : R.Accesses) {
          const auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(
              F.Region ? F.Region->Decl : nullptr);
          if (!VD || F.Space != MemSpace::Shared || F.Kind != AccessKind::Load)
            continue;
          std::string Why;
          PaddingSource From = paddingSource(R, F.Kernel, VD, nullptr, &Why);
          std::optional<AnalysisResult> P =
              paddedFacts(Ctx, AO, R, F.Kernel, VD, 1);
          if (R.Kernels[F.Kernel].Name == "through_ref") {
            EXPECT_EQ(From, PaddingSource::Reanalysis);
            EXPECT_NE(Why.find("reference"), std::string::npos) << Why;
            EXPECT_FALSE(P);
          } else {
            EXPECT_EQ(From, PaddingSource::AnalysisRows) << Why;
            ASSERT_TRUE(P);
            AnalysisOptions O = AO;
            O.Padding = {{VD, 1}};
            O.OnlyPaddedArrays = true;
            Tally T;
            compare(P, analyzeKernel(Ctx, R.Kernels[F.Kernel], O),
                    "by_subscript padded by 1", T);
          }
          ++Checked;
        }
      },
      LogOS);
  EXPECT_EQ(Checked, 2u) << Log;
}

} // namespace
} // namespace cal

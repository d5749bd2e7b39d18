//===- CompileErrorsTest.cpp - Code that does not compile -----------------===//
//
// The interpreter on kernels with errors clang recovers from: what the
// broken code computes is unknown and the reason says it does not compile
// (never "uninitialized", never the value from before a statement clang
// dropped); what did compile keeps its facts.
//
//===----------------------------------------------------------------------===//

#include "RunOnCode.h"

#include <gtest/gtest.h>

using namespace cal;
using namespace cal::test;

namespace {

/// A kernel `k(float *dst, const float *src, int C)` whose body is \p Body
/// (after a header that is missing, as a project's would be), launched
/// with 32x4 threads.
std::string kernel(const std::string &Body) {
  return "#include \"missing_llmc_header.cuh\"\n"
         "__device__ int two(int a, int b) { return a + b; }\n"
         "__device__ int scale_value(int v) { return 2 * v; }\n"
         "__global__ void k(float *dst, const float *src, int C) {\n" +
         Body +
         "\n}\n"
         "void launch(float *d, const float *s, int C, int n) {\n"
         "  k<<<n, dim3(32, 4)>>>(d, s, C);\n}\n";
}

SnippetAccess storeAt(const SnippetResult &R, unsigned Line) {
  for (const SnippetAccess &A : R.of("dst", AccessKind::Store))
    if (A.Line == Line)
      return A;
  ADD_FAILURE() << "no store of `dst` at line " << Line << "\n" << R.Log;
  return SnippetAccess();
}

// The reproduction: `x128` is undeclared, clang drops the
// initializer of `local_oc` and keeps the declaration.
TEST(CompileErrors, DroppedInitializerIsNotUninitialized) {
  SnippetResult R = runOnCode(kernel(
      "  int local_oc = threadIdx.x * x128::size;\n"
      "  dst[local_oc + threadIdx.y] = src[blockIdx.x * C + threadIdx.x];"));
  EXPECT_FALSE(R.Parsed);
  SnippetAccess St = R.one("dst", AccessKind::Store);
  EXPECT_FALSE(St.AddressKnown);
  EXPECT_EQ(St.UnknownReason, "the initializer of `local_oc` does not compile");
  // The load beside it compiled: its facts stand.
  SnippetAccess Ld = R.one("src", AccessKind::Load);
  EXPECT_TRUE(Ld.AddressKnown) << Ld.UnknownReason;
  EXPECT_EQ(Ld.LaneStrideBytes, std::optional<int64_t>(4));
}

// A declaration that is never initialized still says so.
TEST(CompileErrors, UninitializedStaysUninitialized) {
  SnippetResult R = runOnCode(kernel("  int j;\n"
                                     "  dst[j] = 0.f;\n"
                                     "  dst[threadIdx.x] = x128::zero;"));
  EXPECT_EQ(R.one("dst", AccessKind::Store).UnknownReason,
            "`j` is uninitialized");
}

// An index with a call that does not compile (a recovery expression in
// the AST): the store is recorded, its address unknown with the reason.
TEST(CompileErrors, RecoveryExpressionInIndex) {
  SnippetResult R = runOnCode(kernel("  dst[threadIdx.x + two(1)] = 1.f;\n"
                                     "  int q = two(threadIdx.x);\n"
                                     "  dst[q] = 2.f;\n"
                                     "  x128 unused;"));
  SnippetAccess A = storeAt(R, 5), B = storeAt(R, 7);
  EXPECT_FALSE(A.AddressKnown);
  EXPECT_EQ(A.UnknownReason, "`two(1)` does not compile");
  EXPECT_FALSE(B.AddressKnown);
  EXPECT_EQ(B.UnknownReason, "`two(threadIdx.x)` does not compile");
}

// A declaration of a type that is not declared, used later in an index:
// the accesses through it are recorded (their element type is the
// pointer's) with the reason.
TEST(CompileErrors, InvalidDeclarationUsedLater) {
  SnippetResult R =
      runOnCode(kernel("  x128 packed = x128::load(src);\n"
                       "  dst[packed.x] = 1.f;\n"
                       "  float v = src[packed.y + threadIdx.x];\n"
                       "  dst[threadIdx.x] = v;"));
  SnippetAccess A = storeAt(R, 6);
  EXPECT_EQ(A.BytesPerLane, 4u);
  EXPECT_EQ(A.UnknownReason, "the declaration of `packed` does not compile");
  SnippetAccess L = R.one("src", AccessKind::Load);
  EXPECT_EQ(L.UnknownReason, "the declaration of `packed` does not compile");
  EXPECT_TRUE(storeAt(R, 8).AddressKnown);
}

// `j = i * x128::size;` is dropped from the AST: `j` is not the value it
// had before, it is unknown from there on; `C`, only read by a dropped
// statement, keeps its value.
TEST(CompileErrors, DroppedAssignmentMakesItsTargetUnknown) {
  SnippetResult R =
      runOnCode(kernel("  int j = threadIdx.x;\n"
                       "  j = threadIdx.x * x128::size + C;\n"
                       "  dst[j] = 1.f;\n"
                       "  dst[blockIdx.x * C + threadIdx.x] = 2.f;\n"
                       "  j = threadIdx.x;\n"
                       "  dst[j] = 3.f;"));
  SnippetAccess A = storeAt(R, 7);
  EXPECT_FALSE(A.AddressKnown);
  EXPECT_EQ(
      A.UnknownReason,
      "`j` may be assigned at line 6 by a statement that does not compile");
  EXPECT_TRUE(storeAt(R, 8).AddressKnown);
  SnippetAccess C = storeAt(R, 10);
  EXPECT_TRUE(C.AddressKnown) << C.UnknownReason;
  EXPECT_EQ(C.LaneStrideBytes, std::optional<int64_t>(4));
}

// A statement dropped in a loop's body may assign in every iteration: the
// variable is not taken as loop-invariant before it either.
TEST(CompileErrors, DroppedStatementInLoopCountsAsModified) {
  SnippetResult R = runOnCode(kernel("  int j = threadIdx.x;\n"
                                     "  for (int i = 0; i < 4; ++i) {\n"
                                     "    dst[j] = 1.f;\n"
                                     "    j += x128::size;\n"
                                     "  }"));
  SnippetAccess A = storeAt(R, 7);
  EXPECT_FALSE(A.AddressKnown);
  EXPECT_EQ(A.UnknownReason, "`j` is modified in a loop");
}

// A whole `if` dropped (its body does not compile): what it assigns is
// unknown after it.
TEST(CompileErrors, DroppedBranch) {
  SnippetResult R = runOnCode(kernel("  int j = threadIdx.x;\n"
                                     "  if (C > 2) j = undeclared_value;\n"
                                     "  dst[j] = 1.f;"));
  EXPECT_EQ(
      R.one("dst", AccessKind::Store).UnknownReason,
      "`j` may be assigned at line 6 by a statement that does not compile");
}

// A misspelled name that clang corrects ("did you mean 'idx'?") is in the
// AST as the name it guessed, with no trace of the error: the error's
// location says it did not compile.
TEST(CompileErrors, TypoCorrectedNamesAreNotTakenAsWhatClangGuessed) {
  SnippetResult R = runOnCode(kernel("  int idx = threadIdx.x * C;\n"
                                     "  dst[idxx] = 1.f;\n"
                                     "  dst[scale_valeu(threadIdx.x)] = 2.f;\n"
                                     "  dst[idx] = 3.f;"));
  EXPECT_EQ(storeAt(R, 6).UnknownReason,
            "`idxx` does not compile (clang took it for `idx`)");
  EXPECT_EQ(storeAt(R, 7).UnknownReason,
            "`scale_valeu` does not compile (clang took it for `scale_value`)");
  EXPECT_TRUE(storeAt(R, 8).AddressKnown);
}

} // namespace

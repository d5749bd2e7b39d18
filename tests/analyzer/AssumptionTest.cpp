//===- AssumptionTest.cpp - What facts rest on, as typed records ----------===//
//
// analyzer/Assumption.h: a list keeps each record once, and the producers
// give each its kind and subject (what rules and tests ask about) beside the
// sentence the outputs write.
//
//===----------------------------------------------------------------------===//

#include "RunOnCode.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace cal;
using namespace cal::test;

namespace {

const Assumption *find(const SnippetAccess &A, Assumption::Kind K) {
  auto It = std::find_if(A.Assumptions.begin(), A.Assumptions.end(),
                         [&](const Assumption &X) { return X.K == K; });
  return It == A.Assumptions.end() ? nullptr : &*It;
}

TEST(Assumption, ListKeepsEachRecordOnceInTheOrderFound) {
  AssumptionList L;
  Assumption P{Assumption::Kind::ParameterValue, "n", "`n` = 4: passes it"};
  Assumption Q{Assumption::Kind::BaseAlignment, "in", "`in` assumed aligned"};
  addAssumption(L, P);
  addAssumption(L, Q);
  addAssumption(L, P);
  addAssumptions(L, {Q, P});
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0], P);
  EXPECT_EQ(L[1], Q);
  EXPECT_TRUE(hasAssumption(L, Assumption::Kind::BaseAlignment));
  EXPECT_FALSE(hasAssumption(L, Assumption::Kind::UserValue));
  EXPECT_STREQ(assumptionKindName(Assumption::Kind::ParameterValue),
               "parameter-value");
}

// The launch passes a constant: the parameter's record names it; the
// allocation's base alignment is an assumption about `in`.
TEST(Assumption, LaunchConstantAndBaseAlignmentNameTheirSubjects) {
  SnippetResult R = runOnCode(R"cu(
__global__ void k(const float *in, float *out, int w) {
  out[blockIdx.x * 256 + threadIdx.x] = in[w * blockIdx.x + threadIdx.x];
}
void host(const float *in, float *out) { k<<<64, 256>>>(in, out, 512); }
)cu");
  SnippetAccess In = R.one("in");
  const Assumption *W = find(In, Assumption::Kind::ParameterValue);
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Subject, "w");
  EXPECT_EQ(W->Message.rfind("`w` = 512: the launch at ", 0), 0u)
      << W->Message;
  const Assumption *B = find(In, Assumption::Kind::BaseAlignment);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Subject, "in");
  EXPECT_EQ(B->Message, "`in` assumed 256-byte aligned (as cudaMalloc "
                        "returns)");
}

// A bound the block's position decides is taken in its common case; the
// branch's record is of that kind, about the condition as written, and the
// sentence says the condition first.
TEST(Assumption, CommonCaseBoundOfABranchIsAboutItsCondition) {
  SnippetResult R = runOnCode(R"cu(
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
void host(const float *in, float *out, int n) {
  k<<<n / 256, 256>>>(in, out, n);
}
)cu");
  SnippetAccess Out = R.one("out");
  const Assumption *C = find(Out, Assumption::Kind::CommonCaseBound);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Subject, "i < n");
  EXPECT_EQ(C->Message.rfind("`i < n`: a bound that", 0), 0u) << C->Message;
}

// A clamp against a runtime size is taken as its index; the record is about
// the call as written. A min of two lane-dependent values is not a clamp:
// unknown, with no record.
TEST(Assumption, CommonCaseClampIsAboutTheCall) {
  SnippetResult R = runOnCode(R"cu(
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[min(n - 1, i + 32)] + in[min(i, threadIdx.x / 2 + blockIdx.y)];
}
void host(const float *in, float *out, int n) {
  k<<<dim3(64, 4), 256>>>(in, out, n);
}
)cu");
  ASSERT_EQ(R.of("in").size(), 2u);
  SnippetAccess Clamped = R.of("in")[0];
  const Assumption *C = find(Clamped, Assumption::Kind::CommonCaseClamp);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Subject, "min(n - 1, i + 32)");
  EXPECT_EQ(C->Message.rfind("`min(n - 1, i + 32)` taken as `i + 32` for "
                             "every lane: a clamp that binds only at the end",
                             0),
            0u)
      << C->Message;
  ASSERT_TRUE(Clamped.SectorsPerRequest);
  EXPECT_EQ(*Clamped.SectorsPerRequest, 4);
  SnippetAccess Other = R.of("in")[1];
  EXPECT_FALSE(Other.SectorsPerRequest);
  EXPECT_EQ(find(Other, Assumption::Kind::CommonCaseClamp), nullptr);
}

// An unknown row pitch: the offset's alignment is taken as a multiple of 32
// bytes, about the parameter.
TEST(Assumption, UnknownOffsetAlignmentNamesTheTerm) {
  SnippetResult R = runOnCode(R"cu(
__global__ void k(const float *in, float *out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + s * blockIdx.y];
}
void host(const float *in, float *out, int s) {
  k<<<dim3(64, 64), 256>>>(in, out, s);
}
)cu");
  SnippetAccess In = R.one("in");
  const Assumption *O = find(In, Assumption::Kind::OffsetAlignmentUnknown);
  ASSERT_TRUE(O);
  EXPECT_EQ(O->Subject, "s*blockIdx.y");
}

// One parameter in the offset, the rest aligned: the record is about the
// parameter and says the condition the facts compute (aligned_if).
TEST(Assumption, ConditionOnAParameterIsAboutIt) {
  SnippetResult R = runOnCode(R"cu(
__global__ void k(const float *in, float *out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + s];
}
void host(const float *in, float *out, int s) { k<<<64, 256>>>(in, out, s); }
)cu");
  SnippetAccess In = R.one("in");
  ASSERT_TRUE(In.AlignedIf);
  EXPECT_EQ(In.AlignedIf->text(), "s % 8 == 0");
  const Assumption *O = find(In, Assumption::Kind::OffsetAlignmentUnknown);
  ASSERT_TRUE(O);
  EXPECT_EQ(O->Subject, "s");
  EXPECT_EQ(O->Message, "alignment of `s` unknown; the run starts on a "
                        "32-byte boundary only if `s % 8 == 0`, taken to "
                        "hold");
}

} // namespace

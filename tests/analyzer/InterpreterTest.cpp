//===- InterpreterTest.cpp - One fact per snippet, in-process -------------===//
//
// Each test runs the analyzer on a small kernel (runOnCode) and checks one
// fact the interpreter computes: lane offsets through division and modulo,
// the active lanes of a branch, a loop's trip count, an inlined function,
// the reason an address is unknown, a bank conflict.
//
//===----------------------------------------------------------------------===//

#include "RunOnCode.h"

#include <gtest/gtest.h>

using namespace cal;
using namespace cal::test;

namespace {

/// A kernel `k(float *out, const float *in, const int *idx, int n)` whose
/// body is \p Body, launched as k<<<1024, Block>>>.
std::string kernel(const std::string &Body, const std::string &Block = "256") {
  return "__global__ void k(float *out, const float *in, const int *idx, "
         "int n) {\n" +
         Body +
         "\n}\n"
         "void host(float *o, const float *i, const int *x, int n) {\n"
         "  k<<<1024, " +
         Block + ">>>(o, i, x, n);\n}\n";
}

TEST(Interpreter, ContiguousIndexHasFourByteLaneStride) {
  SnippetResult R = runOnCode(kernel(
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[i];"));
  ASSERT_TRUE(R.Parsed) << R.Log;
  SnippetAccess In = R.one("in", AccessKind::Load);
  EXPECT_TRUE(In.AddressKnown);
  EXPECT_EQ(In.LaneStrideBytes, std::optional<int64_t>(4));
  EXPECT_EQ(In.SectorsPerRequest, std::optional<double>(4));
  EXPECT_EQ(In.ActiveLanes, 32u);
  EXPECT_EQ(In.Line, 3u);
}

// Division and modulo by constants per lane: lane L reads element
// (L % 8) * 32 + L / 8.
TEST(Interpreter, DivisionAndModuloPerLane) {
  SnippetResult R = runOnCode(
      kernel("  out[threadIdx.x] = in[(threadIdx.x % 8) * 32 + threadIdx.x / 8];",
             "32"));
  SnippetAccess In = R.one("in");
  ASSERT_TRUE(In.LaneOffsets) << In.UnknownReason;
  for (unsigned L = 0; L < WarpSize; ++L)
    EXPECT_EQ((*In.LaneOffsets)[L] - (*In.LaneOffsets)[0],
              4 * int64_t((L % 8) * 32 + L / 8))
        << "lane " << L;
  // Lanes 0..7 fall in 8 sectors 128 bytes apart; lanes 8..15 in the same
  // sectors (one element further): 8 distinct sectors.
  EXPECT_EQ(In.SectorsPerRequest, std::optional<double>(8));
}

// `x % W` with x = 32*blockIdx.x + lane: exact per lane although the
// block's position is unknown (Interpreter.cpp's divModSplit).
TEST(Interpreter, ModuloOfABlockOffsetIndexIsExact) {
  SnippetResult R = runOnCode(kernel(
      "  int x = 32 * blockIdx.x + threadIdx.x;\n  out[x % 64] = 0.f;", "32"));
  SnippetAccess Out = R.one("out");
  ASSERT_TRUE(Out.LaneOffsets) << Out.UnknownReason;
  EXPECT_EQ((*Out.LaneOffsets)[31] - (*Out.LaneOffsets)[0], 4 * 31);
  EXPECT_EQ(Out.SectorsPerRequest, std::optional<double>(4));
}

TEST(Interpreter, ShiftRightPairsLanes) {
  SnippetResult R = runOnCode(kernel("  out[0] = in[threadIdx.x >> 1];", "32"));
  SnippetAccess In = R.one("in");
  ASSERT_TRUE(In.LaneOffsets);
  EXPECT_EQ((*In.LaneOffsets)[1], (*In.LaneOffsets)[0]);
  EXPECT_EQ((*In.LaneOffsets)[2] - (*In.LaneOffsets)[0], 4);
  EXPECT_EQ(In.SectorsPerRequest, std::optional<double>(2));
}

TEST(Interpreter, BranchOnTheLaneNarrowsActiveLanes) {
  SnippetResult R = runOnCode(
      kernel("  if (threadIdx.x < 16)\n    out[threadIdx.x] = in[0];", "32"));
  EXPECT_EQ(R.one("out").ActiveLanes, 16u);
}

TEST(Interpreter, LoopTripCountFromItsHeader) {
  SnippetResult R = runOnCode(
      kernel("  for (int j = 0; j < 32; j += 8)\n"
             "    out[(blockIdx.x * 32 + threadIdx.y + j) * 1024 + "
             "threadIdx.x] = 0.f;",
             "dim3(32, 8)"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_EQ(Out.Loops[0].Trip, std::optional<int64_t>(4));
  EXPECT_EQ(Out.Loops[0].VarName, "j");
  EXPECT_EQ(Out.Loops[0].StrideBytes, std::optional<int64_t>(8 * 1024 * 4));
  EXPECT_EQ(Out.ExecutionsPerWarp, std::optional<double>(4));
}

TEST(Interpreter, RuntimeBoundLeavesTheTripCountUnknown) {
  SnippetResult R = runOnCode(
      kernel("  for (int j = 0; j < n; ++j)\n    out[j * 256 + threadIdx.x] = 0.f;"));
  SnippetAccess Out = R.one("out");
  ASSERT_EQ(Out.Loops.size(), 1u);
  EXPECT_FALSE(Out.Loops[0].Trip);
  EXPECT_EQ(Out.Loops[0].StrideBytes, std::optional<int64_t>(1024));
  // The lanes are still contiguous in every iteration.
  EXPECT_EQ(Out.SectorsPerRequest, std::optional<double>(4));
}

TEST(Interpreter, DeviceFunctionsAreInlined) {
  SnippetResult R = runOnCode(
      "__device__ int at(int r, int c) { return r * 64 + c; }\n" +
      kernel("  out[at(threadIdx.x, 0)] = in[at(0, threadIdx.x)];", "32"));
  EXPECT_EQ(R.one("out").LaneStrideBytes, std::optional<int64_t>(256));
  EXPECT_EQ(R.one("in").LaneStrideBytes, std::optional<int64_t>(4));
}

TEST(Interpreter, LoadedIndexIsDataDependent) {
  SnippetResult R = runOnCode(kernel("  out[idx[threadIdx.x]] = 0.f;", "32"));
  SnippetAccess Out = R.one("out");
  EXPECT_FALSE(Out.AddressKnown);
  EXPECT_NE(Out.UnknownReason.find("data-dependent"), std::string::npos)
      << Out.UnknownReason;
  // The index's own load is known.
  EXPECT_TRUE(R.one("idx").AddressKnown);
}

TEST(Interpreter, SharedColumnIs32WayUnpaddedConflictFreePadded) {
  SnippetResult R = runOnCode(kernel(
      "  __shared__ float t[32][32];\n  __shared__ float p[32][33];\n"
      "  t[threadIdx.x][0] = 0.f;\n  p[threadIdx.x][0] = 0.f;",
      "32"));
  SnippetAccess T = R.one("t");
  EXPECT_EQ(T.Space, MemSpace::Shared);
  EXPECT_EQ(T.BankConflictWays, std::optional<double>(32));
  EXPECT_EQ(R.one("p").BankConflictWays, std::optional<double>(1));
}

TEST(Interpreter, StructFieldOffsets) {
  SnippetResult R = runOnCode(
      "struct P { float x, y, z; };\n"
      "__global__ void k(P *ps, float *out) {\n"
      "  out[threadIdx.x] = ps[threadIdx.x].y;\n}\n"
      "void host(P *p, float *o) { k<<<1, 32>>>(p, o); }\n");
  SnippetAccess Ps = R.one("ps");
  ASSERT_TRUE(Ps.LaneOffsets);
  EXPECT_EQ(Ps.LaneStrideBytes, std::optional<int64_t>(12));
  EXPECT_EQ(Ps.BytesPerLane, 4u);
  // Bytes 4..375 of a 256-byte aligned array: sectors 0..11.
  EXPECT_EQ(Ps.SectorsPerRequest, std::optional<double>(12));
  EXPECT_EQ(Ps.Symbolic, "12*threadIdx.x + 4"); // field y at byte 4
}

// A member function runs on its caller's object: a member it writes is
// read back by the next call, through a base class too.
TEST(Interpreter, MemberFunctionsRunOnTheirObject) {
  SnippetResult R = runOnCode(R"cu(
struct Step { protected: int stride; };
struct Walker : Step {
  int at;
  __device__ void start(int i, int s) { at = i; this->stride = s; }
  __device__ int next() { int r = at; at += stride; return r; }
};
__global__ void k(const float *in, float *out) {
  Walker w;
  w.start(threadIdx.x, 64);
  float a = in[w.next()];
  float b = in[w.next()];
  out[threadIdx.x] = a + b;
}
void host(const float *in, float *out) { k<<<1, 32>>>(in, out); }
)cu");
  std::vector<SnippetAccess> In = R.of("in");
  ASSERT_EQ(In.size(), 2u);
  EXPECT_TRUE(In[0].AddressKnown) << In[0].UnknownReason;
  EXPECT_TRUE(In[1].AddressKnown) << In[1].UnknownReason;
  EXPECT_EQ(In[0].Symbolic, "4*threadIdx.x");
  EXPECT_EQ(In[1].Symbolic, "4*(threadIdx.x + 64)");
  EXPECT_EQ(In[1].LaneStrideBytes, std::optional<int64_t>(4));
}

// An object in memory: a member the method reads is a load at the member's
// offset, the second base class's after the first's.
TEST(Interpreter, MemberReadThroughThisIsALoadAtItsOffset) {
  SnippetResult R = runOnCode(R"cu(
struct A { int a; };
struct B { int b; __device__ int get() const { return b; } };
struct C : A, B {};
__global__ void k(const C *cs, int *out) {
  out[threadIdx.x] = cs[threadIdx.x].get();
}
void host(const C *c, int *o) { k<<<1, 32>>>(c, o); }
)cu");
  SnippetAccess Cs = R.one("cs");
  ASSERT_TRUE(Cs.LaneOffsets) << Cs.UnknownReason;
  EXPECT_EQ(Cs.LaneStrideBytes, std::optional<int64_t>(8));
  EXPECT_EQ(Cs.BytesPerLane, 4u);
  EXPECT_EQ(Cs.Symbolic, "8*threadIdx.x + 4"); // B's b, after A's a
}

// A user's constructor runs on the variable it declares: a base's
// initializer, the members' (a default member initializer too), its body.
TEST(Interpreter, ConstructorsInitializeTheirObject) {
  SnippetResult R = runOnCode(R"cu(
struct Base { int stride; __device__ Base(int s) : stride(s) {} };
struct Walker : Base {
  int at;
  int calls = 0;
  __device__ Walker(int i, int s) : Base(s), at(i) { at += 1; }
  __device__ int next() { int r = at; at += stride; ++calls; return r; }
};
__global__ void k(const float *in, float *out) {
  Walker w(threadIdx.x, 64);
  float a = in[w.next()];
  float b = in[w.next()];
  out[threadIdx.x + w.calls] = a + b;
}
void host(const float *in, float *out) { k<<<1, 32>>>(in, out); }
)cu");
  std::vector<SnippetAccess> In = R.of("in");
  ASSERT_EQ(In.size(), 2u);
  EXPECT_EQ(In[0].Symbolic, "4*(threadIdx.x + 1)");
  EXPECT_EQ(In[1].Symbolic, "4*(threadIdx.x + 65)");
  EXPECT_EQ(R.one("out").Symbolic, "4*(threadIdx.x + 2)");
}

TEST(Interpreter, BracedListsGiveEachFieldItsValue) {
  SnippetResult R = runOnCode(R"cu(
struct Pair { int a, b; };
struct Box { Pair lo; int n; int pad; };
__global__ void k(const float *in, float *out) {
  Box x{{3, 5}, 7};
  out[threadIdx.x] = in[threadIdx.x * x.lo.b + x.lo.a + x.n + x.pad];
}
void host(const float *in, float *out) { k<<<1, 32>>>(in, out); }
)cu");
  // Nested lists in order; a field the list leaves out is zero.
  EXPECT_EQ(R.one("in").Symbolic, "4*(5*threadIdx.x + 10)");
}

TEST(Interpreter, ReferenceMembersReadWhatTheConstructorBound) {
  SnippetResult R = runOnCode(R"cu(
struct Geometry { int stride; };
struct View {
  const Geometry &g;
  int &counter;
  __device__ View(const Geometry &geo, int &c) : g(geo), counter(c) {}
  __device__ int at(int i) { ++counter; return i * g.stride + counter; }
};
__global__ void k(const float *in, float *out) {
  Geometry geo;
  geo.stride = 8;
  int calls = 0;
  View v(geo, calls);
  float a = in[v.at(threadIdx.x)];
  out[threadIdx.x + calls] = a;
}
void host(const float *in, float *out) { k<<<1, 32>>>(in, out); }
)cu");
  // g.stride is geo's 8; the increment through `counter` is calls'.
  EXPECT_EQ(R.one("in").Symbolic, "4*(8*threadIdx.x + 1)");
  EXPECT_EQ(R.one("out").Symbolic, "4*(threadIdx.x + 1)");
}

} // namespace

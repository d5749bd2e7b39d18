//===- Suggest.cpp --------------------------------------------------------===//

#include "rules/Suggest.h"

#include "analyzer/WarpModel.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace cal {

using namespace clang;

std::string percent(double Fraction) {
  char Buf[32];
  double P = Fraction * 100;
  // Two decimals below 10%, one above, rounded half up and without
  // trailing zeros: 6.25%, 12.5%, 33.3%, 50% (printf alone rounds half to
  // even: 12.5 would read 12).
  int Decimals = P < 10 ? 2 : 1;
  double Scale = std::pow(10.0, Decimals);
  double Rounded = std::floor(P * Scale + 0.5) / Scale;
  std::snprintf(Buf, sizeof Buf, "%.*f", Decimals, Rounded);
  std::string S = Buf;
  if (S.find('.') != std::string::npos) {
    while (S.back() == '0')
      S.pop_back();
    if (S.back() == '.')
      S.pop_back();
  }
  return S + "%";
}

std::string number(double V) {
  char Buf[32];
  if (std::abs(V - std::round(V)) < 0.005)
    std::snprintf(Buf, sizeof Buf, "%.0f", V);
  else
    std::snprintf(Buf, sizeof Buf, "%.2f", V);
  return Buf;
}

/// The 8-byte type for elements of \p Elem.
static std::optional<VectorType> vectorType8For(QualType Elem, unsigned Bytes) {
  if (Bytes == 0 || Bytes >= 8 || 8 % Bytes != 0)
    return std::nullopt;
  unsigned N = 8 / Bytes;
  QualType T = Elem.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return VectorType{"float2", N};
  if (T->isSpecificBuiltinType(BuiltinType::Int))
    return VectorType{"int2", N};
  return VectorType{"uint2", N};
}

std::optional<VectorType> vectorTypeFor(const ASTContext &Ctx, QualType Elem,
                                        unsigned Bytes) {
  if (Bytes == 0 || Bytes >= 16 || 16 % Bytes != 0)
    return std::nullopt;
  unsigned N = 16 / Bytes;
  QualType T = Elem.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return VectorType{"float4", N};
  if (T->isSpecificBuiltinType(BuiltinType::Double))
    return VectorType{"double2", N};
  if (T->isSpecificBuiltinType(BuiltinType::Int))
    return VectorType{"int4", N};
  if (T->isSpecificBuiltinType(BuiltinType::UInt))
    return VectorType{"uint4", N};
  return VectorType{"uint4", N}; // raw 16 bytes: half, bf16, char, short ...
}

const ForStmt *innermostFor(const AccessFacts &F) {
  if (F.Loops.empty())
    return nullptr;
  return dyn_cast_or_null<ForStmt>(F.Loops.back().Loop);
}

std::optional<std::string>
loopHeaderWithStep(const RuleContext &Ctx, const ForStmt *Loop, unsigned Step) {
  if (!Loop || !Loop->getInit() || !Loop->getCond() || !Loop->getInc())
    return std::nullopt;
  const auto *Init = dyn_cast<DeclStmt>(Loop->getInit());
  if (!Init || !Init->isSingleDecl())
    return std::nullopt;
  const auto *IV = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!IV)
    return std::nullopt;
  // Only a loop that counts up by one (`++c`, `c++`, `c += 1`) to a bound
  // (`c < n`, `c <= n`, `c != n`) keeps its meaning with a larger step.
  auto IsIV = [&](const Expr *E) {
    auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == IV;
  };
  const Expr *Inc = Loop->getInc()->IgnoreParenImpCasts();
  bool UnitUp = false;
  if (auto *U = dyn_cast<UnaryOperator>(Inc))
    UnitUp = U->isIncrementOp() && IsIV(U->getSubExpr());
  else if (auto *CA = dyn_cast<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult R;
    UnitUp = CA->getOpcode() == BO_AddAssign && IsIV(CA->getLHS()) &&
             CA->getRHS()->EvaluateAsInt(R, Ctx.Ctx) && R.Val.getInt() == 1;
  }
  const auto *Cmp =
      dyn_cast<BinaryOperator>(Loop->getCond()->IgnoreParenImpCasts());
  if (!UnitUp || !Cmp || !IsIV(Cmp->getLHS()) ||
      (Cmp->getOpcode() != BO_LT && Cmp->getOpcode() != BO_LE &&
       Cmp->getOpcode() != BO_NE))
    return std::nullopt;
  std::string InitText = Ctx.text(Init->getSourceRange());
  if (!InitText.empty() && InitText.back() == ';')
    InitText.pop_back();
  return "for (" + InitText + "; " +
         Ctx.text(Loop->getCond()->getSourceRange()) + "; " +
         IV->getNameAsString() + " += " + std::to_string(Step) + ")";
}

/// The array to index in rewritten code and the element index of the
/// warp-uniform part of the address in it. BaseElementIndex is counted from
/// the region's base (the kernel's parameter): when the access goes through
/// another pointer (`row = in + r * n`), the code names the parameter, if it
/// is in scope there; else the index is left to the user.
static std::pair<std::string, std::string> baseOf(const AccessFacts &F) {
  std::string Region = F.Region ? F.Region->Name : F.Array;
  if (F.Array == Region)
    return {F.Array, F.BaseElementIndex};
  if (F.CallStack.empty() && F.Region && F.Region->Decl &&
      llvm::isa<ParmVarDecl>(F.Region->Decl))
    return {Region, F.BaseElementIndex};
  return {F.Array, ""};
}

/// The warp model's figures for the access rewritten with \p Bytes per
/// lane, the lanes where they are now or (\p Striped) \p Bytes apart:
/// sectors per request, and "after: ..." for the fix's description.
std::pair<FixAfter, std::string> rewrittenFigures(const AccessFacts &F,
                                                  unsigned Bytes, bool Striped,
                                                  double RequestsBefore,
                                                  double RequestsAfter) {
  WarpRequest Req;
  Req.BytesPerLane = Bytes;
  Req.Active = F.ActiveMask ? F.ActiveMask : AllLanes;
  for (unsigned L = 0; L < WarpSize; ++L)
    Req.Offset[L] =
        Striped || !F.LaneOffsets ? int64_t(L) * Bytes : (*F.LaneOffsets)[L];
  int64_t Base = F.Alignment == AlignmentFact::Aligned ? 0
                 : F.MisalignBytes                     ? *F.MisalignBytes
                                                       : 0;
  RequestCost C = costOf(Req, Base);
  bool Store = F.Kind == AccessKind::Store;
  FixAfter A;
  A.Instruction =
      std::string(F.Space == MemSpace::Shared ? (Store ? "STS" : "LDS")
                                              : (Store ? "STG.E" : "LDG.E")) +
      (Bytes == 16  ? ".128"
       : Bytes == 8 ? ".64"
                    : "");
  A.Numbers = {{"sectors_per_request", double(C.Sectors)},
               {"lines_per_request", double(C.Lines)},
               {"requests_per_warp", RequestsAfter}};
  std::string T = "after: " + number(C.Sectors) + " sectors per " +
                  A.Instruction + " request (now " +
                  number(F.SectorsPerRequest.value_or(0)) + ")";
  if (std::abs(RequestsAfter - RequestsBefore) > 1e-9)
    T += F.ExecutionsPerWarp
             ? ", " + number(RequestsAfter) +
                   (std::abs(RequestsAfter - 1) < 1e-9 ? " request"
                                                       : " requests") +
                   " per warp instead of " + number(RequestsBefore)
             : ", " + number(RequestsBefore / RequestsAfter) +
                   "x fewer requests";
  return {A, T};
}

Fix vectorizeSuggestion(const RuleContext &Ctx, const AccessFacts &F) {
  Fix X;
  X.Kind = FixKind::Vectorize;
  X.Apply = Applicability::Suggestion;
  unsigned Elem = F.BytesPerLane;
  // The widest piece the thread's run holds: 16 bytes, else 8.
  unsigned Width = 16;
  if (F.PerThreadContiguousBytes && *F.PerThreadContiguousBytes < 16 &&
      *F.PerThreadContiguousBytes >= 8 && *F.PerThreadContiguousBytes % 8 == 0)
    Width = 8;
  auto VT = Width == 16 ? vectorTypeFor(Ctx.Ctx, F.Type, Elem)
                        : vectorType8For(F.Type, Elem);
  std::string Access = Ctx.text(F.E->getSourceRange());
  std::string VName = VT ? VT->Name : (Width == 16 ? "uint4" : "uint2");
  unsigned K = VT ? VT->Elements : Width / std::max(1u, Elem);
  bool Store = F.Kind == AccessKind::Store;
  std::string Const = Store ? "" : "const ";
  std::string Align;
  std::string W = std::to_string(Width);
  if (F.RunStartAligned16 && *F.RunStartAligned16)
    Align = W + "-byte alignment of each thread's first element is proven";
  else if (F.RunStartAligned16 && !*F.RunStartAligned16 && Width == 16)
    Align = "each thread's first element is NOT 16-byte aligned here: align "
            "the run first (a misaligned vector access faults)";
  else
    Align = "needs each thread's first element " + W +
            "-byte aligned (not proven here)";
  X.Description = std::string(Store ? "write" : "read") +
                  " the thread's run with " + std::to_string(Width) + "-byte " +
                  VName + " " + (Store ? "stores" : "loads") + ", " +
                  std::to_string(K) + " elements at a time; " + Align;
  std::string Line =
      Store ? "  *reinterpret_cast<" + VName + "*>(&" + Access +
                  ") = v;  // v: the next " + std::to_string(K) + " elements"
            : "  " + VName + " v = *reinterpret_cast<" + Const + VName +
                  "*>(&" + Access + ");  // " + std::to_string(K) + " elements";
  if (auto Header = loopHeaderWithStep(Ctx, innermostFor(F), K))
    X.Code = *Header + " {\n" + Line + "\n  ...\n}";
  else
    X.Code = Line.substr(2);
  // The same lanes, Width bytes each, in 1 / K of the instructions.
  double Exec = F.ExecutionsPerWarp.value_or(1);
  double Before = Exec * F.SiblingRun, After;
  if (F.SiblingRun > 1)
    After = Exec * std::ceil(double(F.SiblingRun) / std::max(1u, K));
  else
    After = Exec / std::max(1u, K);
  if (F.LaneOffsets && F.LaneGroups == 1) {
    auto [A, T] = rewrittenFigures(F, Width, false, Before, After);
    X.After = A;
    X.Description += "; " + T;
  } else {
    // Lanes a runtime distance apart: each still in its own sectors; the
    // requests are what changes.
    X.After = FixAfter{{{"requests_per_warp", After}},
                       std::string(Store ? "STG.E" : "LDG.E") +
                           (Width == 16 ? ".128" : ".64")};
    X.Description +=
        "; after: " +
        (F.ExecutionsPerWarp
             ? number(After) + " " + X.After->Instruction +
                   " requests per warp instead of " + number(Before)
             : "one " + X.After->Instruction + " per " + std::to_string(K) +
                   " elements (" + number(Before / After) +
                   "x fewer requests)") +
        ", each lane's sectors as now";
  }
  return X;
}

unsigned conflictFreePad(unsigned RowElems, unsigned ElemBytes) {
  for (unsigned Pad = 1; Pad <= 64; ++Pad) {
    WarpRequest R;
    R.BytesPerLane = ElemBytes;
    for (unsigned L = 0; L < WarpSize; ++L)
      R.Offset[L] = int64_t(L) * (RowElems + Pad) * ElemBytes;
    // A column moves every lane by the same C * ElemBytes: a multiple of
    // 4 bytes only rotates the banks, so the degree depends on the column
    // modulo 4 / gcd(ElemBytes, 4) (one column for 4-byte and wider
    // elements). Checking every column of a long run (a softmax row of
    // 50,000 elements, for each of 64 pads and each chunk size) took minutes.
    unsigned Period = 4 / std::gcd(ElemBytes, 4u);
    bool Free = true;
    for (unsigned C = 0; C < std::min(RowElems, Period) && Free; ++C) {
      RequestCost Cost = costOf(R, int64_t(C) * ElemBytes);
      Free = Cost.Wavefronts <= Cost.IdealWavefronts;
    }
    if (Free)
      return Pad;
  }
  return 0;
}

Fix stageSuggestion(const RuleContext &Ctx, const AccessFacts &F) {
  Fix X;
  X.Kind = FixKind::StageShared;
  X.Apply = Applicability::Suggestion;
  const KernelInfo &K = Ctx.Result.Kernels[F.Kernel];
  unsigned Elem = std::max(1u, F.BytesPerLane);
  int64_t Run = F.PerThreadContiguousBytes.value_or(Elem) / Elem;
  std::string Threads =
      K.Shape.Dim ? std::to_string((*K.Shape.Dim)[0] * (*K.Shape.Dim)[1] *
                                   (*K.Shape.Dim)[2])
                  : "THREADS";
  unsigned Pad = conflictFreePad(static_cast<unsigned>(Run), Elem);
  // A block may declare 48 KiB of static shared memory: a run too long for
  // every thread's copy at once is staged a chunk at a time.
  constexpr int64_t MaxStaticShared = 48 * 1024;
  int64_t NThreads =
      K.Shape.Dim ? (*K.Shape.Dim)[0] * (*K.Shape.Dim)[1] * (*K.Shape.Dim)[2]
                  : 256;
  int64_t Chunk = Run;
  auto Bytes = [&](int64_t C) {
    return NThreads * (C + conflictFreePad(static_cast<unsigned>(C), Elem)) *
           int64_t(Elem);
  };
  while (Chunk > 1 && Bytes(Chunk) > MaxStaticShared)
    Chunk = Chunk % 2 == 0 ? Chunk / 2 : Chunk - 1;
  bool Chunked = Chunk < Run;
  if (Chunked)
    Pad = conflictFreePad(static_cast<unsigned>(Chunk), Elem);
  std::string T = F.Type.getUnqualifiedType().getAsString();
  auto [Array, Index] = baseOf(F);
  std::string Base = Index.empty() ? "base" : Index;
  bool Store = F.Kind == AccessKind::Store;
  X.Description =
      "stage the block's rows through shared memory padded by " +
      std::to_string(Pad) + " element" + (Pad == 1 ? "" : "s") +
      " (conflict-free for per-thread " + (Store ? "writes" : "reads") +
      "), copying " + (Store ? "out" : "in") + " with coalesced " +
      (Store ? "stores" : "loads") + ": at " + std::to_string(Run * Elem) +
      " bytes per thread this beats 16-byte " +
      (Store ? "stores from" : "loads into") +
      " registers (measured crossover near 128 bytes per thread)";
  if (Chunked)
    X.Description +=
        "; " + std::to_string(Chunk) + " elements per thread at a time (" +
        std::to_string(Bytes(Chunk) / 1024) + " KiB of shared memory" +
        (K.Shape.Dim ? "" : " for 256 threads") +
        "): the whole run would take " + std::to_string(Bytes(Run) / 1024) +
        " KiB, over the 48 KiB a block declares statically";
  // The copy's loads (or stores): lanes adjacent, one element each; the
  // per-thread accesses of `sh`: conflict-free by the padding's search.
  {
    AccessFacts Copy = F;
    Copy.Alignment = AlignmentFact::Aligned;
    Copy.MisalignBytes.reset();
    double Exec = F.ExecutionsPerWarp.value_or(1);
    auto [A, T] = rewrittenFigures(Copy, Elem, true, Exec, Exec);
    A.Numbers.push_back({"shared_bank_conflict_ways", 1});
    X.After = A;
    X.Description +=
        "; after: the coalesced " + std::string(Store ? "stores" : "loads") +
        " take " + number(A.Numbers[0].second) + " sectors per request (now " +
        number(F.SectorsPerRequest.value_or(0)) +
        "), the padded rows of `sh` are conflict-free";
    (void)T;
  }
  std::string C = std::to_string(Chunk);
  std::string Decl = "__shared__ " + T + " sh[" + Threads + "][" + C + " + " +
                     std::to_string(Pad) + "];\n";
  std::string Outer = Chunked
                          ? "for (int c0 = 0; c0 < " + std::to_string(Run) +
                                "; c0 += " + C + ") {  // a chunk at a time\n"
                          : "";
  std::string Ind = Chunked ? "  " : "";
  std::string Loop = Ind + "for (int i = threadIdx.x; i < " + Threads + " * " +
                     C + "; i += " + Threads + ")  // coalesced\n";
  std::string Sh = "sh[i / " + C + "][i % " + C + "]";
  std::string Global =
      Array + "[" + Base + " + " +
      (Chunked ? "(i / " + C + ") * " + std::to_string(Run) + " + c0 + i % " + C
               : std::string("i")) +
      "]";
  std::string Use = Chunked ? "sh[threadIdx.x][c - c0]" : "sh[threadIdx.x][c]";
  if (Store)
    X.Code = Decl + Outer + Ind + "// write " + Use + " instead of " +
             Ctx.text(F.E->getSourceRange()) + ", then\n" + Ind +
             "__syncthreads();\n" + Loop + Ind + "  " + Global + " = " + Sh +
             ";" + (Chunked ? "\n  __syncthreads();\n}" : "");
  else
    X.Code = Decl + Outer + Loop + Ind + "  " + Sh + " = " + Global + ";\n" +
             Ind + "__syncthreads();\n" + Ind + "// then read " + Use +
             " instead of " + Ctx.text(F.E->getSourceRange()) +
             (Chunked ? "\n  __syncthreads();\n}" : "");
  return X;
}

std::optional<Fix> interchangeSuggestion(const RuleContext &Ctx,
                                         const AccessFacts &F) {
  if (F.Loops.empty() || !F.Loops.back().OrderFree ||
      F.Loops.back().VarName.empty())
    return std::nullopt;
  const KernelInfo &K = Ctx.Result.Kernels[F.Kernel];
  if (!K.Shape.Dim || (*K.Shape.Dim)[1] != 1 || (*K.Shape.Dim)[2] != 1)
    return std::nullopt;
  // The threads' runs must tile the row (lane stride = run): then the
  // striped loop reads the same elements, in another order.
  if (!F.LaneStrideBytes || !F.PerThreadContiguousBytes ||
      *F.LaneStrideBytes != *F.PerThreadContiguousBytes)
    return std::nullopt;
  Fix X;
  X.Kind = FixKind::Interchange;
  X.Apply = Applicability::Suggestion;
  std::string C = F.Loops.back().VarName;
  std::string Threads = std::to_string((*K.Shape.Dim)[0]);
  auto [Array, Index] = baseOf(F);
  std::string Base = Index.empty() ? "" : Index + " + ";
  X.Description = "the loop's order does not matter here: let adjacent lanes "
                  "take adjacent elements (striped); coalesced, though still "
                  "one element per instruction";
  X.Code = Array + "[" + Base + C + " * " + Threads + " + threadIdx.x]";
  double Exec = F.ExecutionsPerWarp.value_or(1);
  auto [A, T] = rewrittenFigures(F, F.BytesPerLane, true, Exec, Exec);
  X.After = A;
  X.Description += "; " + T;
  return X;
}

} // namespace cal

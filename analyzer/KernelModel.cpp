//===- KernelModel.cpp ----------------------------------------------------===//

#include "analyzer/KernelModel.h"

#include "analyzer/HostLaunch.h"
#include "analyzer/Interpreter.h"
#include "analyzer/SourceText.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <map>

namespace cal {

using namespace clang;

std::optional<BlockDimSetting> parseBlockDimSetting(llvm::StringRef Text,
                                                    std::string &Error) {
  BlockDimSetting S;
  llvm::StringRef Dims = Text.trim();
  if (Dims.contains('=')) {
    auto [K, D] = Dims.rsplit('=');
    S.Kernel = K.trim().str();
    Dims = D.trim();
  }
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Dims.split(Parts, Dims.contains('x') ? 'x' : ',');
  if (Parts.empty() || Parts.size() > 3) {
    Error = "expected X[,Y[,Z]]";
    return std::nullopt;
  }
  for (size_t I = 0; I < Parts.size(); ++I) {
    int64_t V;
    if (Parts[I].trim().getAsInteger(10, V) || V < 1 || V > 1024) {
      Error =
          "'" + Parts[I].trim().str() + "' is not a block dimension (1-1024)";
      return std::nullopt;
    }
    S.Dim[I] = V;
  }
  if (S.Dim[0] * S.Dim[1] * S.Dim[2] > 1024) {
    Error = "a block has at most 1024 threads";
    return std::nullopt;
  }
  return S;
}

std::string kernelName(const FunctionDecl *FD) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressScope = true;
  Policy.SuppressTagKeyword = true;
  FD->getNameForDiagnostic(OS, Policy, /*Qualified=*/false);
  return Name;
}

namespace {

std::string dimString(const Dim3 &D) {
  std::string S = std::to_string(D[0]);
  if (D[1] != 1 || D[2] != 1)
    S += "x" + std::to_string(D[1]);
  if (D[2] != 1)
    S += "x" + std::to_string(D[2]);
  return S;
}

/// A launch's block (or grid) shape, when it is a known constant.
std::optional<Dim3> shapeOf(const AbsValue &V, int64_t Max = 1024) {
  if (V.isInt()) {
    if (auto C = V.Val.asConstant())
      if (*C >= 1 && *C <= Max)
        return Dim3{*C, 1, 1};
    return std::nullopt;
  }
  if (V.K != AbsValue::Struct || !V.Fields)
    return std::nullopt;
  Dim3 D = {1, 1, 1};
  int Found = 0;
  for (const auto &[F, FV] : *V.Fields) {
    int Idx = F->getName() == "x"   ? 0
              : F->getName() == "y" ? 1
              : F->getName() == "z" ? 2
                                    : -1;
    if (Idx < 0)
      continue;
    if (!FV.isInt())
      return std::nullopt;
    auto C = FV.Val.asConstant();
    if (!C || *C < 1 || *C > Max)
      return std::nullopt;
    D[Idx] = *C;
    ++Found;
  }
  if (Found == 0 || (Max == 1024 && D[0] * D[1] * D[2] > 1024))
    return std::nullopt;
  return D;
}

class KernelCollector : public RecursiveASTVisitor<KernelCollector> {
public:
  KernelCollector(ASTContext &Ctx, const std::vector<AssumedValue> &Assumed)
      : Ctx(Ctx), Code(Ctx, Assumed) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    Enclosing.push_back(FD);
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Enclosing.pop_back();
    return R;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    Enclosing.push_back(MD);
    bool R = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    Enclosing.pop_back();
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext() && !FD->isInvalidDecl() &&
        !FD->getDescribedFunctionTemplate())
      if (Seen.insert(FD->getCanonicalDecl()).second)
        Kernels.push_back(FD);
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *K) {
    const CallExpr *Config = K->getConfig();
    if (!Config || Config->getNumArgs() < 2 || K->isValueDependent() ||
        K->isTypeDependent())
      return true;
    Pending.push_back(
        {K, Enclosing.empty() ? nullptr : Enclosing.back(), Form::Chevrons});
    return true;
  }

  bool VisitCallExpr(CallExpr *C) {
    if (isa<CUDAKernelCallExpr>(C) || C->isValueDependent() ||
        C->isTypeDependent())
      return true;
    const FunctionDecl *Where = Enclosing.empty() ? nullptr : Enclosing.back();
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return true;
    llvm::StringRef N =
        Callee->getIdentifier() ? Callee->getName() : llvm::StringRef();
    // cudaLaunchKernel(func, grid, block, args, smem, stream);
    // cudaLaunchKernelEx(&config, kernel, args...) (C++),
    // cudaLaunchKernelExC(&config, func, args).
    if (!inSystemOrPrelude(Ctx.getSourceManager(), C->getBeginLoc())) {
      if (N == "cudaLaunchKernel" && C->getNumArgs() >= 3) {
        Pending.push_back({C, Where, Form::LaunchKernel});
        return true;
      }
      if ((N == "cudaLaunchKernelEx" || N == "cudaLaunchKernelExC") &&
          C->getNumArgs() >= 2) {
        Pending.push_back({C, Where,
                           N == "cudaLaunchKernelEx" ? Form::LaunchKernelEx
                                                     : Form::LaunchKernelExC});
        return true;
      }
    }
    Code.addCall(C, Where);
    return true;
  }

  enum class Form { Chevrons, LaunchKernel, LaunchKernelEx, LaunchKernelExC };
  struct PendingLaunch {
    const CallExpr *Call;
    const FunctionDecl *Where;
    Form F;
  };

  struct Launch {
    std::optional<Dim3> Shape;
    std::optional<Dim3> Grid;
    SourceLocation Loc;
    /// The host scenario it was evaluated in ("dimension = 1, fp = 0").
    std::string Bindings;
    /// What its values rest on (globals as a setup function leaves them).
    AssumptionList Notes;
    std::vector<const AssumedValue *> Assumed;
    std::vector<std::optional<int64_t>> ArgConst;
    std::vector<bool> ArgIsBlockX;
    /// Pointer arguments: bytes past the start of what they point into
    /// (`d_in + 3` of floats: 12), when the start is a plain pointer
    /// variable or parameter and the offset a constant.
    std::vector<std::optional<int64_t>> ArgPtrOffset;
  };

  /// The field of a cudaLaunchConfig_t value named \p Name.
  static AbsValue fieldNamed(const AbsValue &V, llvm::StringRef Name) {
    if (V.K == AbsValue::Struct && V.Fields)
      for (const auto &[F, FV] : *V.Fields)
        if (F->getName() == Name)
          return FV;
    return AbsValue::unknown("field `" + Name.str() + "` not known");
  }

  /// What a launch names: the kernel (or an expression for it), the block
  /// and grid (or a cudaLaunchConfig_t), the arguments.
  struct LaunchOperands {
    const Expr *Callee = nullptr, *Block = nullptr, *Grid = nullptr,
               *Config = nullptr;
    const FunctionDecl *Direct = nullptr;
    std::vector<const Expr *> Args;
  };

  static LaunchOperands operandsOf(const PendingLaunch &P) {
    const CallExpr *K = P.Call;
    LaunchOperands Op;
    switch (P.F) {
    case Form::Chevrons: {
      const CallExpr *Config = cast<CUDAKernelCallExpr>(K)->getConfig();
      Op.Direct = K->getDirectCallee();
      if (!Op.Direct)
        Op.Callee = K->getCallee();
      Op.Block = Config->getArg(1);
      Op.Grid = Config->getArg(0);
      for (unsigned I = 0; I < K->getNumArgs(); ++I)
        Op.Args.push_back(K->getArg(I));
      break;
    }
    case Form::LaunchKernel:
      Op.Callee = K->getArg(0);
      Op.Grid = K->getArg(1);
      Op.Block = K->getArg(2);
      break;
    case Form::LaunchKernelEx:
    case Form::LaunchKernelExC: {
      Op.Callee = K->getArg(1);
      const Expr *C = K->getArg(0)->IgnoreParenImpCasts();
      if (auto *U = dyn_cast<UnaryOperator>(C);
          U && U->getOpcode() == UO_AddrOf)
        Op.Config = U->getSubExpr();
      if (P.F == Form::LaunchKernelEx)
        for (unsigned I = 2; I < K->getNumArgs(); ++I)
          Op.Args.push_back(K->getArg(I));
      break;
    }
    }
    return Op;
  }

  /// Evaluates the launches found, once the whole translation unit has been
  /// seen (globals are filled in functions anywhere in it).
  void evaluateLaunches() {
    for (const PendingLaunch &P : Pending) {
      LaunchOperands Op = operandsOf(P);
      std::vector<const Expr *> Exprs;
      if (Op.Config) {
        Exprs.push_back(Op.Config);
      } else if (Op.Block && Op.Grid) {
        Exprs.push_back(Op.Block);
        Exprs.push_back(Op.Grid);
      } else {
        continue;
      }
      size_t FirstArg = Exprs.size();
      for (const Expr *A : Op.Args)
        Exprs.push_back(A);
      for (const HostOutcome &O :
           Code.evaluate(P.Where, P.Call, Op.Callee, Op.Direct, Exprs)) {
        const FunctionDecl *Callee = O.Callee;
        if (!Callee || !Callee->hasAttr<CUDAGlobalAttr>())
          continue;
        Launches[Callee->getCanonicalDecl()].push_back(
            launchOf(P, Op, O, FirstArg));
      }
    }
  }

  /// One outcome of a launch: its shapes and what it passes.
  Launch launchOf(const PendingLaunch &P, const LaunchOperands &Op,
                  const HostOutcome &O, size_t FirstArg) {
    AbsValue Block =
        Op.Config ? fieldNamed(O.Values[0], "blockDim") : O.Values[0];
    AbsValue Grid =
        Op.Config ? fieldNamed(O.Values[0], "gridDim") : O.Values[1];
    Launch L;
    L.Shape = shapeOf(Block);
    L.Grid = shapeOf(Grid, int64_t(1) << 31);
    L.Loc = P.Call->getBeginLoc();
    L.Bindings = O.Bindings;
    L.Notes = O.Notes;
    L.Assumed = O.Assumed;
    // The arguments: constants, and those that are the block size itself.
    const Expr *BlockX = Op.Block ? blockXExpr(Op.Block) : nullptr;
    for (unsigned I = 0; I < Op.Args.size(); ++I) {
      const Expr *Arg = Op.Args[I];
      const AbsValue &V = O.Values[FirstArg + I];
      std::optional<int64_t> C;
      if (Arg->getType()->isIntegerType() && V.isInt())
        C = V.Val.asConstant();
      L.ArgConst.push_back(C);
      L.ArgPtrOffset.push_back(Arg->getType()->isPointerType()
                                   ? pointerOffset(Arg, P.Where, P.Call)
                                   : std::nullopt);
      L.ArgIsBlockX.push_back(BlockX && Arg->getType()->isIntegerType() &&
                              sameExpr(Arg, BlockX));
    }
    return L;
  }

  /// The x extent of a launch's block argument, as written: `block_size`
  /// in `<<<g, block_size>>>` or `<<<g, dim3(block_size)>>>`.
  static const Expr *blockXExpr(const Expr *E) {
    while (true) {
      E = E->IgnoreParenImpCasts();
      if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
        E = M->getSubExpr();
        continue;
      }
      if (auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
        E = B->getSubExpr();
        continue;
      }
      if (auto *F = dyn_cast<CXXFunctionalCastExpr>(E)) {
        E = F->getSubExpr();
        continue;
      }
      if (auto *C = dyn_cast<CXXConstructExpr>(E)) {
        if (C->getNumArgs() == 0)
          return nullptr;
        // dim3(x), dim3(x, 1, 1): the x argument; a copy: its source.
        for (unsigned I = 1; I < C->getNumArgs(); ++I) {
          Expr::EvalResult R;
          const Expr *A = C->getArg(I);
          if (isa<CXXDefaultArgExpr>(A))
            continue;
          if (!A->EvaluateAsInt(R, C->getConstructor()->getASTContext()) ||
              R.Val.getInt() != 1)
            return nullptr;
        }
        E = C->getArg(0);
        if (E->getType()->isRecordType())
          return nullptr; // a dim3 variable: not followed
        continue;
      }
      return E->getType()->isIntegerType() ? E : nullptr;
    }
  }

  bool sameExpr(const Expr *A, const Expr *B) const {
    A = A->IgnoreParenImpCasts();
    B = B->IgnoreParenImpCasts();
    if (A->HasSideEffects(Ctx) || B->HasSideEffects(Ctx))
      return false;
    llvm::FoldingSetNodeID IA, IB;
    A->Profile(IA, Ctx, /*Canonical=*/true);
    B->Profile(IB, Ctx, /*Canonical=*/true);
    return IA == IB;
  }

  /// `p`, `p + C`, `&p[C]` with p a pointer variable: C elements in bytes.
  std::optional<int64_t>
  pointerOffset(const Expr *Arg, const FunctionDecl *Where, const Expr *At) {
    const Expr *E = Arg->IgnoreParenImpCasts();
    if (auto *C = dyn_cast<CStyleCastExpr>(E))
      if (C->getType()->isPointerType() &&
          C->getSubExpr()->getType()->isPointerType() &&
          Ctx.getTypeSizeInChars(C->getType()->getPointeeType()) ==
              Ctx.getTypeSizeInChars(
                  C->getSubExpr()->getType()->getPointeeType()))
        E = C->getSubExpr()->IgnoreParenImpCasts();
    auto IsBase = [](const Expr *B) {
      auto *D = dyn_cast<DeclRefExpr>(B->IgnoreParenImpCasts());
      return D && isa<VarDecl>(D->getDecl()) && D->getType()->isPointerType();
    };
    if (IsBase(E))
      return 0;
    const Expr *Base = nullptr, *Index = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_Add) {
        Base =
            B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
        Index = Base == B->getLHS() ? B->getRHS() : B->getLHS();
      }
    } else if (auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_AddrOf)
        if (auto *S =
                dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())) {
          Base = S->getBase();
          Index = S->getIdx();
        }
    }
    if (!Base || !Index || !IsBase(Base) || !Index->getType()->isIntegerType())
      return std::nullopt;
    QualType Pointee = Base->IgnoreParenImpCasts()->getType()->getPointeeType();
    if (Pointee->isIncompleteType() || Pointee->isDependentType())
      return std::nullopt;
    AbsValue V = Interpreter::evalHostExpr(Ctx, Index, Where, At);
    auto C = V.isInt() ? V.Val.asConstant() : std::nullopt;
    if (!C)
      return std::nullopt;
    return *C * Ctx.getTypeSizeInChars(Pointee).getQuantity();
  }
  ASTContext &Ctx;
  HostCode Code;
  std::vector<PendingLaunch> Pending;
  std::vector<const FunctionDecl *> Enclosing;
  std::vector<FunctionDecl *> Kernels;
  llvm::SmallPtrSet<const Decl *, 16> Seen;
  std::map<const Decl *, std::vector<Launch>> Launches;
};

/// `// cuda-access-lint: block-dim=16,16` inside the kernel or in the five
/// lines above it.
std::optional<Dim3> annotatedShape(const FunctionDecl *FD,
                                   const SourceManager &SM,
                                   SourceLocation &Where) {
  SourceLocation Begin = SM.getExpansionLoc(FD->getBeginLoc());
  SourceLocation End = SM.getExpansionLoc(FD->getEndLoc());
  FileID File = SM.getFileID(Begin);
  if (File != SM.getFileID(End))
    return std::nullopt;
  bool Invalid = false;
  llvm::StringRef Text = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  unsigned BeginOff = SM.getFileOffset(Begin), EndOff = SM.getFileOffset(End);
  // Back up five lines.
  unsigned Start = BeginOff;
  for (int Lines = 0; Start > 0 && Lines <= 5; --Start)
    if (Text[Start - 1] == '\n')
      ++Lines;
  llvm::StringRef Region = Text.slice(Start, EndOff + 1);
  static const llvm::Regex Re("cuda-access-lint:[ \t]*block[-_]?dim[ \t]*[=(][ "
                              "\t]*([0-9]+)([ \t]*[,x][ "
                              "\t]*([0-9]+))?([ \t]*[,x][ \t]*([0-9]+))?",
                              llvm::Regex::IgnoreCase);
  llvm::SmallVector<llvm::StringRef, 6> M;
  if (!Re.match(Region, &M))
    return std::nullopt;
  Dim3 D = {1, 1, 1};
  M[1].getAsInteger(10, D[0]);
  if (M.size() > 3 && !M[3].empty())
    M[3].getAsInteger(10, D[1]);
  if (M.size() > 5 && !M[5].empty())
    M[5].getAsInteger(10, D[2]);
  if (D[0] < 1 || D[1] < 1 || D[2] < 1 || D[0] * D[1] * D[2] > 1024)
    return std::nullopt;
  Where = SM.getComposedLoc(File, Start + (M[0].data() - Region.data()));
  return D;
}

/// A template argument whose parameter is named as a block size.
std::optional<std::pair<std::string, int64_t>>
templateBlockSize(const FunctionDecl *FD) {
  const FunctionTemplateDecl *T = FD->getPrimaryTemplate();
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!T || !Args)
    return std::nullopt;
  static const llvm::Regex Re(
      "^k?_?(block_?(size|dim|threads|dim_?x|size_?x)|threads(_?per_?block)?|"
      "n_?threads|num_?threads|block_?x|bdx|cta_?size|tpb)$",
      llvm::Regex::IgnoreCase);
  const TemplateParameterList *Params = T->getTemplateParameters();
  for (unsigned I = 0; I < Params->size() && I < Args->size(); ++I) {
    const NamedDecl *P = Params->getParam(I);
    if (!isa<NonTypeTemplateParmDecl>(P) ||
        Args->get(I).getKind() != TemplateArgument::Integral)
      continue;
    if (!Re.match(P->getName()))
      continue;
    int64_t V = Args->get(I).getAsIntegral().getExtValue();
    if (V >= 1 && V <= 1024)
      return std::make_pair(P->getNameAsString(), V);
  }
  return std::nullopt;
}

/// Whether a kernel's body reads threadIdx.y.
bool usesThreadIdxY(const Stmt *S) {
  if (!S)
    return false;
  if (auto *P = dyn_cast<MSPropertyRefExpr>(S))
    if (P->getPropertyDecl()->getName() == "y") {
      const Expr *Base = P->getBaseExpr()->IgnoreImplicit();
      if (auto *O = dyn_cast<OpaqueValueExpr>(Base))
        Base = O->getSourceExpr()->IgnoreImplicit();
      if (auto *D = dyn_cast<DeclRefExpr>(Base))
        if (D->getDecl()->getName() == "threadIdx")
          return true;
    }
  if (auto *PO = dyn_cast<PseudoObjectExpr>(S))
    return usesThreadIdxY(PO->getSyntacticForm());
  if (auto *O = dyn_cast<OpaqueValueExpr>(S))
    return usesThreadIdxY(O->getSourceExpr());
  for (const Stmt *C : S->children())
    if (usesThreadIdxY(C))
      return true;
  return false;
}

/// A kernel name as --block-dim and --assume give it: without template
/// arguments, every instantiation.
bool assumedMatches(const std::string &Kernel, const FunctionDecl *FD,
                    const std::string &Name) {
  if (Kernel.empty() || Kernel == Name)
    return true;
  if (llvm::StringRef(Kernel).contains('<'))
    return llvm::StringRef(Kernel).rtrim() == llvm::StringRef(Name).rtrim();
  return FD->getName() == Kernel;
}

bool settingMatches(const BlockDimSetting &S, const FunctionDecl *FD,
                    const std::string &Name) {
  return assumedMatches(S.Kernel, FD, Name);
}

using LaunchList = std::vector<KernelCollector::Launch>;

/// "the launch at f.cu:12" or "every launch in this file".
std::string launchesText(const SourceManager &SM, const LaunchList &Ls) {
  return Ls.size() == 1 ? "the launch at " + fileLine(SM, Ls.front().Loc)
                        : "every launch in this file";
}

/// What the launches of a kernel, and the user's assumed values, say about
/// its parameters.
struct ParamFacts {
  std::vector<std::pair<const ParmVarDecl *, int64_t>> ConstParams;
  std::vector<const ParmVarDecl *> BlockXParams;
  std::vector<std::pair<const ParmVarDecl *, int64_t>> PtrOffsets;
  AssumptionList Assumptions;
  std::vector<AssumedUse> AssumedUses;

  /// A pointer parameter (the \p I th) that every launch passes the same
  /// number of bytes past an allocation's start for.
  void pointerParam(const ParmVarDecl *PD, unsigned I, const LaunchList &Ls,
                    const SourceManager &SM) {
    std::optional<int64_t> Off;
    for (const auto &L : Ls) {
      if (I >= L.ArgPtrOffset.size() || !L.ArgPtrOffset[I] ||
          (Off && *Off != *L.ArgPtrOffset[I]))
        return;
      Off = L.ArgPtrOffset[I];
    }
    if (!Off || *Off == 0)
      return;
    PtrOffsets.push_back({PD, *Off});
    addAssumption(Assumptions,
                  {Assumption::Kind::PointerOffset, PD->getNameAsString(),
                   "`" + PD->getNameAsString() + "` points " +
                       std::to_string(*Off) +
                       " bytes past the start of an allocation: " +
                       launchesText(SM, Ls) + " passes it so"});
  }

  /// An integer parameter that every launch passes the same constant, or
  /// its block size, for.
  void integerParam(const ParmVarDecl *PD, unsigned I, const LaunchList &Ls,
                    const SourceManager &SM) {
    bool AllConst = true, AllBlockX = true;
    std::optional<int64_t> Value;
    for (const auto &L : Ls) {
      if (I >= L.ArgConst.size()) {
        AllConst = AllBlockX = false;
        break;
      }
      if (!L.ArgConst[I] || (Value && *Value != *L.ArgConst[I]))
        AllConst = false;
      else
        Value = L.ArgConst[I];
      AllBlockX = AllBlockX && L.ArgIsBlockX[I];
    }
    std::string N = PD->getNameAsString();
    std::string Where = launchesText(SM, Ls);
    if (AllConst && Value) {
      ConstParams.push_back({PD, *Value});
      addAssumption(Assumptions, {Assumption::Kind::ParameterValue, N,
                                  "`" + N + "` = " + std::to_string(*Value) +
                                      ": " + Where + " passes it"});
    } else if (AllBlockX) {
      BlockXParams.push_back(PD);
      addAssumption(Assumptions, {Assumption::Kind::ParameterBlockSize, N,
                                  "`" + N + "` = blockDim.x: " + Where +
                                      " passes its block size for it"});
    }
  }

  void fromLaunches(const FunctionDecl *FD, const LaunchList &Ls,
                    const SourceManager &SM) {
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      const ParmVarDecl *PD = FD->getParamDecl(I);
      if (PD->getType()->isPointerType())
        pointerParam(PD, I, Ls, SM);
      else if (PD->getType()->isIntegerType())
        integerParam(PD, I, Ls, SM);
    }
  }

  /// What the user assumed for the integer parameters that stay unknown
  /// (the kernel's own values over everyone's).
  void fromAssumed(const FunctionDecl *FD, const std::string &Name,
                   const std::vector<AssumedValue> &Assumed) {
    for (const ParmVarDecl *PD : FD->parameters()) {
      if (!PD->getType()->isIntegerType() || PD->getType()->isBooleanType())
        continue;
      bool Known = std::any_of(ConstParams.begin(), ConstParams.end(),
                               [&](const auto &P) { return P.first == PD; }) ||
                   llvm::is_contained(BlockXParams, PD);
      if (Known)
        continue;
      const AssumedValue *Found = nullptr;
      for (const AssumedValue &A : Assumed)
        if (A.Name == PD->getName() && A.Kernel.empty())
          Found = &A;
      for (const AssumedValue &A : Assumed)
        if (A.Name == PD->getName() && !A.Kernel.empty() &&
            assumedMatches(A.Kernel, FD, Name))
          Found = &A;
      if (!Found)
        continue;
      ConstParams.push_back({PD, Found->Value});
      addAssumption(Assumptions,
                    {Assumption::Kind::UserValue, PD->getNameAsString(),
                     "`" + PD->getNameAsString() +
                         "` = " + std::to_string(Found->Value) +
                         ": assumed (" + Found->Source + ")"});
      AssumedUses.push_back(
          {PD->getNameAsString(), Found->Value, Found->Source, "parameter"});
    }
  }

  /// \p S with these facts after its own.
  void applyTo(BlockShape &S) const {
    for (const AssumedUse &U : AssumedUses)
      S.AssumedValues.push_back(U);
    S.ConstParams = ConstParams;
    S.BlockDimXParams = BlockXParams;
    S.PointerOffsets = PtrOffsets;
    addAssumptions(S.Assumptions, Assumptions);
  }
};

BlockShape shapeFrom(std::optional<Dim3> Dim, std::string Source,
                     AssumptionList Assumptions = {}) {
  BlockShape S;
  S.Dim = Dim;
  S.Source = std::move(Source);
  S.Assumptions = std::move(Assumptions);
  return S;
}

/// The shapes a kernel's launches in the file give, one per distinct
/// shape (the first launch of each).
std::vector<BlockShape> launchShapes(const LaunchList &Ls,
                                     const SourceManager &SM) {
  std::map<Dim3, const KernelCollector::Launch *> Shapes;
  for (const auto &L : Ls)
    if (L.Shape && !Shapes.count(*L.Shape))
      Shapes[*L.Shape] = &L;
  std::vector<BlockShape> Out;
  for (const auto &[D, L] : Shapes) {
    BlockShape S =
        shapeFrom(D,
                  "launch at " + fileLine(SM, L->Loc) +
                      (L->Bindings.empty() ? "" : " with " + L->Bindings),
                  L->Notes);
    S.Grid = L->Grid;
    for (const AssumedValue *A : L->Assumed) {
      addAssumption(S.Assumptions,
                    {Assumption::Kind::UserValue, A->Name,
                     "`" + A->Name + "` = " + std::to_string(A->Value) +
                         " in host code at " + fileLine(SM, L->Loc) +
                         ": assumed (" + A->Source + ")"});
      S.AssumedValues.push_back({A->Name, A->Value, A->Source,
                                 "host code at " + fileLine(SM, L->Loc)});
    }
    Out.push_back(std::move(S));
  }
  return Out;
}

/// __launch_bounds__(N): a 1-D block of N threads.
std::optional<BlockShape> launchBoundsShape(const FunctionDecl *FD,
                                            ASTContext &Ctx) {
  const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>();
  Expr::EvalResult R;
  if (!LB || !LB->getMaxThreads() ||
      !LB->getMaxThreads()->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  int64_t N = R.Val.getInt().getExtValue();
  if (N < 1 || N > 1024)
    return std::nullopt;
  std::string Bounds = "__launch_bounds__(" + std::to_string(N) + ")";
  return shapeFrom(Dim3{N, 1, 1}, Bounds,
                   {{Assumption::Kind::BlockShape, Bounds,
                     "block of " + std::to_string(N) +
                         " x 1 x 1 threads assumed from " + Bounds}});
}

/// A template argument named as a block size: a 1-D block of that many
/// threads, or a square one when the kernel also indexes by threadIdx.y
/// (matrixMul's BLOCK_SIZE x BLOCK_SIZE tiles).
std::optional<BlockShape> templateShape(const FunctionDecl *FD) {
  auto T = templateBlockSize(FD);
  if (!T)
    return std::nullopt;
  bool UsesY = usesThreadIdxY(FD->getBody());
  int64_t N = T->second;
  if (UsesY && N * N > 1024)
    return std::nullopt;
  Dim3 D = UsesY ? Dim3{N, N, 1} : Dim3{N, 1, 1};
  return shapeFrom(
      D, "template argument " + T->first,
      {{Assumption::Kind::BlockShape, T->first,
        "block of " + std::to_string(D[0]) + " x " + std::to_string(D[1]) +
            " x 1 threads assumed from template argument " + T->first +
            (UsesY ? " (the kernel indexes threadIdx.y too: a square block)"
                   : "")}});
}

/// The block shapes to analyze \p FD with, from the first source that
/// gives any: the command line (the last matching setting wins, as with
/// flags), an annotation, the launch sites, __launch_bounds__, a template
/// argument; else one unknown shape.
std::vector<BlockShape>
blockShapes(ASTContext &Ctx, const FunctionDecl *FD, const std::string &Name,
            const std::vector<BlockDimSetting> &Settings,
            const LaunchList *Ls) {
  const SourceManager &SM = Ctx.getSourceManager();
  const BlockDimSetting *Setting = nullptr;
  for (const BlockDimSetting &S : Settings)
    if (settingMatches(S, FD, Name))
      Setting = &S;
  if (Setting)
    return {shapeFrom(Setting->Dim, "--block-dim")};
  SourceLocation AnnLoc;
  if (auto D = annotatedShape(FD, SM, AnnLoc))
    return {shapeFrom(*D, "annotation at " + fileLine(SM, AnnLoc))};
  if (Ls) {
    std::vector<BlockShape> FromLaunches = launchShapes(*Ls, SM);
    if (!FromLaunches.empty())
      return FromLaunches;
  }
  if (std::optional<BlockShape> S = launchBoundsShape(FD, Ctx))
    return {std::move(*S)};
  if (std::optional<BlockShape> S = templateShape(FD))
    return {std::move(*S)};
  return {shapeFrom(std::nullopt, "unknown",
                    {{Assumption::Kind::BlockShapeUnknown, "",
                      "block shape unknown: blockDim.x assumed a multiple of "
                      "32 (give it with --block-dim or a launch in this "
                      "file)"}})};
}

} // namespace

std::vector<KernelConfig>
findKernels(ASTContext &Ctx, const std::vector<BlockDimSetting> &Settings,
            const std::function<bool(SourceLocation)> &Include,
            const std::vector<AssumedValue> &Assumed) {
  KernelCollector C(Ctx, Assumed);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.evaluateLaunches();
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<KernelConfig> Out;
  for (const FunctionDecl *FD : C.Kernels) {
    auto LI = C.Launches.find(FD->getCanonicalDecl());
    const LaunchList *Ls = LI == C.Launches.end() ? nullptr : &LI->second;
    // A kernel defined in a header is analyzed when a file that is analyzed
    // launches it (the .cu that instantiates a template kernel of a .cuh).
    bool Launched = false;
    if (Ls)
      for (const auto &L : *Ls)
        Launched = Launched || Include(L.Loc);
    if (!Include(FD->getLocation()) && !Launched)
      continue;
    std::string Name = kernelName(FD);
    ParamFacts P;
    if (Ls && !Ls->empty())
      P.fromLaunches(FD, *Ls, SM);
    P.fromAssumed(FD, Name, Assumed);
    for (BlockShape &S : blockShapes(Ctx, FD, Name, Settings, Ls)) {
      P.applyTo(S);
      Out.push_back({FD, Name, std::move(S)});
    }
  }
  return Out;
}

std::string dimText(const Dim3 &D) { return dimString(D); }

} // namespace cal

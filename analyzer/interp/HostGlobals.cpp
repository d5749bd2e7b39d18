//===- HostGlobals.cpp ----------------------------------------------------===//
//
// The host code's globals as a launch reads them: their initializers'
// values, then, for each global that one host function alone assigns (a
// setup function: `block[1][0] = dim3(4, 64);`), what that function leaves
// in it, run once over its body; a global several functions assign is not
// known (interp/HostImpl.h).
//
//===----------------------------------------------------------------------===//

#include "analyzer/interp/HostImpl.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>

namespace cal {

using namespace clang;
using namespace host;

namespace {

/// Host functions with bodies, and the globals each may write.
class GlobalWriters : public RecursiveASTVisitor<GlobalWriters> {
public:
  std::vector<const FunctionDecl *> Functions;
  HostCode::Data::WriterMap Writers;
  std::vector<const VarDecl *> Globals;
  std::function<bool(SourceLocation)> IsSystem;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitVarDecl(VarDecl *VD) {
    if (isHostGlobal(VD) && !VD->isInvalidDecl() &&
        !VD->getDeclContext()->isDependentContext() &&
        !IsSystem(VD->getLocation()))
      Globals.push_back(VD);
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
        FD->hasAttr<CUDAGlobalAttr>() ||
        (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()) ||
        IsSystem(FD->getLocation()))
      return true;
    std::set<const VarDecl *> W;
    forEachWritten(FD->getBody(), /*RefArguments=*/true,
                   [&](const VarDecl *VD) {
                     if (isHostGlobal(VD))
                       W.insert(VD);
                   });
    if (!W.empty()) {
      Functions.push_back(FD);
      for (const VarDecl *VD : W)
        Writers[VD].push_back(FD);
    }
    return true;
  }
};

/// Erases \p M's entries whose key's first element is \p VD.
template <typename MapT> void eraseVar(MapT &M, const VarDecl *VD) {
  for (auto It = M.begin(); It != M.end();)
    It = std::get<0>(It->first) == VD ? M.erase(It) : std::next(It);
}

} // namespace

void HostCode::Data::computeGlobals() {
  if (GlobalsDone)
    return;
  GlobalsDone = true;
  GlobalWriters GW;
  GW.IsSystem = [&](SourceLocation L) { return isSystem(L); };
  GW.TraverseDecl(Ctx.getTranslationUnitDecl());
  initialValues(GW.Globals);
  // Each writer run once over its body, from the initial values.
  HostMemory Initial = Globals;
  for (const FunctionDecl *FD : GW.Functions)
    runWriter(FD, Initial, GW.Writers);
}

void HostCode::Data::initialValues(llvm::ArrayRef<const VarDecl *> Vars) {
  HostInterp H;
  Interpreter::Impl I(Ctx, H.Syms, H.W, H.Regions, H.Out);
  I.Host = &Globals;
  for (const VarDecl *VD : Vars) {
    const Expr *Init = VD->getInit();
    if (!Init)
      continue;
    QualType T = VD->getType();
    if (T->isArrayType())
      I.hostInitArray(VD, 0, T, Init);
    else if (T->isFunctionPointerType()) {
      if (const FunctionDecl *FD = I.hostFunction(Init))
        Globals.Fns[{VD, 0}] = FD;
    } else {
      AbsValue V = I.hostInitValue(T, Init);
      if (knownValue(V))
        Globals.GlobalVars[VD] = V;
    }
  }
}

void HostCode::Data::runWriter(const FunctionDecl *FD,
                               const HostMemory &Initial,
                               const WriterMap &Writers) {
  HostInterp H;
  H.Mem = Initial;
  Interpreter::Impl I(Ctx, H.Syms, H.W, H.Regions, H.Out);
  I.Host = &H.Mem;
  for (const auto &[VD, V] : Initial.GlobalVars)
    I.Env[VD] = V;
  bindLocals(I, FD->getBody());
  I.hostExec(FD->getBody());
  std::string Where = FD->getNameAsString() + "() (" +
                      fileLine(Ctx.getSourceManager(), FD->getLocation()) + ")";
  for (const auto &[VD, Ws] : Writers) {
    if (std::find(Ws.begin(), Ws.end(), FD) == Ws.end())
      continue;
    if (Ws.size() > 1) {
      forgetGlobal(VD);
      continue;
    }
    Globals.GlobalNotes.insert_or_assign(
        VD, Assumption{Assumption::Kind::HostGlobal, VD->getNameAsString(),
                       "`" + VD->getNameAsString() + "` as " + Where +
                           " leaves it (the one host function that assigns "
                           "it)"});
    adoptGlobal(VD, H.Mem, I.Env);
  }
}

void HostCode::Data::forgetGlobal(const VarDecl *VD) {
  Globals.GlobalVars.erase(VD);
  Globals.Poisoned.insert(VD);
  eraseVar(Globals.Fns, VD);
}

void HostCode::Data::adoptGlobal(
    const VarDecl *VD, const HostMemory &After,
    const llvm::DenseMap<const VarDecl *, AbsValue> &Env) {
  if (VD->getType()->isArrayType()) {
    eraseVar(Globals.Cells, VD);
    eraseVar(Globals.Fns, VD);
    if (After.Poisoned.count(VD)) {
      Globals.Poisoned.insert(VD);
      return;
    }
    for (const auto &[K, V] : After.Cells)
      if (std::get<0>(K) == VD)
        Globals.Cells[K] = V;
    for (const auto &[K, F] : After.Fns)
      if (K.first == VD)
        Globals.Fns[K] = F;
  } else if (VD->getType()->isFunctionPointerType()) {
    auto It = After.Fns.find({VD, 0});
    if (It != After.Fns.end())
      Globals.Fns[{VD, 0}] = It->second;
    else
      Globals.Fns.erase({VD, 0});
  } else {
    auto It = Env.find(VD);
    if (It != Env.end() && knownValue(It->second))
      Globals.GlobalVars[VD] = It->second;
    else
      Globals.GlobalVars.erase(VD);
  }
}

} // namespace cal

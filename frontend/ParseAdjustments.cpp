//===- ParseAdjustments.cpp -----------------------------------------------===//

#include "frontend/ParseAdjustments.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaCUDA.h"
#include "llvm/ADT/StringExtras.h"

namespace cal {

namespace nvcc_differences {

/// True when \p Loc lies inside the parentheses of an inline asm statement
/// (`asm`, `__asm__`, `asm volatile (...)`), by the text of its file.
bool insideInlineAsm(const clang::SourceManager &SM,
                     clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  clang::SourceLocation F = SM.getFileLoc(Loc);
  clang::FileIDAndOffset FO = SM.getDecomposedLoc(F);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FO.first, &Invalid);
  if (Invalid || FO.second > Buf.size())
    return false;
  // The nearest `asm` keyword before Loc, at most a few lines back.
  size_t From = FO.second > 4000 ? FO.second - 4000 : 0;
  llvm::StringRef Before = Buf.slice(From, FO.second);
  for (size_t At = Before.size(); At > 0;) {
    size_t K = Before.take_front(At).rfind("asm");
    if (K == llvm::StringRef::npos)
      return false;
    At = K;
    auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
    size_t Begin = K, End = K + 3;
    while (Begin > 0 && Before[Begin - 1] == '_')
      --Begin;
    while (End < Before.size() && Before[End] == '_')
      ++End;
    if ((Begin > 0 && IsIdent(Before[Begin - 1])) ||
        (End < Before.size() && IsIdent(Before[End])))
      continue; // part of another name
    // Qualifiers, then '('; then the parentheses must still be open at Loc.
    size_t P = End;
    while (true) {
      while (P < Before.size() && llvm::isSpace(Before[P]))
        ++P;
      llvm::StringRef Rest = Before.drop_front(P);
      bool Qualifier = false;
      for (llvm::StringRef Q : {"volatile", "__volatile__", "__volatile",
                                "goto", "inline", "__inline__"})
        if (Rest.starts_with(Q) &&
            (Rest.size() == Q.size() || !IsIdent(Rest[Q.size()]))) {
          P += Q.size();
          Qualifier = true;
          break;
        }
      if (!Qualifier)
        break;
    }
    if (P >= Before.size() || Before[P] != '(')
      return false;
    int Depth = 0;
    bool InString = false;
    for (size_t I = P; I < Before.size(); ++I) {
      char C = Before[I];
      if (InString) {
        if (C == '\\')
          ++I;
        else if (C == '"')
          InString = false;
        continue;
      }
      if (C == '"')
        InString = true;
      else if (C == '(')
        ++Depth;
      else if (C == ')' && --Depth == 0)
        return false; // the statement closed before Loc
    }
    return Depth > 0;
  }
  return false;
}

/// Makes the `__shared__` variables declared at \p Pending valid again,
/// once they are in scope (see above).
void revalidateSharedVariables(clang::Sema &S,
                               std::vector<clang::SourceLocation> &Pending) {
  for (clang::Scope *Sc = S.getCurScope(); Sc && !Pending.empty();
       Sc = Sc->getParent())
    for (clang::Decl *D : Sc->decls()) {
      auto *VD = llvm::dyn_cast<clang::VarDecl>(D);
      if (!VD || !VD->isInvalidDecl())
        continue;
      auto It = llvm::find(Pending, VD->getLocation());
      if (It == Pending.end())
        continue;
      VD->setInvalidDecl(false);
      Pending.erase(It);
    }
}

} // namespace nvcc_differences

void HostTypoCorrection::update(clang::Sema &S) {
  clang::DeclContext *DC = S.CurContext;
  if (DC == Last)
    return;
  Last = DC;
  bool Off = offIn(S, DC);
  if (Off == Disabled)
    return;
  // Sema's own switches (tentative parses) set and restore the flag
  // around single actions; only what this class set is undone.
  if (Off) {
    if (!S.DisableTypoCorrection) {
      S.DisableTypoCorrection = true;
      Disabled = true;
    }
  } else {
    S.DisableTypoCorrection = false;
    Disabled = false;
  }
}

bool HostTypoCorrection::offIn(clang::Sema &S, clang::DeclContext *DC) {
  for (; DC; DC = DC->getParent()) {
    auto *FD = llvm::dyn_cast<clang::FunctionDecl>(DC);
    if (!FD)
      continue;
    const clang::SourceManager &SM = S.getSourceManager();
    if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return true;
    return S.CUDA().IdentifyTarget(FD) == clang::CUDAFunctionTarget::Host;
  }
  return false;
}

bool skipsBody(const clang::SourceManager &SM, clang::Decl *D) {
  const clang::FunctionDecl *FD = D ? D->getAsFunction() : nullptr;
  if (!FD || FD->hasAttr<clang::CUDADeviceAttr>() ||
      FD->hasAttr<clang::CUDAGlobalAttr>())
    return false;
  return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

} // namespace cal

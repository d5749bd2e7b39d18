//===- TraversalScope.cpp -------------------------------------------------===//

#include "frontend/TraversalScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace cal {

namespace {

/// Whether a declaration holds a kernel or a kernel launch anywhere: in a
/// template's pattern, an instantiation, a lambda, implicit code (more than
/// the analysis's walks visit, never less).
class KernelOrLaunch : public clang::RecursiveASTVisitor<KernelOrLaunch> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *FD) {
    if (FD->hasAttr<clang::CUDAGlobalAttr>())
      Found = true;
    return !Found; // found: the walk stops
  }
  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr *) {
    Found = true;
    return false;
  }
  bool Found = false;
};

/// "<file>:<offset>" of the top-level declarations that lie in a system
/// header, empty for the others; each file's name looked up once.
class SystemKeys {
public:
  explicit SystemKeys(const clang::SourceManager &SM) : SM(SM) {}
  std::string of(const clang::Decl *D) {
    clang::SourceLocation L = D->getLocation();
    if (L.isInvalid())
      return "";
    L = SM.getExpansionLoc(L);
    if (!SM.isInSystemHeader(L))
      return "";
    clang::FileIDAndOffset FO = SM.getDecomposedLoc(L);
    auto [It, New] = Files.try_emplace(FO.first);
    if (New)
      if (clang::OptionalFileEntryRef F = SM.getFileEntryRefForID(FO.first)) {
        // The preamble's build may name it relative to the working
        // directory, a parse on the PCH names it as the PCH recorded it.
        llvm::SmallString<256> Path(F->getName());
        SM.getFileManager().makeAbsolutePath(Path);
        llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
        It->second = Path.str().str() + ":";
      }
    // (A system header that is no file has no key: it is kept.)
    if (It->second.empty())
      return "";
    return It->second + std::to_string(FO.second);
  }

private:
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, std::string> Files;
};

} // namespace

std::vector<std::string> systemDeclsHoldingKernels(clang::ASTContext &Ctx) {
  SystemKeys Keys(Ctx.getSourceManager());
  std::vector<std::string> Out;
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    std::string K = Keys.of(D);
    if (K.empty())
      continue;
    KernelOrLaunch V;
    V.TraverseDecl(D);
    if (V.Found)
      Out.push_back(std::move(K));
  }
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

void limitTraversalScope(clang::ASTContext &Ctx,
                         const std::vector<std::string> &Holders) {
  SystemKeys Keys(Ctx.getSourceManager());
  std::vector<clang::Decl *> Scope;
  llvm::StringSet<> Matched;
  bool Dropped = false;
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (D->isFromASTFile()) {
      std::string K = Keys.of(D);
      if (!K.empty()) {
        if (!std::binary_search(Holders.begin(), Holders.end(), K)) {
          Dropped = true;
          continue;
        }
        Matched.insert(K);
      }
    }
    Scope.push_back(D);
  }
  // A holder not found again (its file named otherwise than when the
  // preamble was built) may have been dropped: then nothing is.
  if (Dropped && Matched.size() == Holders.size())
    Ctx.setTraversalScope(Scope);
}

} // namespace cal

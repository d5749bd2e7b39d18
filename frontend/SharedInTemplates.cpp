//===- SharedInTemplates.cpp ----------------------------------------------===//

#include "frontend/SharedInTemplates.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace cal {

namespace {

constexpr const char *Mark = "cuda-access-lint: __shared__ (initializer "
                             "check deferred)";

bool isMarked(const clang::VarDecl *VD) {
  for (const auto *A : VD->specific_attrs<clang::AnnotateAttr>())
    if (A->getAnnotation() == Mark)
      return true;
  return false;
}

/// A type whose initialization clang may call dynamic: a class, or a type
/// not known before instantiation (arrays of either included).
bool mayHaveConstructor(clang::QualType T) {
  const clang::Type *E = T->getBaseElementTypeUnsafe();
  while (const auto *A = llvm::dyn_cast<clang::ArrayType>(E))
    E = A->getElementType()->getBaseElementTypeUnsafe();
  return E->isDependentType() || E->isRecordType();
}

class Defer : public clang::RecursiveASTVisitor<Defer> {
public:
  explicit Defer(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitVarDecl(clang::VarDecl *VD) {
    if (!VD->hasAttr<clang::CUDASharedAttr>() || !VD->isStaticLocal() ||
        !VD->getDeclContext()->isDependentContext() ||
        !mayHaveConstructor(VD->getType()))
      return true;
    VD->dropAttr<clang::CUDASharedAttr>();
    VD->setStorageClass(clang::SC_None);
    VD->addAttr(clang::AnnotateAttr::CreateImplicit(Ctx, Mark, nullptr, 0));
    Changed = true;
    return true;
  }
  clang::ASTContext &Ctx;
  bool Changed = false;
};

class Restore : public clang::RecursiveASTVisitor<Restore> {
public:
  Restore(clang::ASTContext &Ctx, const clang::SourceManager &SM)
      : Ctx(Ctx), SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(clang::Decl *D) {
    // Declarations of system headers are never marked.
    if (D && !llvm::isa<clang::TranslationUnitDecl>(D) &&
        D->getLocation().isValid() && SM.isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitVarDecl(clang::VarDecl *VD) {
    if (!isMarked(VD) || VD->hasAttr<clang::CUDASharedAttr>())
      return true;
    VD->addAttr(clang::CUDASharedAttr::CreateImplicit(Ctx));
    VD->setStorageClass(clang::SC_Static);
    return true;
  }
  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
};

} // namespace

bool deferSharedInitChecks(clang::Decl *D, const clang::SourceManager &SM) {
  if (!D ||
      (D->getLocation().isValid() && SM.isInSystemHeader(D->getLocation())))
    return false;
  Defer V(D->getASTContext());
  V.TraverseDecl(D);
  return V.Changed;
}

void restoreDeferredShared(clang::ASTContext &Ctx) {
  Restore V(Ctx, Ctx.getSourceManager());
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace cal

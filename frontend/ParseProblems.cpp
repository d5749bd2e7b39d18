//===- ParseProblems.cpp --------------------------------------------------===//

#include "frontend/ParseProblems.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace cal {

using namespace clang;

namespace {

/// File offsets [Begin, End] of the declarations kernels depend on.
class Footprint {
public:
  explicit Footprint(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  void addDecl(const Decl *D);
  void addType(QualType T);
  /// Processes the worklist: each declaration's range, and what its body,
  /// type and context name.
  void close();

  bool contains(SourceLocation Loc) const {
    if (Loc.isInvalid())
      return true;
    FileIDAndOffset FO = SM.getDecomposedLoc(SM.getExpansionLoc(Loc));
    auto It = Ranges.find(FO.first);
    if (It == Ranges.end())
      return false;
    for (const auto &[B, E] : It->second)
      if (FO.second >= B && FO.second <= E)
        return true;
    return false;
  }

private:
  void addRange(SourceRange R);
  void visitBody(const Stmt *S);

  ASTContext &Ctx;
  const SourceManager &SM;
  llvm::SmallPtrSet<const Decl *, 32> Seen;
  std::vector<const Decl *> Work;
  llvm::DenseMap<FileID, std::vector<std::pair<unsigned, unsigned>>> Ranges;
};

/// What a function body names: callees, variables with storage outside the
/// body, members, constructed and named types.
class BodyVisitor : public RecursiveASTVisitor<BodyVisitor> {
public:
  explicit BodyVisitor(Footprint &F) : F(F) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitDeclRefExpr(const DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (const auto *VD = llvm::dyn_cast<VarDecl>(D)) {
      if (VD->hasGlobalStorage() && !VD->isStaticLocal())
        F.addDecl(VD);
    } else if (llvm::isa<FunctionDecl>(D) || llvm::isa<EnumConstantDecl>(D)) {
      F.addDecl(D);
    }
    return true;
  }
  bool VisitMemberExpr(const MemberExpr *E) {
    F.addDecl(E->getMemberDecl());
    F.addType(E->getBase()->getType());
    return true;
  }
  bool VisitCallExpr(const CallExpr *E) {
    if (const Decl *D = E->getCalleeDecl())
      F.addDecl(D);
    return true;
  }
  bool VisitCXXConstructExpr(const CXXConstructExpr *E) {
    F.addDecl(E->getConstructor());
    return true;
  }
  bool VisitValueDecl(const ValueDecl *D) {
    F.addType(D->getType());
    return true;
  }
  bool VisitExplicitCastExpr(const ExplicitCastExpr *E) {
    F.addType(E->getTypeAsWritten());
    return true;
  }
  bool VisitUnaryExprOrTypeTraitExpr(const UnaryExprOrTypeTraitExpr *E) {
    if (E->isArgumentType())
      F.addType(E->getArgumentType());
    return true;
  }

private:
  Footprint &F;
};

void Footprint::addDecl(const Decl *D) {
  if (!D)
    return;
  if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
    return; // the toolkit's and the C++ library's own code is not the user's
  if (!Seen.insert(D).second)
    return;
  Work.push_back(D);
}

void Footprint::addType(QualType T) {
  if (T.isNull())
    return;
  // Sugar first: a typedef's own line is part of the footprint.
  while (const auto *TT = T->getAs<TypedefType>()) {
    addDecl(TT->getDecl());
    QualType Next = TT->getDecl()->getUnderlyingType();
    if (Next == T)
      break;
    T = Next;
  }
  const Type *Ty = T->getUnqualifiedDesugaredType();
  while (true) {
    if (const auto *P = llvm::dyn_cast<PointerType>(Ty))
      Ty = P->getPointeeType()->getUnqualifiedDesugaredType();
    else if (const auto *R = llvm::dyn_cast<ReferenceType>(Ty))
      Ty = R->getPointeeType()->getUnqualifiedDesugaredType();
    else if (const auto *A = llvm::dyn_cast<ArrayType>(Ty))
      Ty = A->getElementType()->getUnqualifiedDesugaredType();
    else
      break;
  }
  if (const TagDecl *TD = Ty->getAsTagDecl())
    addDecl(TD->getDefinition() ? TD->getDefinition() : TD);
}

void Footprint::addRange(SourceRange R) {
  if (R.isInvalid())
    return;
  SourceLocation B = SM.getExpansionLoc(R.getBegin());
  SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
  FileIDAndOffset BO = SM.getDecomposedLoc(B), EO = SM.getDecomposedLoc(E);
  unsigned End = EO.second +
                 Lexer::MeasureTokenLength(E, SM, Ctx.getLangOpts());
  if (BO.first != EO.first) // a range that ends in another file: to its end
    End = SM.getFileIDSize(BO.first);
  Ranges[BO.first].push_back({BO.second, End});
}

void Footprint::visitBody(const Stmt *S) {
  if (S)
    BodyVisitor(*this).TraverseStmt(const_cast<Stmt *>(S));
}

void Footprint::close() {
  while (!Work.empty()) {
    const Decl *D = Work.back();
    Work.pop_back();
    addRange(D->getSourceRange());
    // A template's instantiation is reported at its pattern.
    if (const auto *FD = llvm::dyn_cast<FunctionDecl>(D)) {
      if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
        addDecl(P);
      if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
        addDecl(T);
      if (const auto *MD = llvm::dyn_cast<CXXMethodDecl>(FD))
        addDecl(MD->getParent());
      for (const ParmVarDecl *P : FD->parameters())
        addType(P->getType());
      addType(FD->getReturnType());
      if (const auto *CD = llvm::dyn_cast<CXXConstructorDecl>(FD))
        for (const CXXCtorInitializer *I : CD->inits())
          visitBody(I->getInit());
      visitBody(FD->getBody());
    } else if (const auto *RD = llvm::dyn_cast<CXXRecordDecl>(D)) {
      if (const CXXRecordDecl *P = RD->getTemplateInstantiationPattern())
        addDecl(P);
      if (const auto *S = llvm::dyn_cast<ClassTemplateSpecializationDecl>(RD))
        addDecl(S->getSpecializedTemplate());
      if (RD->hasDefinition())
        for (const CXXBaseSpecifier &B : RD->getDefinition()->bases())
          addType(B.getType());
      for (const FieldDecl *F : RD->fields())
        addType(F->getType());
    } else if (const auto *VD = llvm::dyn_cast<VarDecl>(D)) {
      addType(VD->getType());
      visitBody(VD->getInit());
    } else if (const auto *FieldD = llvm::dyn_cast<FieldDecl>(D)) {
      addDecl(llvm::dyn_cast<Decl>(FieldD->getParent()));
    } else if (const auto *EC = llvm::dyn_cast<EnumConstantDecl>(D)) {
      addDecl(llvm::dyn_cast<Decl>(EC->getDeclContext()));
    }
  }
}

/// Every kernel outside system headers, its instantiations included.
class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  explicit KernelFinder(Footprint &F) : F(F) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(const FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>()) {
      F.addDecl(FD);
      Kernels.push_back(FD);
    }
    return true;
  }
  std::vector<const FunctionDecl *> Kernels;

private:
  Footprint &F;
};

} // namespace

ErrorClassification
classifyParseErrors(ASTContext &Ctx, llvm::ArrayRef<SourceLocation> ErrorLocs,
                    llvm::ArrayRef<SourceLocation> GlobalExpansions) {
  const SourceManager &SM = Ctx.getSourceManager();
  Footprint F(Ctx);
  KernelFinder Finder(F);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      Finder.TraverseDecl(D);
  F.close();

  ErrorClassification Out;
  for (SourceLocation L : ErrorLocs)
    Out.TouchesKernel.push_back(F.contains(L));

  // Each `__global__` the preprocessor expanded is followed by the name of
  // its kernel (`__global__ void k(`, `KERNEL void k(` with a macro, a whole
  // kernel written by a macro: the same place): match them in order, each
  // name at most once. An expansion left without a kernel was lost to an
  // error.
  llvm::DenseMap<FileID, std::vector<unsigned>> Names, Expansions;
  for (const FunctionDecl *K : Finder.Kernels) {
    for (SourceLocation L : {K->getLocation(), K->getPointOfInstantiation()}) {
      if (L.isInvalid())
        continue;
      FileIDAndOffset N = SM.getDecomposedLoc(SM.getExpansionLoc(L));
      Names[N.first].push_back(N.second);
    }
  }
  for (SourceLocation G : GlobalExpansions) {
    FileIDAndOffset GO = SM.getDecomposedLoc(SM.getExpansionLoc(G));
    Expansions[GO.first].push_back(GO.second);
  }
  for (auto &[File, Offsets] : Expansions) {
    std::vector<unsigned> &Ns = Names[File];
    llvm::sort(Ns);
    Ns.erase(std::unique(Ns.begin(), Ns.end()), Ns.end());
    llvm::sort(Offsets);
    size_t Next = 0; // the first name not yet claimed
    for (unsigned G : Offsets) {
      while (Next < Ns.size() && Ns[Next] < G)
        ++Next;
      if (Next == Ns.size()) {
        Out.KernelLost = true;
        break;
      }
      ++Next;
    }
  }
  return Out;
}

} // namespace cal

//===- ParseAction.cpp ----------------------------------------------------===//

#include "frontend/ParseAction.h"

#include "frontend/PreambleReads.h"
#include "frontend/ParseProblems.h"
#include "frontend/SharedInTemplates.h"
#include "frontend/TraversalScope.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/Support/Path.h"

namespace cal {

namespace {

/// Where the preprocessor expands `__global__`: the kernels as written,
/// before any error can swallow one.
class GlobalMacroWatcher : public clang::PPCallbacks {
public:
  GlobalMacroWatcher(const clang::SourceManager &SM,
                     std::vector<clang::SourceLocation> &Out)
      : SM(SM), Out(Out) {}
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &,
                    clang::SourceRange Range,
                    const clang::MacroArgs *) override {
    const clang::IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II || II->getName() != "__global__")
      return;
    clang::SourceLocation L = SM.getExpansionLoc(Range.getBegin());
    if (!SM.isInSystemHeader(L))
      Out.push_back(L);
  }

private:
  const clang::SourceManager &SM;
  std::vector<clang::SourceLocation> &Out;
};

/// Decides which errors count, shows them, sums up the rest in one warning
/// (ParseProblems.h), then hands the translation unit on.
void settleDiagnostics(clang::ASTContext &Ctx, ParseState &S) {
  BufferingDiagnosticConsumer &D = *S.Diags;
  std::vector<clang::SourceLocation> ErrorLocs;
  std::vector<size_t> ErrorIdx;
  for (size_t I = 0; I < D.Entries.size(); ++I)
    if (BufferingDiagnosticConsumer::isError(D.Entries[I])) {
      ErrorLocs.push_back(D.Entries[I].Loc);
      ErrorIdx.push_back(I);
    }
  S.Info.ErrorLocs = ErrorLocs;
  if (ErrorLocs.empty() || S.Strict) {
    S.Info.ParseErrors = ErrorLocs.size();
    D.flushAll(*S.DiagOut);
    return;
  }
  ErrorClassification C =
      classifyParseErrors(Ctx, ErrorLocs, S.GlobalExpansions);
  if (C.anyTouches()) {
    // The kernels are hit: every error is shown and counts, as clang
    // would show them.
    S.Info.ParseErrors = ErrorLocs.size();
    D.flushAll(*S.DiagOut);
    return;
  }
  // Only host code is hit: its errors are not shown one by one.
  std::vector<bool> Keep(D.Entries.size(), true);
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (size_t K = 0; K < ErrorIdx.size(); ++K) {
    const BufferingDiagnosticConsumer::Entry &E = D.Entries[ErrorIdx[K]];
    Keep[ErrorIdx[K]] = false;
    ++S.Info.HostParseErrors;
    if (!E.MissingHeader.empty() &&
        !llvm::is_contained(S.Info.MissingHeaders, E.MissingHeader))
      S.Info.MissingHeaders.push_back(E.MissingHeader);
    if (S.Info.FirstHostParseError.empty()) {
      clang::PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(E.Loc));
      std::string Where =
          P.isValid()
              ? (llvm::Twine(llvm::sys::path::filename(P.getFilename())) + ":" +
                 llvm::Twine(P.getLine()) + ":" + llvm::Twine(P.getColumn()) +
                 ": ")
                    .str()
              : "";
      S.Info.FirstHostParseError = Where + E.Message;
    }
  }
  D.flush(*S.DiagOut, Keep);
  llvm::raw_ostream &OS = *S.DiagOut;
  OS << S.Info.Path << ": warning: " << hostParseSummary(S.Info) << "\n";
  OS.flush();
}

class CallbackConsumer : public clang::SemaConsumer {
public:
  CallbackConsumer(clang::CompilerInstance &CI, ParseState &S) : CI(CI), S(S) {}
  void InitializeSema(clang::Sema &Sema) override {
    addExternalSourceReadingOnDemand(Sema, S.Typos);
  }
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return skipsBody(CI.getSourceManager(), D);
  }
  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override {
    for (clang::Decl *D : DG)
      // A declaration read from the preamble (the PCH hands some on) had
      // its checks deferred when the preamble was built.
      if (!D->isFromASTFile())
        deferSharedInitChecks(D, CI.getSourceManager());
    return true;
  }
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    if (S.OnPreamble)
      limitTraversalScope(Ctx, S.PreambleFacts);
    restoreDeferredShared(Ctx);
    settleDiagnostics(Ctx, S);
    S.Called = true;
    (*S.Callback)(Ctx, CI, S.Info);
  }

private:
  clang::CompilerInstance &CI;
  ParseState &S;
};

} // namespace

bool CallbackActionFactory::runInvocation(
    std::shared_ptr<clang::CompilerInvocation> Inv, clang::FileManager *Files,
    std::shared_ptr<clang::PCHContainerOperations> PCHOps,
    clang::DiagnosticConsumer *DiagConsumer) {
  if (!Cache)
    return FrontendActionFactory::runInvocation(Inv, Files, PCHOps,
                                                DiagConsumer);
  auto WithPreamble = std::make_shared<clang::CompilerInvocation>(*Inv);
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS =
      Files->getVirtualFileSystemPtr();
  PreambleHooks Hooks;
  Hooks.SkipFunctionBody = [](clang::Decl *D) {
    return skipsBody(D->getASTContext().getSourceManager(), D);
  };
  Hooks.TopLevelDecl = [](clang::Decl *D) {
    deferSharedInitChecks(D, D->getASTContext().getSourceManager());
  };
  Hooks.Facts = systemDeclsHoldingKernels;
  PreambleUse Use = Cache->prepare(*WithPreamble, VFS, PCHOps, Hooks, Kept);
  switch (Use.K) {
  case PreambleUse::None:
    S.Info.Preamble = "none";
    break;
  case PreambleUse::Unusable:
    S.Info.Preamble = "unusable (" + Use.Why + ")";
    break;
  case PreambleUse::Deferred:
    S.Info.Preamble = "deferred (" + Use.Why + ")";
    break;
  case PreambleUse::Hit:
  case PreambleUse::Built:
  case PreambleUse::Kept: {
    S.Info.Preamble = Use.K == PreambleUse::Hit     ? "hit"
                      : Use.K == PreambleUse::Built ? "built"
                                                    : "kept";
    if (!Use.Why.empty())
      S.Info.Preamble += " (" + Use.Why + ")";
    S.OnPreamble = true;
    S.PreambleFacts = std::move(Use.Facts);
    llvm::IntrusiveRefCntPtr<clang::FileManager> FM =
        llvm::makeIntrusiveRefCnt<clang::FileManager>(
            Files->getFileSystemOpts(), VFS);
    if (FrontendActionFactory::runInvocation(WithPreamble, FM.get(), PCHOps,
                                             DiagConsumer) ||
        S.Called)
      return true;
    // The parse could not start on it (clang refused the PCH): the entry
    // goes, and the file is parsed as if there were none.
    Cache->discard(Use.Key);
    if (Kept)
      Kept->forget();
    S.Info.Preamble = "unreadable (" +
                      (S.Diags->Entries.empty() ? std::string("?")
                                                : S.Diags->Entries[0].Message) +
                      ")";
    S.Diags->reset();
    S.OnPreamble = false;
    S.Stats.clear();
    S.GlobalExpansions.clear();
    break;
  }
  }
  return FrontendActionFactory::runInvocation(Inv, Files, PCHOps, DiagConsumer);
}

std::unique_ptr<clang::FrontendAction> CallbackActionFactory::create() {
  class Action : public clang::ASTFrontendAction {
  public:
    explicit Action(ParseState &S) : S(S) {}
    bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
      // A header that is not found is an error, not the end of the
      // parse: what follows it is still read (and often parses).
      CI.getDiagnostics().setSeverity(clang::diag::err_pp_file_not_found,
                                      clang::diag::Severity::Error,
                                      clang::SourceLocation());
      CI.getPreprocessor().addPPCallbacks(std::make_unique<GlobalMacroWatcher>(
          CI.getSourceManager(), S.GlobalExpansions));
      // Host library bodies: see skipsBody.
      CI.getFrontendOpts().SkipFunctionBodies = true;
      CI.setVerboseOutputStream(
          std::make_unique<llvm::raw_string_ostream>(S.Stats));
      clang::CompilerInstance *C = &CI;
      ParseState *St = &S;
      S.Diags->IsNvccAccepted = [C, St](const clang::Diagnostic &D) {
        if (D.getID() == clang::diag::err_shared_var_init && C->hasSema() &&
            !C->getSema().inTemplateInstantiation()) {
          St->PendingSharedInits.push_back(D.getLocation());
          return true;
        }
        return D.hasSourceManager() &&
               nvcc_differences::insideInlineAsm(D.getSourceManager(),
                                                 D.getLocation());
      };
      CI.getPreprocessor().setTokenWatcher([C, St](const clang::Token &) {
        if (!C->hasSema())
          return;
        if (!St->PendingSharedInits.empty())
          nvcc_differences::revalidateSharedVariables(C->getSema(),
                                                      St->PendingSharedInits);
        St->Typos->update(C->getSema());
      });
      return true;
    }
    std::unique_ptr<clang::ASTConsumer>
    CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override {
      return std::make_unique<CallbackConsumer>(CI, S);
    }

  private:
    ParseState &S;
  };
  return std::make_unique<Action>(S);
}

} // namespace cal

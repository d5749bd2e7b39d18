//===- PreambleWriter.cpp -------------------------------------------------===//

#include "frontend/PreambleWriter.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Serialization/ASTWriter.h"
#include "llvm/Bitstream/BitstreamWriter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace cal {
namespace {

/// PrecompiledPreamble's consumer (a PCHGenerator that tells the callbacks of
/// each top-level declaration and asks them which bodies to skip), with the
/// ASTWriter's bitstream on the file.
class StreamingPreambleConsumer : public clang::SemaConsumer {
public:
  StreamingPreambleConsumer(clang::CompilerInstance &CI, std::string Sysroot,
                            llvm::raw_fd_stream &OS,
                            clang::PreambleCallbacks &Callbacks, bool &Emitted)
      : PP(CI.getPreprocessor()), Sysroot(std::move(Sysroot)),
        // Flushed to the file whenever a block ends with more than 1 MB held
        // (the stream reads back what it must backpatch).
        Stream(std::in_place, OS, /*FlushThreshold (MB)=*/1),
        Writer(*Stream, Unused, CI.getModuleCache(), CI.getCodeGenOpts(),
               /*Extensions=*/{}),
        Callbacks(Callbacks), Emitted(Emitted) {}

  void InitializeSema(clang::Sema &S) override { SemaPtr = &S; }
  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override {
    Callbacks.HandleTopLevelDecl(DG);
    return true;
  }
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return Callbacks.shouldSkipFunctionBody(D);
  }
  void HandleVTable(clang::CXXRecordDecl *RD) override {
    Writer.handleVTable(RD);
  }
  clang::ASTMutationListener *GetASTMutationListener() override {
    return &Writer;
  }
  clang::ASTDeserializationListener *GetASTDeserializationListener() override {
    return &Writer;
  }

  void HandleTranslationUnit(clang::ASTContext &) override {
    // As PCHGenerator with AllowASTWithErrors, which the preamble's consumer
    // asks for: written whatever the diagnostics, the client's counts
    // cleared (the engine's hasErrorOccurred() stays); the caller decides.
    if (PP.getModuleLoader().HadFatalFailure)
      return;
    PP.getDiagnostics().getClient()->clear();
    Writer.WriteAST(SemaPtr, /*OutputFile=*/"", /*WritingModule=*/nullptr,
                    Sysroot);
    Stream.reset(); // writes what is left
    Emitted = true;
    Callbacks.AfterPCHEmitted(Writer);
  }

private:
  clang::Preprocessor &PP;
  std::string Sysroot;
  // The ASTWriter wants the buffer an in-memory stream writes to; this
  // stream keeps its own.
  llvm::SmallVector<char, 0> Unused;
  std::optional<llvm::BitstreamWriter> Stream;
  clang::ASTWriter Writer;
  clang::PreambleCallbacks &Callbacks;
  clang::Sema *SemaPtr = nullptr;
  bool &Emitted;
};

/// PrecompiledPreamble's action: a translation-unit prefix, its consumer
/// the one above.
class StreamingPreambleAction : public clang::ASTFrontendAction {
public:
  StreamingPreambleAction(llvm::raw_fd_stream &OS,
                          clang::PreambleCallbacks &Callbacks)
      : OS(OS), Callbacks(Callbacks) {}

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override {
    std::string Sysroot;
    if (!clang::GeneratePCHAction::ComputeASTConsumerArguments(CI, Sysroot))
      return nullptr;
    if (!CI.getFrontendOpts().RelocatablePCH)
      Sysroot.clear();
    return std::make_unique<StreamingPreambleConsumer>(CI, Sysroot, OS,
                                                       Callbacks, Emitted);
  }
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    return CI.getLangOpts().CompilingPCH &&
           ASTFrontendAction::BeginSourceFileAction(CI);
  }
  bool hasCodeCompletionSupport() const override { return false; }
  bool hasASTFileSupport() const override { return false; }
  clang::TranslationUnitKind getTranslationUnitKind() override {
    return clang::TU_Prefix;
  }

  /// The consumer is the compiler instance's, gone after EndSourceFile.
  bool emitted() const { return Emitted; }

private:
  llvm::raw_fd_stream &OS;
  clang::PreambleCallbacks &Callbacks;
  bool Emitted = false;
};

llvm::Error fail(llvm::StringRef What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), What);
}

/// An I/O error: the caller tells it from a failed build by its code.
llvm::Error cannotWrite(llvm::StringRef Path, std::error_code EC) {
  return llvm::createStringError(EC, "cannot write '%s': %s",
                                 Path.str().c_str(), EC.message().c_str());
}

} // namespace

llvm::Error writePreamblePch(
    const clang::CompilerInvocation &Inv, const llvm::MemoryBuffer &Main,
    const clang::PreambleBounds &Bounds, clang::DiagnosticsEngine &Diags,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> Ops,
    clang::PreambleCallbacks &Callbacks, llvm::StringRef Path) {
  // The invocation as PrecompiledPreamble::Build changes it.
  auto PInv = std::make_shared<clang::CompilerInvocation>(Inv);
  clang::FrontendOptions &FO = PInv->getFrontendOpts();
  clang::PreprocessorOptions &PPO = PInv->getPreprocessorOpts();
  FO.ProgramAction = clang::frontend::GeneratePCH;
  FO.OutputFile = Path.str();
  PPO.PrecompiledPreambleBytes = {0, false};
  PPO.GeneratePreamble = true;
  if (FO.Inputs.size() != 1 ||
      FO.Inputs[0].getKind().getFormat() != clang::InputKind::Source)
    return fail("not one source input");
  std::string MainPath = FO.Inputs[0].getFile().str();
  auto PreambleText = llvm::MemoryBuffer::getMemBufferCopy(
      Main.getBuffer().slice(0, Bounds.Size), MainPath);

  std::error_code EC;
  llvm::raw_fd_stream OS(Path, EC);
  if (EC)
    return cannotWrite(Path, EC);

  clang::CompilerInstance Clang(PInv, std::move(Ops));
  Clang.setDiagnostics(&Diags);
  if (!Clang.createTarget())
    return fail("no target for the preamble");
  Diags.Reset();
  clang::ProcessWarningOptions(Diags, Clang.getDiagnosticOpts(), *VFS);
  VFS =
      clang::createVFSFromCompilerInvocation(Clang.getInvocation(), Diags, VFS);
  Clang.setVirtualFileSystem(VFS);
  Clang.createFileManager();
  Clang.createSourceManager();
  Clang.getLangOpts().CompilingPCH = true;
  // The main file is the preamble's text alone.
  if (PPO.RetainRemappedFileBuffers)
    return fail("remapped buffers retained"); // the caller never asks it
  PPO.addRemappedFile(MainPath, PreambleText.release());

  StreamingPreambleAction Act(OS, Callbacks);
  if (!Act.BeginSourceFile(Clang, FO.Inputs[0]))
    return fail("the preamble's parse did not start");
  Callbacks.BeforeExecute(Clang);
  if (std::unique_ptr<clang::PPCallbacks> PPC = Callbacks.createPPCallbacks())
    Clang.getPreprocessor().addPPCallbacks(std::move(PPC));
  if (clang::CommentHandler *CH = Callbacks.getCommentHandler())
    Clang.getPreprocessor().addCommentHandler(CH);
  if (llvm::Error Err = Act.Execute())
    return Err;
  Callbacks.AfterExecute(Clang);
  Act.EndSourceFile();
  OS.close();
  if (OS.has_error()) {
    EC = OS.error();
    OS.clear_error();
    return cannotWrite(Path, EC);
  }
  if (!Act.emitted())
    return fail("the preamble's PCH was not written");
  return llvm::Error::success();
}

} // namespace cal

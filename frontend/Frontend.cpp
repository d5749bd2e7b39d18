//===- Frontend.cpp -------------------------------------------------------===//

#include "frontend/Frontend.h"
#include "frontend/LaunchSyntax.h"
#include "frontend/ResourceDir.h"
#include "llvm/Config/llvm-config.h"

#include "frontend/BuiltinHeaders.h"
#include "frontend/CompilerFlags.h"
#include "frontend/ParseProblems.h"
#include "frontend/PreambleCache.h"
#include "frontend/SharedInTemplates.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/ExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Sema/SemaCUDA.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <mutex>


namespace cal {

namespace {

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

/// Turns a possibly multi-line message into one line.
std::string oneLine(llvm::StringRef S) {
  std::string Out;
  for (char C : S.trim()) {
    if (C == '\n') {
      Out += "; ";
      continue;
    }
    Out.push_back(C);
  }
  return Out;
}

std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

/// A database that knows exactly one command.
class SingleCommandDatabase : public CompilationDatabase {
public:
  explicit SingleCommandDatabase(CompileCommand Cmd) : Cmd(std::move(Cmd)) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef) const override {
    return {Cmd};
  }

private:
  CompileCommand Cmd;
};

/// Holds clang's diagnostics, rendered, until the parse is over: only then
/// is it known which errors touch the kernels (ParseProblems.h). A note
/// belongs to the error or warning before it.
class BufferingDiagnosticConsumer : public clang::DiagnosticConsumer {
public:
  struct Entry {
    clang::DiagnosticsEngine::Level Level;
    clang::SourceLocation Loc;
    std::string Message; ///< clang's message, without location
    size_t Begin, End;   ///< the rendered text, notes included
    std::string MissingHeader; ///< a header that was not found
    /// An error clang gives where nvcc accepts the code and the parse
    /// recovers to what nvcc sees (NvccDifferences below): not shown, not
    /// counted.
    bool NvccAccepted = false;
  };
  /// Tells which diagnostics are such errors.
  std::function<bool(const clang::Diagnostic &)> IsNvccAccepted;

  BufferingDiagnosticConsumer(bool Color, const FrontendOptions &Opts)
      : Stream(Text), Printer(Stream, DiagOpts),
        Hook(Opts.OnCompilerDiagnostic) {
    DiagOpts.ShowColors = Color;
  }
  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override {
    Printer.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Printer.EndSourceFile(); }
  void finish() override { Printer.finish(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    size_t Before = Text.size();
    Printer.HandleDiagnostic(Level, Info);
    if (Hook)
      Hook(Level, Info);
    if (Level == clang::DiagnosticsEngine::Note && !Entries.empty()) {
      Entries.back().End = Text.size();
      return;
    }
    Entry E{Level, Info.getLocation(), "", Before, Text.size(), "", false};
    E.NvccAccepted = Level >= clang::DiagnosticsEngine::Error &&
                     IsNvccAccepted && IsNvccAccepted(Info);
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    E.Message = Msg.str().str();
    if (Info.getID() == clang::diag::err_pp_file_not_found ||
        Info.getID() == clang::diag::err_pp_file_not_found_angled_include_not_fatal ||
        Info.getID() == clang::diag::err_pp_file_not_found_typo_not_fatal)
      E.MissingHeader = Info.getArgStdStr(0);
    Entries.push_back(std::move(E));
  }

  static bool isError(const Entry &E) {
    return E.Level >= clang::DiagnosticsEngine::Error && !E.NvccAccepted;
  }
  /// Writes the entries \p Keep selects, in order.
  void flush(llvm::raw_ostream &OS, const std::vector<bool> &Keep) {
    for (size_t I = Flushed; I < Entries.size(); ++I)
      if (!Entries[I].NvccAccepted &&
          (I - Flushed >= Keep.size() || Keep[I - Flushed]))
        OS << llvm::StringRef(Text).slice(Entries[I].Begin, Entries[I].End);
    Flushed = Entries.size();
    OS.flush();
  }
  void flushAll(llvm::raw_ostream &OS) { flush(OS, {}); }
  /// Forgets what a parse that is tried again reported.
  void reset() {
    clang::DiagnosticConsumer::clear();
    Entries.clear();
    Flushed = 0;
    Text.clear();
  }

  std::vector<Entry> Entries;
  size_t Flushed = 0;

private:
  clang::DiagnosticOptions DiagOpts;
  std::string Text;
  llvm::raw_string_ostream Stream;
  clang::TextDiagnosticPrinter Printer;
  const std::function<void(clang::DiagnosticsEngine::Level,
                           const clang::Diagnostic &)> &Hook;
};

/// Where the preprocessor expands `__global__`: the kernels as written,
/// before any error can swallow one.
class GlobalMacroWatcher : public clang::PPCallbacks {
public:
  GlobalMacroWatcher(const clang::SourceManager &SM,
                     std::vector<clang::SourceLocation> &Out)
      : SM(SM), Out(Out) {}
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &,
                    clang::SourceRange Range, const clang::MacroArgs *) override {
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

/// Code nvcc accepts and clang 22 rejects, where clang's parse recovers to
/// what the lint needs. Neither headers nor flags can close these:
///  - a `__shared__` object with a constructor (`__shared__ cuda::barrier<>
///    bar;`): nvcc ignores the dynamic initialization (a warning), clang
///    rejects it and marks the variable invalid, which drops every statement
///    that names it. Outside templates the variable is made valid again as
///    soon as its declaration is done (the next token), so what follows
///    parses as under nvcc; in a template, whose instantiation checks the
///    initializer again with no such moment, the check is deferred
///    (SharedInTemplates.h);
///  - an error inside an inline asm statement's parentheses (`%globaltimer`
///    with one `%`, operands without a comma between them): nvcc hands the
///    text to ptxas, clang checks it as GCC does and drops the statement. The
///    lint never reads asm, so nothing it analyzes is lost.
namespace nvcc_differences {

/// True when \p Loc lies inside the parentheses of an inline asm statement
/// (`asm`, `__asm__`, `asm volatile (...)`), by the text of its file.
bool insideInlineAsm(const clang::SourceManager &SM, clang::SourceLocation Loc) {
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

/// Clang's typo correction, off where it cannot help the lint. After an
/// unknown name clang looks for the closest declared one (Sema::CorrectTypo:
/// every identifier of the translation unit, each candidate looked up and
/// checked), and with a heavy host header set and host code whose library
/// header is missing, that search costs more than the whole parse. The tool
/// goes on after such errors where clang would stop (a missing header is not
/// fatal, no error limit), so it would pay for it on every unknown name of
/// the host code. In the body of a host-only function, and in any function
/// of a system header, a correction changes nothing the lint reads: the
/// kernels and what they use are device code, and an error there is only
/// summed up (ParseProblems.h). In device and host-device code, and at file
/// scope (a `__device__` variable's type), the correction stays: it is
/// clang's message when the error is shown, and its recovery keeps a kernel
/// analyzable.
class HostTypoCorrection : public clang::ExternalSemaSource {
public:
  /// Follows the parse into and out of function bodies: called for each
  /// token (cheap unless the context changed since the last call) and, as
  /// Sema's external source, by every unqualified lookup that found nothing,
  /// just before clang would look for a correction. Not covered: the bodies
  /// of inline member functions of host classes, which clang parses later
  /// from saved tokens (the token watcher does not see those, and there the
  /// correction still runs, as in clang).
  void update(clang::Sema &S) {
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

  void InitializeSema(clang::Sema &S) override { Sema = &S; }
  void ForgetSema() override { Sema = nullptr; }
  bool LookupUnqualified(clang::LookupResult &, clang::Scope *) override {
    if (Sema)
      update(*Sema);
    return false;
  }

private:
  static bool offIn(clang::Sema &S, clang::DeclContext *DC) {
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
  clang::Sema *Sema = nullptr;
  clang::DeclContext *Last = nullptr;
  bool Disabled = false;
};

/// Whether the parse skips \p D's body: a host-only function (no
/// `__device__`, no `__global__`; constexpr functions are host-device) in a
/// system header. A kernel's analysis needs the declarations of the
/// toolkit's and the C++ library's host code, never their bodies: device
/// code cannot call them, the interpreter does not follow calls into system
/// headers, and an error in them is only summed up. Bodies clang cannot
/// skip (constexpr, a deduced return type) are parsed as always. Device,
/// host-device and kernel bodies, and everything in the project's own
/// headers, are parsed.
bool skipsBody(const clang::SourceManager &SM, clang::Decl *D) {
  const clang::FunctionDecl *FD = D ? D->getAsFunction() : nullptr;
  if (!FD || FD->hasAttr<clang::CUDADeviceAttr>() ||
      FD->hasAttr<clang::CUDAGlobalAttr>())
    return false;
  return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

/// What one file's parse shares between its action, its consumer and
/// Frontend::run.
struct ParseState {
  ParsedFile Info;
  const TranslationUnitCallback *Callback = nullptr;
  BufferingDiagnosticConsumer *Diags = nullptr;
  llvm::raw_ostream *DiagOut = nullptr;
  bool Strict = false;
  bool Called = false;
  std::vector<clang::SourceLocation> GlobalExpansions;
  /// clang's closing "N errors generated", said only when the errors are.
  std::string Stats;
  /// `__shared__` objects with a constructor, to be made valid again.
  std::vector<clang::SourceLocation> PendingSharedInits;
  llvm::IntrusiveRefCntPtr<HostTypoCorrection> Typos =
      llvm::makeIntrusiveRefCnt<HostTypoCorrection>();
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
          P.isValid() ? (llvm::Twine(llvm::sys::path::filename(P.getFilename())) +
                         ":" + llvm::Twine(P.getLine()) + ":" +
                         llvm::Twine(P.getColumn()) + ": ")
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
    Sema.addExternalSource(S.Typos);
  }
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return skipsBody(CI.getSourceManager(), D);
  }
  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override {
    for (clang::Decl *D : DG)
      deferSharedInitChecks(D, CI.getSourceManager());
    return true;
  }
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    restoreDeferredShared(Ctx);
    settleDiagnostics(Ctx, S);
    S.Called = true;
    (*S.Callback)(Ctx, CI, S.Info);
  }

private:
  clang::CompilerInstance &CI;
  ParseState &S;
};

class CallbackActionFactory : public clang::tooling::FrontendActionFactory {
public:
  CallbackActionFactory(ParseState &S, PreambleCache *Cache)
      : S(S), Cache(Cache) {}

  /// Runs the parse, on a cached preamble when there is one to use.
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Inv,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                     clang::DiagnosticConsumer *DiagConsumer) override {
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
    PreambleUse Use = Cache->prepare(*WithPreamble, VFS, PCHOps, Hooks);
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
    case PreambleUse::Built: {
      S.Info.Preamble = Use.K == PreambleUse::Hit ? "hit" : "built";
      if (!Use.Why.empty())
        S.Info.Preamble += " (" + Use.Why + ")";
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
      S.Info.Preamble = "unreadable (" +
                        (S.Diags->Entries.empty() ? std::string("?")
                                                  : S.Diags->Entries[0].Message) +
                        ")";
      S.Diags->reset();
      S.Stats.clear();
      S.GlobalExpansions.clear();
      break;
    }
    }
    return FrontendActionFactory::runInvocation(Inv, Files, PCHOps,
                                                DiagConsumer);
  }

  std::unique_ptr<clang::FrontendAction> create() override {
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

private:
  ParseState &S;
  PreambleCache *Cache;
};

bool isCudaCommand(const CompileCommand &Cmd) {
  llvm::StringRef Ext = llvm::sys::path::extension(Cmd.Filename);
  if (Ext == ".cu")
    return true;
  for (size_t I = 0; I + 1 < Cmd.CommandLine.size(); ++I)
    if (Cmd.CommandLine[I] == "-x" &&
        (Cmd.CommandLine[I + 1] == "cu" || Cmd.CommandLine[I + 1] == "cuda"))
      return true;
  for (const std::string &A : Cmd.CommandLine)
    if (A == "-xcuda" || A == "--x=cu" || A == "-x=cu")
      return true;
  return false;
}

/// The highest arch of a command that builds for several.
std::string pickArch(const std::vector<std::string> &Archs) {
  std::string Best;
  unsigned BestNum = 0;
  for (const std::string &A : Archs) {
    unsigned N = 0;
    llvm::StringRef(A).drop_front(3).take_while(llvm::isDigit).getAsInteger(10,
                                                                         N);
    if (Best.empty() || N > BestNum) {
      Best = A;
      BestNum = N;
    }
  }
  return Best;
}

/// Loads a compile_commands.json. The JSON is checked first: clang's loader
/// parses it with a YAML parser that prints its own multi-line diagnostics to
/// stderr, and then reports a misleading "Missing key".
std::unique_ptr<CompilationDatabase> loadJsonDatabase(llvm::StringRef Path,
                                                      std::string &Err) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Err = Buffer.getError().message();
    return nullptr;
  }
  if (llvm::Expected<llvm::json::Value> V =
          llvm::json::parse((*Buffer)->getBuffer());
      !V) {
    Err = "not valid JSON: " + llvm::toString(V.takeError());
    return nullptr;
  }
  return clang::tooling::JSONCompilationDatabase::loadFromFile(
      Path, Err, clang::tooling::JSONCommandLineSyntax::AutoDetect);
}

} // namespace

struct Frontend::Impl {
  FrontendOptions Opts;
  llvm::raw_ostream &Diag;
  std::unique_ptr<CompilationDatabase> Database; // from -p
  /// Databases found by walking up from files, by directory (null: none).
  llvm::StringMap<std::shared_ptr<CompilationDatabase>> Detected;
  std::optional<CudaToolkit> ExplicitToolkit;
  llvm::StringMap<std::optional<CudaToolkit>> FoundToolkits;
  /// Guards the caches above: files are parsed from several threads.
  std::mutex CacheLock;
  /// The preamble cache (null: off, or no directory for it).
  std::unique_ptr<PreambleCache> Preambles;

  Impl(FrontendOptions O, llvm::raw_ostream &D) : Opts(std::move(O)), Diag(D) {}

  void error(const llvm::Twine &Msg) { error(Diag, Msg); }
  static void error(llvm::raw_ostream &OS, const llvm::Twine &Msg) {
    OS << "cuda-access-lint: error: " << oneLine(Msg.str()) << "\n";
  }
  static void note(llvm::raw_ostream &OS, const llvm::Twine &Msg) {
    OS << "cuda-access-lint: note: " << oneLine(Msg.str()) << "\n";
  }

  bool loadBuildDatabase();
  llvm::Expected<const CompilationDatabase *> databaseFor(llvm::StringRef File);
  llvm::Expected<CompileCommand> compileCommandFor(llvm::StringRef File);
  std::optional<CudaToolkit> toolkitFor(const CompileCommand &Cmd);
  llvm::Expected<CompileCommand> clangCommandFor(llvm::StringRef File,
                                                 ParsedFile &Info,
                                                 llvm::raw_ostream &Notes,
                                                 const FileArgs &Extra = {});
};

bool Frontend::Impl::loadBuildDatabase() {
  llvm::SmallString<256> Path(Opts.BuildPath);
  if (!llvm::sys::fs::exists(Path)) {
    error("build directory '" + Opts.BuildPath + "' does not exist");
    return false;
  }
  if (!llvm::sys::fs::is_directory(Path))
    llvm::sys::path::remove_filename(Path);
  llvm::SmallString<256> Json(Path);
  llvm::sys::path::append(Json, "compile_commands.json");
  if (!llvm::sys::fs::exists(Json)) {
    error("no compile_commands.json in '" + Path +
          "' (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
    return false;
  }
  std::string Err;
  auto Base = loadJsonDatabase(Json, Err);
  if (!Base) {
    error("cannot read compilation database '" + Json + "': " + Err);
    return false;
  }
  Database = clang::tooling::inferMissingCompileCommands(
      clang::tooling::expandResponseFiles(std::move(Base),
                                          llvm::vfs::getRealFileSystem()));
  return true;
}

llvm::Expected<const CompilationDatabase *>
Frontend::Impl::databaseFor(llvm::StringRef File) {
  if (Database)
    return Database.get();
  std::lock_guard<std::mutex> Lock(CacheLock);
  // Walk up from the file, as clang-tidy does; remember what each directory
  // on the way resolved to.
  llvm::SmallString<256> Dir(File);
  llvm::sys::path::remove_filename(Dir);
  std::vector<std::string> Visited;
  std::shared_ptr<CompilationDatabase> Found;
  while (!Dir.empty()) {
    auto It = Detected.find(Dir);
    if (It != Detected.end()) {
      Found = It->second;
      break;
    }
    Visited.push_back(Dir.str().str());
    llvm::SmallString<256> Json(Dir);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::exists(Json)) {
      std::string Err;
      auto Base = loadJsonDatabase(Json, Err);
      if (!Base)
        return llvm::createStringError(
            std::errc::invalid_argument,
            "cannot read compilation database '%s': %s", Json.c_str(),
            oneLine(Err).c_str());
      Found = std::shared_ptr<CompilationDatabase>(
          clang::tooling::inferMissingCompileCommands(
              clang::tooling::expandResponseFiles(
                  std::move(Base), llvm::vfs::getRealFileSystem())));
      break;
    }
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  for (const std::string &V : Visited)
    Detected[V] = Found;
  return Found.get();
}

llvm::Expected<CompileCommand>
Frontend::Impl::compileCommandFor(llvm::StringRef File) {
  if (Opts.LauncherCommand) {
    CompileCommand Cmd;
    Cmd.Directory = absolute(".");
    Cmd.Filename = File.str();
    Cmd.CommandLine = *Opts.LauncherCommand;
    return Cmd;
  }
  if (Opts.FixedArgs) {
    CompileCommand Cmd;
    Cmd.Directory = absolute(".");
    Cmd.Filename = File.str();
    Cmd.CommandLine.push_back("clang++");
    Cmd.CommandLine.insert(Cmd.CommandLine.end(), Opts.FixedArgs->begin(),
                           Opts.FixedArgs->end());
    Cmd.CommandLine.push_back(File.str());
    return Cmd;
  }
  llvm::Expected<const CompilationDatabase *> DB = databaseFor(File);
  if (!DB)
    return DB.takeError();
  if (*DB) {
    std::lock_guard<std::mutex> Lock(CacheLock);
    std::vector<CompileCommand> Cmds = (*DB)->getCompileCommands(File);
    if (!Cmds.empty())
      return Cmds.front();
  }
  CompileCommand Cmd;
  Cmd.Directory = absolute(".");
  Cmd.Filename = File.str();
  Cmd.CommandLine = {"clang++", File.str()};
  return Cmd;
}

std::optional<CudaToolkit>
Frontend::Impl::toolkitFor(const CompileCommand &Cmd) {
  if (Opts.NoCudaToolkit)
    return std::nullopt;
  if (ExplicitToolkit)
    return ExplicitToolkit;
  std::string Hint;
  if (!Cmd.CommandLine.empty() && isNvcc(Cmd.CommandLine.front()))
    Hint = Cmd.CommandLine.front();
  std::lock_guard<std::mutex> Lock(CacheLock);
  auto It = FoundToolkits.find(Hint);
  if (It != FoundToolkits.end())
    return It->second;
  std::optional<CudaToolkit> T = findCudaToolkit(Hint);
  FoundToolkits[Hint] = T;
  return T;
}

llvm::Expected<CompileCommand>
Frontend::Impl::clangCommandFor(llvm::StringRef File, ParsedFile &Info,
                                llvm::raw_ostream &Notes,
                                const FileArgs &Extra) {
  llvm::Expected<CompileCommand> Cmd = compileCommandFor(File);
  if (!Cmd)
    return Cmd.takeError();
  llvm::Expected<TranslatedFlags> Flags =
      translateCompilerFlags(Cmd->CommandLine, Cmd->Directory);
  if (!Flags)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "%s: %s", File.str().c_str(),
                                   llvm::toString(Flags.takeError()).c_str());
  for (const std::string &U : Flags->Unknown)
    note(Notes, "ignoring compiler flag '" + U + "' for " + File +
         " (not known to nvcc or clang)");

  Info.Arch = Flags->Archs.empty() ? normalizeArch(Opts.DefaultArch)
                                   : pickArch(Flags->Archs);
  if (Info.Arch.empty())
    Info.Arch = "sm_90";

  std::vector<std::string> Args = {"clang++", "-x", "cuda"};
  Args.insert(Args.end(), Opts.ExtraArgsBefore.begin(),
              Opts.ExtraArgsBefore.end());
  Args.insert(Args.end(), Extra.Before.begin(), Extra.Before.end());
  std::optional<CudaToolkit> Toolkit = toolkitFor(*Cmd);
  for (size_t I = 0; I < Flags->Flags.size(); ++I) {
    const std::string &F = Flags->Flags[I];
    // On the built-in prelude, a toolkit's include directory named by the
    // command would bring the real cuda_runtime.h back in: leave it out.
    if (!Toolkit) {
      llvm::StringRef Dir;
      bool Separate = false;
      for (llvm::StringRef Flag : {"-I", "-isystem"}) {
        if (F == Flag && I + 1 < Flags->Flags.size()) {
          Dir = Flags->Flags[I + 1];
          Separate = true;
        } else if (llvm::StringRef(F).starts_with(Flag) && F.size() > Flag.size() &&
                   Flag == "-I") {
          Dir = llvm::StringRef(F).drop_front(Flag.size());
        }
      }
      llvm::SmallString<256> Probe(Dir);
      llvm::sys::path::append(Probe, "cuda_runtime.h");
      if (!Dir.empty() && llvm::sys::fs::exists(Probe)) {
        if (Separate)
          ++I;
        continue;
      }
    }
    Args.push_back(F);
  }
  Args.push_back("--cuda-device-only");
  Args.push_back("--offload-arch=" + Info.Arch);
  Args.push_back("-resource-dir=" + clangResourceDir());
  std::string Include = BuiltinIncludeDir.str();
  if (Toolkit) {
    Info.ToolkitRoot = Toolkit->Root;
    Args.push_back("--cuda-path=" + Toolkit->Root);
    if (!Toolkit->CcclInclude.empty()) {
      Args.push_back("-isystem");
      Args.push_back(Toolkit->CcclInclude);
    }
    Args.push_back("-include");
    Args.push_back(Include + "/" + SupplementHeader.str());
  } else {
    Info.UsesBuiltinPrelude = true;
    Args.push_back("--cuda-path=" + Include + "/no-cuda-toolkit");
    Args.push_back("-nocudainc");
    Args.push_back("-nocudalib");
    Args.push_back("-isystem");
    Args.push_back(Include);
    Args.push_back("-include");
    Args.push_back(Include + "/" + PreludeHeader.str());
  }
  // Headers nvcc's host compiler would find and clang has none of (GCC's
  // omp.h): stand-ins, behind every other include directory.
  Args.push_back("-idirafter");
  Args.push_back(Include + "/" + FallbackDir.str());
  Args.push_back("-Wno-unknown-cuda-version");
  // Every error is seen: with clang's limit of 20 the parse stops there, and
  // the kernels after it with it.
  Args.push_back("-ferror-limit=0");
  // What nvcc (EDG) warns about and clang makes an error by default: the
  // `register` storage class under C++17 (SHOC, NVIDIA's cuda-vmm sample)
  // and narrowing in a braced initializer.
  Args.push_back("-Wno-register");
  Args.push_back("-Wno-c++11-narrowing");
  if (!Opts.CompilerWarnings)
    Args.push_back("-w");
  Args.insert(Args.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  Args.insert(Args.end(), Extra.After.begin(), Extra.After.end());
  Args.push_back("-fsyntax-only");
  Args.push_back(File.str());

  CompileCommand Out;
  Out.Directory = Cmd->Directory;
  Out.Filename = File.str();
  Out.CommandLine = std::move(Args);
  Info.Command = Out.CommandLine;
  return Out;
}

Frontend::Frontend(FrontendOptions Opts, llvm::raw_ostream &Diagnostics)
    : P(std::make_shared<Impl>(std::move(Opts), Diagnostics)) {}

bool Frontend::prepare() {
  FrontendOptions &O = P->Opts;
  if (clangResourceDir().empty()) {
    P->error("clang's resource directory (lib/clang/" +
             std::to_string(LLVM_VERSION_MAJOR) +
             ") was not found beside the binary, beside libclang-cpp, "
             "or from clang++ on PATH (install libclang-common-22-dev)");
    return false;
  }
  if (!O.CudaPath.empty() && !O.NoCudaToolkit) {
    llvm::Expected<CudaToolkit> T = readCudaToolkit(O.CudaPath);
    if (!T) {
      P->error("--cuda-path: " + llvm::toString(T.takeError()));
      return false;
    }
    P->ExplicitToolkit = *T;
  }
  if (!O.BuildPath.empty() && !P->loadBuildDatabase())
    return false;
  // --compiler-warnings parses without a preamble: a cached preamble's own
  // warnings (an #warning, a deprecated header among the leading includes)
  // would not be shown again when it is reused.
  if (O.PreambleCache && !O.CompilerWarnings) {
    std::string Dir = O.PreambleCacheDir.empty() ? defaultPreambleCacheDir()
                                                 : O.PreambleCacheDir;
    if (!Dir.empty()) {
      // The tool's own headers are part of every preamble.
      // 2: template patterns' __shared__ objects deferred (SharedInTemplates.h).
      std::string Salt = std::string("cuda-access-lint preamble 2\n");
      for (const BuiltinHeader &H : builtinHeaders())
        Salt += H.Name.str() + "\n" + H.Contents.str() + "\n";
      P->Preambles = std::make_unique<PreambleCache>(
          Dir, std::move(Salt), O.BuildPreamble,
          O.PreambleCacheMiB * uint64_t(1) << 20);
    }
  }
  if (O.Files.empty() && P->Database) {
    for (const CompileCommand &Cmd : P->Database->getAllCompileCommands()) {
      if (!isCudaCommand(Cmd))
        continue;
      llvm::SmallString<256> Path(Cmd.Filename);
      if (!llvm::sys::path::is_absolute(Path))
        llvm::sys::path::make_absolute(Cmd.Directory, Path);
      std::string File = Path.str().str();
      if (!llvm::is_contained(Files, File))
        Files.push_back(File);
    }
    if (Files.empty()) {
      P->error("the compilation database in '" + O.BuildPath +
               "' has no CUDA files");
      return false;
    }
    return true;
  }
  if (O.Files.empty()) {
    P->error("no input files (usage: cuda-access-lint [options] <files...> "
             "[-- <compiler args>], or -p <build dir>)");
    return false;
  }
  for (const std::string &F : O.Files)
    Files.push_back(P->Database ? absolute(F) : F);
  return true;
}

llvm::Expected<std::vector<std::string>>
Frontend::commandFor(llvm::StringRef File, std::string *Directory) {
  ParsedFile Info;
  llvm::Expected<CompileCommand> Cmd =
      P->clangCommandFor(absolute(File), Info, P->Diag);
  if (!Cmd)
    return Cmd.takeError();
  if (Directory)
    *Directory = Cmd->Directory;
  return Cmd->CommandLine;
}

std::string hostParseSummary(const ParsedFile &Info) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "host code did not parse (" << Info.HostParseErrors
     << (Info.HostParseErrors == 1 ? " error" : " errors");
  if (!Info.MissingHeaders.empty()) {
    OS << "; not found: ";
    for (size_t I = 0; I < Info.MissingHeaders.size(); ++I)
      OS << (I ? ", " : "") << "'" << Info.MissingHeaders[I] << "'";
  }
  OS << "; first: " << Info.FirstHostParseError
     << "); every kernel parsed [--strict-parse to fail]";
  return S;
}

FrontendStats Frontend::run(const TranslationUnitCallback &OnParsed,
                            llvm::raw_ostream &ClangDiagnostics) {
  FrontendStats Stats;
  bool SaidPrelude = false;
  for (const std::string &File : Files) {
    std::string Clang, Tool;
    llvm::raw_string_ostream ClangOS(Clang), ToolOS(Tool);
    FileRun R = runFile(File, OnParsed, ClangOS, ToolOS);
    if (!R.PreludeNote.empty() && !SaidPrelude) {
      SaidPrelude = true;
      P->Diag << R.PreludeNote;
    }
    P->Diag << Tool;
    ClangDiagnostics << Clang;
    if (R.Failed)
      ++Stats.FilesFailed;
    if (R.Parsed)
      ++Stats.FilesParsed;
    if (R.Parsed && R.Errors > 0)
      ++Stats.FilesWithErrors;
  }
  return Stats;
}

FileRun Frontend::runFile(const std::string &File,
                          const TranslationUnitCallback &OnParsed,
                          llvm::raw_ostream &ClangDiagnostics,
                          llvm::raw_ostream &ToolDiagnostics,
                          const FileArgs &Extra) {
  FileRun Run;
  bool Overridden = P->Opts.Overrides.count(absolute(File)) > 0;
  if (!Overridden && !llvm::sys::fs::exists(File)) {
    Impl::error(ToolDiagnostics, "no such file: '" + File + "'");
    Run.Failed = true;
    return Run;
  }
  if (!Overridden && llvm::sys::fs::is_directory(File)) {
    Impl::error(ToolDiagnostics,
                "'" + File + "' is a directory, not a source file");
    Run.Failed = true;
    return Run;
  }
  std::string Abs = absolute(File);
  ParsedFile Info;
  Info.Path = File;
  llvm::Expected<CompileCommand> Cmd =
      P->clangCommandFor(Abs, Info, ToolDiagnostics, Extra);
  if (!Cmd) {
    Impl::error(ToolDiagnostics, llvm::toString(Cmd.takeError()));
    Run.Failed = true;
    return Run;
  }
  if (Info.UsesBuiltinPrelude) {
    llvm::raw_string_ostream OS(Run.PreludeNote);
    Impl::note(OS, P->Opts.NoCudaToolkit
                       ? "parsing on the built-in CUDA prelude (--no-cuda-toolkit)"
                       : "no CUDA toolkit found (--cuda-path, CUDA_PATH, "
                         "CUDA_HOME, /usr/local/cuda); parsing on the built-in "
                         "CUDA prelude");
  }
  SingleCommandDatabase DB(*Cmd);
  // A file system of its own, whose working directory is the command's:
  // the process's is shared by every thread.
  clang::tooling::ClangTool Tool(
      DB, {Abs}, std::make_shared<clang::PCHContainerOperations>(),
      llvm::vfs::createPhysicalFileSystem());
  // ClangTool keeps the StringRefs it is given: the paths must outlive it.
  std::vector<std::string> VirtualPaths;
  VirtualPaths.reserve(builtinHeaders().size());
  for (const BuiltinHeader &H : builtinHeaders()) {
    VirtualPaths.push_back((BuiltinIncludeDir + "/" + H.Name).str());
    Tool.mapVirtualFile(VirtualPaths.back(), H.Contents);
  }
  // `k<< <g, b >> >(...)`, which nvcc accepts: closed up for clang, every
  // offset unchanged.
  std::optional<std::string> ClosedUp;
  if (auto It = P->Opts.Overrides.find(Abs); It != P->Opts.Overrides.end())
    ClosedUp = closeUpLaunchChevrons(It->second);
  else if (auto Buf = llvm::MemoryBuffer::getFile(Abs))
    ClosedUp = closeUpLaunchChevrons((*Buf)->getBuffer());
  if (ClosedUp)
    Tool.mapVirtualFile(Abs, *ClosedUp);
  for (const auto &[Path, Contents] : P->Opts.Overrides)
    if (!(ClosedUp && Path == Abs))
      Tool.mapVirtualFile(Path, Contents);
  Tool.setPrintErrorMessage(false);
  BufferingDiagnosticConsumer Diags(P->Opts.Color, P->Opts);
  Tool.setDiagnosticConsumer(&Diags);
  ParseState State;
  State.Info = Info;
  State.Callback = &OnParsed;
  State.Diags = &Diags;
  State.DiagOut = &ClangDiagnostics;
  State.Strict = P->Opts.StrictParse;
  CallbackActionFactory Factory(State, P->Preambles.get());
  Tool.run(&Factory);
  // What the driver said, or what came after the translation unit.
  Diags.flushAll(ClangDiagnostics);
  if (!State.Called || State.Info.ParseErrors > 0)
    ClangDiagnostics << State.Stats;
  if (!State.Called) {
    Run.Failed = true;
    return Run;
  }
  Run.Parsed = true;
  Run.Errors = State.Info.ParseErrors;
  return Run;
}

} // namespace cal

//===- PreambleCache.cpp --------------------------------------------------===//

#include "frontend/PreambleCache.h"
#include "frontend/PreambleWriter.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <map>

namespace cal {

// The record of an entry (named: KeptPreamble keeps one).
namespace preamble_record {

/// A file the preamble read: as it was when the preamble was built.
struct FileStamp {
  std::string Path;
  int64_t Size = 0;
  int64_t MTime = 0; ///< nanoseconds since the epoch
  std::string Hash;  ///< xxh3 of the contents
};

struct Entry {
  bool Unusable = false;
  std::string UnusableWhy;
  unsigned BoundsSize = 0;
  bool EndsAtStartOfLine = false;
  std::string PchHash;
  int64_t PchSize = 0;
  std::vector<FileStamp> Files;
  /// Paths that did not exist and, if they came to exist, would change an
  /// include or a __has_include of the preamble.
  std::vector<std::string> Absent;
  /// PreambleHooks::Facts.
  std::vector<std::string> Facts;
};

} // namespace preamble_record
using preamble_record::Entry;
using preamble_record::FileStamp;

namespace {

/// Bumped when the entry's layout or meaning changes.
constexpr int64_t FormatVersion = 3;

/// Where the PCH is seen by the parse that reads it (an in-memory file).
constexpr llvm::StringLiteral VirtualPchDir = "/__cuda_access_lint__/preamble/";

std::string hex64(uint64_t V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format_hex_no_prefix(V, 16);
  return S;
}

int64_t nanos(llvm::sys::TimePoint<> T) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             T.time_since_epoch())
      .count();
}

llvm::json::Value toJson(const Entry &E) {
  llvm::json::Array Files, Absent, Facts;
  for (const FileStamp &F : E.Files)
    Files.push_back(llvm::json::Array{F.Path, F.Size, F.MTime, F.Hash});
  for (const std::string &A : E.Absent)
    Absent.push_back(A);
  for (const std::string &F : E.Facts)
    Facts.push_back(F);
  return llvm::json::Object{{"format", FormatVersion},
                            {"clang", clang::getClangFullVersion()},
                            {"unusable", E.Unusable},
                            {"unusable_why", E.UnusableWhy},
                            {"bounds", int64_t(E.BoundsSize)},
                            {"ends_at_start_of_line", E.EndsAtStartOfLine},
                            {"pch_size", E.PchSize},
                            {"pch_xxh3", E.PchHash},
                            {"files", std::move(Files)},
                            {"absent", std::move(Absent)},
                            {"facts", std::move(Facts)}};
}

std::optional<Entry> fromJson(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getInteger("format") != FormatVersion)
    return std::nullopt;
  Entry E;
  auto Bool = [&](llvm::StringRef K) {
    return O->getBoolean(K).value_or(false);
  };
  E.Unusable = Bool("unusable");
  if (auto W = O->getString("unusable_why"))
    E.UnusableWhy = W->str();
  auto Bounds = O->getInteger("bounds");
  auto PchSize = O->getInteger("pch_size");
  auto PchHash = O->getString("pch_xxh3");
  const llvm::json::Array *Files = O->getArray("files");
  const llvm::json::Array *Absent = O->getArray("absent");
  const llvm::json::Array *Facts = O->getArray("facts");
  if (!Bounds || !PchSize || !PchHash || !Files || !Absent || !Facts)
    return std::nullopt;
  E.BoundsSize = unsigned(*Bounds);
  E.EndsAtStartOfLine = Bool("ends_at_start_of_line");
  E.PchSize = *PchSize;
  E.PchHash = PchHash->str();
  for (const llvm::json::Value &F : *Files) {
    const llvm::json::Array *A = F.getAsArray();
    if (!A || A->size() != 4)
      return std::nullopt;
    auto P = (*A)[0].getAsString();
    auto S = (*A)[1].getAsInteger();
    auto M = (*A)[2].getAsInteger();
    auto H = (*A)[3].getAsString();
    if (!P || !S || !M || !H)
      return std::nullopt;
    E.Files.push_back({P->str(), *S, *M, H->str()});
  }
  for (const llvm::json::Value &A : *Absent) {
    auto P = A.getAsString();
    if (!P)
      return std::nullopt;
    E.Absent.push_back(P->str());
  }
  for (const llvm::json::Value &F : *Facts) {
    auto P = F.getAsString();
    if (!P)
      return std::nullopt;
    E.Facts.push_back(P->str());
  }
  return E;
}

/// Writes \p Data to \p Path through a temporary file in the same
/// directory and a rename: a reader sees the old file or the new one.
/// A new file beside \p Path, named after it (`<Path>.XXXXXXXX.tmp`: the
/// eviction removes those a killed run left), open as \p FD.
llvm::Error createBeside(llvm::StringRef Path, int &FD,
                         llvm::SmallVectorImpl<char> &Tmp) {
  llvm::SmallString<256> Model(Path);
  Model += ".%%%%%%%%.tmp";
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Tmp))
    return llvm::createStringError(
        EC, "cannot create a file in '%s': %s",
        llvm::sys::path::parent_path(Path).str().c_str(), EC.message().c_str());
  return llvm::Error::success();
}

/// Renames \p Tmp to \p Path (atomically: a reader sees the old file or
/// the new one); \p Tmp is removed either way.
llvm::Error renameInto(llvm::StringRef Tmp, llvm::StringRef Path) {
  if (std::error_code EC = llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return llvm::createStringError(EC, "cannot rename to '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

llvm::Error writeAtomically(llvm::StringRef Path, llvm::StringRef Data) {
  int FD = -1;
  llvm::SmallString<256> Tmp;
  if (llvm::Error Err = createBeside(Path, FD, Tmp))
    return Err;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Data;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return llvm::createStringError(EC, "cannot write '%s': %s", Tmp.c_str(),
                                     EC.message().c_str());
    }
  }
  return renameInto(Tmp, Path);
}

/// Counts the diagnostics the preamble's build reports (ignored ones, -w's
/// warnings, never reach a consumer).
class CountingConsumer : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level == clang::DiagnosticsEngine::Note || !First.empty())
      return;
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    First = Msg.str().str();
  }
  unsigned count() const { return getNumErrors() + getNumWarnings(); }
  std::string First;
};

/// Records the paths where a header looked for and not found would be
/// found if it appeared (every search directory; for a quoted name, the
/// includer's directory too).
class AbsentCollector : public clang::PPCallbacks {
public:
  AbsentCollector(clang::Preprocessor &PP, llvm::StringSet<> &Out,
                  bool &IncludeNotFound)
      : PP(PP), Out(Out), IncludeNotFound(IncludeNotFound) {}
  void HasInclude(clang::SourceLocation Loc, llvm::StringRef FileName,
                  bool IsAngled, clang::OptionalFileEntryRef File,
                  clang::SrcMgr::CharacteristicKind) override {
    if (!File)
      record(Loc, FileName, IsAngled);
  }
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &,
                          llvm::StringRef FileName, bool IsAngled,
                          clang::CharSourceRange,
                          clang::OptionalFileEntryRef File, llvm::StringRef,
                          llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (!File) {
      // Not always an error the build reports (a preamble's build lets a
      // missing include pass): the preamble is not used either way.
      IncludeNotFound = true;
      record(HashLoc, FileName, IsAngled);
    }
  }

private:
  void record(clang::SourceLocation Loc, llvm::StringRef Name, bool Angled) {
    if (llvm::sys::path::is_absolute(Name)) {
      Out.insert(Name);
      return;
    }
    auto Add = [&](llvm::StringRef Dir) {
      llvm::SmallString<256> P(Dir);
      llvm::sys::path::append(P, Name);
      Out.insert(P);
    };
    const clang::SourceManager &SM = PP.getSourceManager();
    if (!Angled)
      if (clang::OptionalFileEntryRef F =
              SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc))))
        Add(F->getDir().getName());
    for (const clang::DirectoryLookup &D :
         PP.getHeaderSearchInfo().search_dir_range())
      if (clang::OptionalDirectoryEntryRef Dir = D.getDirRef())
        Add(Dir->getName());
  }
  clang::Preprocessor &PP;
  llvm::StringSet<> &Out;
  bool &IncludeNotFound;
};

class Callbacks : public clang::PreambleCallbacks {
public:
  Callbacks(const PreambleHooks &Hooks) : Hooks(Hooks) {}
  void BeforeExecute(clang::CompilerInstance &CI) override {
    PP = &CI.getPreprocessor();
    if (Hooks.SkipFunctionBody)
      CI.getFrontendOpts().SkipFunctionBodies = true;
    if (Hooks.Setup)
      Hooks.Setup(CI);
  }
  std::unique_ptr<clang::PPCallbacks> createPPCallbacks() override {
    return std::make_unique<AbsentCollector>(*PP, Absent, IncludeNotFound);
  }
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return Hooks.SkipFunctionBody && Hooks.SkipFunctionBody(D);
  }
  void HandleTopLevelDecl(clang::DeclGroupRef DG) override {
    if (Hooks.TopLevelDecl)
      for (clang::Decl *D : DG)
        Hooks.TopLevelDecl(D);
  }
  void AfterExecute(clang::CompilerInstance &CI) override {
    if (Hooks.Facts && CI.hasASTContext())
      Facts = Hooks.Facts(CI.getASTContext());
    clang::SourceManager &SM = CI.getSourceManager();
    clang::OptionalFileEntryRef Main =
        SM.getFileEntryRefForID(SM.getMainFileID());
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      clang::FileEntryRef F = It->first;
      if (Main && F == *Main)
        continue;
      std::optional<llvm::MemoryBufferRef> Buf =
          It->second->getBufferOrNone(SM.getDiagnostics(), SM.getFileManager());
      FileStamp S;
      S.Path = F.getName().str();
      // What was read, not what was stat'ed before.
      S.Size = Buf ? int64_t(Buf->getBufferSize()) : -1;
      if (Buf)
        S.Hash = hex64(llvm::xxh3_64bits(Buf->getBuffer()));
      Files.push_back(std::move(S));
    }
  }

  const PreambleHooks &Hooks;
  clang::Preprocessor *PP = nullptr;
  llvm::StringSet<> Absent;
  bool IncludeNotFound = false;
  std::vector<FileStamp> Files;
  std::vector<std::string> Facts;
};

/// Marks the entry whose record is \p Path as used now (the size limit
/// removes the least recently used first). Best effort.
void touch(llvm::StringRef Path) {
  int FD = -1;
  if (llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                      llvm::sys::fs::OF_Append))
    return;
  (void)llvm::sys::fs::setLastAccessAndModificationTime(
      FD, std::chrono::system_clock::now());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
}

/// Whether every file is as recorded and no absent path exists; \p Why says
/// which one is not.
bool isFresh(const Entry &E, llvm::vfs::FileSystem &FS, std::string &Why) {
  for (const FileStamp &F : E.Files) {
    llvm::ErrorOr<llvm::vfs::Status> St = FS.status(F.Path);
    if (!St) {
      Why = "stale: '" + F.Path + "' is gone";
      return false;
    }
    if (int64_t(St->getSize()) != F.Size) {
      Why = "stale: '" + F.Path + "' changed";
      return false;
    }
    if (nanos(St->getLastModificationTime()) == F.MTime)
      continue;
    // Touched, or in memory (an editor's buffer): the same contents?
    auto Buf = FS.getBufferForFile(F.Path);
    if (!Buf || hex64(llvm::xxh3_64bits((*Buf)->getBuffer())) != F.Hash) {
      Why = "stale: '" + F.Path + "' changed";
      return false;
    }
  }
  for (const std::string &A : E.Absent)
    if (FS.exists(A)) {
      Why = "stale: '" + A + "' appeared";
      return false;
    }
  return true;
}

/// Points \p Inv at the preamble \p Pch (the first Bounds bytes of the main
/// file precompiled), served from memory through \p VFS.
void usePreamble(clang::CompilerInvocation &Inv,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &VFS,
                 llvm::StringRef Key, std::unique_ptr<llvm::MemoryBuffer> Pch,
                 unsigned Size, bool EndsAtStartOfLine) {
  std::string Path = (VirtualPchDir + Key + ".pch").str();
  clang::PreprocessorOptions &PPO = Inv.getPreprocessorOpts();
  PPO.PrecompiledPreambleBytes = {Size, EndsAtStartOfLine};
  PPO.ImplicitPCHInclude = Path;
  // The files were checked above, by size, time and contents; clang's own
  // check (size and time) would refuse in-memory files that differ only in
  // time.
  PPO.DisablePCHOrModuleValidation = clang::DisableValidationForModuleKind::PCH;
  // The predefines are in the preamble.
  PPO.UsePredefines = false;
  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Mem->addFile(Path, 0, std::move(Pch));
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(VFS);
  Overlay->pushOverlay(Mem);
  VFS = Overlay;
}

/// The record of a preamble just built: what it read, as it was (\p
/// Started: when the build began), and what it looked for in vain.
Entry recordOf(const Callbacks &CB, llvm::vfs::FileSystem &FS,
               int64_t Started) {
  Entry E;
  for (FileStamp F : CB.Files) {
    // The size and hash are of what was read. The time is the one the file
    // has now, and vouches for the contents only when the file was last
    // changed before the build began (a file written during the build, or
    // within the file system's time resolution of it, is compared by
    // contents next time: -1 matches no time).
    F.MTime = -1;
    if (llvm::ErrorOr<llvm::vfs::Status> St = FS.status(F.Path)) {
      int64_t T = nanos(St->getLastModificationTime());
      if (T != 0 && T + 2'000'000'000 < Started)
        F.MTime = T;
    }
    E.Files.push_back(std::move(F));
  }
  // Where a header was looked for and not found (an #include_next or a
  // __has_include that goes on past a directory that has it lists that one
  // too: only the paths that do not exist now count).
  for (const auto &A : CB.Absent)
    if (!FS.exists(A.getKey()))
      E.Absent.push_back(A.getKey().str());
  llvm::sort(E.Absent);
  E.Facts = CB.Facts;
  return E;
}

/// A PCH's bytes held by several owners: the parse's file system, a kept
/// preamble.
class SharedBuffer : public llvm::MemoryBuffer {
public:
  explicit SharedBuffer(std::shared_ptr<const llvm::MemoryBuffer> B)
      : B(std::move(B)) {
    init(this->B->getBufferStart(), this->B->getBufferEnd(),
         /*RequiresNullTerminator=*/false);
  }
  BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }

private:
  std::shared_ptr<const llvm::MemoryBuffer> B;
};

} // namespace

std::string defaultPreambleCacheDir() {
  llvm::SmallString<256> P;
  if (std::optional<std::string> X =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      X && !X->empty() && llvm::sys::path::is_absolute(*X)) {
    P = *X;
  } else if (std::optional<std::string> H = llvm::sys::Process::GetEnv("HOME");
             H && !H->empty()) {
    P = *H;
    llvm::sys::path::append(P, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(P, "cuda-access-lint");
  return P.str().str();
}

PreambleCache::PreambleCache(std::string Dir, llvm::StringRef SaltText,
                             PreambleBuild Build, uint64_t MaxBytes)
    : Dir(std::move(Dir)), Build(Build), MaxBytes(MaxBytes) {
  llvm::MD5 H;
  H.update(SaltText);
  llvm::MD5::MD5Result R;
  H.final(R);
  Salt = R.digest().str().str();
}

void PreambleCache::discard(llvm::StringRef Key) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key + ".json");
  llvm::sys::fs::remove(P);
}

/// What prepare() works on: the invocation, its file system, the main
/// file, and what it found or built.
struct PreambleCache::Request {
  Request(clang::CompilerInvocation &Inv,
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &VFS)
      : Inv(Inv), VFS(VFS) {}
  clang::CompilerInvocation &Inv;
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &VFS;
  std::unique_ptr<llvm::MemoryBuffer> Main;
  clang::PreambleBounds Bounds{0, false};
  llvm::SmallString<256> JsonPath, PchPath;
  /// The preamble to use: its record and its PCH.
  std::optional<Entry> Used;
  std::shared_ptr<const llvm::MemoryBuffer> Pch;
};

struct KeptPreamble::State {
  std::string Key;
  Entry E;
  std::shared_ptr<const llvm::MemoryBuffer> Pch;
};

KeptPreamble::KeptPreamble() = default;
KeptPreamble::~KeptPreamble() = default;
bool KeptPreamble::empty() const { return !S; }
void KeptPreamble::forget() { S.reset(); }

std::string PreambleCache::keyOf(const Request &Q) const {
  // What the preamble means beyond the files' stamps.
  llvm::MD5 Hash;
  auto Add = [&](llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
  };
  Add(clang::getClangFullVersion());
  Add(Salt);
  for (const std::string &A : Q.Inv.getCC1CommandLine())
    Add(A);
  llvm::ErrorOr<std::string> Cwd = Q.VFS->getCurrentWorkingDirectory();
  Add(Cwd ? *Cwd : "");
  Add(Q.Main->getBuffer().take_front(Q.Bounds.Size));
  Add(Q.Bounds.PreambleEndsAtStartOfLine ? "1" : "0");
  llvm::MD5::MD5Result R;
  Hash.final(R);
  return R.digest().str().str();
}

bool PreambleCache::reuseKept(KeptPreamble &Kept, Request &Q,
                              PreambleUse &Use) {
  if (!Kept.S || Kept.S->Key != Use.Key)
    return false;
  std::string Why;
  if (!isFresh(Kept.S->E, *Q.VFS, Why)) {
    Kept.S.reset();
    Use.Why = "the kept one is " + Why;
    return false;
  }
  Q.Used = Kept.S->E;
  Q.Pch = Kept.S->Pch;
  Use.K = PreambleUse::Kept;
  return true;
}

bool PreambleCache::lookUp(Request &Q, PreambleUse &Use) {
  // A stored entry: checked, then used from the bytes that were checked.
  if (auto Text = llvm::MemoryBuffer::getFile(Q.JsonPath)) {
    std::optional<Entry> E = fromJson((*Text)->getBuffer());
    std::string Why;
    if (!E) {
      Use.Why = "unreadable entry";
    } else if (E->BoundsSize != Q.Bounds.Size ||
               E->EndsAtStartOfLine != Q.Bounds.PreambleEndsAtStartOfLine) {
      Use.Why = "entry of another preamble";
    } else if (!isFresh(*E, *Q.VFS, Why)) {
      Use.Why = Why;
    } else if (E->Unusable) {
      Use.K = PreambleUse::Unusable;
      Use.Why = E->UnusableWhy;
      return true;
    } else if (auto Pch = llvm::MemoryBuffer::getFile(
                   Q.PchPath, /*IsText=*/false,
                   /*RequiresNullTerminator=*/false);
               !Pch) {
      Use.Why = "no PCH";
    } else if (int64_t((*Pch)->getBufferSize()) != E->PchSize ||
               hex64(llvm::xxh3_64bits((*Pch)->getBuffer())) != E->PchHash) {
      Use.Why = "corrupt PCH";
    } else {
      Use.K = PreambleUse::Hit;
      Q.Used = std::move(E);
      Q.Pch = std::move(*Pch);
      touch(Q.JsonPath);
      return true;
    }
    return false;
  }
  if (Build == PreambleBuild::SecondSight) {
    // Never seen: recorded, built the next time it is seen.
    llvm::SmallString<256> SeenPath(Dir);
    llvm::sys::path::append(SeenPath, Use.Key + ".seen");
    if (!llvm::sys::fs::exists(SeenPath)) {
      if (llvm::Error Err = writeAtomically(SeenPath, "1\n"))
        Use.Why = llvm::toString(std::move(Err));
      else
        Use.Why = "first sight: built when seen again";
      Use.K = PreambleUse::Deferred;
      return true;
    }
  }
  return false;
}

void PreambleCache::build(Request &Q,
                          std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                          const PreambleHooks &Hooks, PreambleUse &Use) {
  CountingConsumer Counter;
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diags =
      clang::CompilerInstance::createDiagnostics(
          *Q.VFS, Q.Inv.getDiagnosticOpts(), &Counter,
          /*ShouldOwnClient=*/false);
  Callbacks CB(Hooks);
  int64_t Started = nanos(std::chrono::system_clock::now());
  // The templates the preamble uses are instantiated at its end
  // (-fpch-instantiate-templates, clang-cl's default for /Yc), not again at
  // the end of every parse on it. A well-formed program means the same at
  // any point of instantiation ([temp.point]); an error in one makes the
  // preamble unusable, and the file is parsed without it.
  clang::CompilerInvocation BuildInv(Q.Inv);
  BuildInv.getLangOpts().PCHInstantiateTemplates = true;
  // Written under a temporary name, renamed into place once its record is
  // known (below), read back from the file: the PCH is never held whole in
  // memory beside the preamble's AST.
  llvm::SmallString<256> Tmp;
  int FD = -1;
  if (llvm::Error Err = createBeside(Q.PchPath, FD, Tmp)) {
    Use.Why = llvm::toString(std::move(Err));
    return;
  }
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  llvm::Error Written = writePreamblePch(BuildInv, *Q.Main, Q.Bounds, *Diags,
                                         Q.VFS, PCHOps, CB, Tmp);
  std::string BuildError;
  bool WriteFailed = false;
  llvm::handleAllErrors(std::move(Written), [&](const llvm::ErrorInfoBase &Er) {
    BuildError = Er.message();
    // The file could not be written (a full disk): nothing is known of
    // the preamble, so nothing is recorded; the next run tries again.
    WriteFailed = Er.convertToErrorCode() != llvm::inconvertibleErrorCode();
  });
  if (WriteFailed) {
    llvm::sys::fs::remove(Tmp);
    Use.K = PreambleUse::Unusable;
    Use.Why = BuildError;
    return;
  }
  Entry E = recordOf(CB, *Q.VFS, Started);
  E.BoundsSize = Q.Bounds.Size;
  E.EndsAtStartOfLine = Q.Bounds.PreambleEndsAtStartOfLine;

  std::unique_ptr<llvm::MemoryBuffer> Pch;
  bool Clean = BuildError.empty() && Counter.count() == 0 &&
               !CB.IncludeNotFound && !Diags->hasErrorOccurred();
  if (Clean) {
    if (auto B = llvm::MemoryBuffer::getFile(Tmp, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false))
      Pch = std::move(*B);
  }
  if (!Pch) {
    E.Unusable = true;
    E.UnusableWhy =
        !BuildError.empty()  ? "the preamble did not build: " + BuildError
        : CB.IncludeNotFound ? "a header of the preamble is not found"
        : Counter.count() || Diags->hasErrorOccurred()
            ? "the preamble has diagnostics (first: " + Counter.First + ")"
            : "the preamble's PCH could not be read back";
    Use.K = PreambleUse::Unusable;
    Use.Why = E.UnusableWhy;
  } else {
    E.PchSize = int64_t(Pch->getBufferSize());
    E.PchHash = hex64(llvm::xxh3_64bits(Pch->getBuffer()));
    Use.K = PreambleUse::Built;
  }
  // The PCH first, then the record that vouches for it.
  std::string Json;
  llvm::raw_string_ostream(Json) << toJson(E);
  llvm::Error Err = llvm::Error::success();
  if (!Pch)
    llvm::sys::fs::remove(Tmp);
  else
    Err = renameInto(Tmp, Q.PchPath);
  if (!Err)
    Err = writeAtomically(Q.JsonPath, Json);
  if (Err)
    Use.Why = llvm::toString(std::move(Err));
  llvm::SmallString<256> SeenPath(Dir);
  llvm::sys::path::append(SeenPath, Use.Key + ".seen");
  llvm::sys::fs::remove(SeenPath);
  if (Pch) {
    Q.Used = std::move(E);
    Q.Pch = std::move(Pch);
  }
  if (MaxBytes)
    evict(Use.Key);
}

PreambleUse
PreambleCache::prepare(clang::CompilerInvocation &Inv,
                       llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &VFS,
                       std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                       const PreambleHooks &Hooks, KeptPreamble *Kept) {
  PreambleUse Use;
  Request Q(Inv, VFS);
  const clang::FrontendOptions &FO = Inv.getFrontendOpts();
  if (FO.Inputs.size() != 1 || !FO.Inputs[0].isFile()) {
    Use.Why = "not one input file";
    return Use;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Main =
      VFS->getBufferForFile(FO.Inputs[0].getFile());
  if (!Main) {
    Use.Why = "cannot read the main file";
    return Use;
  }
  Q.Main = std::move(*Main);
  Q.Bounds = clang::ComputePreambleBounds(Inv.getLangOpts(), *Q.Main, 0);
  Use.Key = keyOf(Q);

  if (!Kept || !reuseKept(*Kept, Q, Use)) {
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
      Use.Why = "cannot create '" + Dir + "': " + EC.message();
      return Use;
    }
    Q.JsonPath = Q.PchPath = Dir;
    llvm::sys::path::append(Q.JsonPath, Use.Key + ".json");
    llvm::sys::path::append(Q.PchPath, Use.Key + ".pch");
    if (!lookUp(Q, Use))
      build(Q, PCHOps, Hooks, Use);
  }
  if (!Q.Pch)
    return Use;
  if (Kept && Use.K != PreambleUse::Kept) {
    // Kept in memory of its own (a PCH read from the directory is mapped).
    if (Q.Pch->getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_Malloc)
      Q.Pch = llvm::MemoryBuffer::getMemBufferCopy(Q.Pch->getBuffer());
    Kept->S = std::make_unique<KeptPreamble::State>(
        KeptPreamble::State{Use.Key, *Q.Used, Q.Pch});
  }
  Use.Facts = Q.Used->Facts;
  usePreamble(Inv, VFS, Use.Key, std::make_unique<SharedBuffer>(Q.Pch),
              Q.Bounds.Size, Q.Bounds.PreambleEndsAtStartOfLine);
  return Use;
}

unsigned PreambleCache::evict(llvm::StringRef Keep) {
  struct Stored {
    uint64_t Bytes = 0;
    llvm::sys::TimePoint<> Used;
    bool HasRecord = false;
  };
  std::map<std::string, Stored> Entries;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Path = It->path();
    llvm::StringRef Name = llvm::sys::path::filename(Path);
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> St = It->status();
    if (!St)
      continue;
    if (Name.ends_with(".tmp")) {
      // Left by a run that was killed while writing.
      if (Now - St->getLastModificationTime() > std::chrono::hours(1))
        llvm::sys::fs::remove(Path);
      continue;
    }
    auto [Key, Ext] = Name.rsplit('.');
    if (Ext == "seen") {
      if (Now - St->getLastModificationTime() > std::chrono::hours(24 * 30))
        llvm::sys::fs::remove(Path);
    } else if (Ext == "pch") {
      Entries[Key.str()].Bytes += St->getSize();
    } else if (Ext == "json") {
      Stored &S = Entries[Key.str()];
      S.Used = St->getLastModificationTime();
      S.HasRecord = true;
    }
  }
  uint64_t Total = 0;
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> ByAge;
  for (const auto &[Key, S] : Entries) {
    Total += S.Bytes;
    if (Key != Keep)
      ByAge.push_back({S.HasRecord ? S.Used : llvm::sys::TimePoint<>(), Key});
  }
  llvm::sort(ByAge);
  unsigned Removed = 0;
  for (const auto &[Used, Key] : ByAge) {
    if (Total <= MaxBytes)
      break;
    // The record that vouches for the PCH goes first: a reader sees a
    // whole entry or none.
    llvm::SmallString<256> Json(Dir), Pch(Dir);
    llvm::sys::path::append(Json, Key + ".json");
    llvm::sys::path::append(Pch, Key + ".pch");
    llvm::sys::fs::remove(Json);
    llvm::sys::fs::remove(Pch);
    Total -= std::min(Total, Entries[Key].Bytes);
    ++Removed;
  }
  return Removed;
}

} // namespace cal

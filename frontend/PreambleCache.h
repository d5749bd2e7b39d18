//===- PreambleCache.h - Precompiled preambles, cached on disk ------------===//
//
// Nearly all of a parse's time goes to the headers a file starts with, the
// same for every run, every CI job and every edit in the editor. The
// preamble (what clang's Lexer::ComputePreamble calls the leading
// directives and comments of the main file, with the -include'd headers and
// the predefines before them) is precompiled once, as clang's
// PrecompiledPreamble builds it for clangd (the same bytes; written to the
// file as it is serialized, PreambleWriter.h), stored in a directory, and
// read back by later parses of the file instead of parsing those headers
// again.
//
// An entry is two files, <key>.pch and <key>.json. The key hashes what the
// preamble's meaning depends on and a file's stamp cannot tell: clang's
// version, the tool's own headers and settings (the caller's salt), the
// whole cc1 command line (flags, arch, toolkit, resource directory, the main
// file's path), the working directory and the preamble's text. The JSON
// records, for every file the preamble read, its size, modification time
// and content hash, the paths whose appearance would change an include
// or a __has_include, and what a parse on the preamble must know of its AST
// (PreambleHooks::Facts); an entry is used only when every file is as recorded
// (same size and time, or same content) and no such path exists. The PCH's
// own hash is in the JSON and checked on the bytes clang then reads (from
// memory, not the disk again): a truncated, corrupt or half-replaced entry
// is rebuilt, never trusted. Both files are written to a temporary name and
// renamed, so concurrent runs (-j, several CI jobs on a shared directory)
// see an old entry or a new one, never a partial one.
//
// When a preamble is built. Building one costs about half a parse more
// than parsing without it (the PCH is written, then read back by the
// parse), so a preamble seen for the first time is, by default, only
// recorded (<key>.seen, a few bytes) and the file parsed without one: a
// one-off run costs no more than a parse, and the directory does not fill
// with 10-40 MB entries for files linted once. The second run that sees the
// same preamble builds it (BuildPolicy::SecondSight). An editor, which
// relints the same file on every change, builds on first sight.
//
// The directory is kept under a size limit: after an entry is stored, the
// least recently used entries (a hit touches its record) are removed until
// the PCHs fit, the one just stored excepted; temporary files older than an
// hour, left by a run that was killed, go too.
//
// A preamble whose build reported any diagnostic (a header not found, an
// error, a warning under --compiler-warnings) is not used: the file is
// parsed without one, so the diagnostics are reported as always, and the
// entry records that it is unusable (with the same staleness checks), so
// later runs do not build it again.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_FRONTEND_PREAMBLECACHE_H
#define CUDA_ACCESS_LINT_FRONTEND_PREAMBLECACHE_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CompilerInstance;
class CompilerInvocation;
class Decl;
class PCHContainerOperations;
} // namespace clang

namespace cal {

/// $XDG_CACHE_HOME/cuda-access-lint, else ~/.cache/cuda-access-lint; empty
/// when neither is known.
std::string defaultPreambleCacheDir();

/// What the parse that builds a preamble must share with the main parse.
struct PreambleHooks {
  /// Applied to the compiler instance that builds the preamble, before it
  /// parses (the same diagnostic settings as the main parse).
  std::function<void(clang::CompilerInstance &)> Setup;
  /// The main parse's ASTConsumer::shouldSkipFunctionBody (null: no body is
  /// skipped).
  std::function<bool(clang::Decl *)> SkipFunctionBody;
  /// Called with each top-level declaration the preamble's parse completes,
  /// as the main parse's ASTConsumer::HandleTopLevelDecl is.
  std::function<void(clang::Decl *)> TopLevelDecl;
  /// What a parse on the preamble needs to know of its AST, found once
  /// from the whole AST when the preamble is built, and stored with it
  /// (PreambleUse::Facts).
  std::function<std::vector<std::string>(clang::ASTContext &)> Facts;
};

/// What prepare() did.
struct PreambleUse {
  enum Kind {
    None,     ///< the file has no preamble, or the cache was not usable
    Hit,      ///< a stored entry was checked and is used
    Built,    ///< built now, stored, and used
    Unusable, ///< the preamble has diagnostics: the file is parsed without
    Deferred, ///< seen for the first time: recorded, the file parsed without
    Kept,     ///< the caller's KeptPreamble, still fresh, is used
  } K = None;
  std::string Key;
  /// Why an entry was not used or not stored (for --verbose-style notes and
  /// tests): "stale: <file> changed", "cannot write ...".
  std::string Why;
  /// PreambleHooks::Facts of the preamble used (Hit, Built).
  std::vector<std::string> Facts;
};

/// A preamble kept in memory between the parses of one file (an editor's
/// open document), as clangd's ASTWorker keeps its PreambleData: while its
/// key is the parse's (the same clang, flags, tool and preamble text) and
/// every file it read is as it was (a stored entry's checks: size and time,
/// or contents; no absent header appeared), prepare() uses it without
/// reading the cache directory or hashing the PCH again; otherwise prepare()
/// finds or builds the preamble as it always does, and keeps that one.
/// Used by one parse at a time.
class KeptPreamble {
public:
  KeptPreamble();
  ~KeptPreamble();
  /// No preamble is kept (none used yet, or the last one went stale).
  bool empty() const;
  /// Drops the kept preamble (clang could not read it).
  void forget();

private:
  friend class PreambleCache;
  struct State;
  std::unique_ptr<State> S;
};

/// When prepare() builds a preamble that has no entry.
enum class PreambleBuild {
  FirstSight,  ///< at once (an editor's relints reuse it)
  SecondSight, ///< the second time it is seen (one-off runs stay cheap)
};

class PreambleCache {
public:
  /// \p Dir is created when missing. \p Salt: what the tool adds to every
  /// key (its own headers' contents, settings that change the parse).
  /// \p MaxBytes: the PCHs' total size the directory is kept under (0: no
  /// limit).
  PreambleCache(std::string Dir, llvm::StringRef Salt,
                PreambleBuild Build = PreambleBuild::FirstSight,
                uint64_t MaxBytes = 0);

  const std::string &dir() const { return Dir; }

  /// For the invocation about to parse its main file (read through \p VFS):
  /// reuses \p Kept (when given) while it is fresh, else finds a fresh
  /// entry or builds one (and keeps it in \p Kept), and changes \p Inv to
  /// read the preamble and \p VFS to a file system that holds the PCH.
  /// Leaves both as they are when the result is None, Unusable or Deferred.
  PreambleUse prepare(clang::CompilerInvocation &Inv,
                      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &VFS,
                      std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                      const PreambleHooks &Hooks, KeptPreamble *Kept = nullptr);

  /// Removes the entry \p Key (a parse could not read it after all).
  void discard(llvm::StringRef Key);

  /// Removes the least recently used entries until the PCHs' total is at
  /// most MaxBytes, \p Keep excepted, and temporary files older than an
  /// hour. Returns how many entries were removed.
  unsigned evict(llvm::StringRef Keep);

private:
  struct Request;
  std::string keyOf(const Request &Q) const;
  /// Whether \p Kept is the preamble to use (then it is in \p Q).
  bool reuseKept(KeptPreamble &Kept, Request &Q, PreambleUse &Use);
  /// Looks for the stored entry: true when \p Use is settled (a hit, an
  /// unusable preamble, one seen for the first time), false: build it.
  bool lookUp(Request &Q, PreambleUse &Use);
  void build(Request &Q, std::shared_ptr<clang::PCHContainerOperations> PCHOps,
             const PreambleHooks &Hooks, PreambleUse &Use);

  std::string Dir, Salt;
  PreambleBuild Build;
  uint64_t MaxBytes;
};

} // namespace cal

#endif

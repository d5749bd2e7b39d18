//===- PreambleCache.h - Precompiled preambles, cached on disk ------------===//
//
// Nearly all of a parse's time goes to the headers a file starts with, the
// same for every run, every CI job and every edit in the editor. The
// preamble (what clang's Lexer::ComputePreamble calls the leading
// directives and comments of the main file, with the -include'd headers and
// the predefines before them) is precompiled once with clang's
// PrecompiledPreamble, as clangd does, stored in a directory, and read back
// by later parses of the file instead of parsing those headers again.
//
// An entry is two files, <key>.pch and <key>.json. The key hashes what the
// preamble's meaning depends on and a file's stamp cannot tell: clang's
// version, the tool's own headers and settings (the caller's salt), the
// whole cc1 command line (flags, arch, toolkit, resource directory, the main
// file's path), the working directory and the preamble's text. The JSON
// records, for every file the preamble read, its size, modification time
// and content hash, and the paths whose appearance would change an include
// or a __has_include; an entry is used only when every file is as recorded
// (same size and time, or same content) and no such path exists. The PCH's
// own hash is in the JSON and checked on the bytes clang then reads (from
// memory, not the disk again): a truncated, corrupt or half-replaced entry
// is rebuilt, never trusted. Both files are written to a temporary name and
// renamed, so concurrent runs (-j, several CI jobs on a shared directory)
// see an old entry or a new one, never a partial one.
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

#include <functional>
#include <memory>
#include <string>

namespace clang {
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
};

/// What prepare() did.
struct PreambleUse {
  enum Kind {
    None,     ///< the file has no preamble, or the cache was not usable
    Hit,      ///< a stored entry was checked and is used
    Built,    ///< built now, stored, and used
    Unusable, ///< the preamble has diagnostics: the file is parsed without
  } K = None;
  std::string Key;
  /// Why an entry was not used or not stored (for --verbose-style notes and
  /// tests): "stale: <file> changed", "cannot write ...".
  std::string Why;
};

class PreambleCache {
public:
  /// \p Dir is created when missing. \p Salt: what the tool adds to every
  /// key (its own headers' contents, settings that change the parse).
  PreambleCache(std::string Dir, llvm::StringRef Salt);

  const std::string &dir() const { return Dir; }

  /// For the invocation about to parse its main file (read through \p VFS):
  /// finds a fresh entry or builds one, and changes \p Inv to read the
  /// preamble from it and \p VFS to a file system that holds the PCH.
  /// Leaves both as they are when the result is None or Unusable.
  PreambleUse prepare(clang::CompilerInvocation &Inv,
                      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &VFS,
                      std::shared_ptr<clang::PCHContainerOperations> PCHOps,
                      const PreambleHooks &Hooks);

  /// Removes the entry \p Key (a parse could not read it after all).
  void discard(llvm::StringRef Key);

private:
  std::string Dir, Salt;
};

} // namespace cal

#endif

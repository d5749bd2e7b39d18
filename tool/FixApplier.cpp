//===- FixApplier.cpp -----------------------------------------------------===//

#include "tool/FixApplier.h"

#include "frontend/LaunchSyntax.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace cal {

void FixApplier::noteContents(const std::string &Path, std::string Contents) {
  FileEdits &FE = Files[Path];
  if (!FE.HaveContents) {
    FE.ContentsWhenRead = std::move(Contents);
    FE.HaveContents = true;
  }
}

void FixApplier::add(const FindingRecord &F) {
  for (const FixRecord &X : F.Fixes) {
    if (!X.machineApplicable())
      continue;
    for (const EditRecord &E : X.Edits) {
      if (E.At.Path.empty())
        continue;
      clang::tooling::Replacement R(E.At.Path, E.At.Offset, E.Length, E.Text);
      FileEdits &FE = Files[E.At.Path];
      // The same edit from another finding (or another file including the
      // same header) is already there.
      bool Same = false;
      for (const clang::tooling::Replacement &Old : FE.Replacements)
        Same = Same || Old == R;
      if (Same)
        continue;
      if (llvm::Error Err = FE.Replacements.add(R)) {
        llvm::consumeError(std::move(Err));
        ++FE.Conflicts;
      }
    }
  }
}

int FixApplier::applyAll(llvm::raw_ostream &Errs, llvm::raw_ostream &Log) {
  int Changed = 0;
  bool Failed = false;
  for (auto &[Path, FE] : Files) {
    if (FE.Replacements.empty())
      continue;
    auto Now = llvm::MemoryBuffer::getFile(Path);
    // Clang read the file with spaced launch chevrons closed up (the same
    // offsets): compare it as read, apply the edits to it as it is.
    std::string OnDisk = Now ? (*Now)->getBuffer().str() : std::string();
    if (!Now || !FE.HaveContents ||
        closeUpLaunchChevrons(OnDisk).value_or(OnDisk) != FE.ContentsWhenRead) {
      Errs << "cuda-access-lint: error: not fixing '" << Path
           << "': it changed since it was read\n";
      Failed = true;
      continue;
    }
    llvm::Expected<std::string> Fixed =
        clang::tooling::applyAllReplacements(OnDisk, FE.Replacements);
    if (!Fixed) {
      Errs << "cuda-access-lint: error: not fixing '" << Path
           << "': " << llvm::toString(Fixed.takeError()) << "\n";
      Failed = true;
      continue;
    }
    // Temporary file in the same directory, then rename: atomic.
    if (llvm::Error E = llvm::writeToOutput(
            Path, [&](llvm::raw_ostream &OS) -> llvm::Error {
              OS << *Fixed;
              return llvm::Error::success();
            })) {
      Errs << "cuda-access-lint: error: cannot write '" << Path
           << "': " << llvm::toString(std::move(E)) << "\n";
      Failed = true;
      continue;
    }
    ++Changed;
    Log << "cuda-access-lint: fixed " << FE.Replacements.size() << " place"
        << (FE.Replacements.size() == 1 ? "" : "s") << " in " << Path;
    if (FE.Conflicts)
      Log << " (" << FE.Conflicts << " overlapping fix"
          << (FE.Conflicts == 1 ? "" : "es") << " skipped)";
    Log << "\n";
  }
  return Failed ? -1 : Changed;
}

} // namespace cal

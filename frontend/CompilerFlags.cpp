//===- CompilerFlags.cpp --------------------------------------------------===//

#include "frontend/CompilerFlags.h"

#include "clang/Options/Options.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

namespace cal {
namespace {

/// What to do with one nvcc option.
enum class NvccAction {
  Drop,        // code generation, linking, ptxas, diagnostics numbering...
  Arch,        // -arch / --gpu-architecture
  Code,        // -code / --gpu-code
  Gencode,     // -gencode / --generate-code
  HostFlags,   // -Xcompiler / --compiler-options: comma-separated host flags
  Rdc,         // -rdc / --relocatable-device-code: true -> -fgpu-rdc
  RdcOn,       // -dc / --device-c
  OptionsFile, // --options-file / -optf
  Language,    // -x / --x
  Std,         // -std / --std
  Rename,      // a long nvcc name of a flag clang knows under another spelling
};

struct NvccOption {
  llvm::StringRef Name; // without leading dashes
  bool TakesValue;
  NvccAction Action;
  llvm::StringRef ClangSpelling = {}; // for Rename: "-I", "-D", ...
};

// nvcc's options, by name without leading dashes (nvcc accepts one or two
// dashes for long names, and "name=value" or "name value"). Flags that clang
// spells the same (-I, -D, -O3, -Wall, -std=c++17 ...) are not listed: they
// pass through and are checked against clang's own table afterwards.
const NvccOption NvccOptions[] = {
    {"arch", true, NvccAction::Arch},
    {"gpu-architecture", true, NvccAction::Arch},
    {"code", true, NvccAction::Code},
    {"gpu-code", true, NvccAction::Code},
    {"gencode", true, NvccAction::Gencode},
    {"generate-code", true, NvccAction::Gencode},
    {"Xcompiler", true, NvccAction::HostFlags},
    {"compiler-options", true, NvccAction::HostFlags},
    {"rdc", true, NvccAction::Rdc},
    {"relocatable-device-code", true, NvccAction::Rdc},
    {"dc", false, NvccAction::RdcOn},
    {"device-c", false, NvccAction::RdcOn},
    {"options-file", true, NvccAction::OptionsFile},
    {"optf", true, NvccAction::OptionsFile},
    {"x", true, NvccAction::Language},
    {"std", true, NvccAction::Std},
    {"include-path", true, NvccAction::Rename, "-I"},
    {"system-include", true, NvccAction::Rename, "-isystem"},
    {"pre-include", true, NvccAction::Rename, "-include"},
    {"define-macro", true, NvccAction::Rename, "-D"},
    {"undefine-macro", true, NvccAction::Rename, "-U"},
    {"disable-warnings", false, NvccAction::Rename, "-w"},
    // Dropped, with a value.
    {"o", true, NvccAction::Drop},
    {"output-file", true, NvccAction::Drop},
    {"ccbin", true, NvccAction::Drop},
    {"compiler-bindir", true, NvccAction::Drop},
    {"Xptxas", true, NvccAction::Drop},
    {"ptxas-options", true, NvccAction::Drop},
    {"Xnvlink", true, NvccAction::Drop},
    {"nvlink-options", true, NvccAction::Drop},
    {"Xfatbin", true, NvccAction::Drop},
    {"Xlinker", true, NvccAction::Drop},
    {"linker-options", true, NvccAction::Drop},
    {"Xarchive", true, NvccAction::Drop},
    {"archive-options", true, NvccAction::Drop},
    {"Xcudafe", true, NvccAction::Drop},
    {"diag-suppress", true, NvccAction::Drop},
    {"diag_suppress", true, NvccAction::Drop},
    {"diag-warn", true, NvccAction::Drop},
    {"diag_warn", true, NvccAction::Drop},
    {"diag-error", true, NvccAction::Drop},
    {"diag_error", true, NvccAction::Drop},
    {"diag-default", true, NvccAction::Drop},
    {"maxrregcount", true, NvccAction::Drop},
    {"t", true, NvccAction::Drop},
    {"threads", true, NvccAction::Drop},
    {"split-compile", true, NvccAction::Drop},
    {"split-compile-extended", true, NvccAction::Drop},
    {"time", true, NvccAction::Drop},
    {"keep-dir", true, NvccAction::Drop},
    {"odir", true, NvccAction::Drop},
    {"output-directory", true, NvccAction::Drop},
    {"cudart", true, NvccAction::Drop},
    {"cudadevrt", true, NvccAction::Drop},
    {"default-stream", true, NvccAction::Drop},
    {"ftz", true, NvccAction::Drop},
    {"prec-div", true, NvccAction::Drop},
    {"prec-sqrt", true, NvccAction::Drop},
    {"fmad", true, NvccAction::Drop},
    {"Werror", true, NvccAction::Drop},
    {"run-args", true, NvccAction::Drop},
    {"dependency-output", true, NvccAction::Drop},
    {"MF", true, NvccAction::Drop},
    {"MT", true, NvccAction::Drop},
    {"MQ", true, NvccAction::Drop},
    {"library", true, NvccAction::Drop},
    {"l", true, NvccAction::Drop},
    {"library-path", true, NvccAction::Drop},
    {"L", true, NvccAction::Drop},
    {"machine", true, NvccAction::Drop},
    {"m", true, NvccAction::Drop},
    {"static-global-template-stub", true, NvccAction::Drop},
    {"device-entity-has-hidden-visibility", true, NvccAction::Drop},
    {"frandom-seed", true, NvccAction::Drop},
    {"optimize", true, NvccAction::Drop},
    {"dopt", true, NvccAction::Drop},
    {"Ofast-compile", true, NvccAction::Drop},
    {"use-local-env", false, NvccAction::Drop},
    {"jump-table-density", true, NvccAction::Drop},
    {"split-compile-extended", true, NvccAction::Drop},
    // Dropped, no value.
    {"c", false, NvccAction::Drop},
    {"compile", false, NvccAction::Drop},
    {"forward-unknown-to-host-compiler", false, NvccAction::Drop},
    {"forward-unknown-to-host-linker", false, NvccAction::Drop},
    {"forward-unknown-opts", false, NvccAction::Drop},
    {"expt-relaxed-constexpr", false, NvccAction::Drop},
    {"expt-extended-lambda", false, NvccAction::Drop},
    {"extended-lambda", false, NvccAction::Drop},
    {"lineinfo", false, NvccAction::Drop},
    {"generate-line-info", false, NvccAction::Drop},
    {"G", false, NvccAction::Drop},
    {"device-debug", false, NvccAction::Drop},
    {"use_fast_math", false, NvccAction::Drop},
    {"use-fast-math", false, NvccAction::Drop},
    {"keep", false, NvccAction::Drop},
    {"save-temps", false, NvccAction::Drop},
    {"res-usage", false, NvccAction::Drop},
    {"resource-usage", false, NvccAction::Drop},
    {"cubin", false, NvccAction::Drop},
    {"ptx", false, NvccAction::Drop},
    {"fatbin", false, NvccAction::Drop},
    {"dlink", false, NvccAction::Drop},
    {"device-link", false, NvccAction::Drop},
    {"dlto", false, NvccAction::Drop},
    {"lto", false, NvccAction::Drop},
    {"dryrun", false, NvccAction::Drop},
    {"v", false, NvccAction::Drop},
    {"verbose", false, NvccAction::Drop},
    {"m64", false, NvccAction::Drop},
    {"m32", false, NvccAction::Drop},
    {"shared", false, NvccAction::Drop},
    {"lib", false, NvccAction::Drop},
    {"link", false, NvccAction::Drop},
    {"run", false, NvccAction::Drop},
    {"restrict", false, NvccAction::Drop},
    {"allow-unsupported-compiler", false, NvccAction::Drop},
    {"display-error-number", false, NvccAction::Drop},
    {"no-display-error-number", false, NvccAction::Drop},
    {"source-in-ptx", false, NvccAction::Drop},
    {"src-in-ptx", false, NvccAction::Drop},
    {"extra-device-vectorization", false, NvccAction::Drop},
    {"extensible-whole-program", false, NvccAction::Drop},
    {"ewp", false, NvccAction::Drop},
    {"no-host-device-initializer-list", false, NvccAction::Drop},
    {"no-host-device-move-forward", false, NvccAction::Drop},
    {"no-exceptions", false, NvccAction::Drop},
    {"noeh", false, NvccAction::Drop},
    {"Wno-deprecated-gpu-targets", false, NvccAction::Drop},
    {"Wdefault-stream-launch", false, NvccAction::Drop},
    {"Wext-lambda-captures-this", false, NvccAction::Drop},
    {"Wmissing-launch-bounds", false, NvccAction::Drop},
    {"Wreorder", false, NvccAction::Drop},
    {"M", false, NvccAction::Drop},
    {"MD", false, NvccAction::Drop},
    {"MMD", false, NvccAction::Drop},
    {"MM", false, NvccAction::Drop},
    {"MP", false, NvccAction::Drop},
    {"generate-dependencies", false, NvccAction::Drop},
    {"generate-nonsystem-dependencies", false, NvccAction::Drop},
    {"generate-dependencies-with-compile", false, NvccAction::Drop},
    {"generate-nonsystem-dependencies-with-compile", false, NvccAction::Drop},
    {"E", false, NvccAction::Drop},
    {"preprocess", false, NvccAction::Drop},
    {"cuda", false, NvccAction::Drop},
    {"fdevice-syntax-only", false, NvccAction::Drop},
    {"qpp-config", true, NvccAction::Drop},
    {"host-linker-script", true, NvccAction::Drop},
    {"pic", false, NvccAction::Drop},
    {"fdevice-time-trace", true, NvccAction::Drop},
};

const NvccOption *findNvccOption(llvm::StringRef Name) {
  for (const NvccOption &O : NvccOptions)
    if (O.Name == Name)
      return &O;
  return nullptr;
}

/// Flags of clang/gcc drivers that select what to produce rather than how to
/// parse, or that take a value; removed or skipped together with the value.
bool isCompileModeFlag(llvm::StringRef Flag, bool &TakesValue) {
  TakesValue = llvm::StringSwitch<bool>(Flag)
                   .Cases({"-o", "-MF", "-MT", "-MQ", "--offload-arch",
                           "--cuda-gpu-arch", "-Xclang"},
                          true)
                   .Default(false);
  if (TakesValue)
    return Flag != "-Xclang";
  return llvm::StringSwitch<bool>(Flag)
      .Cases({"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MP"}, true)
      .Cases({"--cuda-device-only", "--cuda-host-only", "-fsyntax-only"}, true)
      .Default(false);
}

std::string normalizeArchImpl(llvm::StringRef A) {
  A = A.trim().trim("\"'");
  if (A.consume_front("compute_") || A.consume_front("sm_") ||
      A.consume_front("lto_")) {
  }
  if (A.empty() || !llvm::isDigit(A.front()))
    return "";
  return ("sm_" + A).str();
}

void addArch(TranslatedFlags &Out, llvm::StringRef A) {
  std::string N = normalizeArchImpl(A);
  if (!N.empty() && !llvm::is_contained(Out.Archs, N))
    Out.Archs.push_back(N);
}

/// "arch=compute_90,code=[compute_90,sm_90]" or "arch=compute_80,code=sm_80".
void parseGencode(TranslatedFlags &Out, llvm::StringRef Value) {
  Value = Value.trim().trim("\"'");
  std::string ArchPart, CodePart;
  // Split at top-level commas (a bracketed list may contain commas).
  llvm::SmallVector<std::string, 4> Items;
  std::string Cur;
  int Depth = 0;
  for (char C : Value) {
    if (C == '[')
      ++Depth;
    if (C == ']')
      --Depth;
    if (C == ',' && Depth == 0) {
      Items.push_back(Cur);
      Cur.clear();
      continue;
    }
    Cur.push_back(C);
  }
  Items.push_back(Cur);
  bool SawCode = false, AddedReal = false;
  for (llvm::StringRef Item : Items) {
    auto [Key, Val] = Item.split('=');
    Key = Key.trim();
    if (Key == "arch") {
      ArchPart = Val.str();
    } else if (Key == "code") {
      SawCode = true;
      Val = Val.trim().trim("[]\"'");
      llvm::SmallVector<llvm::StringRef, 4> Codes;
      Val.split(Codes, ',', -1, false);
      for (llvm::StringRef C : Codes)
        if (C.trim().starts_with("sm_")) {
          addArch(Out, C);
          AddedReal = true;
        }
    }
  }
  // code=compute_XX only (PTX): the arch itself is what gets compiled.
  if (!SawCode || !AddedReal)
    addArch(Out, ArchPart);
}

class Translator {
public:
  Translator(llvm::StringRef Directory) : Directory(Directory) {}

  llvm::Error run(llvm::ArrayRef<std::string> Args, TranslatedFlags &Out,
                  int Depth);

private:
  llvm::Error expandOptionsFile(llvm::StringRef File, TranslatedFlags &Out,
                                int Depth);
  void addHostFlags(llvm::StringRef Value, TranslatedFlags &Out);

  std::string Directory;
};

void Translator::addHostFlags(llvm::StringRef Value, TranslatedFlags &Out) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Value.trim("\"'").split(Parts, ',', -1, false);
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 8> Words;
  for (llvm::StringRef Part : Parts)
    llvm::cl::TokenizeGNUCommandLine(Part, Saver, Words);
  for (llvm::StringRef P : Words) {
    P = P.trim();
    // MSVC-style host flags (/W4, /MD) mean nothing to a device-side parse.
    if (P.empty() || P.starts_with("/"))
      continue;
    bool TakesValue = false;
    if (isCompileModeFlag(P, TakesValue))
      continue;
    Out.Flags.push_back(P.str());
  }
}

llvm::Error Translator::expandOptionsFile(llvm::StringRef File,
                                          TranslatedFlags &Out, int Depth) {
  llvm::SmallString<256> Path(File.trim("\"'"));
  if (!llvm::sys::path::is_absolute(Path) && !Directory.empty())
    llvm::sys::path::make_absolute(Directory, Path);
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   "cannot read nvcc options file '%s': %s",
                                   Path.c_str(),
                                   Buffer.getError().message().c_str());
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 32> Tokens;
  llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
  std::vector<std::string> Args(Tokens.begin(), Tokens.end());
  return run(Args, Out, Depth + 1);
}

llvm::Error Translator::run(llvm::ArrayRef<std::string> Args,
                            TranslatedFlags &Out, int Depth) {
  if (Depth > 8)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "nvcc options files nested too deeply");
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.empty())
      continue;
    if (!Arg.starts_with("-") || Arg == "-") {
      Out.Inputs.push_back(Arg.str());
      continue;
    }
    if (Arg == "--") { // the rest are input files
      for (++I; I < Args.size(); ++I)
        Out.Inputs.push_back(Args[I]);
      break;
    }
    // nvcc: "-name", "--name", "-name=value", "--name=value", "-name value".
    llvm::StringRef Body = Arg.drop_while([](char C) { return C == '-'; });
    auto [Name, Value] = Body.split('=');
    bool HasInlineValue = Body.contains('=');
    const NvccOption *Opt = Out.IsNvcc ? findNvccOption(Name) : nullptr;
    if (!Opt) {
      // Not an nvcc-only flag: clang/gcc spelling. Strip compile-mode flags.
      bool TakesValue = false;
      if (isCompileModeFlag(Arg, TakesValue)) {
        if (Arg == "-Xclang") { // keep -Xclang pairs intact
          Out.Flags.push_back(Arg.str());
          if (I + 1 < Args.size())
            Out.Flags.push_back(Args[++I]);
          continue;
        }
        if (TakesValue && (Arg == "--offload-arch" || Arg == "--cuda-gpu-arch") &&
            I + 1 < Args.size())
          addArch(Out, Args[I + 1]);
        if (TakesValue)
          ++I;
        continue;
      }
      if (Arg.starts_with("--offload-arch=") ||
          Arg.starts_with("--cuda-gpu-arch=")) {
        llvm::SmallVector<llvm::StringRef, 4> List;
        Arg.split('=').second.split(List, ',');
        for (llvm::StringRef A : List)
          addArch(Out, A);
        continue;
      }
      if (Arg.starts_with("-MF") || Arg.starts_with("-MT") ||
          Arg.starts_with("-MQ"))
        continue;
      Out.Flags.push_back(Arg.str());
      // Separate-value flags shared by nvcc and clang.
      if (llvm::is_contained({"-I", "-D", "-U", "-isystem", "-include",
                              "-iquote", "-idirafter", "-imacros", "-x",
                              "-Xclang", "-std"},
                             Arg) &&
          I + 1 < Args.size())
        Out.Flags.push_back(Args[++I]);
      continue;
    }
    std::string Val;
    if (Opt->TakesValue) {
      if (HasInlineValue) {
        Val = Value.str();
      } else if (I + 1 < Args.size()) {
        Val = Args[++I];
      } else {
        return llvm::createStringError(std::errc::invalid_argument,
                                       "nvcc flag '%s' is missing its value",
                                       Arg.str().c_str());
      }
    }
    switch (Opt->Action) {
    case NvccAction::Drop:
      break;
    case NvccAction::Arch: {
      llvm::SmallVector<llvm::StringRef, 4> List;
      llvm::StringRef(Val).split(List, ',', -1, false);
      for (llvm::StringRef A : List)
        addArch(Out, A);
      break;
    }
    case NvccAction::Code: {
      llvm::SmallVector<llvm::StringRef, 4> List;
      llvm::StringRef(Val).split(List, ',', -1, false);
      for (llvm::StringRef A : List)
        if (A.trim().starts_with("sm_"))
          addArch(Out, A);
      break;
    }
    case NvccAction::Gencode:
      parseGencode(Out, Val);
      break;
    case NvccAction::HostFlags:
      addHostFlags(Val, Out);
      break;
    case NvccAction::Rdc:
      if (llvm::StringRef(Val).trim().equals_insensitive("true"))
        Out.Flags.push_back("-fgpu-rdc");
      break;
    case NvccAction::RdcOn:
      Out.Flags.push_back("-fgpu-rdc");
      break;
    case NvccAction::OptionsFile:
      if (llvm::Error E = expandOptionsFile(Val, Out, Depth))
        return E;
      break;
    case NvccAction::Language:
      // nvcc's "cu" is clang's "cuda"; the parse is CUDA whatever was said.
      break;
    case NvccAction::Std:
      Out.Flags.push_back("-std=" + Val);
      break;
    case NvccAction::Rename:
      Out.Flags.push_back(Opt->ClangSpelling.str());
      if (Opt->TakesValue)
        Out.Flags.push_back(Val);
      break;
    }
  }
  return llvm::Error::success();
}

/// Drops what clang's driver does not know (it would otherwise be a parse
/// error), keeping the values of the flags it does know.
void dropUnknownToClang(TranslatedFlags &Out) {
  const llvm::opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Out.Flags.size(); ++I) {
    const std::string &F = Out.Flags[I];
    // A token that is not a flag here is the value of a flag dropped before
    // it; as an input it would add a second file to the parse.
    if (F.empty() || F[0] != '-') {
      Out.Unknown.push_back(F);
      continue;
    }
    std::vector<const char *> One = {F.c_str()};
    if (I + 1 < Out.Flags.size())
      One.push_back(Out.Flags[I + 1].c_str());
    unsigned MissingIndex = 0, MissingCount = 0;
    llvm::opt::InputArgList Parsed = Table.ParseArgs(
        One, MissingIndex, MissingCount,
        llvm::opt::Visibility(clang::options::ClangOption));
    const llvm::opt::Arg *First = Parsed.size() ? *Parsed.begin() : nullptr;
    if (!First || First->getOption().getKind() ==
                      llvm::opt::Option::UnknownClass) {
      Out.Unknown.push_back(F);
      continue;
    }
    Kept.push_back(F);
    // A separate-value flag consumed the next token: keep it with the flag.
    if (One.size() == 2 && First->getIndex() == 0 &&
        First->getNumValues() > 0 &&
        llvm::StringRef(First->getValue(0)).data() == One[1]) {
      Kept.push_back(Out.Flags[++I]);
    }
  }
  Out.Flags = std::move(Kept);
}

} // namespace

bool isNvcc(llvm::StringRef Compiler) {
  llvm::StringRef Base = llvm::sys::path::filename(Compiler);
  Base.consume_back(".exe");
  return Base == "nvcc";
}

std::string normalizeArch(llvm::StringRef Arch) {
  return normalizeArchImpl(Arch);
}

llvm::Expected<TranslatedFlags>
translateCompilerFlags(llvm::ArrayRef<std::string> CommandLine,
                       llvm::StringRef Directory) {
  TranslatedFlags Out;
  if (CommandLine.empty())
    return Out;
  Out.IsNvcc = isNvcc(CommandLine.front());
  Translator T(Directory);
  if (llvm::Error E = T.run(CommandLine.drop_front(), Out, 0))
    return E;
  // "-x cu" / "-x c++" came through as flags for clang commands; the parse
  // language is set by the caller.
  std::vector<std::string> NoLang;
  for (size_t I = 0; I < Out.Flags.size(); ++I) {
    if (Out.Flags[I] == "-x" && I + 1 < Out.Flags.size()) {
      ++I;
      continue;
    }
    if (llvm::StringRef(Out.Flags[I]).starts_with("-x") &&
        Out.Flags[I].size() > 2)
      continue;
    NoLang.push_back(Out.Flags[I]);
  }
  Out.Flags = std::move(NoLang);
  dropUnknownToClang(Out);
  return Out;
}

} // namespace cal

//===- ReviewFormats.cpp --------------------------------------------------===//

#include "output/ReviewFormats.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

namespace cal {

using nlohmann::json;

namespace {

std::string absolutePath(const std::string &P) {
  llvm::SmallString<256> S(P);
  llvm::sys::fs::make_absolute(S);
  return S.str().str();
}

/// GitHub's workflow-command escaping: properties and messages.
std::string ghEscape(const std::string &S, bool Property) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    case ':':
      Out += Property ? "%3A" : ":";
      break;
    case ',':
      Out += Property ? "%2C" : ",";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

} // namespace

std::string githubAnnotations(const json &Findings) {
  std::string Out;
  for (const json &F : Findings) {
    std::string Sev = F["severity"];
    std::string Cmd = Sev == "error" ? "error" : Sev == "warning" ? "warning" : "notice";
    std::string Msg = F["message"].get<std::string>();
    for (const json &N : F["notes"])
      Msg += "\n" + N.get<std::string>();
    Out += "::" + Cmd + " file=" + ghEscape(F["file"], true) +
           ",line=" + std::to_string(F["line"].get<int>()) +
           ",col=" + std::to_string(F["column"].get<int>()) +
           ",endLine=" + std::to_string(F["end_line"].get<int>()) +
           ",endColumn=" + std::to_string(F["end_column"].get<int>()) +
           ",title=" + ghEscape(F["rule"], true) + "::" + ghEscape(Msg, false) +
           "\n";
  }
  return Out;
}

std::string reviewdogJsonLines(const json &Findings) {
  std::string Out;
  for (const json &F : Findings) {
    std::string Sev = F["severity"];
    json D;
    D["message"] = F["message"];
    D["location"]["path"] = F["file"];
    D["location"]["range"]["start"]["line"] = F["line"];
    D["location"]["range"]["start"]["column"] = F["column"];
    D["location"]["range"]["end"]["line"] = F["end_line"];
    D["location"]["range"]["end"]["column"] = F["end_column"].get<int>() + 1;
    D["severity"] = Sev == "error" ? "ERROR" : Sev == "warning" ? "WARNING" : "INFO";
    D["source"] = {{"name", "cuda-access-lint"}};
    D["code"] = {{"value", F["rule"]},
                 {"url", "docs/rules/" + F["rule"].get<std::string>() + ".md"}};
    json Suggestions = json::array();
    for (const json &X : F["fixes"]) {
      if (X["applicability"] != "machine-applicable")
        continue;
      for (const json &R : X["replacements"]) {
        json S;
        S["range"]["start"]["line"] = R["line"];
        S["range"]["start"]["column"] = R["column"];
        S["range"]["end"]["line"] = R["line"];
        S["range"]["end"]["column"] =
            R["column"].get<int>() + R["length"].get<int>();
        S["text"] = R["text"];
        Suggestions.push_back(S);
      }
    }
    if (!Suggestions.empty())
      D["suggestions"] = Suggestions;
    Out += D.dump() + "\n";
  }
  return Out;
}

std::string exportFixesYaml(const json &Findings,
                            const std::string &MainSourceFile) {
  clang::tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile;
  for (const json &F : Findings) {
    std::string Sev = F["severity"];
    clang::tooling::Diagnostic D(
        F["rule"].get<std::string>(),
        Sev == "error" ? clang::tooling::Diagnostic::Error
        : Sev == "warning" ? clang::tooling::Diagnostic::Warning
                           : clang::tooling::Diagnostic::Remark,
        "");
    D.Message.Message = F["message"];
    D.Message.FilePath = absolutePath(F["file"]);
    D.Message.FileOffset = F.value("offset", 0u);
    for (const json &X : F["fixes"]) {
      if (X["applicability"] != "machine-applicable")
        continue;
      for (const json &R : X["replacements"]) {
        std::string Path = absolutePath(R["file"]);
        clang::tooling::Replacement Rep(Path, R["offset"].get<unsigned>(),
                                        R["length"].get<unsigned>(),
                                        R["text"].get<std::string>());
        llvm::consumeError(D.Message.Fix[Path].add(Rep));
      }
    }
    for (const json &N : F["notes"])
      D.Notes.push_back(clang::tooling::DiagnosticMessage(N.get<std::string>()));
    TU.Diagnostics.push_back(D);
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output YAML(OS);
  YAML << TU;
  OS.flush();
  return Out;
}

} // namespace cal

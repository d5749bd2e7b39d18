//===- Baseline.cpp -------------------------------------------------------===//

#include "report/Baseline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <nlohmann/json.hpp>

namespace cal {

using nlohmann::json;

namespace {

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::SmallString<256> R(Root);
  if (R.empty())
    llvm::sys::fs::current_path(R);
  llvm::StringRef Rest = Path;
  llvm::StringRef Dir = R.str();
  Dir.consume_back("/");
  if (Rest.consume_front(Dir) && Rest.consume_front("/"))
    return Rest.str();
  return Path.str();
}

std::string withoutSpace(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    if (!llvm::isSpace(C))
      Out += C;
  return Out;
}

} // namespace

void assignFingerprints(std::vector<FindingRecord> &Records,
                        const std::string &SourceRoot) {
  std::map<std::string, unsigned> Seen;
  for (FindingRecord &R : Records) {
    std::string Base = R.Rule + "\n" + relativeTo(R.Begin.Path, SourceRoot) +
                       "\n" + R.KernelBase + "\n" + R.Array + "\n" +
                       withoutSpace(R.AccessText);
    unsigned Ordinal = Seen[Base]++;
    uint64_t H = llvm::xxh3_64bits(Base + "\n" + std::to_string(Ordinal));
    R.Fingerprint = llvm::utohexstr(H, /*LowerCase=*/true, 16);
  }
}

std::string baselineJson(const std::vector<FindingRecord> &Records) {
  json Findings = json::array();
  for (const FindingRecord &R : Records)
    Findings.push_back({{"fingerprint", R.Fingerprint},
                        {"rule", R.Rule},
                        {"file", R.Begin.File},
                        {"line", R.Begin.Line},
                        {"kernel", R.KernelBase},
                        {"array", R.Array},
                        {"message", R.Message}});
  json Doc = {{"version", 1},
              {"tool", "cuda-access-lint"},
              {"findings", Findings}};
  return Doc.dump(2) + "\n";
}

llvm::Expected<Baseline> readBaseline(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot read '%s': %s", Path.str().c_str(),
                                   Buf.getError().message().c_str());
  json Doc = json::parse((*Buf)->getBuffer().begin(),
                         (*Buf)->getBuffer().end(), nullptr,
                         /*allow_exceptions=*/false);
  if (Doc.is_discarded() || !Doc.is_object() || Doc.value("version", 0) != 1 ||
      !Doc.contains("findings") || !Doc["findings"].is_array())
    return llvm::createStringError(
        std::errc::invalid_argument,
        "'%s' is not a cuda-access-lint baseline (--write-baseline writes one)",
        Path.str().c_str());
  Baseline B;
  for (const json &F : Doc["findings"]) {
    if (!F.is_object() || !F.contains("fingerprint") ||
        !F["fingerprint"].is_string())
      return llvm::createStringError(std::errc::invalid_argument,
                                     "'%s': a finding without a fingerprint",
                                     Path.str().c_str());
    ++B[F["fingerprint"].get<std::string>()];
  }
  return B;
}

unsigned applyBaseline(std::vector<FindingRecord> &Records, Baseline B) {
  size_t Before = Records.size();
  llvm::erase_if(Records, [&](const FindingRecord &R) {
    auto It = B.find(R.Fingerprint);
    if (It == B.end() || It->second == 0)
      return false;
    --It->second;
    return true;
  });
  return Before - Records.size();
}

bool LineFilter::accepts(const SourcePlace &P) const {
  for (const File &F : Files) {
    llvm::StringRef Path = P.Path, Name = F.Name;
    Name.consume_front("./");
    if (!(Path == Name ||
          (Path.ends_with(Name) &&
           Path[Path.size() - Name.size() - 1] == '/') ||
          P.File == Name))
      continue;
    if (F.Lines.empty())
      return true;
    for (auto [First, Last] : F.Lines)
      if (P.Line >= First && P.Line <= Last)
        return true;
  }
  return false;
}

std::vector<std::string> LineFilter::names() const {
  std::vector<std::string> Out;
  for (const File &F : Files)
    Out.push_back(F.Name);
  return Out;
}

llvm::Expected<LineFilter> parseLineFilter(llvm::StringRef Text) {
  auto Bad = [](const std::string &Why) {
    return llvm::createStringError(std::errc::invalid_argument, "%s",
                                   Why.c_str());
  };
  json Doc = json::parse(Text.begin(), Text.end(), nullptr, false);
  if (Doc.is_discarded() || !Doc.is_array())
    return Bad("not a JSON array of {\"name\": ..., \"lines\": [[a, b], ...]}");
  LineFilter F;
  for (const json &E : Doc) {
    if (!E.is_object() || !E.contains("name") || !E["name"].is_string())
      return Bad("an entry without a \"name\" string");
    LineFilter::File File{E["name"].get<std::string>(), {}};
    if (E.contains("lines")) {
      if (!E["lines"].is_array())
        return Bad("\"lines\" of '" + File.Name + "' is not an array");
      for (const json &R : E["lines"]) {
        if (!R.is_array() || R.size() != 2 || !R[0].is_number_unsigned() ||
            !R[1].is_number_unsigned())
          return Bad("a range of '" + File.Name +
                     "' is not [first, last] line numbers");
        File.Lines.push_back({R[0].get<unsigned>(), R[1].get<unsigned>()});
      }
      if (File.Lines.empty())
        File.Lines.push_back({0, 0}); // "lines": []: none
    }
    F.Files.push_back(File);
  }
  return F;
}

llvm::Expected<LineFilter> parseUnifiedDiff(llvm::StringRef Diff) {
  LineFilter F;
  LineFilter::File *Current = nullptr;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    L = L.rtrim("\r");
    if (L.consume_front("+++ ")) {
      L = L.split('\t').first.trim();
      Current = nullptr;
      if (L == "/dev/null")
        continue;
      // git's a/ b/ prefixes.
      L.consume_front("b/");
      F.Files.push_back({L.str(), {}});
      Current = &F.Files.back();
      continue;
    }
    if (!Current || !L.starts_with("@@ "))
      continue;
    // @@ -a[,b] +c[,d] @@
    size_t Plus = L.find(" +");
    if (Plus == llvm::StringRef::npos)
      return llvm::createStringError(std::errc::invalid_argument,
                                     "malformed hunk header '%s'",
                                     L.str().c_str());
    llvm::StringRef New = L.drop_front(Plus + 2).split(' ').first;
    auto [StartText, CountText] = New.split(',');
    unsigned Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      return llvm::createStringError(std::errc::invalid_argument,
                                     "malformed hunk header '%s'",
                                     L.str().c_str());
    if (Count > 0)
      Current->Lines.push_back({Start, Start + Count - 1});
  }
  // A file with no added lines has none (not all).
  for (LineFilter::File &File : F.Files)
    if (File.Lines.empty())
      File.Lines.push_back({0, 0});
  return F;
}

} // namespace cal

//===- HostAssume.cpp -----------------------------------------------------===//
//
// --assume NAME=VALUE: the runtime values the user gives
// (analyzer/HostLaunch.h).
//
//===----------------------------------------------------------------------===//

#include "analyzer/HostLaunch.h"

#include <cctype>

namespace cal {

bool parseAssumedValues(llvm::StringRef Text, const std::string &Source,
                        std::vector<AssumedValue> &Out, std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Text.split(Items, ',');
  std::string Kernel;
  size_t Before = Out.size();
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    if (Item.empty()) {
      Error = "empty item in '" + Text.str() + "' (expected NAME=VALUE)";
      break;
    }
    auto [Lhs, Value] = Item.split('=');
    if (Value.data() == nullptr || !Item.contains('=')) {
      Error = "'" + Item.str() + "' is not NAME=VALUE";
      break;
    }
    Lhs = Lhs.trim();
    Value = Value.trim();
    if (Lhs.contains(':')) {
      auto [K, N] = Lhs.rsplit(':');
      Kernel = K.trim().str();
      Lhs = N.trim();
      if (Kernel.empty()) {
        Error = "'" + Item.str() + "': empty kernel name before ':'";
        break;
      }
    }
    auto IsIdent = [](llvm::StringRef N) {
      if (N.empty() || !(std::isalpha((unsigned char)N[0]) || N[0] == '_'))
        return false;
      for (char C : N)
        if (!(std::isalnum((unsigned char)C) || C == '_'))
          return false;
      return true;
    };
    if (!IsIdent(Lhs)) {
      Error = "'" + Lhs.str() + "' is not a variable name (in '" + Item.str() +
              "')";
      break;
    }
    int64_t V;
    if (Value.getAsInteger(0, V)) {
      Error =
          "'" + Value.str() + "' is not an integer (in '" + Item.str() + "')";
      break;
    }
    Out.push_back({Kernel, Lhs.str(), V, Source});
  }
  if (!Error.empty()) {
    Out.resize(Before);
    return false;
  }
  return true;
}

} // namespace cal

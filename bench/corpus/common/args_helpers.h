// Command-line flags for the benchmark programs (host only).
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace bench {

class Args {
public:
  Args(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
      std::string_view a(argv[i]);
      if (a.substr(0, 2) != "--")
        continue;
      a.remove_prefix(2);
      auto eq = a.find('=');
      if (eq == std::string_view::npos)
        values_[std::string(a)] = "1";
      else
        values_[std::string(a.substr(0, eq))] = std::string(a.substr(eq + 1));
    }
  }
  std::optional<std::string> get(const std::string &key) const {
    auto it = values_.find(key);
    if (it == values_.end())
      return std::nullopt;
    return it->second;
  }
  int getInt(const std::string &key, int fallback) const {
    auto v = get(key);
    return v ? std::atoi(v->c_str()) : fallback;
  }

private:
  std::unordered_map<std::string, std::string> values_;
};

inline std::vector<float> randomMatrix(int rows, int cols, unsigned seed) {
  std::vector<float> m(size_t(rows) * cols);
  for (auto &x : m) {
    seed = seed * 1664525u + 1013904223u;
    x = float(seed >> 8) / float(1u << 24);
  }
  return m;
}

} // namespace bench

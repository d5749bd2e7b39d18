// A stopwatch and a results table for the benchmark programs (host only).
#pragma once

#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace bench {

class StopWatch {
public:
  void start() { begin_ = Clock::now(); running_ = true; }
  void stop() {
    if (!running_)
      return;
    laps_.push_back(std::chrono::duration<double, std::milli>(Clock::now() -
                                                               begin_)
                        .count());
    running_ = false;
  }
  double average() const {
    return laps_.empty() ? 0.0
                         : std::accumulate(laps_.begin(), laps_.end(), 0.0) /
                               laps_.size();
  }
  double stddev() const {
    double m = average(), s = 0;
    for (double l : laps_)
      s += (l - m) * (l - m);
    return laps_.size() > 1 ? std::sqrt(s / (laps_.size() - 1)) : 0.0;
  }

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point begin_;
  bool running_ = false;
  std::vector<double> laps_;
};

class Results {
public:
  void add(const std::string &name, double ms, double gbps) {
    rows_[name] = {ms, gbps};
  }
  void write(const std::string &path) const {
    std::ofstream out(path);
    out << std::fixed << std::setprecision(3);
    for (const auto &[name, row] : rows_)
      out << std::setw(24) << name << " " << row.first << " ms "
          << row.second << " GB/s\n";
  }

private:
  std::map<std::string, std::pair<double, double>> rows_;
};

} // namespace bench

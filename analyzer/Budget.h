//===- Budget.h - What one kernel configuration's analysis may spend ------===//
//
// The analysis of a kernel is bounded: a walk that runs nested loops
// iteration by iteration, or an index whose polynomial keeps growing, must
// not hold up the rest of the file. A BudgetMeter is started for each
// kernel configuration; the interpreter ticks it as it evaluates, and once
// the time or the memory is spent it stops evaluating (sticky), the kernel
// is reported as "analysis stopped: budget exceeded (...)" and its accesses
// as unknown, and the next kernel starts with a fresh meter.
//
// Memory is the growth of the process's heap in use while the kernel is
// analyzed (llvm::sys::Process::GetMallocUsage). With several files linted
// in parallel (-j), the other threads' allocations count too: the budget is
// a guard against runaway analyses, not an accounting.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ACCESS_LINT_ANALYZER_BUDGET_H
#define CUDA_ACCESS_LINT_ANALYZER_BUDGET_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cal {

/// The limits of one kernel configuration's analysis; 0 is no limit.
struct AnalysisBudget {
  double Seconds = 5.0;
  uint64_t MemoryMB = 512;
};

class BudgetMeter {
public:
  explicit BudgetMeter(const AnalysisBudget &B);

  /// Counts one step of evaluation; true once the budget is spent (and from
  /// then on). Cheap: the clock is read every few hundred steps, the heap
  /// less often.
  bool tick() {
    if (Spent)
      return true;
    if (++Steps % TimeEvery != 0)
      return false;
    return check();
  }
  bool spent() const { return Spent; }
  /// What was exceeded, for people: "time: 5 s" or "memory: 512 MB".
  const std::string &reason() const { return Reason; }

private:
  static constexpr uint64_t TimeEvery = 256;
  static constexpr uint64_t MemoryEvery = 16; ///< in clock reads
  bool check();

  AnalysisBudget Limits;
  std::chrono::steady_clock::time_point Start;
  size_t HeapAtStart = 0;
  uint64_t Steps = 0, Checks = 0;
  bool Spent = false;
  std::string Reason;
};

} // namespace cal

#endif

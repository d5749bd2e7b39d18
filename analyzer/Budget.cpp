//===- Budget.cpp ---------------------------------------------------------===//

#include "analyzer/Budget.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace cal {

BudgetMeter::BudgetMeter(const AnalysisBudget &B)
    : Limits(B), Start(std::chrono::steady_clock::now()) {
  if (Limits.MemoryMB > 0)
    HeapAtStart = llvm::sys::Process::GetMallocUsage();
}

bool BudgetMeter::check() {
  if (Limits.Seconds > 0) {
    double Elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    if (Elapsed > Limits.Seconds) {
      Spent = true;
      llvm::raw_string_ostream(Reason)
          << "time: " << llvm::format("%g", Limits.Seconds) << " s";
      return true;
    }
  }
  if (Limits.MemoryMB > 0 && ++Checks % MemoryEvery == 0) {
    size_t Now = llvm::sys::Process::GetMallocUsage();
    if (Now > HeapAtStart &&
        (Now - HeapAtStart) / (1024 * 1024) >= Limits.MemoryMB) {
      Spent = true;
      Reason = "memory: " + std::to_string(Limits.MemoryMB) + " MB";
      return true;
    }
  }
  return false;
}

} // namespace cal

//===- LValue.h - The interpreter's lvalues, and a guard on its accesses --===//
//
// Private to analyzer/: what interp/InterpImpl.h's engine evaluates an
// lvalue to, and the guard that takes back the accesses an expression
// evaluated for its value only recorded.
//
//===----------------------------------------------------------------------===//

#ifndef CAL_ANALYZER_INTERP_LVALUE_H
#define CAL_ANALYZER_INTERP_LVALUE_H

#include "analyzer/Interpreter.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace cal {
namespace interp {

/// Takes back, at the end of its scope, the accesses recorded in it: an
/// expression evaluated for its value only (a loop's bound, a condition
/// evaluated already), whose accesses are recorded where it belongs.
class DiscardAccesses {
public:
  explicit DiscardAccesses(std::vector<RawAccess> &Out)
      : Out(Out), Mark(Out.size()) {}
  DiscardAccesses(const DiscardAccesses &) = delete;
  DiscardAccesses &operator=(const DiscardAccesses &) = delete;
  ~DiscardAccesses() { Out.resize(Mark); }

private:
  std::vector<RawAccess> &Out;
  size_t Mark;
};

/// An lvalue: a local variable (with a field path into it), a place in
/// memory, or unknown.
struct LValue {
  enum Kind { Unknown, Var, Memory } K = Unknown;
  const clang::VarDecl *VD = nullptr;
  llvm::SmallVector<const clang::FieldDecl *, 2> Path;
  const MemRegion *Region = nullptr;
  std::optional<LaneVec> Offset; // Memory: unset when the address is unknown
  std::string Why;
  clang::QualType Type;
  AssumptionList Assumed;

  void assuming(const AbsValue &V) { addAssumptions(Assumed, V.Assumed); }

  static LValue unknown(std::string Why) {
    LValue L;
    L.Why = std::move(Why);
    return L;
  }
};

} // namespace interp
} // namespace cal

#endif // CAL_ANALYZER_INTERP_LVALUE_H

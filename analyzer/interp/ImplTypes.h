//===- ImplTypes.h - The interpreter engine's own records ----------------===//
//
// Private to analyzer/: the records interp/InterpImpl.h's engine keeps in its
// state: a call frame being inlined and the bindings that enter it, a display
// identity, a snapshot of the state (to try something and take it back), and a
// statement clang dropped.
//
//===----------------------------------------------------------------------===//

#ifndef CAL_ANALYZER_INTERP_IMPLTYPES_H
#define CAL_ANALYZER_INTERP_IMPLTYPES_H

#include "analyzer/Interpreter.h"
#include "analyzer/interp/LValue.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cal {
namespace interp {

/// A function being inlined: the values (or, for a reference, the lvalues)
/// its return statements gave.
struct Frame {
  const clang::FunctionDecl *FD;
  bool ReturnsRef;
  std::vector<AbsValue> Returns;
  std::vector<LValue> RefReturns;
  /// A member function's object (`this`): the caller's lvalue of it, or
  /// unset where not known (a free function, an unknown pointer).
  std::optional<LValue> This;
};

/// A display identity: T*Q + R == X, with Q and R the symbols that name
/// `x / t` and `x % t` in the readable forms.
struct DivModIdentity {
  SymbolId Q, R;
  Poly T, X;
};

/// What the reference members of objects held in locals are bound to (a
/// view's `const Shape &shape;`, set by its constructor), by the local and
/// the member's path in it.
using RefMemberMap =
    std::map<std::pair<const clang::VarDecl *,
                       std::vector<const clang::FieldDecl *>>,
             LValue>;
/// The key of a reference member: its lvalue in the local (fieldOf()).
inline RefMemberMap::key_type refMemberKey(const LValue &Member) {
  return {Member.VD, {Member.Path.begin(), Member.Path.end()}};
}

/// The interpreter's state, to try something and take it back.
/// (Accesses are only ever appended: the snapshot keeps their count.)
struct Snapshot {
  llvm::DenseMap<const clang::VarDecl *, AbsValue> Env;
  llvm::DenseMap<const clang::VarDecl *, LValue> RefsSaved;
  RefMemberMap RefMembersSaved;
  std::vector<Frame> FramesSaved;
  size_t OutSize;
  bool NeedConcrete;
  LaneMask Active;
  unsigned UndecidedConds;
  unsigned InexactInLoop;
  AssumptionList CondNotes;
};

/// A call's arguments evaluated for the callee's parameters: values for
/// parameters by value (default arguments included), aliases for
/// references; and the object a member function runs on (its `this`), when
/// known.
struct CallBindings {
  std::vector<std::pair<const clang::ParmVarDecl *, AbsValue>> Values;
  std::vector<std::pair<const clang::ParmVarDecl *, LValue>> Aliases;
  std::optional<LValue> Object;
};

/// A statement clang dropped from a compound statement (it did not compile).
struct DroppedStmt {
  unsigned Before; ///< the index of the statement that follows it
  unsigned Line;
  /// Names the dropped text may assign (interp/CompileErrors.cpp).
  std::vector<std::string> Written;
};

} // namespace interp
} // namespace cal

#endif // CAL_ANALYZER_INTERP_IMPLTYPES_H

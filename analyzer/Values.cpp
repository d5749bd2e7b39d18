//===- Values.cpp ---------------------------------------------------------===//

#include "analyzer/Values.h"

namespace cal {

LaneVec LaneVec::perLane(std::array<Poly, WarpSize> Lanes) {
  LaneVec R;
  bool Same = true;
  for (unsigned L = 1; L < WarpSize && Same; ++L)
    Same = Lanes[L] == Lanes[0];
  if (Same) {
    R.V[0] = std::move(Lanes[0]);
    return R;
  }
  R.V.assign(std::make_move_iterator(Lanes.begin()),
             std::make_move_iterator(Lanes.end()));
  return R;
}

bool LaneVec::operator==(const LaneVec &O) const {
  if (isUniform() && O.isUniform())
    return uniform() == O.uniform();
  for (unsigned L = 0; L < WarpSize; ++L)
    if (lane(L) != O.lane(L))
      return false;
  return true;
}

const char *spaceName(MemSpace S) {
  switch (S) {
  case MemSpace::Global:
    return "global";
  case MemSpace::Shared:
    return "shared";
  case MemSpace::Constant:
    return "constant";
  case MemSpace::Local:
    return "local";
  case MemSpace::Unknown:
    return "generic";
  }
  return "generic";
}

bool AbsValue::sameAs(const AbsValue &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Unknown:
    return true;
  case Int:
    return Val == O.Val;
  case Pointer:
    return Region == O.Region && Val == O.Val && Pointee == O.Pointee;
  case Struct:
    if (Group || O.Group)
      return Group && O.Group && *Group == *O.Group;
    if (!Fields || !O.Fields)
      return Fields == O.Fields;
    if (Fields->size() != O.Fields->size())
      return false;
    for (const auto &[F, V] : *Fields) {
      auto It = O.Fields->find(F);
      if (It == O.Fields->end() || !V.sameAs(It->second))
        return false;
    }
    return true;
  }
  return false;
}

bool GroupValue::operator==(const GroupValue &O) const {
  if (K != O.K || TileSize != O.TileSize || Lanes != O.Lanes || Why != O.Why ||
      MetaWhy != O.MetaWhy || !Parent != !O.Parent)
    return false;
  return !Parent || *Parent == *O.Parent;
}

std::string SymbolTable::str(const Poly &P, int64_t FactorOut) const {
  return P.str([&](SymbolId S) { return get(S).Name; },
               [&](SymbolId S) { return get(S).Rank; }, FactorOut);
}

} // namespace cal

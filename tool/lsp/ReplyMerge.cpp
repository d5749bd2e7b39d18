//===- ReplyMerge.cpp -----------------------------------------------------===//

#include "tool/lsp/ReplyMerge.h"

#include "llvm/ADT/STLExtras.h"

#include <string>

namespace cal::lsp {

namespace json = llvm::json;

void addOurCapabilities(json::Object &InitializeResult) {
  json::Object *Caps = InitializeResult.getObject("capabilities");
  if (!Caps) {
    InitializeResult["capabilities"] = json::Object{};
    Caps = InitializeResult.getObject("capabilities");
  }
  (*Caps)["hoverProvider"] = true;
  if (!Caps->get("inlayHintProvider"))
    (*Caps)["inlayHintProvider"] = true;
  json::Array Kinds{"quickfix", "refactor.rewrite"};
  if (const json::Object *CA = Caps->getObject("codeActionProvider"))
    if (const json::Array *Theirs = CA->getArray("codeActionKinds"))
      for (const json::Value &K : *Theirs)
        if (!llvm::is_contained(Kinds, K))
          Kinds.push_back(K);
  if (Caps->getBoolean("codeActionProvider") != std::optional<bool>(true))
    (*Caps)["codeActionProvider"] =
        json::Object{{"codeActionKinds", std::move(Kinds)}};
}

json::Value mergedHover(const json::Value &Theirs, const json::Value &Ours) {
  const json::Object *T = Theirs.getAsObject();
  const json::Object *C = T ? T->getObject("contents") : nullptr;
  llvm::StringRef TV;
  if (C)
    TV = C->getString("value").value_or("");
  const json::Object *O = Ours.getAsObject();
  const json::Object *OC = O ? O->getObject("contents") : nullptr;
  if (TV.empty() || !OC)
    return Ours;
  // Our access card after clangd's hover.
  json::Object H = *T;
  std::string Kind = C->getString("kind").value_or("markdown").str();
  std::string Value =
      TV.str() + "\n\n---\n\n" + OC->getString("value").value_or("").str();
  H["contents"] = json::Object{{"kind", Kind}, {"value", Value}};
  return json::Value(std::move(H));
}

json::Value mergedArrays(const json::Value &Theirs, const json::Value &Ours) {
  json::Array All;
  if (const json::Array *A = Theirs.getAsArray())
    All = *A;
  if (const json::Array *A = Ours.getAsArray())
    for (const json::Value &V : *A)
      All.push_back(V);
  return json::Value(std::move(All));
}

} // namespace cal::lsp

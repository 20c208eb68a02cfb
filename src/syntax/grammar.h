// The Python grammar's node kinds, tokens and fields as ids, resolved once and checked.
#pragma once
#include <array>
#include <cstdint>
#include <unordered_map>

#include <tree_sitter/api.h>

#include "pykern/result.h"

namespace pykern::syntax {

enum class Node : uint16_t {
#define NODE(id, name) id,
#define TOKEN(id, name)
#define FIELD(id, name)
#include "syntax/python_grammar.def"
#undef NODE
#undef TOKEN
#undef FIELD
  other,  // a node pykern does not name
};

enum class Token : uint16_t {
#define NODE(id, name)
#define TOKEN(id, name) id,
#define FIELD(id, name)
#include "syntax/python_grammar.def"
#undef NODE
#undef TOKEN
#undef FIELD
  other,
};

enum class Field : uint16_t {
#define NODE(id, name)
#define TOKEN(id, name)
#define FIELD(id, name) id,
#include "syntax/python_grammar.def"
#undef NODE
#undef TOKEN
#undef FIELD
  count,
};

class Grammar {
 public:
  // The process-wide grammar, checked on first use. Fails if the linked grammar lacks a name
  // pykern relies on or has an ABI version the library does not accept.
  static Result<const Grammar*> get();

  const TSLanguage* language() const { return language_; }
  Node node_kind(TSNode node) const;
  Token token_kind(TSNode node) const;
  TSFieldId field(Field field) const { return fields_[static_cast<size_t>(field)]; }

 private:
  Grammar() = default;
  static Result<Grammar> build();

  const TSLanguage* language_ = nullptr;
  std::unordered_map<TSSymbol, Node> nodes_;
  std::unordered_map<TSSymbol, Token> tokens_;
  std::array<TSFieldId, static_cast<size_t>(Field::count)> fields_{};
};

}  // namespace pykern::syntax

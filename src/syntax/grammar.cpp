#include "syntax/grammar.h"

#include <cstring>
#include <string>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace pykern::syntax {

Result<Grammar> Grammar::build() {
  Grammar grammar;
  grammar.language_ = tree_sitter_python();
  uint32_t abi = ts_language_version(grammar.language_);
  if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION)
    return Error::make(ErrorKind::internal,
                       "tree-sitter-python grammar ABI " + std::to_string(abi) +
                           " is not supported by the linked tree-sitter library");
  std::string missing;
  auto symbol = [&](const char* name, bool named) -> TSSymbol {
    // ERROR is a built-in symbol that name lookup does not find.
    if (named && std::strcmp(name, "ERROR") == 0) return static_cast<TSSymbol>(-1);  // ts_builtin_sym_error
    TSSymbol id = ts_language_symbol_for_name(grammar.language_, name,
                                              static_cast<uint32_t>(std::strlen(name)), named);
    if (id == 0) missing += std::string(" '") + name + "'";
    return id;
  };
#define NODE(id, name) grammar.nodes_[symbol(name, true)] = Node::id;
#define TOKEN(id, name) grammar.tokens_[symbol(name, false)] = Token::id;
#define FIELD(id, name)                                                                    \
  grammar.fields_[static_cast<size_t>(Field::id)] = ts_language_field_id_for_name(         \
      grammar.language_, name, static_cast<uint32_t>(std::strlen(name)));                  \
  if (grammar.fields_[static_cast<size_t>(Field::id)] == 0) missing += " field '" name "'";
#include "syntax/python_grammar.def"
#undef NODE
#undef TOKEN
#undef FIELD
  if (!missing.empty())
    return Error::make(ErrorKind::internal,
                       "the tree-sitter-python grammar lacks names pykern needs:" + missing);
  return grammar;
}

Result<const Grammar*> Grammar::get() {
  static const Result<Grammar> grammar = build();
  if (!grammar.ok()) return grammar.error();
  return &grammar.value();
}

Node Grammar::node_kind(TSNode node) const {
  auto found = nodes_.find(ts_node_symbol(node));
  return found == nodes_.end() ? Node::other : found->second;
}

Token Grammar::token_kind(TSNode node) const {
  auto found = tokens_.find(ts_node_symbol(node));
  return found == tokens_.end() ? Token::other : found->second;
}

}  // namespace pykern::syntax

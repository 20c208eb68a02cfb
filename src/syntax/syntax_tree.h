// An owned tree-sitter parse of one SourceFile, and small helpers over its nodes.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "base/diagnostics.h"
#include "base/source_file.h"
#include "syntax/grammar.h"

namespace pykern::syntax {

class SyntaxTree {
 public:
  static Result<SyntaxTree> parse(const SourceFile& file);

  TSNode root() const { return ts_tree_root_node(tree_.get()); }
  const SourceFile& file() const { return *file_; }
  const Grammar& grammar() const { return *grammar_; }

  Node kind(TSNode node) const { return grammar_->node_kind(node); }
  Token token(TSNode node) const { return grammar_->token_kind(node); }
  TSNode field(TSNode node, Field field) const {
    return ts_node_child_by_field_id(node, grammar_->field(field));
  }
  std::vector<TSNode> fields(TSNode node, Field field) const;
  static std::vector<TSNode> children(TSNode node);      // named and anonymous, in order
  bool is_trivia(TSNode node) const;  // a comment or a backslash continuation
  std::vector<TSNode> named_children(TSNode node) const;  // comments and backslash continuations left out
  // An identifier's name as Python binds it: NFKC-normalised (`ﬁ` is `fi`).
  std::string name(TSNode identifier) const;
  std::string_view text(TSNode node) const;
  static SourceRange range(TSNode node) {
    return {ts_node_start_byte(node), ts_node_end_byte(node)};
  }

  // Reports the first syntax error under `node` (which tree-sitter marked with ERROR or MISSING
  // nodes) as CPython words and places it (syntax_errors.h). Returns 1 if there was one, else 0.
  size_t report_syntax_errors(TSNode node, Diagnostics& diagnostics) const;

 private:
  struct TreeDeleter {
    void operator()(TSTree* tree) const { ts_tree_delete(tree); }
  };
  std::unique_ptr<TSTree, TreeDeleter> tree_;
  const SourceFile* file_ = nullptr;
  const Grammar* grammar_ = nullptr;
};

}  // namespace pykern::syntax

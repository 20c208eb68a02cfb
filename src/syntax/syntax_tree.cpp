#include "syntax/syntax_tree.h"

#include <string>

namespace pykern::syntax {

namespace {
struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
}  // namespace

Result<SyntaxTree> SyntaxTree::parse(const SourceFile& file) {
  auto grammar = Grammar::get();
  if (!grammar.ok()) return grammar.error();
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), (*grammar)->language()))
    return Error::make(ErrorKind::internal, "tree-sitter refused the Python grammar");
  const std::string& text = file.text();
  TSTree* tree = ts_parser_parse_string(parser.get(), nullptr, text.data(),
                                        static_cast<uint32_t>(text.size()));
  if (tree == nullptr)
    return Error::make(ErrorKind::internal, "tree-sitter could not parse '" + file.path() + "'");
  SyntaxTree result;
  result.tree_.reset(tree);
  result.file_ = &file;
  result.grammar_ = *grammar;
  return result;
}

std::vector<TSNode> SyntaxTree::fields(TSNode node, Field field) const {
  std::vector<TSNode> found;
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  TSFieldId wanted = grammar_->field(field);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      if (ts_tree_cursor_current_field_id(&cursor) == wanted)
        found.push_back(ts_tree_cursor_current_node(&cursor));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

std::vector<TSNode> SyntaxTree::named_children(TSNode node) const {
  std::vector<TSNode> children;
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode child = ts_node_named_child(node, i);
    if (kind(child) != Node::comment) children.push_back(child);
  }
  return children;
}

std::string_view SyntaxTree::text(TSNode node) const {
  return file_->slice(range(node));
}

size_t SyntaxTree::report_syntax_errors(TSNode node, Diagnostics& diagnostics) const {
  if (!ts_node_has_error(node)) return 0;
  if (ts_node_is_missing(node)) {
    diagnostics.error(DiagKind::syntax_error, *file_, range(node),
                      "invalid syntax: expected '" + std::string(ts_node_type(node)) + "' here");
    return 1;
  }
  if (kind(node) == Node::error) {
    SourceRange where = range(node);
    std::string_view snippet = file_->slice(where);
    size_t newline = snippet.find('\n');
    std::string shown(snippet.substr(0, std::min<size_t>(newline, 40)));
    diagnostics.error(DiagKind::syntax_error, *file_, where,
                      shown.empty() ? "invalid syntax"
                                    : "invalid syntax near '" + shown + "'",
                      "this is not valid Python; fix it before pykern can translate the kernel");
    return 1;
  }
  size_t found = 0;
  uint32_t count = ts_node_child_count(node);
  for (uint32_t i = 0; i < count; ++i) found += report_syntax_errors(ts_node_child(node, i), diagnostics);
  return found;
}

}  // namespace pykern::syntax

#include "syntax/syntax_tree.h"

#include <algorithm>
#include <string>

#include "syntax/nfkc.h"
#include "syntax/syntax_errors.h"

namespace pykern::syntax {

namespace {
struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
// The text tree-sitter parses: the file's, with every comment that has a line to itself turned
// into spaces. tree-sitter-python's scanner looks past all the comment lines that follow each
// newline in a block (to place a dedent), so a run of n of them cost n² there; comments are no
// part of the program and every byte keeps its offset, so nodes still slice the file's text.
// Strings are skipped as CPython's tokenizer skips them: a '#' inside one is no comment.
std::string without_own_line_comments(const std::string& text) {
  std::string out = text;
  bool line_blank = true;  // nothing but whitespace yet on this line
  for (size_t i = 0; i < out.size();) {
    char c = out[i];
    if (c == '#') {
      size_t end = std::min(out.find('\n', i), out.size());
      if (line_blank) std::fill(out.begin() + static_cast<std::ptrdiff_t>(i), out.begin() + static_cast<std::ptrdiff_t>(end), ' ');
      i = end;
    } else if (c == '"' || c == '\'') {
      bool triple = out.compare(i, 3, std::string(3, c)) == 0;
      size_t at = i + (triple ? 3 : 1);
      for (; at < out.size(); ++at) {
        if (out[at] == '\\') {
          ++at;  // an escaped character, a quote or a newline included, never ends the string
        } else if (!triple && out[at] == '\n') {
          break;  // unterminated: the tokenizer stops at the line's end
        } else if (out.compare(at, triple ? 3 : 1, std::string(triple ? 3 : 1, c)) == 0) {
          at += triple ? 3 : 1;
          break;
        }
      }
      i = at;
      line_blank = false;
    } else {
      if (c == '\n') line_blank = true;
      else if (c != ' ' && c != '\t' && c != '\f') line_blank = false;
      ++i;
    }
  }
  return out;
}

}  // namespace

Result<SyntaxTree> SyntaxTree::parse(const SourceFile& file) {
  auto grammar = Grammar::get();
  if (!grammar.ok()) return grammar.error();
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), (*grammar)->language()))
    return Error::make(ErrorKind::internal, "tree-sitter refused the Python grammar");
  const std::string text = without_own_line_comments(file.text());
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

// A cursor steps from one child to the next in constant time; ts_node_named_child(node, i)
// walks from the first child each time, which made a module of n comment lines cost n².
std::vector<TSNode> SyntaxTree::children(TSNode node) {
  std::vector<TSNode> children;
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do children.push_back(ts_tree_cursor_current_node(&cursor));
    while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return children;
}

// Comments and backslash continuations may sit between any two tokens (the grammar's extras):
// they carry no meaning, so no reader of the tree should see them as operands.
bool SyntaxTree::is_trivia(TSNode node) const {
  Node k = kind(node);
  return k == Node::comment || k == Node::line_continuation;
}

std::vector<TSNode> SyntaxTree::named_children(TSNode node) const {
  std::vector<TSNode> named;
  for (TSNode child : children(node))
    if (ts_node_is_named(child) && !is_trivia(child)) named.push_back(child);
  return named;
}

std::string SyntaxTree::name(TSNode identifier) const { return nfkc_identifier(text(identifier)); }

std::string_view SyntaxTree::text(TSNode node) const {
  return file_->slice(range(node));
}

size_t SyntaxTree::report_syntax_errors(TSNode node, Diagnostics& diagnostics) const {
  if (!ts_node_has_error(node)) return 0;
  SyntaxProblem problem = explain_syntax_error(*this, node);
  diagnostics.error(DiagKind::syntax_error, *file_, problem.where, problem.message, problem.hint);
  return 1;
}

}  // namespace pykern::syntax

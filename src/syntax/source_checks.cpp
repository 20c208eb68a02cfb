#include "syntax/source_checks.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

namespace pykern::syntax {

namespace {

// Calls visit(node, depth) on every node, parents first, without recursion; visit returns
// false to skip a node's children.
template <class Visit> void walk(TSNode root, Visit visit) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  uint32_t depth = 0;
  for (;;) {
    if (visit(ts_tree_cursor_current_node(&cursor), depth) && ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (depth == 0 || !ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return;
      }
      --depth;
    }
  }
}

// How far a line is indented, as CPython's tokenizer measures it: tabs to the next multiple
// of 8 (`width`) and, to detect inconsistent mixing, of 1 (`alternate`).
struct Indent {
  uint32_t width = 0;
  uint32_t alternate = 0;
  bool leads_line = false;  // nothing but whitespace before the node on its line
  bool operator==(const Indent& other) const { return width == other.width && alternate == other.alternate; }
};

// A whole line's leading whitespace, measured as CPython measures it (tabs to the next multiple
// of 8), and whether code follows it (not a blank or comment-only line).
struct LineIndent {
  uint32_t width = 0;
  uint32_t first = 0;  // the byte after the whitespace
  bool holds_code = false;
};

LineIndent line_indent(const SourceFile& file, uint32_t line) {
  const std::string& text = file.text();
  LineIndent out;
  out.first = file.line_start(line);
  for (; out.first < text.size() && (text[out.first] == ' ' || text[out.first] == '\t'); ++out.first)
    out.width = text[out.first] == '\t' ? (out.width / 8 + 1) * 8 : out.width + 1;
  char c = out.first < text.size() ? text[out.first] : '\n';
  out.holds_code = c != '\n' && c != '\r' && c != '#';
  return out;
}

Indent indent_of(const SourceFile& file, uint32_t byte) {
  Indent indent;
  uint32_t line = file.position(byte).line;
  const std::string& text = file.text();
  for (uint32_t at = file.line_start(line); at < byte; ++at) {
    char c = text[at];
    if (c == ' ') {
      ++indent.width, ++indent.alternate;
    } else if (c == '\t') {
      indent.width = (indent.width / 8 + 1) * 8;
      ++indent.alternate;
    } else if (c == '\f') {
      indent.width = indent.alternate = 0;
    } else {
      return indent;  // something else comes first on this line
    }
  }
  indent.leads_line = true;
  return indent;
}

class IndentationChecker {
 public:
  IndentationChecker(const SyntaxTree& tree, Diagnostics& diagnostics) : tree_(tree), diagnostics_(diagnostics) {}

  // Statements of one block (or of the module) that start their lines share one indentation.
  void statements(TSNode block, std::optional<Indent> expected) {
    std::vector<TSNode> children = tree_.named_children(block);
    for (TSNode child : children) {
      if (tree_.kind(child) == Node::error) continue;
      Indent indent = indent_of(tree_.file(), ts_node_start_byte(child));
      if (!indent.leads_line) continue;  // `if x: a = 1; b = 2` or after a ';'
      if (!expected) {
        expected = indent;
        nested_deeper(child, indent, ts_node_parent(block));
        continue;
      }
      compare(child, indent, *expected, "unexpected indent",
              "unindent does not match any outer indentation level");
    }
  }

  // else/elif/except/finally line up with the statement they belong to.
  void clauses(TSNode statement) {
    Indent own = indent_of(tree_.file(), ts_node_start_byte(statement));
    if (!own.leads_line) return;
    for (TSNode child : tree_.named_children(statement)) {
      Node kind = tree_.kind(child);
      if (kind != Node::elif_clause && kind != Node::else_clause && kind != Node::except_clause &&
          kind != Node::finally_clause)
        continue;
      Indent indent = indent_of(tree_.file(), ts_node_start_byte(child));
      if (indent.leads_line) compare(child, indent, own, "unexpected indent", "unindent does not match any outer indentation level");
    }
  }

  bool ok() const { return ok_; }

 private:
  // A block's first statement is indented past its header's line in both measures; deeper by
  // one and not the other is CPython's TabError.
  void nested_deeper(TSNode first, const Indent& indent, TSNode header) {
    if (ts_node_is_null(header)) return;
    Indent outer = indent_of(tree_.file(), ts_node_start_byte(header));
    if (!ok_ || !outer.leads_line || (indent.width > outer.width) == (indent.alternate > outer.alternate)) return;
    ok_ = false;
    diagnostics_.error(DiagKind::syntax_error, tree_.file(), first_line(first),
                       "TabError: inconsistent use of tabs and spaces in indentation",
                       "indent with spaces only (a tab counts as up to 8 columns)");
  }

  // The indentation width of the nearest line above `node` that holds code.
  uint32_t previous_code_indent(TSNode node) const {
    const SourceFile& file = tree_.file();
    for (uint32_t line = file.position(ts_node_start_byte(node)).line; line-- > 1;)
      if (LineIndent above = line_indent(file, line); above.holds_code) return above.width;
    return 0;
  }

  SourceRange first_line(TSNode node) const {
    SourceRange where = SyntaxTree::range(node);
    where.end = std::min<size_t>(where.end, tree_.file().text().find('\n', where.begin));
    return where;
  }

  void compare(TSNode node, const Indent& indent, const Indent& expected, const char* deeper, const char* shallower) {
    if (indent == expected || !ok_) return;  // CPython stops at the first
    ok_ = false;
    SourceRange where = first_line(node);
    bool tabs = (indent.width == expected.width) != (indent.alternate == expected.alternate) ||
                (indent.width < expected.width) != (indent.alternate < expected.alternate);
    if (tabs) {
      diagnostics_.error(DiagKind::syntax_error, tree_.file(), where,
                         "TabError: inconsistent use of tabs and spaces in indentation",
                         "indent with spaces only (a tab counts as up to 8 columns)");
    } else {
      // Deeper than its block but shallower than the code above it: a dedent that matched no
      // enclosing level, which tree-sitter's recovery moved into an outer block.
      bool unexpected = indent.width > expected.width && previous_code_indent(node) <= indent.width;
      diagnostics_.error(DiagKind::syntax_error, tree_.file(), where,
                         std::string("IndentationError: ") + (unexpected ? deeper : shallower),
                         "CPython rejects this file; statements of one block must be indented alike");
    }
  }

  const SyntaxTree& tree_;
  Diagnostics& diagnostics_;
  bool ok_ = true;
};

// Lines indented past what the scanner can hold, outside multi-line strings.
bool check_indent_width(const SyntaxTree& tree, Diagnostics& diagnostics) {
  const SourceFile& file = tree.file();
  for (uint32_t line = 1; line <= file.line_count(); ++line) {
    LineIndent indent = line_indent(file, line);
    uint32_t at = indent.first, columns = indent.width;
    if (columns <= max_indent_columns || !indent.holds_code) continue;
    TSNode here = ts_node_descendant_for_byte_range(tree.root(), at, at);
    bool in_string = false;
    for (TSNode n = here; !ts_node_is_null(n); n = ts_node_parent(n))
      if (tree.kind(n) == Node::string && ts_node_start_byte(n) < file.line_start(line)) in_string = true;
    if (in_string) continue;
    diagnostics.error(DiagKind::syntax_error, file, {at, at + 1},
                      fmt::format("indentation of {} columns is deeper than pykern can parse ({} at most)", columns,
                                  max_indent_columns),
                      "indent blocks by fewer columns (4 a level is the Python convention)");
    return false;
  }
  return true;
}

}  // namespace

bool check_nesting(const SyntaxTree& tree, Diagnostics& diagnostics) {
  bool ok = true;
  walk(tree.root(), [&](TSNode node, uint32_t depth) {
    if (!ok) return false;
    if (depth <= max_nesting_depth) return true;
    ok = false;
    SourceRange where = SyntaxTree::range(node);
    where.end = std::min(where.end, where.begin + 1);
    diagnostics.error(DiagKind::syntax_error, tree.file(), where,
                      fmt::format("too many nested expressions: more than {} levels deep", max_nesting_depth),
                      "CPython stops at 200 nested parentheses, and every operator of a long chain nests one level; split the expression with intermediate variables");
    return false;
  });
  return ok;
}

bool check_indentation(const SyntaxTree& tree, Diagnostics& diagnostics) {
  if (!check_indent_width(tree, diagnostics)) return false;
  IndentationChecker checker(tree, diagnostics);
  checker.statements(tree.root(), Indent{0, 0, true});
  walk(tree.root(), [&](TSNode node, uint32_t) {
    Node kind = tree.kind(node);
    if (kind == Node::error) return false;
    if (kind == Node::block) checker.statements(node, std::nullopt);
    if (kind == Node::if_statement || kind == Node::for_statement || kind == Node::while_statement ||
        kind == Node::try_statement)
      checker.clauses(node);
    return true;
  });
  return checker.ok();
}

}  // namespace pykern::syntax

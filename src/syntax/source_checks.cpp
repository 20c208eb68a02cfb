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
  uint32_t line = file.line_of(byte);
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
    // A block with lines tree-sitter could not parse is explained with them (syntax_errors.h):
    // its recovery may have left statements out of place.
    if (std::any_of(children.begin(), children.end(), [&](TSNode child) { return tree_.kind(child) == Node::error; }))
      return;
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
    for (uint32_t line = file.line_of(ts_node_start_byte(node)); line-- > 1;)
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

namespace pykern::syntax {

bool is_keyword(std::string_view name) {
  static const char* const keywords[] = {"False", "None",   "True",    "and",      "as",       "assert", "async",
                                         "await", "break",  "class",   "continue", "def",      "del",    "elif",
                                         "else",  "except", "finally", "for",      "from",     "global", "if",
                                         "import", "in",    "is",      "lambda",   "nonlocal", "not",    "or",
                                         "pass",  "raise",  "return",  "try",      "while",    "with",   "yield"};
  return std::any_of(std::begin(keywords), std::end(keywords), [&](const char* keyword) { return name == keyword; });
}

namespace {

// What CPython calls the statement that owns a block, in "expected an indented block after ...".
std::optional<std::string> block_owner(const SyntaxTree& tree, TSNode owner) {
  switch (tree.kind(owner)) {
    case Node::function_definition: return "function definition";
    case Node::class_definition: return "class definition";
    case Node::if_statement: return "'if' statement";
    case Node::elif_clause: return "'elif' statement";
    case Node::else_clause: return "'else' statement";
    case Node::for_statement: return "'for' statement";
    case Node::while_statement: return "'while' statement";
    case Node::with_statement: return "'with' statement";
    case Node::try_statement: return "'try' statement";
    case Node::except_clause: return "'except' statement";
    case Node::except_group_clause: return "'except*' statement";
    case Node::finally_clause: return "'finally' statement";
    case Node::match_statement: return "'match' statement";
    case Node::case_clause: return "'case' statement";
    default: return std::nullopt;
  }
}

class RuleChecker {
 public:
  RuleChecker(const SyntaxTree& tree, Diagnostics& diagnostics) : tree_(tree), file_(tree.file()), diagnostics_(diagnostics) {}

  // Returns whether to look inside the node.
  bool visit(TSNode node) {
    if (!ok_) return false;
    switch (tree_.kind(node)) {
      case Node::identifier:
        if (is_keyword(tree_.text(node)))
          fail(SyntaxTree::range(node), "invalid syntax: '" + std::string(tree_.text(node)) + "' is a keyword, not a name",
               "choose another name");
        return false;
      case Node::integer: leading_zeros(node); return false;
      case Node::block: empty_block(node); return true;
      case Node::string_start: unterminated_string(node); return false;
      case Node::assignment:
      case Node::augmented_assignment:
      case Node::for_statement: assigned(tree_.field(node, Field::left), "assign to"); return true;
      case Node::named_expression:
      case Node::keyword_argument:
      case Node::class_definition: assigned(tree_.field(node, Field::name), "assign to"); return true;
      case Node::as_pattern_target: assigned(node, "assign to"); return true;
      case Node::aliased_import: assigned(tree_.field(node, Field::alias), "assign to"); return true;
      case Node::delete_statement: assigned(node, "delete"); return true;
      case Node::function_definition:
        assigned(tree_.field(node, Field::name), "assign to");
        parameters(tree_.field(node, Field::parameters));
        return true;
      case Node::lambda: parameters(tree_.field(node, Field::parameters)); return true;
      case Node::future_import_statement: future_import(node); return false;
      default: return true;
    }
  }

  // Inside ERROR subtrees only an unterminated string is looked for: it is why they exist.
  bool visit_in_error(TSNode node) {
    if (!ok_) return false;
    if (tree_.kind(node) == Node::string_start) unterminated_string(node);
    return true;
  }

  bool ok() const { return ok_; }

 private:
  void fail(SourceRange where, const std::string& message, const std::string& hint = {}) {
    ok_ = false;
    diagnostics_.error(DiagKind::syntax_error, file_, where, message, hint);
  }

  // `09`, `0_7`: a decimal integer may start with 0 only if every digit is 0.
  void leading_zeros(TSNode node) {
    std::string_view text = tree_.text(node);
    if (text.size() < 2 || text[0] != '0') return;
    if (std::string_view("xXoObB").find(text[1]) != std::string_view::npos) return;
    if (text.back() == 'j' || text.back() == 'J') return;  // 09j is an imaginary literal
    if (text.find_first_not_of("0_") == std::string_view::npos) return;
    fail(SyntaxTree::range(node),
         "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
  }

  // tree-sitter gives a header followed by an unindented line an empty block; CPython an
  // IndentationError at the first line of code after the header.
  void empty_block(TSNode block) {
    if (!tree_.named_children(block).empty()) return;
    TSNode owner = ts_node_parent(block);
    auto what = block_owner(tree_, owner);
    // A header whose statements tree-sitter could not parse: the ERROR explains it (syntax_errors.h).
    if (!what || ts_node_has_error(owner)) return;
    uint32_t header_line = file_.line_of(ts_node_start_byte(owner));
    TSNode colon = ts_node_prev_sibling(block);
    uint32_t after = ts_node_is_null(colon) ? ts_node_start_byte(block) : ts_node_end_byte(colon);
    SourceRange where{after, after + 1};
    for (uint32_t line = file_.line_of(after) + 1; line <= file_.line_count(); ++line) {
      LineIndent next = line_indent(file_, line);
      if (!next.holds_code) continue;
      where = {next.first, next.first + 1};
      break;
    }
    fail(where, fmt::format("IndentationError: expected an indented block after {} on line {}", *what, header_line),
         "indent the statements of the block past its header's line (write 'pass' for an empty block)");
  }

  // A string_start whose string has no closing quote.
  void unterminated_string(TSNode start) {
    TSNode string = ts_node_parent(start);
    if (tree_.kind(string) == Node::string) {
      TSNode last = ts_node_child(string, ts_node_child_count(string) - 1);
      if (tree_.kind(last) == Node::string_end && !ts_node_is_missing(last) &&
          ts_node_end_byte(last) > ts_node_start_byte(last))
        return;
    }
    std::string_view quote = tree_.text(start);
    bool triple = quote.size() >= 3 && (quote.substr(quote.size() - 3) == "\"\"\"" || quote.substr(quote.size() - 3) == "'''");
    // A triple-quoted string runs to the end of the file; a one-line string to its line's end.
    const std::string& text = file_.text();
    uint32_t detected = triple ? file_.line_of(static_cast<uint32_t>(text.empty() ? 0 : text.size() - 1))
                               : file_.line_of(ts_node_start_byte(start));
    uint32_t at = ts_node_start_byte(start);
    fail({at, at + 1},
         fmt::format("unterminated {}string literal (detected at line {})", triple ? "triple-quoted " : "", detected),
         "close the string with the quote that opened it");
  }

  // Binding or deleting __debug__: CPython's "cannot assign to __debug__". Descends through
  // target tuples and lists; `x.__debug__ = 1` is refused too.
  void assigned(TSNode target, const char* verb) {
    if (ts_node_is_null(target) || !ok_) return;
    switch (tree_.kind(target)) {
      case Node::identifier:
        if (tree_.name(target) == "__debug__")
          fail(SyntaxTree::range(target), std::string("cannot ") + verb + " __debug__",
               "__debug__ is a constant of the interpreter; choose another name");
        return;
      case Node::attribute: assigned(tree_.field(target, Field::attribute), verb); return;
      case Node::subscript: return;
      default:
        for (TSNode child : tree_.named_children(target)) assigned(child, verb);
    }
  }

  // Each parameter's name, whatever form it takes.
  TSNode parameter_name(TSNode parameter) const {
    switch (tree_.kind(parameter)) {
      case Node::identifier: return parameter;
      case Node::default_parameter:
      case Node::typed_default_parameter: return tree_.field(parameter, Field::name);
      case Node::typed_parameter:
      case Node::list_splat_pattern:
      case Node::dictionary_splat_pattern: {
        TSNode first = ts_node_named_child(parameter, 0);
        if (ts_node_is_null(first)) return first;
        return tree_.kind(first) == Node::identifier ? first : parameter_name(first);
      }
      default: return TSNode{};  // '*', '/'
    }
  }

  void parameters(TSNode list) {
    if (ts_node_is_null(list)) return;
    std::vector<std::string> seen;
    for (TSNode parameter : tree_.named_children(list)) {
      TSNode name = parameter_name(parameter);
      if (ts_node_is_null(name) || tree_.kind(name) != Node::identifier) continue;
      assigned(name, "assign to");
      std::string spelled = tree_.name(name);
      if (ok_ && std::find(seen.begin(), seen.end(), spelled) != seen.end())
        fail(SyntaxTree::range(name), "duplicate argument '" + spelled + "' in function definition",
             "give each parameter its own name");
      seen.push_back(std::move(spelled));
    }
  }

  // from __future__ import ...: only features CPython knows, and only before other statements.
  void future_import(TSNode statement) {
    static const char* const features[] = {"nested_scopes",  "generators",      "division",         "absolute_import",
                                           "with_statement", "print_function",  "unicode_literals", "barry_as_FLUFL",
                                           "generator_stop", "annotations"};
    for (TSNode name : tree_.fields(statement, Field::name)) {
      TSNode dotted = tree_.kind(name) == Node::aliased_import ? tree_.field(name, Field::name) : name;
      std::string feature(tree_.text(dotted));
      if (feature == "braces") return fail(SyntaxTree::range(statement), "not a chance", "Python blocks are indented, not braced");
      if (std::none_of(std::begin(features), std::end(features), [&](const char* known) { return feature == known; }))
        return fail(SyntaxTree::range(statement), "future feature " + feature + " is not defined");
    }
    TSNode module = ts_node_parent(statement);
    bool first = tree_.kind(module) == Node::module;
    std::vector<TSNode> statements = first ? tree_.named_children(module) : std::vector<TSNode>{};
    for (size_t i = 0; first && i < statements.size() && !ts_node_eq(statements[i], statement); ++i) {
      Node kind = tree_.kind(statements[i]);
      bool docstring = i == 0 && kind == Node::expression_statement &&
                       tree_.kind(ts_node_named_child(statements[i], 0)) == Node::string;
      first = kind == Node::future_import_statement || docstring;
    }
    if (!first)
      fail(SyntaxTree::range(statement), "from __future__ imports must occur at the beginning of the file",
           "move it above every other statement (only a docstring and comments may come first)");
  }

  const SyntaxTree& tree_;
  const SourceFile& file_;
  Diagnostics& diagnostics_;
  bool ok_ = true;
};

}  // namespace

bool check_python_rules(const SyntaxTree& tree, Diagnostics& diagnostics) {
  RuleChecker checker(tree, diagnostics);
  uint32_t error_depth = UINT32_MAX;  // the depth of the ERROR node being walked, if any
  walk(tree.root(), [&](TSNode node, uint32_t depth) {
    if (depth <= error_depth) error_depth = UINT32_MAX;
    if (error_depth == UINT32_MAX && tree.kind(node) == Node::error) error_depth = depth;
    return error_depth == UINT32_MAX ? checker.visit(node) : checker.visit_in_error(node);
  });
  return checker.ok();
}

bool check_source_text(const SourceFile& file, Diagnostics& diagnostics) {
  const auto& problem = file.problem();
  if (!problem) return true;
  diagnostics.error(DiagKind::syntax_error, file, problem->range, problem->message, problem->hint);
  return false;
}

}  // namespace pykern::syntax

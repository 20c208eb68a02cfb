#include "syntax/syntax_errors.h"

#include <algorithm>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "syntax/source_checks.h"
#include "syntax/tokens.h"

namespace pykern::syntax {

namespace {

constexpr const char* generic_hint = "this is not valid Python; fix it before pykern can translate the kernel";
// Past this many bytes a logical line is not searched token by token for where it breaks.
constexpr size_t longest_searched_line = 1 << 16;

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};
using OwnedTree = std::unique_ptr<TSTree, TreeDeleter>;

// One logical line: tokens [first, newline), ended by the NEWLINE token at `newline` (the token
// count when the tokenizer stopped inside the line).
struct Line {
  size_t first = 0, newline = 0;
  bool indented = false;  // an INDENT token comes before it
};

struct LineContext {
  const Line& line;
  const Line* previous;  // the logical line before, anywhere in the file
  bool broken;           // the line does not parse on its own
  size_t failing;        // the token where parsing stops, if broken
};

// How a logical line is made a program of its own: `else:` needs an `if` before it, a header a
// body after it, a decorator a definition.
struct Wrapping {
  std::string before, after;
  bool header = false;  // a compound statement's header, which ends with ':'
};

Wrapping wrapping_for(std::string_view first) {
  if (first == "@") return {"", "\ndef _(): pass", false};
  if (first == "elif" || first == "else") return {"if 1: pass\n", "", true};
  if (first == "except" || first == "finally") return {"try: pass\n", "", true};
  if (first == "try") return {"", "\nfinally: pass", true};
  for (const char* keyword : {"if", "while", "for", "with", "def", "class", "async"})
    if (first == keyword) return {"", "", true};
  return {};
}

// What CPython calls an expression that cannot be assigned to (_PyPegen_get_expr_name).
std::string expression_name(std::string_view type, std::string_view text) {
  static const std::pair<const char*, const char*> names[] = {
      {"call", "function call"},           {"integer", "literal"},
      {"float", "literal"},                {"string", "literal"},
      {"concatenated_string", "literal"},  {"true", "True"},
      {"false", "False"},                  {"none", "None"},
      {"ellipsis", "ellipsis"},            {"comparison_operator", "comparison"},
      {"lambda", "lambda"},                {"conditional_expression", "conditional expression"},
      {"named_expression", "named expression"}, {"await", "await expression"},
      {"yield", "yield expression"},       {"generator_expression", "generator expression"},
      {"list_comprehension", "list comprehension"}, {"set_comprehension", "set comprehension"},
      {"dictionary_comprehension", "dict comprehension"}, {"dictionary", "dict literal"},
      {"set", "set display"},              {"identifier", "name"},
      {"attribute", "attribute"},          {"subscript", "subscript"},
      {"tuple", "tuple"},                  {"expression_list", "tuple"},
      {"list", "list"},                    {"list_splat", "starred"}};
  if (type == "string" && !text.empty() && (text[0] == 'f' || text[0] == 'F')) return "f-string expression";
  for (const auto& [node, name] : names)
    if (type == node) return name;
  return "expression";
}

bool is_soft_keyword(std::string_view word) { return word == "_" || word == "match" || word == "case"; }
bool is_constant_word(std::string_view word) { return word == "True" || word == "False" || word == "None"; }

const char* augmented_operators[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "^=", "|=", "@="};

class Explainer;
using Check = std::optional<SyntaxProblem> (Explainer::*)(const LineContext&);

// CPython's rules for a line, in the order its parser tries them. `broken_only`: the rule names
// why a line does not parse; the others (indentation) apply to any line.
struct Rule {
  const char* example;  // what it catches, and what CPython says
  Check check;
  bool broken_only;
};

class Explainer {
 public:
  explicit Explainer(const SyntaxTree& tree)
      : tree_(tree), file_(tree.file()), text_(file_.text()), tokens_(tokenize(text_)), parser_(ts_parser_new()) {
    ts_parser_set_language(parser_.get(), tree.grammar().language());
    split_lines();
  }

  SyntaxProblem explain(TSNode region);

  std::optional<SyntaxProblem> unexpected_indent(const LineContext& c);
  std::optional<SyntaxProblem> expected_indented_block(const LineContext& c);
  std::optional<SyntaxProblem> assignment_target(const LineContext& c);
  std::optional<SyntaxProblem> augmented_target(const LineContext& c);
  std::optional<SyntaxProblem> assignment_in_condition(const LineContext& c);
  std::optional<SyntaxProblem> missing_parameters(const LineContext& c);
  std::optional<SyntaxProblem> missing_colon(const LineContext& c);
  std::optional<SyntaxProblem> forgotten_comma(const LineContext& c);
  std::optional<SyntaxProblem> missing_else(const LineContext& c);

 private:
  // Past the last token (a tokenizer stopped by an error leaves no `end` token after a line's
  // last one): an `end` token at the end of the text, so a rule reading ahead stays in bounds.
  const PyToken& token(size_t i) const { return i < tokens_.tokens.size() ? tokens_.tokens[i] : past_end_; }
  std::string_view word(size_t i) const {
    return i < tokens_.tokens.size() ? std::string_view(text_).substr(token(i).begin, token(i).end - token(i).begin)
                                     : std::string_view();
  }
  bool is_op(size_t i, std::string_view op) const {
    return i < tokens_.tokens.size() && token(i).kind == TokenKind::op && word(i) == op;
  }
  std::string text(size_t first, size_t end) const {  // the bytes of tokens [first, end)
    if (end <= first) return {};
    return text_.substr(token(first).begin, token(end - 1).end - token(first).begin);
  }
  SourceRange range(size_t first, size_t last) const { return {token(first).begin, std::max(token(last).end, token(first).begin + 1)}; }

  void split_lines();
  OwnedTree parse(const std::string& source) {
    return OwnedTree(ts_parser_parse_string(parser_.get(), nullptr, source.data(), static_cast<uint32_t>(source.size())));
  }
  bool parses(const std::string& source) {
    OwnedTree tree = parse(source);
    return tree && !ts_node_has_error(ts_tree_root_node(tree.get()));
  }
  bool complete(std::string_view first, const std::string& body);
  bool viable(std::string_view first, const std::string& prefix, const std::string& closers);
  std::string closers(size_t first, size_t end) const;
  bool prefix_viable(const Line& line, size_t end) {
    return viable(word(line.first), text(line.first, end), closers(line.first, end));
  }
  size_t failing_token(const Line& line);
  std::optional<SyntaxProblem> problem_in(const Line& line, const Line* previous);
  SyntaxProblem tree_sitter_fallback(TSNode region) const;
  // Depth-0 tokens of the line spelled `op`.
  std::vector<size_t> find_ops(const Line& line, size_t from, std::string_view op) const {
    std::vector<size_t> found;
    for (size_t i = from; i < line.newline; ++i)
      if (token(i).depth == 0 && is_op(i, op)) found.push_back(i);
    return found;
  }
  bool ends_with_colon(const Line& line) const;
  bool ends_operand(size_t i) const;
  bool starts_operand(size_t i) const;
  bool bounds_element(size_t i) const;
  size_t element_start(const Line& line, size_t last) const;
  size_t element_end(const Line& line, size_t first) const;
  struct BadTarget {
    SourceRange where;
    std::string name;
  };
  std::optional<BadTarget> first_bad_target(TSNode node, const std::string& source, uint32_t offset) const;
  std::optional<std::pair<std::string, SourceRange>> expression_kind(size_t first, size_t end);

  const SyntaxTree& tree_;
  const SourceFile& file_;
  const std::string& text_;
  PyTokens tokens_;
  PyToken past_end_{TokenKind::end, static_cast<uint32_t>(text_.size()), static_cast<uint32_t>(text_.size()), 0};
  std::unique_ptr<TSParser, ParserDeleter> parser_;
  std::vector<Line> lines_;
  uint32_t found_reach_ = 0;  // the furthest byte CPython's parser read before the problem found
};

const Rule rules[] = {
    {"`    x = 1` after `y = 2`: IndentationError: unexpected indent", &Explainer::unexpected_indent, false},
    {"`if x:` then an unindented line: IndentationError: expected an indented block after 'if' statement on line N",
     &Explainer::expected_indented_block, false},
    {"`len(a) = 1`: cannot assign to function call here. Maybe you meant '==' instead of '='?",
     &Explainer::assignment_target, true},
    {"`f() += 1`: 'function call' is an illegal expression for augmented assignment", &Explainer::augmented_target, true},
    {"`if x = 1:`: invalid syntax. Maybe you meant '==' or ':=' instead of '='?", &Explainer::assignment_in_condition,
     true},
    {"`def k:`: expected '('", &Explainer::missing_parameters, true},
    {"`if x > 0` (no colon): expected ':'", &Explainer::missing_colon, true},
    {"`f(a b)`: invalid syntax. Perhaps you forgot a comma?", &Explainer::forgotten_comma, true},
    {"`y = 1 if x`: expected 'else' after 'if' expression", &Explainer::missing_else, true},
};

void Explainer::split_lines() {
  Line line;
  bool started = false, indented = false;
  for (size_t i = 0; i < tokens_.tokens.size(); ++i) {
    TokenKind kind = token(i).kind;
    if (!started) {
      if (kind == TokenKind::indent) indented = true;
      if (kind == TokenKind::indent || kind == TokenKind::dedent) continue;
      if (kind == TokenKind::end) break;
      line = Line{i, i, indented};
      started = true;
      indented = false;
    }
    if (kind == TokenKind::newline) {
      line.newline = i;
      lines_.push_back(line);
      started = false;
    }
  }
  if (started) {
    line.newline = tokens_.tokens.size();
    lines_.push_back(line);
  }
}

bool Explainer::complete(std::string_view first, const std::string& body) {
  if (is_soft_keyword(first)) return true;  // match/case statements are left to tree-sitter
  Wrapping w = wrapping_for(first);
  if (!w.header) return parses(w.before + body + w.after);
  return parses(w.before + body + " pass" + w.after) || parses(w.before + body + w.after);
}

// Whether some text after `prefix` (an operand, the rest of a `for` or a conditional
// expression, the closing brackets, a header's colon) makes the line parse.
bool Explainer::viable(std::string_view first, const std::string& prefix, const std::string& closers) {
  static const char* const completions[] = {"",       " _",       " in _",    " _ in _", " else _", " _ else _",
                                            " import _", " _ import _", ":_", " _: _",   "()",      " _()"};
  Wrapping w = wrapping_for(first);
  for (const char* completion : completions) {
    std::string body = prefix + completion + closers;
    if (complete(first, body)) return true;
    if (w.header && parses(w.before + body + ": pass" + w.after)) return true;
  }
  return false;
}

std::string Explainer::closers(size_t first, size_t end) const {
  std::string open;
  for (size_t i = first; i < end; ++i) {
    if (token(i).kind != TokenKind::op) continue;
    char c = text_[token(i).begin];
    if (c == '(' || c == '[' || c == '{') open.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    else if ((c == ')' || c == ']' || c == '}') && !open.empty()) open.pop_back();
  }
  return std::string(open.rbegin(), open.rend());
}

// The first token at which no continuation can make the line parse (every longer prefix fails
// too, so a binary search finds it); the NEWLINE when the line only ends too soon.
size_t Explainer::failing_token(const Line& line) {
  if (line.newline > line.first && token(line.newline - 1).end - token(line.first).begin > longest_searched_line)
    return line.first;
  size_t low = 1, high = line.newline - line.first, failing = line.newline;
  while (low <= high) {
    size_t middle = (low + high) / 2;
    if (prefix_viable(line, line.first + middle)) {
      low = middle + 1;
    } else {
      failing = line.first + middle - 1;
      high = middle - 1;
    }
  }
  return failing;
}

std::optional<SyntaxProblem> Explainer::problem_in(const Line& line, const Line* previous) {
  bool broken = !complete(word(line.first), text(line.first, line.newline));
  LineContext context{line, previous, broken, broken ? failing_token(line) : line.newline};
  for (const Rule& rule : rules) {
    if (rule.broken_only && !broken) continue;
    if (auto problem = (this->*rule.check)(context)) return problem;
  }
  if (!broken) return std::nullopt;
  size_t at = std::min(context.failing, tokens_.tokens.size() - 1);
  // CPython compares the line of the furthest token its parser read; after an '=' in brackets
  // (`a[0 = 1`) it reads the value and one token more, to try `NAME=value` and `x = y` rules.
  found_reach_ = token(at).begin;
  if (is_op(at, "=") && at + 1 < line.newline) found_reach_ = token(std::min(element_end(line, at + 1) + 1, line.newline)).begin;
  SourceRange where = range(at, at);
  return SyntaxProblem{where, "invalid syntax", generic_hint};
}

// ---- the rules ------------------------------------------------------------------------------

// A compound statement's header: its last token is a ':' outside brackets.
bool Explainer::ends_with_colon(const Line& line) const {
  if (line.newline <= line.first || line.newline > tokens_.tokens.size()) return false;
  size_t last = line.newline - 1;
  return token(last).depth == 0 && is_op(last, ":");
}

std::optional<SyntaxProblem> Explainer::unexpected_indent(const LineContext& c) {
  if (!c.line.indented || (c.previous && ends_with_colon(*c.previous))) return std::nullopt;
  return SyntaxProblem{range(c.line.first, c.line.first), "IndentationError: unexpected indent",
                       "indent a line only at the start of a block, after a line that ends with ':'"};
}

std::optional<SyntaxProblem> Explainer::expected_indented_block(const LineContext& c) {
  if (c.line.indented || !c.previous || !ends_with_colon(*c.previous)) return std::nullopt;
  std::string_view owner = word(c.previous->first);
  if (owner == "async") owner = word(c.previous->first + 1);
  std::string what = owner == "def" ? "function definition" : owner == "class" ? "class definition"
                                                                              : fmt::format("'{}' statement", owner);
  return SyntaxProblem{range(c.line.first, c.line.first),
                       fmt::format("IndentationError: expected an indented block after {} on line {}", what,
                                   file_.line_of(token(c.previous->first).begin)),
                       "indent the statements of the block past its header's line (write 'pass' for an empty block)"};
}

// The first part of an assignment's target that cannot be assigned to: descends through tuples,
// lists, parentheses and stars as CPython's _PyPegen_get_invalid_target does.
std::optional<Explainer::BadTarget> Explainer::first_bad_target(TSNode node, const std::string& source,
                                                                uint32_t offset) const {
  std::string_view type = ts_node_type(node);
  if (type == "identifier" || type == "attribute" || type == "subscript" || type == "comment") return std::nullopt;
  if (type == "module" || type == "expression_statement" || type == "tuple" || type == "list" ||
      type == "expression_list" || type == "parenthesized_expression" || type == "list_splat" ||
      type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern" || type == "list_splat_pattern") {
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i)
      if (auto bad = first_bad_target(ts_node_named_child(node, i), source, offset)) return bad;
    return std::nullopt;
  }
  uint32_t begin = ts_node_start_byte(node), end = ts_node_end_byte(node);
  return BadTarget{{offset + begin, offset + end}, expression_name(type, std::string_view(source).substr(begin, end - begin))};
}

// What tokens [first, end) are as one expression ("function call", "name", ...) and where.
std::optional<std::pair<std::string, SourceRange>> Explainer::expression_kind(size_t first, size_t end) {
  std::string source = text(first, end);
  OwnedTree tree = parse(source);
  if (!tree || ts_node_has_error(ts_tree_root_node(tree.get()))) return std::nullopt;
  TSNode statement = ts_node_named_child(ts_tree_root_node(tree.get()), 0);
  if (ts_node_is_null(statement) || std::string_view(ts_node_type(statement)) != "expression_statement") return std::nullopt;
  SourceRange where{token(first).begin, token(end - 1).end};
  if (ts_node_named_child_count(statement) != 1) return std::make_pair(std::string("tuple"), where);
  TSNode expression = ts_node_named_child(statement, 0);
  return std::make_pair(expression_name(ts_node_type(expression), source), where);
}

std::optional<SyntaxProblem> Explainer::assignment_target(const LineContext& c) {
  std::string_view first = word(c.line.first);
  if (token(c.line.first).kind == TokenKind::name && is_keyword(first) && !is_constant_word(first)) return std::nullopt;
  std::vector<size_t> equals = find_ops(c.line, c.line.first, "=");
  if (equals.empty() || !find_ops(c.line, c.line.first, ":").empty()) return std::nullopt;
  size_t from = c.line.first;
  for (size_t eq : equals) {
    std::string source = text(from, eq);
    OwnedTree tree = parse(source);
    if (!tree || ts_node_has_error(ts_tree_root_node(tree.get()))) return std::nullopt;
    if (auto bad = first_bad_target(ts_tree_root_node(tree.get()), source, token(from).begin)) {
      std::string message = is_constant_word(bad->name) || equals.size() > 1
                                ? "cannot assign to " + bad->name
                                : "cannot assign to " + bad->name + " here. Maybe you meant '==' instead of '='?";
      return SyntaxProblem{bad->where, message,
                           "only a name, an attribute, a subscript, or a tuple or list of them can be assigned to"};
    }
    from = eq + 1;
  }
  return std::nullopt;
}

std::optional<SyntaxProblem> Explainer::augmented_target(const LineContext& c) {
  if (token(c.line.first).kind == TokenKind::name && is_keyword(word(c.line.first)) && !is_constant_word(word(c.line.first)))
    return std::nullopt;
  for (size_t i = c.line.first + 1; i < c.line.newline; ++i) {
    if (token(i).depth != 0 || token(i).kind != TokenKind::op) continue;
    if (std::none_of(std::begin(augmented_operators), std::end(augmented_operators),
                     [&](const char* op) { return word(i) == op; }))
      continue;
    auto kind = expression_kind(c.line.first, i);
    if (!kind || kind->first == "name" || kind->first == "attribute" || kind->first == "subscript") return std::nullopt;
    return SyntaxProblem{kind->second, fmt::format("'{}' is an illegal expression for augmented assignment", kind->first),
                         "only a name, an attribute or a subscript can be updated in place"};
  }
  return std::nullopt;
}

std::optional<SyntaxProblem> Explainer::assignment_in_condition(const LineContext& c) {
  std::string_view keyword = word(c.line.first);
  if (keyword != "if" && keyword != "elif" && keyword != "while") return std::nullopt;
  std::vector<size_t> colons = find_ops(c.line, c.line.first, ":");
  size_t header_end = colons.empty() ? c.line.newline : colons.front();
  std::vector<size_t> equals;
  for (size_t eq : find_ops(c.line, c.line.first, "=")) if (eq < header_end) equals.push_back(eq);
  if (equals.size() != 1 || equals[0] == c.line.first + 1 || equals[0] + 1 >= header_end) return std::nullopt;
  size_t eq = equals[0];
  std::string fixed = text(c.line.first, eq) + " == " + text(eq + 1, c.line.newline);
  if (!complete(keyword, fixed) && !complete(keyword, fixed + ":")) return std::nullopt;
  const char* hint = "compare with '=='; to assign inside an expression use ':='";
  if (eq == c.line.first + 2 && token(c.line.first + 1).kind == TokenKind::name && !is_keyword(word(c.line.first + 1)))
    return SyntaxProblem{range(c.line.first + 1, header_end - 1),
                         "invalid syntax. Maybe you meant '==' or ':=' instead of '='?", hint};
  auto kind = expression_kind(c.line.first + 1, eq);
  if (!kind) return std::nullopt;
  return SyntaxProblem{kind->second,
                       fmt::format("cannot assign to {} here. Maybe you meant '==' instead of '='?", kind->first), hint};
}

std::optional<SyntaxProblem> Explainer::missing_parameters(const LineContext& c) {
  size_t def = word(c.line.first) == "async" ? c.line.first + 1 : c.line.first;
  if (word(def) != "def" || def + 2 >= c.line.newline || token(def + 1).kind != TokenKind::name || is_op(def + 2, "("))
    return std::nullopt;
  return SyntaxProblem{range(def + 2, def + 2), "expected '('", "a function's parameters follow its name in parentheses"};
}

std::optional<SyntaxProblem> Explainer::missing_colon(const LineContext& c) {
  std::string_view keyword = word(c.line.first);
  if (keyword == "@" || !wrapping_for(keyword).header || c.line.newline >= tokens_.tokens.size()) return std::nullopt;
  if (!complete(keyword, text(c.line.first, c.line.newline) + ":")) return std::nullopt;
  uint32_t at = token(c.line.newline).begin;
  return SyntaxProblem{{at, at + 1}, "expected ':'",
                       "end the header of an if, elif, else, for, while, with, def or class statement with ':'"};
}

bool Explainer::ends_operand(size_t i) const {
  switch (token(i).kind) {
    case TokenKind::name: return !is_keyword(word(i)) || is_constant_word(word(i));
    case TokenKind::number:
    case TokenKind::string: return true;
    case TokenKind::op: return word(i) == ")" || word(i) == "]" || word(i) == "}";
    default: return false;
  }
}

bool Explainer::starts_operand(size_t i) const {
  switch (token(i).kind) {
    case TokenKind::name: return !is_keyword(word(i)) || is_constant_word(word(i));
    case TokenKind::number:
    case TokenKind::string: return true;
    case TokenKind::op: return word(i) == "(" || word(i) == "[" || word(i) == "{";
    default: return false;
  }
}

// A token that separates one element of a bracket from the next (so it is no part of either).
bool Explainer::bounds_element(size_t i) const {
  if (token(i).kind == TokenKind::name) {
    std::string_view w = word(i);
    return is_keyword(w) && w != "and" && w != "or" && w != "not" && w != "in" && w != "is" && !is_constant_word(w);
  }
  if (token(i).kind != TokenKind::op) return false;
  std::string_view w = word(i);
  if (w == "," || w == ";" || w == "=" || w == ":" || w == ":=" || w == "->") return true;
  return std::any_of(std::begin(augmented_operators), std::end(augmented_operators), [&](const char* op) { return w == op; });
}

// Where the element that ends at token `last` begins: after the nearest separator or opening
// bracket at its depth.
size_t Explainer::element_start(const Line& line, size_t last) const {
  uint32_t depth = token(last).depth;
  size_t i = last;
  while (i > line.first && (token(i - 1).depth > depth || (token(i - 1).depth == depth && !bounds_element(i - 1)))) --i;
  return i;
}

size_t Explainer::element_end(const Line& line, size_t first) const {
  uint32_t depth = token(first).depth;
  size_t i = first;
  while (i + 1 < line.newline && (token(i + 1).depth > depth || (token(i + 1).depth == depth && !bounds_element(i + 1) &&
                                                                  !starts_operand(i + 1))))
    ++i;
  return i;
}

std::optional<SyntaxProblem> Explainer::forgotten_comma(const LineContext& c) {
  size_t f = c.failing;
  if (f <= c.line.first || f >= c.line.newline) return std::nullopt;
  size_t p = f - 1;
  if (token(f).depth == 0 || token(p).depth != token(f).depth || !ends_operand(p) || !starts_operand(f)) return std::nullopt;
  size_t start = element_start(c.line, p);
  if (token(start).kind == TokenKind::name &&
      (is_soft_keyword(word(start)) || (start + 1 < c.line.newline && token(start + 1).kind == TokenKind::string)))
    return std::nullopt;
  std::string with_comma = text(c.line.first, f) + ", " + std::string(word(f));
  if (!viable(word(c.line.first), with_comma, closers(c.line.first, f + 1))) return std::nullopt;
  return SyntaxProblem{range(start, element_end(c.line, f)), "invalid syntax. Perhaps you forgot a comma?",
                       "separate the items with ','"};
}

std::optional<SyntaxProblem> Explainer::missing_else(const LineContext& c) {
  size_t f = c.failing;
  if (f <= c.line.first + 1 || f > c.line.newline) return std::nullopt;
  uint32_t depth = f < c.line.newline ? token(f).depth : 0;
  size_t i = f;
  while (i > c.line.first && !(token(i - 1).depth == depth && word(i - 1) == "if")) {
    if (token(i - 1).depth < depth || (token(i - 1).depth == depth && (word(i - 1) == "else" || bounds_element(i - 1))))
      return std::nullopt;
    --i;
  }
  size_t keyword = i - 1;
  if (i <= c.line.first + 1 || keyword + 1 >= f) return std::nullopt;
  if (!viable(word(c.line.first), text(c.line.first, f) + " else _", closers(c.line.first, f))) return std::nullopt;
  return SyntaxProblem{{token(element_start(c.line, keyword - 1)).begin, token(f - 1).end},
                       "expected 'else' after 'if' expression", "a conditional expression is 'A if CONDITION else B'"};
}

// ---- putting it together --------------------------------------------------------------------

// The first token tree-sitter could not place: the first leaf, MISSING node or ERROR inside the
// first ERROR, whose own start is often a line or more before (a decorator, a `def`).
SyntaxProblem Explainer::tree_sitter_fallback(TSNode region) const {
  TSNode node = region;
  for (bool descended = true; descended;) {
    descended = false;
    if (ts_node_is_missing(node)) break;
    bool in_error = std::string_view(ts_node_type(node)) == "ERROR";
    for (TSNode child : SyntaxTree::children(node)) {
      bool child_error = std::string_view(ts_node_type(child)) == "ERROR" || ts_node_is_missing(child);
      if ((in_error && (!ts_node_is_named(child) || child_error)) || (!in_error && ts_node_has_error(child))) {
        node = child;
        descended = !ts_node_is_missing(child) && ts_node_child_count(child) > 0;
        break;
      }
    }
  }
  uint32_t begin = ts_node_start_byte(node);
  uint32_t end = std::max(begin + 1, std::min<uint32_t>(ts_node_end_byte(node), static_cast<uint32_t>(text_.find('\n', begin))));
  return {{begin, end}, "invalid syntax", generic_hint};
}

SyntaxProblem Explainer::explain(TSNode region) {
  uint32_t region_begin = file_.line_start(file_.line_of(ts_node_start_byte(region)));
  uint32_t region_end = ts_node_end_byte(region);
  const std::optional<TokenError>& error = tokens_.error;
  // The tokenizer stopped before the region: it has no tokens of it to explain.
  if (error && error->where.begin < region_begin) return tree_sitter_fallback(region);
  std::optional<SyntaxProblem> found;
  const Line* previous = nullptr;
  for (const Line& line : lines_) {
    uint32_t begin = token(line.first).begin;
    if (begin >= region_end) break;
    if (begin >= region_begin && (found = problem_in(line, previous))) {
      found_reach_ = std::max({found_reach_, found->where.begin, found->where.end - 1});
      break;
    }
    previous = &line;
  }
  // After a parser error CPython tokenizes the rest of the file, and a tokenizer error found
  // there wins; a dedent to no level is met only by a parser that gets that far.
  if (error && error->where.begin < region_end &&
      (!error->indentation || !found || found->where.begin >= error->where.begin))
    return {error->where, error->message, error->hint};
  // A bracket left open: CPython says so when the parser failed on a later line, or ran out of file.
  if (tokens_.unclosed && *tokens_.unclosed >= region_begin && *tokens_.unclosed < region_end &&
      (!found || found_reach_ >= text_.size() || file_.line_of(found_reach_) > file_.line_of(*tokens_.unclosed))) {
    uint32_t at = *tokens_.unclosed;
    return {{at, at + 1}, fmt::format("'{}' was never closed", text_[at]), "close it, or remove it"};
  }
  if (found) return *found;
  return tree_sitter_fallback(region);
}

}  // namespace

SyntaxProblem explain_syntax_error(const SyntaxTree& tree, TSNode region) { return Explainer(tree).explain(region); }

}  // namespace pykern::syntax

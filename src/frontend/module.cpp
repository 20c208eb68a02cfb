#include "frontend/module.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "frontend/lower.h"
#include "syntax/nfkc.h"
#include "syntax/source_checks.h"

namespace pykern::frontend {

using syntax::Field;
using syntax::Node;

const char* to_string(FunctionRole role) {
  switch (role) {
    case FunctionRole::kernel: return "kernel";
    case FunctionRole::device: return "device function";
    case FunctionRole::vectorize: return "@vectorize ufunc";
    case FunctionRole::guvectorize: return "@guvectorize gufunc";
    case FunctionRole::reduce: return "@cuda.reduce reduction";
    case FunctionRole::undecorated: return "plain Python function";
  }
  return "function";
}

Module Module::build(const syntax::SyntaxTree& tree, Diagnostics& diagnostics) {
  Module module;
  module.tree_ = &tree;
  // Nothing below may read bytes CPython would not decode, recurse into a tree nested past the
  // limit, or trust a mis-indented one; nor translate a file CPython refuses to compile.
  if (!syntax::check_source_text(tree.file(), diagnostics) || !syntax::check_nesting(tree, diagnostics) ||
      !syntax::check_indentation(tree, diagnostics) || !syntax::check_python_rules(tree, diagnostics))
    return module;
  for (TSNode node : tree.named_children(tree.root())) module.scan_statement(node, diagnostics);
  return module;
}

// One module-level statement, as Python would run it at import: imports, definitions and
// `NAME = value` are recorded; `try:` and `if` blocks are entered where the path Python takes
// can be decided; anything else only notes the names it binds.
void Module::scan_statement(TSNode node, Diagnostics& diagnostics) {
  const syntax::SyntaxTree& tree = *tree_;
  switch (tree.kind(node)) {
    case Node::import_statement: scan_import(node); break;
    case Node::import_from_statement: scan_import_from(node); break;
    case Node::function_definition: scan_function(node, {}, diagnostics); break;
    case Node::decorated_definition: {
      TSNode definition = tree.field(node, Field::definition);
      std::vector<TSNode> decorators;
      for (TSNode child : tree.named_children(node))
        if (tree.kind(child) == Node::decorator) decorators.push_back(child);
      if (tree.kind(definition) == Node::function_definition) scan_function(definition, decorators, diagnostics);
      else if (tree.kind(definition) != Node::class_definition || !scan_enum(definition)) note_bindings(node);
      break;
    }
    case Node::expression_statement: {
      TSNode inner = ts_node_named_child(node, 0);
      if (tree.kind(inner) == Node::assignment && scan_decorator_call(inner, diagnostics)) break;
      if (tree.kind(inner) == Node::assignment && scan_factory_call(inner)) break;
      if (tree.kind(inner) == Node::assignment && scan_assignment(inner)) break;
      note_bindings(node);  // `N += 1`, `a, b = 1, 2`, `x = y = 3`
      break;
    }
    case Node::class_definition: scan_class(node, diagnostics); break;
    case Node::try_statement: scan_try(node, diagnostics); break;
    case Node::if_statement: scan_if(node, diagnostics); break;
    case Node::error:
      // Lines that do not parse are ignored (notebook magics, Python 2 prints), unless they
      // hold a definition: then a kernel is broken and the user must hear of it.
      if (holds_definition(tree, node)) tree.report_syntax_errors(node, diagnostics);
      break;
    default:
      // Host code, classes, loops: not evaluated, so a kernel may not depend on a name they bind.
      note_bindings(node);
      break;
  }
}

// `class Helper:` with `@staticmethod` over `@cuda.jit`: the kernel (or device function) is
// `Helper._kernel`, launched as Numba's `Helper._kernel[blocks, threads](...)`. The class is
// otherwise host code; its other methods and attributes are not scanned.
void Module::scan_class(TSNode node, Diagnostics& diagnostics) {
  if (scan_enum(node)) return;
  note_bindings(node);
  std::string class_name = tree_->name(tree_->field(node, Field::name));
  for (TSNode member : tree_->named_children(tree_->field(node, Field::body))) {
    if (tree_->kind(member) != Node::decorated_definition) continue;
    TSNode definition = tree_->field(member, Field::definition);
    if (tree_->kind(definition) != Node::function_definition) continue;
    std::vector<TSNode> decorators;
    bool is_static = false;
    for (TSNode child : tree_->named_children(member)) {
      if (tree_->kind(child) != Node::decorator) continue;
      TSNode expression = ts_node_named_child(child, 0);
      if (tree_->kind(expression) == Node::identifier && tree_->name(expression) == "staticmethod") is_static = true;
      else decorators.push_back(child);
    }
    if (!is_static || decorators.empty()) continue;
    scan_function(definition, decorators, diagnostics, class_name + ".");
  }
}

// `class Color(IntEnum):` (or Enum, IntFlag, Flag, `(int, Enum)`): its members are the
// `NAME = value` statements of its body, as Python's enum machinery reads them; methods and
// docstrings are not members. Any other class is host code.
bool Module::scan_enum(TSNode node) {
  bool is_enum = false, is_flag = false;
  for (TSNode child : tree_->named_children(node)) {
    if (tree_->kind(child) != Node::argument_list) continue;
    for (TSNode base : tree_->named_children(child)) {
      Diagnostics scratch;
      ast::ExprId id = lower_expression(*tree_, base, ast_, scratch);
      if (scratch.has_errors()) continue;
      auto qualified = qualified_name(id);
      if (!qualified) continue;
      if (*qualified == "enum.IntEnum") is_enum = true;
      if (*qualified == "enum.IntFlag") is_enum = true;
      if (*qualified == "enum.Enum" || *qualified == "enum.Flag") is_enum = true;
      if (*qualified == "enum.IntFlag" || *qualified == "enum.Flag") is_flag = true;
    }
  }
  if (!is_enum) return false;
  ModuleEnum result;
  result.name = tree_->name(tree_->field(node, Field::name));
  result.is_flag = is_flag;
  result.range = syntax::SyntaxTree::range(node);
  for (TSNode statement : tree_->named_children(tree_->field(node, Field::body))) {
    if (tree_->kind(statement) != Node::expression_statement) continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (tree_->kind(assignment) != Node::assignment) continue;
    TSNode left = tree_->field(assignment, Field::left);
    TSNode right = tree_->field(assignment, Field::right);
    if (tree_->kind(left) != Node::identifier || ts_node_is_null(right)) continue;
    ModuleEnum::Member member;
    member.name = tree_->name(left);
    if (member.name.size() > 1 && member.name.front() == '_' && member.name.back() == '_') continue;  // _ignore_, __doc__
    member.range = syntax::SyntaxTree::range(assignment);
    Diagnostics scratch;
    member.value = lower_expression(*tree_, right, ast_, scratch);
    if (scratch.has_errors()) member.value = ast::ExprId();
    if (member.value.valid() && ast_[member.value].kind == ast::ExprKind::call) {
      auto callee = qualified_name(ast_[member.value].operands[0]);
      member.automatic = callee && *callee == "enum.auto";
    }
    result.members.push_back(std::move(member));
  }
  globals_.erase(result.name);
  enums_[result.name] = std::move(result);
  return true;
}

const ModuleEnum* Module::enum_class(const std::string& name) const {
  auto found = enums_.find(name);
  return found == enums_.end() ? nullptr : &found->second;
}

void Module::scan_block(TSNode block, Diagnostics& diagnostics) {
  if (ts_node_is_null(block)) return;
  for (TSNode statement : tree_->named_children(block)) scan_statement(statement, diagnostics);
}

// `except ImportError:`, `except (ImportError, AttributeError):`, `except Exception:`, or a bare
// `except:` would all catch a failed import.
bool Module::catches_import_error(TSNode except_clause) const {
  static const char* const catching[] = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"};
  auto catches = [&](TSNode type) {
    if (tree_->kind(type) != Node::identifier) return false;
    std::string name = tree_->name(type);
    for (const char* c : catching)
      if (name == c) return true;
    return false;
  };
  for (TSNode child : tree_->named_children(except_clause)) {
    if (tree_->kind(child) == Node::block) return true;  // a bare `except:`
    if (tree_->kind(child) == Node::tuple) {
      for (TSNode type : tree_->named_children(child))
        if (catches(type)) return true;
      return false;
    }
    // `except ImportError as e:` holds an as_pattern whose first child is the type.
    TSNode type = tree_->kind(child) == Node::identifier ? child : ts_node_named_child(child, 0);
    return catches(type) || (tree_->kind(type) == Node::tuple && [&] {
             for (TSNode t : tree_->named_children(type))
               if (catches(t)) return true;
             return false;
           }());
  }
  return true;
}

// `try: from numba import cuda / except ImportError: cuda = None`: kernels run where the imports
// succeed, so the try body (then its else and finally blocks) is what Python ran, and the
// handlers never ran. A try whose handlers catch something else is not decided.
void Module::scan_try(TSNode node, Diagnostics& diagnostics) {
  std::vector<TSNode> handlers, tail;
  TSNode body{};
  for (TSNode child : tree_->named_children(node)) {
    Node kind = tree_->kind(child);
    if (kind == Node::block && ts_node_is_null(body)) body = child;
    else if (kind == Node::except_clause || kind == Node::except_group_clause) handlers.push_back(child);
    else if (kind == Node::else_clause || kind == Node::finally_clause) tail.push_back(child);
  }
  for (TSNode handler : handlers) {
    if (tree_->kind(handler) == Node::except_clause && catches_import_error(handler)) continue;
    scan_undecided(node, node, diagnostics);
    return;
  }
  scan_block(body, diagnostics);
  for (TSNode clause : tail)
    for (TSNode child : tree_->named_children(clause))
      if (tree_->kind(child) == Node::block) scan_block(child, diagnostics);
}

// `if HAVE_CUDA:`, `if cuda is not None:`, `if Version(numba.__version__) >= Version("0.57"):`:
// the branch Python takes at import is scanned; the others bind nothing. `if __name__ ==
// "__main__":` is host code, as before.
void Module::scan_if(TSNode node, Diagnostics& diagnostics) {
  TSNode condition = tree_->field(node, Field::condition);
  std::string text(tree_->text(condition));
  if (text.find("__name__") != std::string::npos) {
    note_bindings(node);
    return;
  }
  std::vector<std::pair<TSNode, TSNode>> branches = {{condition, tree_->field(node, Field::consequence)}};
  TSNode otherwise{};
  for (TSNode alternative : tree_->fields(node, Field::alternative)) {
    if (tree_->kind(alternative) == Node::else_clause) otherwise = tree_->field(alternative, Field::body);
    else branches.push_back({tree_->field(alternative, Field::condition), tree_->field(alternative, Field::consequence)});
  }
  for (auto [test, block] : branches) {
    auto value = fold(test, 0);
    if (!value) {
      scan_undecided(node, test, diagnostics);
      return;
    }
    if (value->truthy()) {
      scan_block(block, diagnostics);
      return;
    }
  }
  if (!ts_node_is_null(otherwise)) scan_block(otherwise, diagnostics);
}

// A block pykern cannot decide: the names it binds are opaque, and a kernel or device function
// defined in it is an error at its decorator, since pykern cannot tell whether Python defines it.
void Module::scan_undecided(TSNode statement, TSNode header, Diagnostics& diagnostics) {
  note_bindings(statement);
  SourceRange where = syntax::SyntaxTree::range(header);
  uint32_t line = file().position(where.begin).line;
  std::vector<TSNode> stack = {statement};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (tree_->kind(node) == Node::decorated_definition) {
      TSNode definition = tree_->field(node, Field::definition);
      std::string name = tree_->name(tree_->field(definition, Field::name));
      undecided_.emplace(name, where);
      for (TSNode decorator : tree_->named_children(node)) {
        if (tree_->kind(decorator) != Node::decorator) continue;
        Diagnostics scratch;
        Decoration decoration = read_decorators({decorator}, scratch);
        if (decoration.role == FunctionRole::undecorated) continue;
        diagnostics.error(DiagKind::undecided_definition, file(), syntax::SyntaxTree::range(decorator),
                          fmt::format("cannot tell whether '{}' ({} '{}') is defined: it is under the "
                                      "import-time condition on line {}, which pykern cannot evaluate",
                                      std::string(tree_->text(decorator)), to_string(decoration.role), name, line),
                          "define it at top level, or make the condition one pykern can decide: a module "
                          "constant, `NAME is not None` on an import, a numba version comparison, or a "
                          "`try:` whose handlers catch ImportError");
        break;
      }
      continue;
    }
    if (tree_->kind(node) == Node::function_definition || tree_->kind(node) == Node::class_definition) continue;
    for (TSNode child : tree_->named_children(node)) stack.push_back(child);
  }
}

bool ImportTimeValue::truthy() const {
  switch (kind) {
    case Kind::none: return false;
    case Kind::boolean:
    case Kind::integer: return integer != 0;
    case Kind::real: return real != 0;
    case Kind::string: return !text.empty();
    case Kind::tuple: return !items.empty();
    case Kind::object: return true;
  }
  return true;
}

namespace {

using Value = ImportTimeValue;
using VKind = ImportTimeValue::Kind;

// The versions a module's version checks see: pykern follows numba-cuda 0.30.4 (its corpus is
// made by it) on the numba release the project's CPU reference uses.
constexpr const char* numba_version = "0.68.1";
constexpr const char* numba_cuda_version = "0.30.4";

Value of_kind(VKind kind) {
  Value value;
  value.kind = kind;
  return value;
}

Value make_integer(int64_t v, VKind kind = VKind::integer) {
  Value value;
  value.kind = kind;
  value.integer = v;
  return value;
}

// Version("0.57.1rc1") as packaging orders it, for release numbers: (0, 57, 1).
Value version_tuple(const std::string& text) {
  Value value;
  value.kind = VKind::tuple;
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    int64_t part = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) part = part * 10 + (text[i++] - '0');
    value.items.push_back(make_integer(part));
    if (i < text.size() && text[i] == '.') ++i;
    else break;
  }
  while (value.items.size() > 1 && value.items.back().integer == 0) value.items.pop_back();  // 1.0 == 1
  return value;
}

// numba.version_info and its fields (major, minor, patch, short, full), from numba_version.
std::optional<Value> numba_version_info(const std::string& qualified) {
  Value full = version_tuple(numba_version);
  while (full.items.size() < 3) full.items.push_back(make_integer(0));
  std::string field = qualified.substr(std::string("numba.version_info").size());
  if (field.empty() || field == ".full") return full;
  if (field == ".short") {
    full.items.resize(2);
    return full;
  }
  if (field == ".major") return full.items[0];
  if (field == ".minor") return full.items[1];
  if (field == ".patch") return full.items[2];
  return std::nullopt;
}

// `from numba import cuda`, `import numpy as np`: a module or function of a library pykern knows,
// never None or false. A name imported from elsewhere may be any value (a config flag).
bool imports_library_object(const std::string& qualified) {
  static const char* const libraries[] = {"numba", "numpy", "math", "cmath", "operator"};
  std::string head = qualified.substr(0, qualified.find('.'));
  for (const char* library : libraries)
    if (head == library) return true;
  return false;
}

bool numeric(const Value& v) { return v.kind == VKind::boolean || v.kind == VKind::integer || v.kind == VKind::real; }
double as_double(const Value& v) { return v.kind == VKind::real ? v.real : static_cast<double>(v.integer); }

// -1, 0, 1; nullopt where Python would raise (or pykern cannot tell) ordering them.
std::optional<int> order(const Value& a, const Value& b) {
  if (numeric(a) && numeric(b)) {
    double x = as_double(a), y = as_double(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.kind == VKind::string && b.kind == VKind::string) return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  if (a.kind == VKind::tuple && b.kind == VKind::tuple) {
    for (size_t i = 0; i < a.items.size() && i < b.items.size(); ++i) {
      auto o = order(a.items[i], b.items[i]);
      if (!o || *o != 0) return o;
    }
    return a.items.size() < b.items.size() ? -1 : a.items.size() > b.items.size() ? 1 : 0;
  }
  return std::nullopt;
}

std::optional<bool> equal(const Value& a, const Value& b) {
  if (a.kind == VKind::none || b.kind == VKind::none) return a.kind == b.kind;
  if (a.kind == VKind::object || b.kind == VKind::object) return std::nullopt;
  auto o = order(a, b);
  if (!o) return false;  // a number never equals a string
  return *o == 0;
}

std::optional<bool> compare(ast::CompareOp op, const Value& a, const Value& b) {
  using ast::CompareOp;
  switch (op) {
    case CompareOp::is:
    case CompareOp::is_not: {
      // `is None`, `is True`, `is False` are decided (singletons); identity of anything else
      // depends on the objects.
      bool singletons = (a.kind == VKind::none || a.kind == VKind::boolean) &&
                        (b.kind == VKind::none || b.kind == VKind::boolean);
      if (a.kind != VKind::none && b.kind != VKind::none && !singletons) return std::nullopt;
      bool same = a.kind == b.kind && a.integer == b.integer;
      return op == CompareOp::is ? same : !same;
    }
    case CompareOp::eq: return equal(a, b);
    case CompareOp::ne: {
      auto e = equal(a, b);
      if (!e) return std::nullopt;
      return !*e;
    }
    case CompareOp::lt:
    case CompareOp::le:
    case CompareOp::gt:
    case CompareOp::ge: {
      auto o = order(a, b);
      if (!o) return std::nullopt;
      if (op == CompareOp::lt) return *o < 0;
      if (op == CompareOp::le) return *o <= 0;
      if (op == CompareOp::gt) return *o > 0;
      return *o >= 0;
    }
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<ImportTimeValue> Module::fold(TSNode node, int depth) {
  Diagnostics scratch;  // a condition pykern cannot lower is one it cannot decide; the file is not wrong
  ast::ExprId id = lower_expression(*tree_, node, ast_, scratch);
  if (scratch.has_errors()) return std::nullopt;
  return fold(id, depth);
}

std::optional<ImportTimeValue> Module::fold_global(const std::string& name, int depth) {
  if (opaque_bindings_.count(name) || undecided_.count(name)) return std::nullopt;
  auto found = globals_.find(name);
  if (found == globals_.end()) return std::nullopt;
  return fold(found->second.value, depth + 1);
}

// Folds what an import-time condition reads: literals, module constants, imports (a module that
// imported is an object, never None), version strings and their Version(...) parses, `not`,
// `and`/`or` and comparison chains. Calls and anything else are undecided.
std::optional<ImportTimeValue> Module::fold(ast::ExprId id, int depth) {
  if (!id.valid() || depth > 32) return std::nullopt;
  const ast::Expr& e = ast_[id];
  using ast::ExprKind;
  switch (e.kind) {
    case ExprKind::none: return of_kind(VKind::none);
    case ExprKind::boolean: return make_integer(e.int_value, VKind::boolean);
    case ExprKind::integer:
      if (e.int_overflows || e.int_unsigned) return std::nullopt;
      return make_integer(e.int_value);
    case ExprKind::float_: {
      Value v = of_kind(VKind::real);
      v.real = e.float_value;
      return v;
    }
    case ExprKind::string: {
      Value v = of_kind(VKind::string);
      v.text = e.text;
      return v;
    }
    case ExprKind::tuple: {
      Value v = of_kind(VKind::tuple);
      for (ast::ExprId operand : e.operands) {
        auto item = fold(operand, depth + 1);
        if (!item) return std::nullopt;
        v.items.push_back(*item);
      }
      return v;
    }
    case ExprKind::name:
    case ExprKind::attribute: {
      if (auto qualified = qualified_name(id)) {
        Value v = of_kind(VKind::string);
        if (*qualified == "numba.__version__") v.text = numba_version;
        else if (*qualified == "numba_cuda.__version__" || *qualified == "numba.cuda.__version__") v.text = numba_cuda_version;
        else if (qualified->rfind("numba.version_info", 0) == 0) return numba_version_info(*qualified);
        else if (qualified->find("__version__") != std::string::npos) return std::nullopt;
        else if (*qualified == "typing.TYPE_CHECKING") return make_integer(0, VKind::boolean);
        else if (e.kind == ExprKind::name && imports_library_object(*qualified)) return of_kind(VKind::object);
        else return std::nullopt;  // a module's attribute, another library's name: not known here
        return v;
      }
      if (e.kind == ExprKind::name) {
        if (function(e.text)) return of_kind(VKind::object);
        return fold_global(e.text, depth);
      }
      return std::nullopt;
    }
    case ExprKind::call: {
      auto callee = qualified_name(e.operands[0]);
      static const char* const version_parsers[] = {"packaging.version.Version", "packaging.version.parse",
                                                    "distutils.version.LooseVersion",
                                                    "distutils.version.StrictVersion", "pkg_resources.parse_version"};
      if (!callee || e.operands.size() != 2 || !e.keywords.empty()) return std::nullopt;
      for (const char* parser : version_parsers) {
        if (*callee != parser) continue;
        auto text = fold(e.operands[1], depth + 1);
        if (!text || text->kind != VKind::string) return std::nullopt;
        return version_tuple(text->text);
      }
      return std::nullopt;
    }
    case ExprKind::not_: {
      auto operand = fold(e.operands[0], depth + 1);
      if (!operand) return std::nullopt;
      return make_integer(!operand->truthy(), VKind::boolean);
    }
    case ExprKind::unary: {
      auto operand = fold(e.operands[0], depth + 1);
      if (!operand || !numeric(*operand) || e.unary_op != ast::UnaryOp::neg) return std::nullopt;
      if (operand->kind == VKind::real) {
        operand->real = -operand->real;
        return operand;
      }
      return make_integer(-operand->integer);
    }
    case ExprKind::bool_op: {
      auto left = fold(e.operands[0], depth + 1);
      if (!left) return std::nullopt;
      bool and_ = e.bool_op == ast::BoolOp::and_;
      if (left->truthy() != and_) return left;  // `False and x`, `True or x`: x is not evaluated
      return fold(e.operands[1], depth + 1);
    }
    case ExprKind::compare: {
      auto left = fold(e.operands[0], depth + 1);
      if (!left) return std::nullopt;
      for (size_t i = 0; i < e.compare_ops.size(); ++i) {
        auto right = fold(e.operands[i + 1], depth + 1);
        if (!right) return std::nullopt;
        auto holds = compare(e.compare_ops[i], *left, *right);
        if (!holds) return std::nullopt;
        if (!*holds) return make_integer(0, VKind::boolean);
        left = right;
      }
      return make_integer(1, VKind::boolean);
    }
    default: return std::nullopt;
  }
}

bool Module::holds_definition(const syntax::SyntaxTree& tree, TSNode node) {
  for (TSNode child : syntax::SyntaxTree::children(node)) {
    if (tree.kind(child) == Node::decorator || tree.kind(child) == Node::function_definition ||
        tree.kind(child) == Node::decorated_definition ||
        tree.token(child) == syntax::Token::kw_def)
      return true;
    if (tree.kind(child) == Node::error && holds_definition(tree, child)) return true;
  }
  return false;
}

// `numba.cuda`, or a relative `.kernels`, with each name NFKC-normalised as Python binds it.
std::string Module::dotted_name(TSNode node) const { return syntax::nfkc_identifier(tree_->text(node)); }

// import_statement = 'import' (dotted_name | aliased_import) (',' ...)*
void Module::scan_import(TSNode node) {
  for (TSNode name : tree_->fields(node, Field::name)) {
    if (tree_->kind(name) == Node::aliased_import) {
      std::string qualified = dotted_name(tree_->field(name, Field::name));
      imports_[tree_->name(tree_->field(name, Field::alias))] = qualified;
    } else {
      // `import numba.cuda` binds `numba`; the attribute path resolves the rest.
      std::string dotted = dotted_name(name);
      std::string head = dotted.substr(0, dotted.find('.'));
      imports_[head] = head;
    }
  }
}

// import_from_statement = 'from' module_name 'import' (wildcard_import | name (',' name)*)
void Module::scan_import_from(TSNode node) {
  std::string module = dotted_name(tree_->field(node, Field::module_name));
  for (TSNode child : tree_->named_children(node))
    if (tree_->kind(child) == Node::wildcard_import) star_import_ = true;
  for (TSNode name : tree_->fields(node, Field::name)) {
    if (tree_->kind(name) == Node::aliased_import) {
      std::string member = dotted_name(tree_->field(name, Field::name));
      imports_[tree_->name(tree_->field(name, Field::alias))] = module + "." + member;
    } else {
      std::string member = dotted_name(name);
      imports_[member] = module + "." + member;
    }
  }
}

bool Module::scan_assignment(TSNode node) {
  TSNode left = tree_->field(node, Field::left);
  TSNode right = tree_->field(node, Field::right);
  if (ts_node_is_null(right) || tree_->kind(right) == Node::assignment) return false;  // chained: not folded
  // `A, B = 1.5, ord("x")`: each name is bound to its own item, as Python unpacks the tuple.
  std::vector<std::pair<TSNode, TSNode>> bindings;  // target, value
  Node left_kind = tree_->kind(left), right_kind = tree_->kind(right);
  if (left_kind == Node::identifier) {
    bindings.push_back({left, right});
  } else if ((left_kind == Node::pattern_list || left_kind == Node::tuple_pattern || left_kind == Node::tuple) &&
             (right_kind == Node::expression_list || right_kind == Node::tuple)) {
    std::vector<TSNode> targets = tree_->named_children(left), values = tree_->named_children(right);
    if (targets.size() != values.size()) return false;
    for (size_t i = 0; i < targets.size(); ++i) {
      if (tree_->kind(targets[i]) != Node::identifier || tree_->kind(values[i]) == Node::list_splat) return false;
      bindings.push_back({targets[i], values[i]});
    }
  } else {
    return false;
  }
  // A name the values read that the same statement binds (`A, B = B, A`) is read before it is
  // rebound: not a binding this model follows.
  for (const auto& [target, value] : bindings)
    for (const auto& [other, unused] : bindings)
      if (reads_name(value, tree_->name(other)) && bindings.size() > 1) return false;
  for (const auto& [target, value] : bindings) {
    ModuleGlobal global;
    global.name = tree_->name(target);
    global.value = value;
    global.range = syntax::SyntaxTree::range(node);
    // A rebinding that reads the name (`TAPS = TAPS / TAPS.sum()`) reads the binding before it:
    // that one stays, under a name no Python code can spell.
    auto before = globals_.find(global.name);
    if (before != globals_.end() && reads_name(value, global.name)) {
      global.previous = global.name + "#" + std::to_string(ts_node_start_byte(node));
      ModuleGlobal kept = before->second;
      kept.name = global.previous;
      globals_[kept.name] = kept;
    }
    // A later assignment rebinds: the last one wins, as Python's would at import time.
    globals_[global.name] = global;
    enums_.erase(global.name);
  }
  return true;
}

bool Module::reads_name(TSNode node, const std::string& name) const {
  if (tree_->kind(node) == Node::identifier) return tree_->name(node) == name;
  for (TSNode child : tree_->named_children(node))
    if (reads_name(child, name)) return true;
  return false;
}

namespace {
// Array methods that leave the array as it was (host code printing `LUT.sum()`, copying a
// device array back): calling them is not a change Numba's frozen copy would miss.
bool reads_only(const std::string& method) {
  static const char* const readers[] = {"copy_to_host", "copy", "astype", "reshape", "sum", "mean", "max", "min",
                                        "tolist", "tobytes", "view", "ravel", "flatten", "transpose", "std", "var",
                                        "any", "all", "argmax", "argmin", "item", "prod", "cumsum", "dot", "round"};
  for (const char* reader : readers)
    if (method == reader) return true;
  return false;
}
}  // namespace

// The names a statement pykern does not evaluate binds at module level: assignment and loop
// targets, and functions and classes it defines (their bodies bind locals, not globals).
// Subscripts and attributes (`a[0] = 1`) mutate objects and bind nothing.
void Module::note_bindings(TSNode statement) {
  std::vector<std::pair<TSNode, bool>> stack = {{statement, false}};  // node, is a target
  while (!stack.empty()) {
    auto [node, target] = stack.back();
    stack.pop_back();
    Node kind = tree_->kind(node);
    if (kind == Node::error) continue;
    // `X[0] = 1`, `X.flat = ...` and `X.fill(0)` change the array X names without rebinding it.
    bool method_call = kind == Node::call && tree_->kind(tree_->field(node, Field::function)) == Node::attribute &&
                       !reads_only(tree_->name(tree_->field(tree_->field(node, Field::function), Field::attribute)));
    if ((target && (kind == Node::subscript || kind == Node::attribute)) || method_call) {
      TSNode base = method_call ? tree_->field(tree_->field(node, Field::function), Field::object) : node;
      while (tree_->kind(base) == Node::subscript || tree_->kind(base) == Node::attribute)
        base = tree_->kind(base) == Node::subscript ? tree_->field(base, Field::value) : tree_->field(base, Field::object);
      // `B = A` makes B another name of A's array: changing it changes A too.
      for (int hops = 0; tree_->kind(base) == Node::identifier && hops < 64; ++hops) {
        std::string name = tree_->name(base);
        mutations_.emplace(name, syntax::SyntaxTree::range(statement));
        auto alias = globals_.find(name);
        if (alias == globals_.end()) break;
        base = alias->second.value;
      }
      if (!method_call) continue;
    }
    if (kind == Node::subscript || kind == Node::attribute) continue;
    if (target && kind == Node::identifier) {
      opaque_bindings_.emplace(tree_->name(node), syntax::SyntaxTree::range(statement));
      continue;
    }
    if (kind == Node::function_definition || kind == Node::class_definition) {
      stack.push_back({tree_->field(node, Field::name), true});
      continue;
    }
    if (kind == Node::import_statement || kind == Node::import_from_statement) {
      for (TSNode name : tree_->fields(node, Field::name)) {
        bool aliased = tree_->kind(name) == Node::aliased_import;
        std::string bound = aliased ? tree_->name(tree_->field(name, Field::alias)) : dotted_name(name);
        if (!aliased && kind == Node::import_statement) bound = bound.substr(0, bound.find('.'));
        opaque_bindings_.emplace(bound, syntax::SyntaxTree::range(statement));
      }
      continue;
    }
    bool binds = kind == Node::assignment || kind == Node::augmented_assignment || kind == Node::for_statement;
    for (TSNode child : tree_->named_children(node)) {
      bool is_target = target || (binds && ts_node_eq(child, tree_->field(node, Field::left)));
      stack.push_back({child, is_target});
    }
  }
}

std::optional<SourceRange> Module::mutation(const std::string& name) const {
  auto found = mutations_.find(name);
  if (found == mutations_.end()) return std::nullopt;
  return found->second;
}

std::optional<SourceRange> Module::opaque_binding(const std::string& name) const {
  auto found = opaque_bindings_.find(name);
  if (found == opaque_bindings_.end()) return std::nullopt;
  return found->second;
}

void Module::scan_function(TSNode definition, const std::vector<TSNode>& decorators,
                           Diagnostics& diagnostics, const std::string& prefix) {
  ModuleFunction function;
  function.name = prefix + tree_->name(tree_->field(definition, Field::name));
  function.definition = definition;
  function.decoration = read_decorators(decorators, diagnostics);
  if (!functions_.count(function.name)) function_order_.push_back(function.name);
  functions_[function.name] = std::move(function);
  globals_.erase(function.name);
}

std::optional<std::string> Module::imported(const std::string& local_name) const {
  auto found = imports_.find(local_name);
  if (found == imports_.end()) return std::nullopt;
  return found->second;
}

std::optional<std::string> Module::qualified_name(ast::ExprId id) const {
  if (!id.valid()) return std::nullopt;
  const ast::Expr& expr = ast_[id];
  if (expr.kind == ast::ExprKind::name) return imported(expr.text);
  if (expr.kind == ast::ExprKind::attribute) {
    auto base = qualified_name(expr.operands[0]);
    if (base) return *base + "." + expr.text;
  }
  return std::nullopt;
}

// `@cuda.jit` where `cuda` is bound only by a statement pykern does not evaluate (an `if` it
// cannot decide, a `try:` whose handlers catch something else): the function may be a kernel,
// so saying nothing would leave "no kernel named ..." as the only clue.
void Module::report_unresolved_decorator(TSNode decorator, ast::ExprId callee, Diagnostics& diagnostics) const {
  ast::ExprId root = callee;
  while (root.valid() && ast_[root].kind == ast::ExprKind::attribute) root = ast_[root].operands[0];
  if (!root.valid() || ast_[root].kind != ast::ExprKind::name) return;
  const std::string& name = ast_[root].text;
  if (functions_.count(name) || globals_.count(name)) return;
  auto bound = opaque_binding(name);
  if (!bound) return;
  diagnostics.error(DiagKind::undecided_definition, file(), syntax::SyntaxTree::range(decorator),
                    fmt::format("cannot resolve the decorator '{}': '{}' is bound on line {} by a statement "
                                "pykern does not evaluate",
                                std::string(tree_->text(decorator)), name, file().position(bound->begin).line),
                    "import it at top level, or in a `try:` whose handlers catch ImportError");
}

Decoration Module::read_decorators(const std::vector<TSNode>& decorators, Diagnostics& diagnostics) {
  Decoration decoration;
  for (TSNode decorator : decorators) {
    TSNode expression = ts_node_named_child(decorator, 0);
    if (ts_node_is_null(expression)) continue;
    ast::ExprId expr = lower_expression(*tree_, expression, ast_, diagnostics);
    bool is_call = ast_[expr].kind == ast::ExprKind::call;
    ast::ExprId callee = is_call ? ast_[expr].operands[0] : expr;
    auto name = qualified_name(callee);
    if (!name) {
      report_unresolved_decorator(decorator, callee, diagnostics);
      continue;  // otherwise someone else's decorator: not ours to judge
    }
    if (auto role = decorator_role(*name)) {
      decoration.role = *role;
      decoration.range = syntax::SyntaxTree::range(decorator);
      if (is_call) read_decorator_call(expr, decoration, diagnostics);
      default_ufunc_target(*name, decoration);
    }
  }
  return decoration;
}

std::optional<FunctionRole> Module::decorator_role(const std::string& qualified) {
  static const std::pair<const char*, FunctionRole> known[] = {
        {"numba.cuda.jit", FunctionRole::kernel},          {"numba.jit", FunctionRole::device},
        {"numba.njit", FunctionRole::device},              {"numba.vectorize", FunctionRole::vectorize},
        {"numba.guvectorize", FunctionRole::guvectorize},  {"numba.cuda.reduce", FunctionRole::reduce},
        {"numba.cuda.vectorize", FunctionRole::vectorize}, {"numba.cuda.guvectorize", FunctionRole::guvectorize},
        {"numba.core.decorators.jit", FunctionRole::device}};
  for (auto [name, role] : known)
    if (qualified == name) return role;
  return std::nullopt;
}

// numba.cuda.vectorize and numba.cuda.guvectorize make CUDA ufuncs; numba.vectorize and
// numba.guvectorize default to Numba's 'cpu' target.
void Module::default_ufunc_target(const std::string& qualified, Decoration& decoration) {
  bool ufunc = decoration.role == FunctionRole::vectorize || decoration.role == FunctionRole::guvectorize;
  if (!ufunc || !decoration.target.empty()) return;
  decoration.target = qualified.rfind("numba.cuda.", 0) == 0 ? "cuda" : "cpu";
}

// `k = cuda.jit(f)`, `k = cuda.jit(f, device=True)`, `k = cuda.jit('void(f4[:])', fastmath=True)(f)`,
// `g = cuda.jit(device=True)(f)`: numba's decorators called on a module function make a kernel
// (or device function, ufunc...) named k from f's definition, as the `@` form would; f itself
// stays the plain Python function it was. False: not such an assignment.
bool Module::scan_decorator_call(TSNode assignment, Diagnostics& diagnostics) {
  TSNode left = tree_->field(assignment, Field::left);
  TSNode right = tree_->field(assignment, Field::right);
  if (tree_->kind(left) != Node::identifier || ts_node_is_null(right) || tree_->kind(right) != Node::call) return false;
  Diagnostics scratch;
  ast::ExprId call = lower_expression(*tree_, right, ast_, scratch);
  if (scratch.has_errors()) return false;
  const ast::Expr& outer = ast_[call];
  auto function_named = [&](ast::ExprId id) -> ModuleFunction* {
    return ast_[id].kind == ast::ExprKind::name ? function(ast_[id].text) : nullptr;
  };
  Decoration decoration;
  ModuleFunction* source = nullptr;
  ast::ExprId callee = outer.operands[0];
  if (auto name = qualified_name(callee); name && decorator_role(*name) && outer.operands.size() >= 2 &&
                                          (source = function_named(outer.operands[1]))) {
    // cuda.jit(f, **options): the options as the decorator's, without the function.
    decoration.role = *decorator_role(*name);
    ast::Expr options = outer;
    options.operands.erase(options.operands.begin() + 1);
    read_decorator_call(ast_.exprs.add(std::move(options)), decoration, diagnostics);
    default_ufunc_target(*name, decoration);
  } else if (ast_[callee].kind == ast::ExprKind::call && outer.operands.size() == 2 && outer.keywords.empty() &&
             (source = function_named(outer.operands[1]))) {
    // cuda.jit(sig, **options)(f)
    auto name = qualified_name(ast_[callee].operands[0]);
    if (!name || !decorator_role(*name)) return false;
    decoration.role = *decorator_role(*name);
    read_decorator_call(callee, decoration, diagnostics);
    default_ufunc_target(*name, decoration);
  } else {
    return false;
  }
  decoration.range = syntax::SyntaxTree::range(right);
  ModuleFunction made;
  made.name = tree_->name(left);
  made.definition = source->definition;
  made.decoration = decoration;
  if (!functions_.count(made.name)) function_order_.push_back(made.name);
  globals_.erase(made.name);
  functions_[made.name] = std::move(made);
  return true;
}

// fastmath=True/False, a set of Numba's flag names ({'nnan', 'ninf'}), or a dict of name -> bool
// ({'nnan': True, 'arcp': False}); an unknown name is Numba's ValueError, here a located error.
void Module::read_fastmath(const ast::Keyword& keyword, FastMath& out, Diagnostics& diagnostics) const {
  const ast::Expr& value = ast_[keyword.value];
  auto add_named = [&](ast::ExprId name_id, bool enabled) {
    const ast::Expr& name = ast_[name_id];
    std::optional<FastMathFlag> flag;
    if (name.kind == ast::ExprKind::string) flag = FastMath::flag_named(name.text);
    if (!flag) {
      diagnostics.error(DiagKind::bad_decorator, file(), name.range,
                        name.kind == ast::ExprKind::string ? "unrecognized fastmath flag '" + name.text + "'"
                                                           : "a fastmath flag must be a string naming it",
                        std::string("Numba's flags: ") + FastMath::valid_names());
      return;
    }
    if (enabled) out.add(*flag);
  };
  out = FastMath{};
  if (value.kind == ast::ExprKind::boolean) {
    if (value.int_value) out = FastMath::all();
  } else if (value.kind == ast::ExprKind::set) {
    for (ast::ExprId name : value.operands) add_named(name, true);
  } else if (value.kind == ast::ExprKind::call && value.operands.size() == 1 && value.keywords.empty() &&
             ast_[value.operands[0]].kind == ast::ExprKind::name && ast_[value.operands[0]].text == "set") {
    // set(): no flags, as False
  } else if (value.kind == ast::ExprKind::dict) {
    for (size_t i = 0; i + 1 < value.operands.size(); i += 2) {
      const ast::Expr& enabled = ast_[value.operands[i + 1]];
      if (enabled.kind != ast::ExprKind::boolean) {
        diagnostics.error(DiagKind::bad_decorator, file(), enabled.range,
                          "a fastmath dict maps each flag to True or False");
        continue;
      }
      add_named(value.operands[i], enabled.int_value != 0);
    }
  } else {
    diagnostics.error(DiagKind::bad_decorator, file(), value.range,
                      "'fastmath' must be True, False, a set of flags or a dict of flags to True or False",
                      "e.g. fastmath=True or fastmath={'nnan', 'ninf', 'contract'}");
  }
}

// `fastmath=FLAGS` where `FLAGS = {'nnan', 'ninf'}` (or a dict, or a bool) is bound at top level
// before the decorator runs: the option as the constant's expression, as Python passes its value.
ast::Keyword Module::through_constant(const ast::Keyword& keyword, Diagnostics& diagnostics) {
  ast::Keyword resolved = keyword;
  const ast::Expr& value = ast_[keyword.value];
  if (value.kind == ast::ExprKind::name && globals_.count(value.text)) {
    ast::ExprId bound = global_value(value.text, diagnostics);
    if (bound.valid()) resolved.value = bound;
  }
  return resolved;
}

void Module::read_decorator_call(ast::ExprId call, Decoration& decoration, Diagnostics& diagnostics) {
  const ast::Expr& expr = ast_[call];
  // First positional argument: a signature, or a list of them.
  for (size_t i = 1; i < expr.operands.size(); ++i) {
    const ast::Expr& argument = ast_[expr.operands[i]];
    // A list of signatures; for (gu)vectorize a tuple too, which Numba iterates the same way
    // (for cuda.jit a tuple is one signature: its argument types).
    bool ufunc = decoration.role == FunctionRole::vectorize || decoration.role == FunctionRole::guvectorize;
    bool layout_only = i == 1 && expr.operands.size() == 2 && decoration.role == FunctionRole::guvectorize &&
                       argument.kind == ast::ExprKind::string && argument.text.find("->") != std::string::npos;
    if (layout_only) {  // @guvectorize('(n)->()'): Numba's dynamic gufunc, typed per call
      decoration.gufunc_layout = argument.text;
    } else if (i == 1 && (argument.kind == ast::ExprKind::list || (ufunc && argument.kind == ast::ExprKind::tuple))) {
      decoration.signatures = argument.operands;
    } else if (i == 1) {
      decoration.signatures.push_back(expr.operands[i]);
    } else if (i == 2 && decoration.role == FunctionRole::guvectorize &&
               argument.kind == ast::ExprKind::string) {
      decoration.gufunc_layout = argument.text;
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), argument.range,
                        "unexpected positional argument to the decorator",
                        "pass options by keyword, e.g. debug=True");
    }
  }
  auto flag = [&](const ast::Keyword& keyword, bool& out) {
    const ast::Expr& value = ast_[keyword.value];
    if (value.kind == ast::ExprKind::boolean) {
      out = value.int_value != 0;
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), value.range,
                        "'" + keyword.name + "' must be True or False");
    }
  };
  auto integer = [&](const ast::Keyword& keyword, std::optional<int>& out) {
    const ast::Expr& value = ast_[keyword.value];
    if (value.kind == ast::ExprKind::integer && value.int_value >= 0 && value.int_value < 1024) {
      out = static_cast<int>(value.int_value);
    } else if (value.kind == ast::ExprKind::boolean) {
      out = value.int_value ? 3 : 0;
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), value.range,
                        "'" + keyword.name + "' must be a small non-negative integer");
    }
  };
  // A copy: reading a constant (fastmath=FLAGS) lowers it, which may move the expressions.
  const std::vector<ast::Keyword> keywords = expr.keywords;
  for (const ast::Keyword& keyword : keywords) {
    const ast::Expr& value = ast_[keyword.value];
    if (keyword.name == "device") {
      bool device = false;
      flag(keyword, device);
      if (device && decoration.role == FunctionRole::kernel) {
        decoration.role = FunctionRole::device;
        decoration.device_only = true;
      }
    } else if (keyword.name == "debug") {
      flag(keyword, decoration.debug);
    } else if (keyword.name == "fastmath") {
      read_fastmath(through_constant(keyword, diagnostics), decoration.fastmath, diagnostics);
    } else if (keyword.name == "boundscheck") {
      // None is Numba's default: no checks unless NUMBA_BOUNDSCHECK says otherwise.
      if (value.kind != ast::ExprKind::none) flag(keyword, decoration.boundscheck);
    } else if (keyword.name == "lineinfo") {
      flag(keyword, decoration.lineinfo);
    } else if (keyword.name == "cache") {
      flag(keyword, decoration.cache);
    } else if (keyword.name == "opt") {
      integer(keyword, decoration.opt);
    } else if (keyword.name == "max_registers") {
      integer(keyword, decoration.max_registers);
    } else if (keyword.name == "target" && value.kind == ast::ExprKind::string) {
      decoration.target = value.text;
    } else if (keyword.name == "signature" || keyword.name == "sig") {
      decoration.signatures.push_back(keyword.value);
    } else if (keyword.name == "forceobj") {
      bool forced = false;
      flag(keyword, forced);
      if (forced) decoration.object_mode = keyword.range;
    } else if (keyword.name == "identity") {
      // The identity of a ufunc's reductions: 0, 1, 'reorderable' or None (Numba's parse_identity).
      if (value.kind == ast::ExprKind::integer && (value.int_value == 0 || value.int_value == 1))
        decoration.ufunc_identity = std::to_string(value.int_value);
      else if (value.kind == ast::ExprKind::string && value.text == "reorderable")
        decoration.ufunc_identity = value.text;
      else if (value.kind != ast::ExprKind::none)
        diagnostics.error(DiagKind::bad_decorator, file(), value.range, "invalid identity value for a ufunc",
                          "Numba takes identity=0, 1, 'reorderable' or None");
    } else if (keyword.name == "writable_args") {
      // The gufunc inputs the function may write (every array argument is writable here).
    } else if (keyword.name == "inline" || keyword.name == "nopython" || keyword.name == "nogil" ||
               keyword.name == "forceinline" || keyword.name == "looplift") {
      // nopython=False has had no effect since Numba 0.59 (a NumbaDeprecationWarning): still nopython.
      // Accepted and without effect here: NVRTC inlines device functions on its own.
    } else if (keyword.name == "parallel") {
      flag(keyword, decoration.parallel);  // prange loops on a thread pool (sema/parallel_loops.h)
    } else if (keyword.name == "error_model") {
      // 'numpy': a division by zero gives inf, nan or 0 in host calls too (kernels always do).
      if (value.kind == ast::ExprKind::string && (value.text == "python" || value.text == "numpy"))
        decoration.error_model = value.text;
      else
        diagnostics.error(DiagKind::bad_decorator, file(), value.range, "error_model must be 'python' or 'numpy'");
    } else if (keyword.name == "_dbg_optnone" || keyword.name == "_dbg_extend_lifetimes" || keyword.name == "lto" ||
               keyword.name == "launch_bounds") {
      // numba-cuda's testing and tuning options: a kernel file that uses them still runs.
      diagnostics.warning(DiagKind::bad_decorator, file(), keyword.range,
                          "'" + keyword.name + "' is accepted and has no effect in pykern");
    } else {
      diagnostics.error(DiagKind::bad_decorator, file(), keyword.range,
                        "unsupported decorator option '" + keyword.name + "'",
                        "supported: device, debug, fastmath, lineinfo, opt, max_registers, cache, "
                        "inline, target");
    }
  }
}

// `add = make(operator.add)` where
//     def make(op):
//         @cuda.jit
//         def kernel(a, b, out): ... op(a[i], b[i]) ...
//         return kernel
// makes the kernel `add` from the inner definition, with `op` bound to operator.add. Only
// factories whose body is that one decorated definition and its return are understood; False
// for any other assignment.
namespace {

// A factory's body as this model follows it: [docstring], `NAME = expression` locals, decorated
// function definitions (device functions and the kernel), then `return KERNEL`.
struct FactoryBody {
  std::vector<TSNode> locals;       // assignment nodes, in order
  std::vector<TSNode> definitions;  // decorated_definition nodes
  std::string returned;
};

std::optional<FactoryBody> read_factory_body(const syntax::SyntaxTree& tree, TSNode factory) {
  std::vector<TSNode> body = tree.named_children(tree.field(factory, Field::body));
  if (!body.empty() && tree.kind(body[0]) == Node::expression_statement &&
      tree.kind(ts_node_named_child(body[0], 0)) == Node::string)
    body.erase(body.begin());
  if (body.size() < 2 || tree.kind(body.back()) != Node::return_statement) return std::nullopt;
  FactoryBody read;
  TSNode returned = ts_node_named_child(body.back(), 0);
  if (ts_node_is_null(returned) || tree.kind(returned) != Node::identifier) return std::nullopt;
  read.returned = tree.name(returned);
  body.pop_back();
  for (TSNode statement : body) {
    if (tree.kind(statement) == Node::decorated_definition &&
        tree.kind(tree.field(statement, Field::definition)) == Node::function_definition) {
      read.definitions.push_back(statement);
      continue;
    }
    TSNode inner = tree.kind(statement) == Node::expression_statement ? ts_node_named_child(statement, 0) : TSNode{};
    if (ts_node_is_null(inner) || tree.kind(inner) != Node::assignment ||
        tree.kind(tree.field(inner, Field::left)) != Node::identifier || ts_node_is_null(tree.field(inner, Field::right)))
      return std::nullopt;  // a loop, an if, a call for its effect: not a factory this model follows
    read.locals.push_back(inner);
  }
  return read;
}

// Replaces the reads of bound names among the expressions [first, end) with what they are bound
// to, leaving the names in `own` (a function's locals, which shadow its closure) alone.
void substitute(ast::Ast& ast, size_t first, const std::map<std::string, ast::ExprId>& bound,
                const std::set<std::string>& own = {}) {
  for (size_t i = first; i < ast.exprs.size(); ++i) {
    ast::Expr& e = ast.exprs[ast::ExprId(static_cast<uint32_t>(i))];
    if (e.kind != ast::ExprKind::name || own.count(e.text)) continue;
    auto found = bound.find(e.text);
    if (found == bound.end()) continue;
    SourceRange read = e.range;
    e = ast[found->second];
    e.range = read;
  }
}

}  // namespace

// `made = factory(args)`: the factory's kernel (and the device functions defined beside it)
// become module functions whose closure binds the factory's parameters to the call's arguments
// and its locals to their expressions, as Numba freezes the values a closure reads.
bool Module::scan_factory_call(TSNode assignment) {
  TSNode left = tree_->field(assignment, Field::left);
  TSNode right = tree_->field(assignment, Field::right);
  if (tree_->kind(left) != Node::identifier || ts_node_is_null(right) || tree_->kind(right) != Node::call) return false;
  TSNode callee = tree_->field(right, Field::function);
  if (tree_->kind(callee) != Node::identifier) return false;
  ModuleFunction* factory = function(tree_->name(callee));
  if (!factory || factory->decoration.role != FunctionRole::undecorated) return false;
  auto body = read_factory_body(*tree_, factory->definition);
  if (!body) return false;
  std::string made_name = tree_->name(left);
  Diagnostics scratch;
  ast::ExprId call = lower_expression(*tree_, right, ast_, scratch);
  if (scratch.has_errors()) return false;
  // Bind the factory's parameters: positional, then keywords, then defaults.
  std::map<std::string, ast::ExprId> closure;
  std::vector<std::string> parameters;
  for (TSNode parameter : tree_->named_children(tree_->field(factory->definition, Field::parameters))) {
    Node kind = tree_->kind(parameter);
    if (kind == Node::identifier) {
      parameters.push_back(tree_->name(parameter));
    } else if (kind == Node::default_parameter) {
      parameters.push_back(tree_->name(tree_->field(parameter, Field::name)));
      closure[parameters.back()] = lower_expression(*tree_, tree_->field(parameter, Field::value), ast_, scratch);
    } else {
      return false;  // *args, **kwargs, annotations: not a factory this model follows
    }
  }
  const ast::Expr& arguments = ast_[call];
  if (arguments.operands.size() - 1 > parameters.size()) return false;
  for (size_t i = 1; i < arguments.operands.size(); ++i) closure[parameters[i - 1]] = arguments.operands[i];
  for (const ast::Keyword& keyword : arguments.keywords) {
    if (std::find(parameters.begin(), parameters.end(), keyword.name) == parameters.end()) return false;
    closure[keyword.name] = keyword.value;
  }
  if (closure.size() != parameters.size() || scratch.has_errors()) return false;
  // The factory's locals, each read through what the parameters and earlier locals hold.
  for (TSNode local : body->locals) {
    size_t first = ast_.exprs.size();
    ast::ExprId value = lower_expression(*tree_, tree_->field(local, Field::right), ast_, scratch);
    if (scratch.has_errors()) return false;
    substitute(ast_, first, closure);
    closure[tree_->name(tree_->field(local, Field::left))] = value;
  }
  // The functions it defines: the returned one is `made`, the others `made.inner`, and each
  // reads the others through its closure.
  std::vector<ModuleFunction> defined;
  for (TSNode statement : body->definitions) {
    TSNode inner = tree_->field(statement, Field::definition);
    std::string inner_name = tree_->name(tree_->field(inner, Field::name));
    std::vector<TSNode> decorators;
    for (TSNode child : tree_->named_children(statement))
      if (tree_->kind(child) == Node::decorator) decorators.push_back(child);
    ModuleFunction made;
    made.name = inner_name == body->returned ? made_name : made_name + "." + inner_name;
    made.definition = inner;
    // A decorator that reads the factory's parameters (`@cuda.jit(device=device)`) is not one
    // this model binds: such a call stays an opaque global, as before.
    made.decoration = read_decorators(decorators, scratch);
    if (made.decoration.role == FunctionRole::undecorated || scratch.has_errors()) return false;
    ast::Expr reference;
    reference.kind = ast::ExprKind::name;
    reference.text = made.name;
    closure[inner_name] = ast_.exprs.add(std::move(reference));
    defined.push_back(std::move(made));
  }
  if (std::none_of(defined.begin(), defined.end(), [&](const ModuleFunction& f) { return f.name == made_name; }))
    return false;
  for (ModuleFunction& made : defined) {
    made.closure = closure;
    std::string name = made.name;
    if (!functions_.count(name)) function_order_.push_back(name);
    globals_.erase(name);
    functions_[name] = std::move(made);
  }
  return true;
}

namespace {

void collect_bound_names(const ast::Ast& ast, ast::ExprId target, std::set<std::string>& names) {
  if (!target.valid()) return;
  const ast::Expr& e = ast[target];
  if (e.kind == ast::ExprKind::name) names.insert(e.text);
  if (e.kind == ast::ExprKind::tuple || e.kind == ast::ExprKind::list)
    for (ast::ExprId operand : e.operands) collect_bound_names(ast, operand, names);
}

void collect_locals(const ast::Ast& ast, const std::vector<ast::StmtId>& body, std::set<std::string>& names) {
  for (ast::StmtId id : body) {
    const ast::Stmt& stmt = ast[id];
    for (ast::ExprId target : stmt.targets) collect_bound_names(ast, target, names);
    collect_locals(ast, stmt.body, names);
    collect_locals(ast, stmt.orelse, names);
  }
}

}  // namespace

// The factory's parameters the kernel reads become the values they were bound to: each read of
// such a name (one the kernel does not assign) is replaced by the bound expression, kept at the
// read's place in the source for messages.
void Module::bind_closure(const ModuleFunction& function, ast::Function& lowered, size_t first_expr) {
  std::set<std::string> locals;
  for (const ast::Parameter& parameter : lowered.parameters) locals.insert(parameter.name);
  collect_locals(ast_, lowered.body, locals);
  substitute(ast_, first_expr, function.closure, locals);  // the expressions of this lowering
}

ModuleFunction* Module::function(const std::string& name) {
  auto found = functions_.find(name);
  return found == functions_.end() ? nullptr : &found->second;
}

std::vector<ModuleFunction*> Module::functions_in_order() {
  std::vector<ModuleFunction*> result;
  for (const std::string& name : function_order_) result.push_back(&functions_.at(name));
  return result;
}

void Module::mark_generated(uint32_t offset, Origin origin) {
  for (auto& [name, function] : functions_)
    if (ts_node_start_byte(function.definition) >= offset) function.origin = origin;
}

// A @cuda.jit kernel or device function: compiled for the GPU only, where numba-cuda refuses
// what a @jit function on the host may do (a try statement: frontend/try_statement.h).
static bool is_cuda_function(const ModuleFunction& function) {
  return function.decoration.role == FunctionRole::kernel || function.decoration.device_only;
}

// What a refusal calls the kind of function it is in: Numba's CPU functions (@jit, @njit) are
// not kernels, whatever they may be called from.
std::string refusal_place(const ModuleFunction& function) {
  bool jit = function.decoration.role == FunctionRole::device && !function.decoration.device_only;
  return jit ? "@jit functions" : "kernels";
}

const ast::Function* Module::lowered_function(const std::string& name, Diagnostics& diagnostics) {
  ModuleFunction* function = this->function(name);
  if (function == nullptr) return nullptr;
  if (!function->lowered) {
    function->lowered = true;
    Diagnostics reported;
    tree_->report_syntax_errors(function->definition, reported);
    size_t first_expr = ast_.exprs.size();
    function->ast = lower_function(*tree_, function->definition, ast_, reported, is_cuda_function(*function),
                                   refusal_place(*function));
    function->ast.name = function->name;  // `k = cuda.jit(f)` lowers f's definition as k
    if (!function->closure.empty()) bind_closure(*function, function->ast, first_expr);
    function->lowering_diagnostics = reported.all();
  }
  for (const Diagnostic& d : function->lowering_diagnostics) diagnostics.add(d);  // the same twice is one
  return &function->ast;
}

ast::Function Module::lowered_copy(const std::string& name, Diagnostics& diagnostics) {
  ModuleFunction* function = this->function(name);
  if (function == nullptr) return {};
  tree_->report_syntax_errors(function->definition, diagnostics);
  size_t first_expr = ast_.exprs.size();
  ast::Function lowered = lower_function(*tree_, function->definition, ast_, diagnostics, is_cuda_function(*function),
                                          refusal_place(*function));
  lowered.name = function->name;
  if (!function->closure.empty()) bind_closure(*function, lowered, first_expr);
  return lowered;
}

std::vector<std::string> Module::top_level_names() const {
  std::vector<std::string> names;
  for (const auto& [name, qualified] : imports_) names.push_back(name);
  for (const auto& [name, function] : functions_)
    if (name.find('.') == std::string::npos) names.push_back(name);  // not Helper._kernel, made.inner
  for (const auto& [name, global] : globals_) names.push_back(name);
  for (const auto& [name, enumeration] : enums_) names.push_back(name);
  for (const auto& [name, where] : opaque_bindings_) names.push_back(name);
  for (const auto& [name, where] : undecided_) names.push_back(name);
  return names;
}

ast::ExprId Module::global_value(const std::string& name, Diagnostics& diagnostics) {
  auto found = globals_.find(name);
  if (found == globals_.end()) return {};
  ModuleGlobal& global = found->second;
  if (!global.lowered) {
    global.lowered = true;
    tree_->report_syntax_errors(global.value, diagnostics);
    size_t first = ast_.exprs.size();
    global.expr = lower_expression(*tree_, global.value, ast_, diagnostics);
    if (!global.previous.empty())
      for (size_t i = first; i < ast_.exprs.size(); ++i) {
        ast::Expr& e = ast_.exprs[ast::ExprId(static_cast<uint32_t>(i))];
        if (e.kind == ast::ExprKind::name && e.text == global.name) e.text = global.previous;
      }
  }
  return global.expr;
}

}  // namespace pykern::frontend

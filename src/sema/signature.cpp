// Numba signatures as types: "void(float32[:, ::1], int64)", "f8(i4, i4)", float32[::1], ...
// A signature string is Python expression syntax, so it is parsed by the same parser and
// lowered to the same AST as kernels, then read as a type expression.
#include <algorithm>
#include <array>
#include <functional>

#include <fmt/format.h>

#include "frontend/lower.h"
#include "syntax/source_checks.h"
#include "sema/builtins.h"
#include "sema/infer.h"
#include "sema/memory_limits.h"

namespace pykern::sema {

namespace {

using Resolver = std::function<std::optional<Type>(const ast::Ast&, ast::ExprId)>;

struct TypeReader {
  const ast::Ast& ast;
  const SourceFile& file;
  Diagnostics& diagnostics;
  Resolver resolve;

  void error(SourceRange range, std::string message, std::string hint = {}) {
    diagnostics.error(DiagKind::bad_signature, file, range, std::move(message), std::move(hint));
  }

  // float32, f4, float32[:, ::1]
  std::optional<Type> type(ast::ExprId id) {
    const ast::Expr& e = ast[id];
    if (e.kind == ast::ExprKind::subscript) {
      auto dtype = type(e.operands[0]);
      if (!dtype) return std::nullopt;
      if (!dtype->is_scalar()) {
        error(e.range, "an array's element type must be a scalar type");
        return std::nullopt;
      }
      int ndim = static_cast<int>(e.operands.size()) - 1;
      if (ndim > 32) {  // NumPy's (and so Numba's) limit; a GPU's 4 KiB of parameters soon follows
        error(e.range, fmt::format("an array has at most 32 dimensions, not {}", ndim));
        return std::nullopt;
      }
      std::vector<bool> unit_step;
      for (int i = 1; i <= ndim; ++i) {
        const ast::Expr& axis = ast[e.operands[i]];
        bool ok = axis.kind == ast::ExprKind::slice && !axis.operands[0].valid() && !axis.operands[1].valid();
        bool unit = ok && axis.operands[2].valid() && ast[axis.operands[2]].kind == ast::ExprKind::integer &&
                    ast[axis.operands[2]].int_value == 1;
        if (!ok || (axis.operands[2].valid() && !unit)) {
          error(axis.range, "each array dimension is written ':' or '::1'",
                "e.g. float32[:] (any layout), float32[::1] (C), float32[:, ::1] (2-d C), float32[::1, :] (2-d F)");
          return std::nullopt;
        }
        unit_step.push_back(unit);
      }
      Layout layout = Layout::A;
      if (unit_step.back()) layout = Layout::C;
      else if (unit_step.front()) layout = Layout::F;
      int unit_count = static_cast<int>(std::count(unit_step.begin(), unit_step.end(), true));
      if (unit_count > 1 || (unit_count == 1 && !unit_step.back() && !unit_step.front())) {
        error(e.range, "'::1' marks the contiguous dimension: the last (C order) or the first (F order)");
        return std::nullopt;
      }
      return Type::array(*dtype, ndim, layout);
    }
    if (e.kind == ast::ExprKind::name || e.kind == ast::ExprKind::attribute) {
      if (auto found = resolve(ast, id)) return found;
      error(e.range, "unknown type '" + std::string(file.slice(e.range)) + "'",
            "use Numba's names: float32, float64, int32, int64, uint8, boolean, complex64, ... "
            "or the short forms f4 f8 i4 i8 u1 b1 c8 c16");
      return std::nullopt;
    }
    if (e.kind == ast::ExprKind::call && ast[e.operands[0]].kind == ast::ExprKind::name &&
        ast[e.operands[0]].text == "Record")
      return record(e);
    if (e.kind == ast::ExprKind::call && ast[e.operands[0]].kind == ast::ExprKind::name &&
        (ast[e.operands[0]].text == "UniTuple" || ast[e.operands[0]].text == "Tuple"))
      return tuple(e);
    if (e.kind == ast::ExprKind::string) {
      error(e.range, "a type written as a string inside a signature is not supported");
      return std::nullopt;
    }
    error(e.range, "'" + std::string(file.slice(e.range)) + "' is not a type");
    return std::nullopt;
  }

  // Numba's tuple types: UniTuple(TYPE, COUNT) and Tuple((TYPE, TYPE, ...)).
  std::optional<Type> tuple(const ast::Expr& e) {
    bool uniform = ast[e.operands[0]].text == "UniTuple";
    const char* form = uniform ? "UniTuple(TYPE, COUNT), e.g. UniTuple(int64, 2)" : "Tuple((TYPE, ...)), e.g. Tuple((int64, float32))";
    bool shaped = e.keywords.empty() && e.operands.size() == (uniform ? 3u : 2u);
    if (shaped && !uniform) {
      ast::ExprKind kind = ast[e.operands[1]].kind;
      shaped = kind == ast::ExprKind::tuple || kind == ast::ExprKind::list;
    }
    if (!shaped) {
      error(e.range, std::string("a tuple type is written ") + form);
      return std::nullopt;
    }
    std::vector<ast::ExprId> parts = uniform ? std::vector<ast::ExprId>{e.operands[1]} : ast[e.operands[1]].operands;
    std::vector<Type> elements;
    for (ast::ExprId part : parts) {
      auto element = type(part);
      if (!element) return std::nullopt;
      if (element->is(TypeKind::void_)) {
        error(ast[part].range, "'void' is only a return type");
        return std::nullopt;
      }
      elements.push_back(*element);
    }
    if (!uniform) return Type::tuple(std::move(elements));
    const ast::Expr& count = ast[e.operands[2]];
    if (count.kind != ast::ExprKind::integer || count.int_value < 1 || count.int_value > 64) {
      error(count.range, "a UniTuple's count is an integer from 1 to 64");
      return std::nullopt;
    }
    return Type::uni_tuple(elements[0], static_cast<int>(count.int_value));
  }

  std::optional<int64_t> non_negative(ast::ExprId id) {
    const ast::Expr& e = ast[id];
    if (e.kind == ast::ExprKind::integer && e.int_value >= 0 && e.int_value <= (int64_t(1) << 24)) return e.int_value;
    error(e.range, "expected a size or offset from 0 to 2**24");
    return std::nullopt;
  }

  // pykern's spelling of a record dtype (the C++ API writes it for a record array):
  // Record(SIZE, ('name', TYPE, OFFSET), ('name', TYPE, OFFSET, (SHAPE...)), ...). Fields must
  // sit where a C struct would put them, so that the emitted struct has NumPy's layout.
  std::optional<Type> record(const ast::Expr& e) {
    const char* form = "Record(SIZE, ('name', TYPE, OFFSET[, (SHAPE...)]), ...)";
    if (e.operands.size() < 3 || !e.keywords.empty()) {
      error(e.range, "a record type is written " + std::string(form));
      return std::nullopt;
    }
    auto size = non_negative(e.operands[1]);
    if (!size) return std::nullopt;
    std::vector<std::string> names;
    std::vector<Type> fields;
    std::vector<int64_t> offsets;
    std::vector<std::vector<int64_t>> shapes;
    int64_t end = 0;
    for (size_t i = 2; i < e.operands.size(); ++i) {
      const ast::Expr& f = ast[e.operands[i]];
      if (f.kind != ast::ExprKind::tuple || f.operands.size() < 3 || f.operands.size() > 4 ||
          ast[f.operands[0]].kind != ast::ExprKind::string) {
        error(f.range, "a record field is written ('name', TYPE, OFFSET) or ('name', TYPE, OFFSET, (SHAPE...))");
        return std::nullopt;
      }
      auto type = this->type(f.operands[1]);
      auto offset = non_negative(f.operands[2]);
      if (!type || !offset) return std::nullopt;
      if (!type->is_scalar()) {
        error(ast[f.operands[1]].range, "a record field's type must be a scalar or a record");
        return std::nullopt;
      }
      std::vector<int64_t> shape;
      int64_t count = 1;
      if (f.operands.size() == 4) {
        const ast::Expr& dims = ast[f.operands[3]];
        if (dims.kind != ast::ExprKind::tuple || dims.operands.empty()) {
          error(dims.range, "a subarray field's shape is a tuple of sizes, e.g. (3,) or (3, 2)");
          return std::nullopt;
        }
        for (ast::ExprId d : dims.operands) {
          auto extent = non_negative(d);
          if (!extent) return std::nullopt;
          if (*extent == 0) {
            error(ast[d].range, "a subarray field needs at least one element");
            return std::nullopt;
          }
          shape.push_back(*extent);
          count *= *extent;
          if (count > (int64_t(1) << 24)) {
            error(dims.range, "a subarray field larger than 2**24 elements");
            return std::nullopt;
          }
        }
      }
      const std::string& name = ast[f.operands[0]].text;
      if (name.empty() || std::find(names.begin(), names.end(), name) != names.end()) {
        error(f.range, "record field names must be non-empty and distinct");
        return std::nullopt;
      }
      if (*offset < end || *offset % type->alignment() != 0) {
        error(f.range, fmt::format("field '{}' at offset {} is not where a C struct would put it (after byte {}, "
                                   "at a multiple of {})", name, *offset, end, type->alignment()),
              "make the dtype with align=True, e.g. np.dtype([...], align=True)");
        return std::nullopt;
      }
      end = *offset + type->itemsize() * count;
      names.push_back(name);
      fields.push_back(*type);
      offsets.push_back(*offset);
      shapes.push_back(std::move(shape));
    }
    Type result = Type::record(std::move(names), std::move(fields), std::move(offsets), std::move(shapes), *size);
    if (*size < end || *size % result.alignment() != 0) {
      error(e.range, fmt::format("a record of {} bytes cannot hold its fields (they end at byte {}) as a C struct "
                                 "(a multiple of {} bytes)", *size, end, result.alignment()),
            "make the dtype with align=True, e.g. np.dtype([...], align=True)");
      return std::nullopt;
    }
    return result;
  }

  // void(float32[:]) or (float32[:], float32[:]) or a bare argument list.
  std::optional<Signature> signature(ast::ExprId id) {
    const ast::Expr& e = ast[id];
    Signature result;
    std::vector<ast::ExprId> arguments;
    if (e.kind == ast::ExprKind::call) {
      auto returns = type(e.operands[0]);
      if (!returns) return std::nullopt;
      result.return_type = *returns;
      arguments.assign(e.operands.begin() + 1, e.operands.end());
      if (!e.keywords.empty()) {
        error(e.range, "a signature's arguments are types, not keywords");
        return std::nullopt;
      }
    } else if (e.kind == ast::ExprKind::tuple) {
      arguments = e.operands;
    } else {
      // Numba evaluates the text and wants a signature or a tuple of types, not one type.
      error(e.range, "a signature looks like 'void(float32[:], int64)', 'f8(i4, i4)' or '(float32[:], int64)'",
            "for one argument and no return type, write a tuple: '(float32[:],)'");
      return std::nullopt;
    }
    for (ast::ExprId argument : arguments) {
      auto argument_type = type(argument);
      if (!argument_type) return std::nullopt;
      if (argument_type->is(TypeKind::void_)) {
        error(ast[argument].range, "'void' is only a return type");
        return std::nullopt;
      }
      result.arguments.push_back(*argument_type);
    }
    return result;
  }
};

std::optional<Type> bare_type_name(const ast::Ast& ast, ast::ExprId id) {
  const ast::Expr& e = ast[id];
  if (e.kind != ast::ExprKind::name) return std::nullopt;
  if (e.text == "void" || e.text == "none") return Type::void_();
  if (e.text == "boolean" || e.text == "bool_" || e.text == "b1" || e.text == "bool") return Type::boolean();
  if (e.text == "xoroshiro128p_type") return Type::xoroshiro128p_record();
  return scalar_type_named(e.text);
}

}  // namespace

std::optional<Signature> parse_signature(const SourceFile& file, Diagnostics& diagnostics) {
  auto tree = syntax::SyntaxTree::parse(file);
  if (!tree.ok()) {
    diagnostics.add({Severity::error, DiagKind::internal_error, nullptr, {}, tree.error().message, {}});
    return std::nullopt;
  }
  if (!syntax::check_nesting(*tree, diagnostics)) return std::nullopt;
  if (tree->report_syntax_errors(tree->root(), diagnostics) > 0) return std::nullopt;
  std::vector<TSNode> statements = tree->named_children(tree->root());
  if (statements.size() != 1 || tree->kind(statements[0]) != syntax::Node::expression_statement ||
      ts_node_named_child_count(statements[0]) == 0) {
    diagnostics.error(DiagKind::bad_signature, file, {0, static_cast<uint32_t>(file.text().size())},
                      "a signature is one expression, e.g. 'void(float32[:], int64)'");
    return std::nullopt;
  }
  ast::Ast ast;
  std::vector<TSNode> parts = tree->named_children(statements[0]);
  ast::ExprId expr;
  if (parts.size() == 1) {
    expr = frontend::lower_expression(*tree, parts[0], ast, diagnostics);
  } else {
    // "float32[:], float32": Python evaluates it to a tuple, which Numba takes as the argument
    // types of a signature without a return type.
    ast::Expr arguments;
    arguments.kind = ast::ExprKind::tuple;
    arguments.range = syntax::SyntaxTree::range(statements[0]);
    for (TSNode part : parts) arguments.operands.push_back(frontend::lower_expression(*tree, part, ast, diagnostics));
    expr = ast.exprs.add(std::move(arguments));
  }
  TypeReader reader{ast, file, diagnostics, bare_type_name};
  return reader.signature(expr);
}

std::optional<Signature> signature_from_decorator(frontend::Module& module, ast::ExprId expr,
                                                  Diagnostics& diagnostics) {
  const ast::Expr& e = module.ast()[expr];
  if (e.kind == ast::ExprKind::string) {
    // Parse the string on its own; report problems at the string in the kernel file.
    SourceFile text("<signature>", e.text);
    Diagnostics inner;
    auto signature = parse_signature(text, inner);
    if (!signature) {
      std::string reason = inner.all().empty() ? "invalid signature" : inner.all()[0].message;
      diagnostics.error(DiagKind::bad_signature, module.file(), e.range,
                        "bad signature '" + e.text + "': " + reason,
                        inner.all().empty() ? "" : inner.all()[0].hint);
    }
    return signature;
  }
  Resolver resolve = [&module](const ast::Ast& ast, ast::ExprId id) -> std::optional<Type> {
    if (auto qualified = module.qualified_name(id)) return type_value(*qualified);
    return std::nullopt;
  };
  TypeReader reader{module.ast(), module.file(), diagnostics, resolve};
  return reader.signature(expr);
}

namespace {

// numba.core.typeconv's kinds of conversion, best first.
enum class Conversion { exact, promote, safe, unsafe };

// The scalar types of numba-cuda's casting rules (typeconv/rules.py), and how each converts to
// each other: the rules' edges, closed over paths as its cast graph does (a path converts as its
// worst step; the best path counts).
const std::vector<Type>& rule_types() {
  static const std::vector<Type> types = {
      Type::boolean(),       Type::int_(8),         Type::int_(16),        Type::int_(32),  Type::int_(64),
      Type::int_(8, false),  Type::int_(16, false), Type::int_(32, false), Type::int_(64, false),
      Type::float_(16),      Type::float_(32),      Type::float_(64),      Type::complex(64), Type::complex(128)};
  return types;
}

using ConversionTable = std::vector<std::vector<std::optional<Conversion>>>;

ConversionTable scalar_conversions() {
  const std::vector<Type>& types = rule_types();
  size_t n = types.size();
  auto at = [&](const Type& t) { return static_cast<size_t>(std::find(types.begin(), types.end(), t) - types.begin()); };
  ConversionTable table(n, std::vector<std::optional<Conversion>>(n));
  for (size_t i = 0; i < n; ++i) table[i][i] = Conversion::exact;
  auto rule = [&](const Type& a, const Type& b, std::optional<Conversion> forward, std::optional<Conversion> back) {
    table[at(a)][at(b)] = forward;
    table[at(b)][at(a)] = back;
  };
  const auto promote = Conversion::promote, safe = Conversion::safe, unsafe = Conversion::unsafe;
  rule(Type::boolean(), Type::int_(8), safe, unsafe);
  rule(Type::boolean(), Type::int_(8, false), safe, unsafe);
  for (int bits : {8, 16, 32}) {
    rule(Type::int_(bits), Type::int_(bits * 2), promote, unsafe);
    rule(Type::int_(bits, false), Type::int_(bits * 2, false), promote, unsafe);
    rule(Type::int_(bits, false), Type::int_(bits * 2), safe, unsafe);
  }
  rule(Type::int_(8), Type::float_(16), safe, unsafe);
  rule(Type::int_(16), Type::float_(32), safe, unsafe);
  rule(Type::int_(32), Type::float_(64), safe, unsafe);
  rule(Type::int_(16), Type::float_(16), unsafe, unsafe);
  rule(Type::int_(32), Type::float_(32), unsafe, unsafe);
  rule(Type::int_(64), Type::float_(64), safe, unsafe);
  rule(Type::int_(64, false), Type::float_(64), safe, unsafe);
  rule(Type::float_(16), Type::float_(32), promote, unsafe);
  rule(Type::float_(32), Type::float_(64), promote, unsafe);
  rule(Type::float_(32), Type::complex(64), safe, std::nullopt);
  rule(Type::float_(64), Type::complex(128), safe, std::nullopt);
  rule(Type::complex(64), Type::complex(128), promote, unsafe);
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        if (!table[i][k] || !table[k][j]) continue;
        Conversion through = std::max(*table[i][k], *table[k][j]);
        if (!table[i][j] || through < *table[i][j]) table[i][j] = through;
      }
  return table;
}

// How an argument of type `from` converts to a parameter of type `to`, or nullopt if it cannot
// (an array converts only to one of its dtype and dimensions, in its layout or A, and a
// read-only one only to a read-only one).
std::optional<Conversion> conversion(const Type& from, const Type& to) {
  if (from == to) return Conversion::exact;
  if (from.is(TypeKind::array) && to.is(TypeKind::array)) {
    bool fits = from.ndim == to.ndim && from.dtype() == to.dtype() &&
                (to.layout == Layout::A || to.layout == from.layout) && (!from.readonly || to.readonly);
    return fits ? std::optional<Conversion>(Conversion::safe) : std::nullopt;
  }
  if (from.is(TypeKind::tuple) && to.is(TypeKind::tuple)) {  // element by element, the worst counts
    if (from.elements.size() != to.elements.size()) return std::nullopt;
    Conversion worst = Conversion::exact;
    for (size_t i = 0; i < from.elements.size(); ++i) {
      auto element = conversion(from.elements[i], to.elements[i]);
      if (!element) return std::nullopt;
      worst = std::max(worst, *element);
    }
    return worst;
  }
  static const ConversionTable table = scalar_conversions();
  const std::vector<Type>& types = rule_types();
  auto i = std::find(types.begin(), types.end(), from), j = std::find(types.begin(), types.end(), to);
  if (i == types.end() || j == types.end()) return std::nullopt;
  return table[static_cast<size_t>(i - types.begin())][static_cast<size_t>(j - types.begin())];
}

// Numba's Rating: (unsafe, safe, promote) conversions, compared in that order; nullopt when an
// argument does not convert.
std::optional<std::array<int, 3>> rating(const std::vector<Type>& actual, const std::vector<Type>& formal) {
  if (actual.size() != formal.size()) return std::nullopt;
  std::array<int, 3> counts = {0, 0, 0};
  for (size_t i = 0; i < actual.size(); ++i) {
    auto kind = conversion(actual[i], formal[i]);
    if (!kind) return std::nullopt;
    if (*kind == Conversion::unsafe) ++counts[0];
    if (*kind == Conversion::safe) ++counts[1];
    if (*kind == Conversion::promote) ++counts[2];
  }
  return counts;
}

std::string type_list(const std::vector<Type>& types) {
  std::string text;
  for (const Type& t : types) text += (text.empty() ? "" : ", ") + to_string(t);
  return "(" + text + ")";
}

}  // namespace

std::optional<Signature> declared_overload(frontend::Module& module, const frontend::ModuleFunction& function,
                                           const std::vector<Type>& arguments, SourceRange where,
                                           Diagnostics& diagnostics) {
  std::optional<Signature> best;
  std::array<int, 3> best_rating{};
  std::string declared;
  for (ast::ExprId expr : function.decoration.signatures) {
    auto signature = signature_from_decorator(module, expr, diagnostics);
    if (!signature) return std::nullopt;
    declared += (declared.empty() ? "" : ", ") + type_list(signature->arguments);
    auto rated = rating(arguments, signature->arguments);
    if (!rated || (best && !(*rated < best_rating))) continue;
    best = signature;
    best_rating = *rated;
  }
  if (!best) {
    diagnostics.error(DiagKind::type_mismatch, module.file(), where,
                      fmt::format("'{}' is compiled only for the signatures in its decorator, {}; none takes {}",
                                  function.name, declared, type_list(arguments)),
                      "convert the arguments to one of those types, or add a signature to the decorator");
    return std::nullopt;
  }
  // An array that converts only by layout keeps its own type: the code is the same.
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].is(TypeKind::array)) best->arguments[i] = arguments[i];
  return best;
}

ir::Program infer(frontend::Module& module, const std::vector<EntryRequest>& entries,
                  Diagnostics& diagnostics, bool force_debug) {
  // A host call's kernel, or a @jit function typed for one (only those are entries): all run on the host.
  bool host_calls = !entries.empty() && std::all_of(entries.begin(), entries.end(), [&](const EntryRequest& e) {
    const frontend::ModuleFunction* function = module.function(e.function);
    return function && (function->origin == frontend::Origin::host_call ||
                        function->decoration.role == frontend::FunctionRole::device);
  });
  ProgramBuilder builder(module, diagnostics, force_debug, host_calls);
  for (const EntryRequest& entry : entries) {
    frontend::ModuleFunction* function = module.function(entry.function);
    bool is_kernel = function && function->decoration.role == frontend::FunctionRole::kernel;
    if (function && is_kernel && entry.signature.return_type &&
        !entry.signature.return_type->is(TypeKind::void_)) {
      diagnostics.error(DiagKind::bad_signature, module.file(), entry.where,
                        "a kernel's signature must return void, not " + to_string(*entry.signature.return_type));
      continue;
    }
    bool is_gufunc = function && function->decoration.role == frontend::FunctionRole::guvectorize;
    if (is_gufunc && entry.signature.return_type && !entry.signature.return_type->is(TypeKind::void_)) {
      diagnostics.error(DiagKind::bad_signature, module.file(), entry.where,
                        "a @guvectorize function returns nothing (it writes its outputs), so its signature's return "
                        "type must be void, not " + to_string(*entry.signature.return_type),
                        "write 'void(...)' or the argument types alone, e.g. '(float64[:], float64[:])'");
      continue;
    }
    int index = builder.specialize(entry.function, entry.signature, is_kernel, entry.where);
    if (index >= 0) builder.program().kernels.push_back(index);
  }
  return builder.take();
}

}  // namespace pykern::sema

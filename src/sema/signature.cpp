// Numba signatures as types: "void(float32[:, ::1], int64)", "f8(i4, i4)", float32[::1], ...
// A signature string is Python expression syntax, so it is parsed by the same parser and
// lowered to the same AST as kernels, then read as a type expression.
#include <algorithm>
#include <array>
#include <functional>

#include <fmt/format.h>

#include "base/suggest.h"
#include "frontend/lower.h"
#include "syntax/source_checks.h"
#include "sema/builtins.h"
#include "sema/infer.h"
#include "sema/memory_limits.h"

namespace pykern::sema {

namespace {

using Resolver = std::function<std::optional<Type>(const ast::Ast&, ast::ExprId)>;

// The names a signature may use for a type, for "did you mean".
std::vector<std::string> type_names() {
  std::vector<std::string> names = scalar_type_names();
  names.insert(names.end(), {"void", "none", "bool_", "xoroshiro128p_type", "Record", "UniTuple", "Tuple", "unicode_type", "ListType", "DictType"});
  return names;
}

struct TypeReader {
  const ast::Ast& ast;
  const SourceFile& file;
  Diagnostics& diagnostics;
  Resolver resolve;
  SignatureRanges* ranges = nullptr;

  void error(SourceRange range, std::string message, std::string hint = {}) {
    diagnostics.error(DiagKind::bad_signature, file, range, std::move(message), std::move(hint));
  }

  // float32, f4, float32[:, ::1]
  std::optional<Type> type(ast::ExprId id) {
    const ast::Expr& e = ast[id];
    if (e.kind == ast::ExprKind::subscript && container_kind(e.operands[0]))  // ListType[int64]
      return container(e, *container_kind(e.operands[0]));
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
      std::vector<SourceRange> axes;
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
        axes.push_back(axis.range);
      }
      Layout layout = Layout::A;
      if (unit_step.back()) layout = Layout::C;
      else if (unit_step.front()) layout = Layout::F;
      // At most one '::1', on the last or the first dimension: point at the first one that is not.
      for (int i = 0, units = 0; i < ndim; ++i) {
        if (!unit_step[i]) continue;
        bool placed = i == ndim - 1 || (i == 0 && !unit_step.back());
        if (placed && ++units == 1) continue;
        error(axes[i], "'::1' marks the contiguous dimension: the last (C order) or the first (F order), once",
              "e.g. float32[:, ::1] (C), float32[::1, :] (F), float32[:, :] (any layout)");
        return std::nullopt;
      }
      return Type::array(*dtype, ndim, layout);
    }
    if (e.kind == ast::ExprKind::name || e.kind == ast::ExprKind::attribute) {
      if (auto found = resolve(ast, id)) return found;
      std::string written(file.slice(e.range));
      std::string suggestion = e.kind == ast::ExprKind::name ? did_you_mean(written, type_names()) : "";
      error(e.range, "unknown type '" + written + "'" + (suggestion.empty() ? "" : "; " + suggestion),
            "use Numba's names: float32, float64, int32, int64, uint8, boolean, complex64, ... "
            "or the short forms f4 f8 i4 i8 u1 b1 c8 c16");
      return std::nullopt;
    }
    std::string constructor = e.kind == ast::ExprKind::call ? type_constructor(e.operands[0]) : "";
    if (constructor == "Record") return record(e);
    if (constructor == "UniTuple" || constructor == "Tuple") return tuple(e);
    if (constructor == "Array") return array_type(e);
    if (e.kind == ast::ExprKind::call && container_kind(e.operands[0])) return container(e, *container_kind(e.operands[0]));
    if (e.kind == ast::ExprKind::string) {
      error(e.range, "a type written as a string inside a signature is not supported");
      return std::nullopt;
    }
    error(e.range, "'" + std::string(file.slice(e.range)) + "' is not a type");
    return std::nullopt;
  }

  // The type a call makes: `UniTuple`, or `types.UniTuple` / `numba.core.types.Array` (an
  // attribute of numba's types module, under whatever name it was imported); empty otherwise.
  std::string type_constructor(ast::ExprId callee) {
    const ast::Expr& c = ast[callee];
    if (c.kind == ast::ExprKind::name || c.kind == ast::ExprKind::attribute) return c.text;
    return {};
  }

  // ListType / DictType (a typed List's or Dict's type, as numba.types names them): true for a dict.
  std::optional<bool> container_kind(ast::ExprId callee) {
    std::string name = type_constructor(callee);
    if (name == "ListType" || name.ends_with(".ListType")) return false;
    if (name == "DictType" || name.ends_with(".DictType")) return true;
    return std::nullopt;
  }

  // ListType(int64), ListType[int64], DictType(int64, float64), DictType[unicode_type, int64]:
  // a list (Numba's typed and reflected lists are one type here) or a typed dict.
  std::optional<Type> container(const ast::Expr& e, bool dict) {
    std::vector<ast::ExprId> parts(e.operands.begin() + 1, e.operands.end());
    if (e.kind == ast::ExprKind::subscript && parts.size() == 1 && ast[parts[0]].kind == ast::ExprKind::tuple)
      parts = ast[parts[0]].operands;
    const char* form = dict ? "DictType(KEY, VALUE), e.g. DictType(int64, float64)" : "ListType(ITEM), e.g. ListType(int64)";
    if (!e.keywords.empty() || parts.size() != (dict ? 2u : 1u)) {
      error(e.range, std::string(dict ? "a dict type is written " : "a list type is written ") + form);
      return std::nullopt;
    }
    auto typed = element_types(parts);
    if (!typed) return std::nullopt;
    std::vector<Type> elements = std::move(*typed);
    return dict ? Type::dict_of(elements[0], elements[1]) : Type::list_of(elements[0]);
  }

  // The types a container or tuple type names for its parts; void is no part's type.
  std::optional<std::vector<Type>> element_types(const std::vector<ast::ExprId>& parts) {
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
    return elements;
  }

  // Numba's Array(dtype, ndim, layout): types.Array(types.float64, 2, 'C') is float64[:, ::1].
  std::optional<Type> array_type(const ast::Expr& e) {
    const char* form = "Array(DTYPE, NDIM, LAYOUT), e.g. Array(float64, 2, 'C')";
    if (!e.keywords.empty() || e.operands.size() != 4) {
      error(e.range, std::string("an array type is written ") + form);
      return std::nullopt;
    }
    auto dtype = type(e.operands[1]);
    if (!dtype) return std::nullopt;
    const ast::Expr& ndim = ast[e.operands[2]];
    const ast::Expr& layout = ast[e.operands[3]];
    if (!dtype->is_numeric() || ndim.kind != ast::ExprKind::integer || ndim.int_value < 0 || ndim.int_value > 32 ||
        layout.kind != ast::ExprKind::string || (layout.text != "C" && layout.text != "F" && layout.text != "A")) {
      error(e.range, std::string("an array type is written ") + form + ": a number type, 0 to 32 dimensions, 'C', 'F' or 'A'");
      return std::nullopt;
    }
    Layout order = layout.text == "C" ? Layout::C : layout.text == "F" ? Layout::F : Layout::A;
    return Type::array(*dtype, static_cast<int>(ndim.int_value), order);
  }

  // Numba's tuple types: UniTuple(TYPE, COUNT) and Tuple((TYPE, TYPE, ...)).
  std::optional<Type> tuple(const ast::Expr& e) {
    bool uniform = type_constructor(e.operands[0]) == "UniTuple";
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
    auto typed = element_types(parts);
    if (!typed) return std::nullopt;
    std::vector<Type> elements = std::move(*typed);
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
    SignatureRanges where{e.range, std::nullopt, e.range, {}};
    if (e.kind == ast::ExprKind::call) {
      auto returns = type(e.operands[0]);
      if (!returns) return std::nullopt;
      result.return_type = *returns;
      where.returns = ast[e.operands[0]].range;
      where.arguments = {ast[e.operands[0]].range.end, e.range.end};
      arguments.assign(e.operands.begin() + 1, e.operands.end());
      if (!e.keywords.empty()) {
        error(e.range, "a signature's arguments are types, not keywords");
        return std::nullopt;
      }
    } else if (e.kind == ast::ExprKind::tuple) {
      arguments = e.operands;
    } else if (e.kind == ast::ExprKind::name && resolve(ast, id) && resolve(ast, id)->is(TypeKind::void_)) {
      error(e.range, "'void' alone is a return type without an argument list",
            "a kernel without parameters has the signature 'void()'");
      return std::nullopt;
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
      where.each.push_back(ast[argument].range);
    }
    if (ranges) *ranges = std::move(where);
    return result;
  }
};

std::optional<Type> bare_type_name(const ast::Ast& ast, ast::ExprId id) {
  const ast::Expr& e = ast[id];
  if (e.kind != ast::ExprKind::name) return std::nullopt;
  if (e.text == "void" || e.text == "none") return Type::void_();
  if (e.text == "boolean" || e.text == "bool_" || e.text == "b1" || e.text == "bool") return Type::boolean();
  if (e.text == "xoroshiro128p_type") return Type::xoroshiro128p_record();
  if (e.text == "unicode_type") return Type::string();
  return scalar_type_named(e.text);
}

// Where a string literal's text starts in its file, when the literal is written plainly ('...',
// "...", r'...', triple quotes) so that each byte of the text is the byte written; else nullopt
// (an escape or an implicit concatenation moves them).
std::optional<uint32_t> text_offset(const SourceFile& file, const ast::Expr& literal) {
  std::string_view written = file.slice(literal.range);
  if (written.size() < literal.text.size() + 2) return std::nullopt;
  char quote = written.back();
  size_t quotes = written.size() >= literal.text.size() + 6 && written.ends_with(std::string(3, quote)) ? 3 : 1;
  size_t start = written.size() - quotes - literal.text.size();
  if (start < quotes || written.substr(start, literal.text.size()) != literal.text) return std::nullopt;
  if (written.substr(start - quotes, quotes) != std::string(quotes, quote)) return std::nullopt;
  // Only prefix letters before the opening quotes (r, u; b and f make no signature).
  for (char c : written.substr(0, start - quotes))
    if (c != 'r' && c != 'R' && c != 'u' && c != 'U') return std::nullopt;
  return literal.range.begin + static_cast<uint32_t>(start);
}

}  // namespace

std::optional<Signature> parse_signature(const SourceFile& file, Diagnostics& diagnostics, SignatureRanges* ranges) {
  if (file.text().find_first_not_of(" \t\r\n\f\v") == std::string::npos) {
    diagnostics.error(DiagKind::bad_signature, file, {0, static_cast<uint32_t>(file.text().size())},
                      "the signature is empty",
                      "write the argument types, with the return type before them or not: 'void(float32[:], int64)', "
                      "'(float32[:], int64)'");
    return std::nullopt;
  }
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
  TypeReader reader{ast, file, diagnostics, bare_type_name, ranges};
  return reader.signature(expr);
}

std::optional<Signature> signature_from_decorator(frontend::Module& module, ast::ExprId expr,
                                                  Diagnostics& diagnostics, SignatureRanges* ranges) {
  const ast::Expr& e = module.ast()[expr];
  if (e.kind == ast::ExprKind::string) {
    // Parse the string on its own; report problems in the string in the kernel file.
    SourceFile text("<signature>", e.text);
    Diagnostics inner;
    SignatureRanges inner_ranges;
    auto signature = parse_signature(text, inner, &inner_ranges);
    std::optional<uint32_t> offset = text_offset(module.file(), e);
    auto place = [&](SourceRange range) {
      return offset ? SourceRange{*offset + range.begin, *offset + range.end} : e.range;
    };
    if (!signature) {
      std::string reason = inner.all().empty() ? "invalid signature" : inner.all()[0].message;
      diagnostics.error(DiagKind::bad_signature, module.file(), inner.all().empty() ? e.range : place(inner.all()[0].range),
                        "bad signature '" + e.text + "': " + reason,
                        inner.all().empty() ? "" : inner.all()[0].hint);
    } else if (ranges) {
      *ranges = {place(inner_ranges.whole), std::nullopt, place(inner_ranges.arguments), {}};
      if (inner_ranges.returns) ranges->returns = place(*inner_ranges.returns);
      for (SourceRange each : inner_ranges.each) ranges->each.push_back(place(each));
    }
    return signature;
  }
  Resolver resolve = [&module](const ast::Ast& ast, ast::ExprId id) -> std::optional<Type> {
    if (auto qualified = module.qualified_name(id)) return type_value(*qualified);
    return std::nullopt;
  };
  TypeReader reader{module.ast(), module.file(), diagnostics, resolve, ranges};
  return reader.signature(expr);
}

std::optional<Type> parse_type_text(const std::string& text) {
  SourceFile file("<type>", "(" + text + ",)");
  Diagnostics diagnostics;
  auto signature = parse_signature(file, diagnostics);
  if (!signature || signature->arguments.size() != 1) return std::nullopt;
  return signature->arguments[0];
}

namespace {

std::string parameter_list(const ast::Function& lowered) {
  std::string names;
  for (const ast::Parameter& p : lowered.parameters) names += (names.empty() ? "" : ", ") + p.name;
  return "(" + names + ")";
}

}  // namespace

bool check_signature_fits(const Signature& signature, const SignatureRanges& ranges, const SourceFile& file,
                          frontend::Module& module, const frontend::ModuleFunction& function,
                          const ast::Function& lowered, Diagnostics& diagnostics) {
  frontend::FunctionRole role = function.decoration.role;
  bool returns_nothing = role == frontend::FunctionRole::kernel || role == frontend::FunctionRole::guvectorize;
  auto defined_here = [&] {
    diagnostics.note(module.file(), lowered.name_range, fmt::format("'{}' is defined here", lowered.name));
  };
  if (returns_nothing && signature.return_type && !signature.return_type->is(TypeKind::void_)) {
    const char* what = role == frontend::FunctionRole::kernel ? "a kernel returns nothing"
                                                              : "a @guvectorize function returns nothing (it writes its outputs)";
    diagnostics.error(DiagKind::bad_signature, file, ranges.returns.value_or(ranges.whole),
                      fmt::format("{}, so its signature's return type is void, not {}", what,
                                  to_string(*signature.return_type)),
                      "write 'void(...)', or the argument types alone: '(float32[:], int64)'");
    defined_here();
    return false;
  }
  bool star = std::any_of(lowered.parameters.begin(), lowered.parameters.end(),
                          [](const ast::Parameter& p) { return p.star; });
  size_t wanted = lowered.parameters.size(), given = signature.arguments.size();
  if (star || given == wanted) return true;
  // Too many: point at the types left over; too few: at the whole list.
  SourceRange at = ranges.arguments;
  if (given > wanted && ranges.each.size() == given) at = {ranges.each[wanted].begin, ranges.each.back().end};
  diagnostics.error(DiagKind::signature_mismatch, file, at,
                    fmt::format("'{}' takes {} argument{} {}, but the signature gives {} type{}", lowered.name, wanted,
                                wanted == 1 ? "" : "s", parameter_list(lowered), given, given == 1 ? "" : "s"),
                    "give one type per parameter, in order");
  defined_here();
  return false;
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

std::optional<size_t> best_case(const std::vector<Type>& arguments, const std::vector<std::vector<Type>>& cases) {
  std::optional<size_t> best;
  std::array<int, 3> best_rating{};
  for (size_t i = 0; i < cases.size(); ++i) {
    auto rated = rating(arguments, cases[i]);
    if (!rated || (best && !(*rated < best_rating))) continue;  // a tie keeps the earlier case
    best = i;
    best_rating = *rated;
  }
  return best;
}

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

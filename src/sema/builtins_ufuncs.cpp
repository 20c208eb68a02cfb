// NumPy's ufuncs on arrays and numbers in @jit functions on the host (np.sqrt(a), np.add(a, 1),
// np.maximum(a, b), ...), the operators on arrays that Numba types as ufuncs (a + b is
// np.add), np.where and np.clip. One row per ufunc: NumPy's name, its loops (ufunc.types as
// NumPy 2 lists them, less float16, object, long double and datetimes, which Numba skips), and
// the rule for one element, which is the scalar rule of the same operator or function. The
// loop picks the types (sema/array_exprs.h); sema/array_exprs.cpp fuses the elements into one
// loop. Kernels refuse arrays here, as numba-cuda does.
#include <fmt/format.h>

#include "sema/array_exprs.h"
#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// ---- NumPy's casting between its type characters (np.can_cast, generated from NumPy 2) ----

constexpr std::string_view type_chars = "?bBhHiIlLqQfdFD";
// Row `from`, column `to`, in type_chars' order.
constexpr const char* safe_casts[] = {
    "111111111111111", "010101010101111", "001111111111111", "000101010101111", "000011111111111",
    "000001010100101", "000000111110101", "000000010100101", "000000001010101", "000000010100101",
    "000000001010101", "000000000001111", "000000000000101", "000000000000011", "000000000000001"};
constexpr const char* same_kind_casts[] = {
    "111111111111111", "010101010101111", "011111111111111", "010101010101111", "011111111111111",
    "010101010101111", "011111111111111", "010101010101111", "011111111111111", "010101010101111",
    "011111111111111", "000000000001111", "000000000001111", "000000000000011", "000000000000011"};

std::optional<Type> type_of_char(char c) {
  switch (c) {
    case '?': return Type::boolean();
    case 'b': return Type::int_(8);
    case 'B': return Type::int_(8, false);
    case 'h': return Type::int_(16);
    case 'H': return Type::int_(16, false);
    case 'i': return Type::int_(32);
    case 'I': return Type::int_(32, false);
    case 'l':
    case 'q': return Type::i64();
    case 'L':
    case 'Q': return Type::u64();
    case 'f': return Type::f32();
    case 'd': return Type::f64();
    case 'F': return Type::complex(64);
    case 'D': return Type::complex(128);
    default: return std::nullopt;
  }
}

bool can_cast(char from, char to, bool mixed, bool same_kind) {
  size_t f = type_chars.find(from), t = type_chars.find(to);
  if (f == std::string_view::npos || t == std::string_view::npos) return false;
  // Numba's ufunc_can_cast: with integer and float operands mixed, an integer converts to any
  // float or complex (np.power(float32, int32) computes in float32).
  bool integer = std::string_view("bBhHiIlLqQ").find(from) != std::string_view::npos;
  if (mixed && integer && std::string_view("fdFD").find(to) != std::string_view::npos) return true;
  return (same_kind ? same_kind_casts : safe_casts)[f][t] == '1';
}

// ---- element rules ----

ElementRule binary_rule(ast::BinaryOp op) {
  return [op](FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
    return c.binary(op, x[0], x[1], range);
  };
}
ElementRule compare_rule(ast::CompareOp op) {
  return [op](FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
    return c.compare_elements(op, x[0], x[1], range);
  };
}
ElementRule unary_rule(ast::UnaryOp op) {
  return [op](FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
    return c.unary_element(op, x[0], range);
  };
}
// The scalar function of the same name (np.sqrt of a number): its rule, on elements.
ElementRule scalar_rule(const char* name) {
  return [name](FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
    return call_builtin(c, CallSite{std::string("numpy.") + name, x, {}, range});
  };
}
ElementRule call_rule(Op op) {
  return [op](FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
    return c.make_call(op, {x[0].expr}, x[0].type, range);
  };
}

// np.sign: -1, 0 or 1 of the element's type; a NaN stays NaN.
Value sign_element(FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
  const Value& v = x[0];
  if (v.type.is(TypeKind::complex)) {
    c.error(DiagKind::unsupported_operation, range, "np.sign() of complex numbers is not supported");
    return Value::error();
  }
  auto constant = [&](int64_t k) { return c.value_of(c.cast_expr(c.make_constant({k}, Type::i64(), range).expr, v.type)); };
  auto select = [&](const Value& condition, const Value& yes, const Value& no) {
    ir::Expr e;
    e.kind = ir::ExprKind::select;
    e.type = v.type;
    e.range = range;
    e.args = {condition.expr, yes.expr, no.expr};
    return c.value_of(c.add(std::move(e)));
  };
  Value zero = constant(0);
  Value positive = c.compare_elements(ast::CompareOp::gt, v, zero, range);
  Value negative = c.compare_elements(ast::CompareOp::lt, v, zero, range);
  Value is_zero = c.compare_elements(ast::CompareOp::eq, v, zero, range);
  if (!positive.ok() || !negative.ok() || !is_zero.ok()) return Value::error();
  // Unsigned elements are never negative; v itself where none holds (NaN).
  return select(positive, constant(1), select(negative, constant(-1), select(is_zero, zero, v)));
}

// np.logical_and and friends: `op` on the operands' truth; np.logical_not is its operand's
// truth xor True.
ElementRule logical_rule(ast::BinaryOp op) {
  return [op](FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
    Value a = c.truth(x[0], range);
    Value b = x.size() > 1 ? c.truth(x[1], range) : c.make_constant({true}, Type::boolean(), range);
    if (!a.ok() || !b.ok()) return Value::error();
    return c.binary(op, a, b, range);
  };
}

// np.round(a) (decimals 0): half to even for floats, integers as they are.
Value round_element(FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
  if (x[0].type.is(TypeKind::floating)) return c.make_call(Op::rint, {x[0].expr}, x[0].type, range);
  return x[0];
}

// NumPy's loops for the common shapes of signature.
constexpr const char* arithmetic_loops =
    "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ff->f dd->d FF->F DD->D";
constexpr const char* real_loops = "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ff->f dd->d";
constexpr const char* float_unary_loops = "f->f d->d F->F D->D";
constexpr const char* bitwise_loops = "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q";
constexpr const char* shift_loops = "bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q";
constexpr const char* compare_loops =
    "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? qQ->? Qq->? ff->? dd->? FF->? DD->?";
constexpr const char* truth_binary_loops =
    "?\?->? bb->? BB->? hh->? HH->? ii->? II->? ll->? LL->? qq->? QQ->? ff->? dd->? FF->? DD->?";
constexpr const char* truth_unary_loops = "?->? b->? B->? h->? H->? i->? I->? l->? L->? q->? Q->? f->? d->? F->? D->?";
constexpr const char* integer_unary_loops = "b->b B->B h->h H->H i->i I->I l->l L->L q->q Q->Q";
constexpr const char* min_max_loops =
    "?\?->? bb->b BB->B hh->h HH->H ii->i II->I ll->l LL->L qq->q QQ->Q ff->f dd->d FF->F DD->D";

const std::vector<Ufunc>& ufunc_table() {
  using B = ast::BinaryOp;
  using C = ast::CompareOp;
  static const std::vector<Ufunc> table = {
      // arithmetic (the operators + - * / // % ** and unary -)
      {"add", 2, std::string("?\?->? ") + arithmetic_loops, binary_rule(B::add)},
      {"subtract", 2, arithmetic_loops, binary_rule(B::sub)},
      {"multiply", 2, std::string("?\?->? ") + arithmetic_loops, binary_rule(B::mul)},
      {"true_divide", 2, "ff->f dd->d FF->F DD->D", binary_rule(B::div)},
      {"floor_divide", 2, real_loops, binary_rule(B::floordiv)},
      {"remainder", 2, real_loops, binary_rule(B::mod)},
      {"fmod", 2, real_loops, scalar_rule("fmod")},
      {"power", 2, arithmetic_loops, binary_rule(B::pow)},
      {"negative", 1, std::string(integer_unary_loops) + " f->f d->d F->F D->D", unary_rule(ast::UnaryOp::neg)},
      {"positive", 1, std::string(integer_unary_loops) + " f->f d->d F->F D->D", unary_rule(ast::UnaryOp::pos)},
      {"square", 1, std::string(integer_unary_loops) + " f->f d->d F->F D->D",
       [](FunctionChecker& c, const std::vector<Value>& x, SourceRange range) {
         return c.binary(B::mul, x[0], x[0], range);
       }},
      {"absolute", 1, std::string("?->? ") + integer_unary_loops + " f->f d->d F->f D->d", scalar_rule("abs")},
      {"fabs", 1, "f->f d->d", scalar_rule("fabs")},
      {"sign", 1, std::string(integer_unary_loops) + " f->f d->d F->F D->D", sign_element},
      // floating point functions
      {"sqrt", 1, float_unary_loops, scalar_rule("sqrt")},
      {"exp", 1, float_unary_loops, scalar_rule("exp")},
      {"exp2", 1, "f->f d->d", call_rule(Op::exp2)},
      {"expm1", 1, float_unary_loops, scalar_rule("expm1")},
      {"log", 1, float_unary_loops, scalar_rule("log")},
      {"log2", 1, float_unary_loops, scalar_rule("log2")},
      {"log10", 1, float_unary_loops, scalar_rule("log10")},
      {"log1p", 1, float_unary_loops, scalar_rule("log1p")},
      {"sin", 1, float_unary_loops, scalar_rule("sin")},
      {"cos", 1, float_unary_loops, scalar_rule("cos")},
      {"tan", 1, float_unary_loops, scalar_rule("tan")},
      {"arcsin", 1, float_unary_loops, scalar_rule("arcsin")},
      {"arccos", 1, float_unary_loops, scalar_rule("arccos")},
      {"arctan", 1, float_unary_loops, scalar_rule("arctan")},
      {"sinh", 1, float_unary_loops, scalar_rule("sinh")},
      {"cosh", 1, float_unary_loops, scalar_rule("cosh")},
      {"tanh", 1, float_unary_loops, scalar_rule("tanh")},
      {"arctan2", 2, "ff->f dd->d", scalar_rule("arctan2")},
      {"hypot", 2, "ff->f dd->d", scalar_rule("hypot")},
      {"floor", 1, std::string("?->? ") + integer_unary_loops + " f->f d->d", scalar_rule("floor")},
      {"ceil", 1, std::string("?->? ") + integer_unary_loops + " f->f d->d", scalar_rule("ceil")},
      {"trunc", 1, std::string("?->? ") + integer_unary_loops + " f->f d->d", scalar_rule("trunc")},
      {"rint", 1, float_unary_loops, scalar_rule("rint")},
      // np.round/np.around with decimals=0 are no ufuncs in NumPy; Numba keeps the type
      {"round", 1, std::string(integer_unary_loops) + " f->f d->d", round_element},
      {"maximum", 2, min_max_loops, scalar_rule("maximum")},
      {"minimum", 2, min_max_loops, scalar_rule("minimum")},
      {"fmax", 2, min_max_loops, scalar_rule("fmax")},
      {"fmin", 2, min_max_loops, scalar_rule("fmin")},
      {"isnan", 1, truth_unary_loops, scalar_rule("isnan")},
      {"isinf", 1, truth_unary_loops, scalar_rule("isinf")},
      {"isfinite", 1, truth_unary_loops, scalar_rule("isfinite")},
      // logic and bits
      {"logical_and", 2, truth_binary_loops, logical_rule(B::bitand_)},
      {"logical_or", 2, truth_binary_loops, logical_rule(B::bitor_)},
      {"logical_xor", 2, truth_binary_loops, logical_rule(B::bitxor)},
      {"logical_not", 1, truth_unary_loops, logical_rule(B::bitxor)},
      {"bitwise_and", 2, bitwise_loops, binary_rule(B::bitand_)},
      {"bitwise_or", 2, bitwise_loops, binary_rule(B::bitor_)},
      {"bitwise_xor", 2, bitwise_loops, binary_rule(B::bitxor)},
      {"invert", 1, std::string("?->? ") + integer_unary_loops, unary_rule(ast::UnaryOp::invert)},
      {"left_shift", 2, shift_loops, binary_rule(B::lshift)},
      {"right_shift", 2, shift_loops, binary_rule(B::rshift)},
      // comparisons
      {"less", 2, compare_loops, compare_rule(C::lt)},
      {"less_equal", 2, compare_loops, compare_rule(C::le)},
      {"greater", 2, compare_loops, compare_rule(C::gt)},
      {"greater_equal", 2, compare_loops, compare_rule(C::ge)},
      {"equal", 2, compare_loops, compare_rule(C::eq)},
      {"not_equal", 2, compare_loops, compare_rule(C::ne)},
      // angle units (NumPy's loops are floating only: integers convert to float64)
      {"degrees", 1, "f->f d->d", call_rule(Op::degrees)},
      {"radians", 1, "f->f d->d", call_rule(Op::radians)},
  };
  return table;
}

// NumPy's other names for the same ufunc.
constexpr std::pair<const char*, const char*> aliases[] = {
    {"divide", "true_divide"}, {"mod", "remainder"}, {"abs", "absolute"}, {"around", "round"}, {"round_", "round"},
    {"bitwise_not", "invert"}, {"rad2deg", "degrees"}, {"deg2rad", "radians"}};

bool any_array(const CallSite& call) {
  for (const Value& v : call.args)
    if (v.type.is(TypeKind::array)) return true;
  return false;
}

// np.where(condition, x, y): x's element where the condition holds, else y's, broadcast;
// the type is NumPy's promotion of x's and y's (Numba's np.where).
Value where(FunctionChecker& c, const CallSite& call) {
  if (call.args.size() != 3 || !call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range,
            "np.where() takes a condition and the two values to choose from: np.where(a > 0, a, 0.0)",
            call.args.size() == 1 ? "np.where(condition) alone (the indices) is not supported yet" : "");
    return Value::error();
  }
  if (!call.args[0].type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("np.where() needs an array condition, not '{}'", to_string(call.args[0].type)),
            "for numbers write `x if condition else y`");
    return Value::error();
  }
  auto dtype = [](const Value& v) { return v.type.is(TypeKind::array) ? v.type.dtype() : v.type; };
  Type result = promote(dtype(call.args[1]), dtype(call.args[2]));
  std::vector<Type> types = {dtype(call.args[0]), result, result};
  return c.elementwise("np.where()", call.args, types, result,
                       [result](FunctionChecker& f, const std::vector<Value>& x, SourceRange range) {
                         Value condition = f.truth(x[0], range);
                         if (!condition.ok()) return Value::error();
                         ir::Expr e;
                         e.kind = ir::ExprKind::select;
                         e.type = result;
                         e.range = range;
                         e.args = {condition.expr, x[1].expr, x[2].expr};
                         return f.value_of(f.add(std::move(e)));
                       },
                       call.range);
}

// np.clip(a, lo, hi): min(max(a, lo), hi) as Python's min and max compute it, into a's type
// (Numba's np.clip writes into np.empty_like(a)).
Value clip(FunctionChecker& c, const CallSite& call) {
  if (call.args.size() != 3 || !call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range, "np.clip() takes the array and its two bounds: np.clip(a, lo, hi)");
    return Value::error();
  }
  if (!call.args[0].type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("np.clip() needs an array, not '{}'", to_string(call.args[0].type)),
            "Numba clips arrays only; for a number write min(max(x, lo), hi)");
    return Value::error();
  }
  for (const Value& bound : {call.args[1], call.args[2]})
    if (bound.type.is(TypeKind::none)) {
      c.error(DiagKind::bad_argument, call.range, "np.clip() with a None bound is not supported yet",
              "use np.maximum(a, lo) or np.minimum(a, hi)");
      return Value::error();
    }
  auto dtype = [](const Value& v) { return v.type.is(TypeKind::array) ? v.type.dtype() : v.type; };
  Type result = call.args[0].type.dtype();
  std::vector<Type> types = {dtype(call.args[0]), dtype(call.args[1]), dtype(call.args[2])};
  return c.elementwise("np.clip()", call.args, types, result,
                       [](FunctionChecker& f, const std::vector<Value>& x, SourceRange range) {
                         CallSite low{"builtins.max", {x[0], x[1]}, {}, range};
                         Value raised = min_max(f, low, Op::max);
                         if (!raised.ok()) return Value::error();
                         CallSite high{"builtins.min", {raised, x[2]}, {}, range};
                         return min_max(f, high, Op::min);
                       },
                       call.range);
}

}  // namespace

char numpy_type_char(const Type& type) {
  switch (type.kind) {
    case TypeKind::boolean: return '?';
    case TypeKind::integer:
      switch (type.bits) {
        case 8: return type.is_signed ? 'b' : 'B';
        case 16: return type.is_signed ? 'h' : 'H';
        case 32: return type.is_signed ? 'i' : 'I';
        case 64: return type.is_signed ? 'l' : 'L';
        default: return 0;
      }
    case TypeKind::floating: return type.bits == 32 ? 'f' : type.bits == 64 ? 'd' : 0;
    case TypeKind::complex: return type.bits == 64 ? 'F' : type.bits == 128 ? 'D' : 0;
    default: return 0;
  }
}

std::optional<UfuncLoop> find_ufunc_loop(std::string_view loops, const std::vector<Type>& inputs,
                                         const std::optional<Type>& explicit_output) {
  std::string given;
  for (const Type& t : inputs) {
    char c = numpy_type_char(t);
    if (c == 0) return std::nullopt;
    given += c;
  }
  auto kind_of = [](char c) { return std::string_view("bBhHiIlLqQ").find(c) != std::string_view::npos ? 'i' : c; };
  bool has_integer = false, has_float = false;
  for (char c : given) {
    has_integer |= kind_of(c) == 'i';
    has_float |= std::string_view("fdFD").find(c) != std::string_view::npos;
  }
  bool mixed = has_integer && has_float;
  char out_char = explicit_output ? numpy_type_char(*explicit_output) : 0;
  size_t at = 0;
  while (at < loops.size()) {
    size_t end = loops.find(' ', at);
    if (end == std::string_view::npos) end = loops.size();
    std::string_view loop = loops.substr(at, end - at);
    at = end + 1;
    size_t arrow = loop.find("->");
    if (arrow != given.size() || loop.size() != arrow + 3) continue;
    bool fits = true;
    for (size_t k = 0; k < given.size() && fits; ++k) fits = can_cast(given[k], loop[k], mixed, false);
    char output = loop[arrow + 2];
    if (fits && explicit_output) fits = out_char != 0 && can_cast(output, out_char, mixed, true);
    if (!fits) continue;
    UfuncLoop found;
    for (size_t k = 0; k < given.size(); ++k) found.inputs.push_back(*type_of_char(loop[k]));
    found.output = *type_of_char(output);
    return found;
  }
  return std::nullopt;
}

const Ufunc* ufunc_named(std::string_view name) {
  for (const auto& [alias, target] : aliases)
    if (name == alias) name = target;
  for (const Ufunc& u : ufunc_table())
    if (u.name == name) return &u;
  return nullptr;
}

void add_ufunc_builtins(HandlerTable& t) {
  auto add = [&t](const std::string& numpy_name, const Ufunc* u) {
    // The scalar rule that was there before (np.sqrt(x) of a number types as it did); names
    // new here type numbers by the ufunc's loops, as Numba types np.add(x, y).
    auto found = t.find(numpy_name);
    Handler scalar = found != t.end() ? found->second.rule : Handler();
    t[numpy_name] = [u, scalar](FunctionChecker& c, const CallSite& call) -> Value {
      if (!any_array(call) && scalar) return scalar(c, call);
      if (u->name == "round" && (call.args.size() > 1 || !call.keywords.empty())) {
        c.error(DiagKind::bad_argument, call.range, "np.round() with decimals is not supported on arrays yet",
                "scale, round and scale back: np.round(a * 100) / 100");
        return Value::error();
      }
      if (call.args.size() != static_cast<size_t>(u->inputs) || !call.keywords.empty()) {
        c.error(DiagKind::wrong_arity, call.range,
                fmt::format("np.{}() takes {} argument{}", u->name, u->inputs, u->inputs == 1 ? "" : "s"),
                call.keywords.empty() ? "" : "keyword arguments (out=, where=, dtype=) are not supported yet");
        return Value::error();
      }
      return c.apply_ufunc(*u, call.args, call.range);
    };
  };
  for (const Ufunc& u : ufunc_table()) add("numpy." + u.name, &u);
  for (const auto& [alias, target] : aliases) add(std::string("numpy.") + alias, ufunc_named(target));
  t["numpy.where"] = where;
  t["numpy.clip"] = clip;
}

}  // namespace pykern::sema

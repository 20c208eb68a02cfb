// numba's own helpers that real @jit code imports: numba.np.unsafe.ndarray.to_fixed_tuple and
// numba.literal_unroll.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

namespace {

// Numba's tuple lengths are part of the type: a longer one is a sign of a mistake.
constexpr int64_t max_fixed_tuple = 1024;

// to_fixed_tuple(array, n): the first n items of a 1-d array as a UniTuple(dtype, n); n must be
// known at compile time (Numba: "*length* argument must be a constant"). As in Numba there is
// no check that the array holds n items: the reads are indexing's, checked where boundscheck is.
Value to_fixed_tuple(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 2, 2)) return Value::error();
  const Value& array = call.args[0];
  if (!array.type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range,
            "to_fixed_tuple() takes a 1-d array, not '" + to_string(array.type) + "'");
    return Value::error();
  }
  if (array.type.ndim != 1) {
    c.error(DiagKind::type_mismatch, call.range, fmt::format("Not supported on array.ndim={}", array.type.ndim),
            "to_fixed_tuple() takes a 1-d array: pass a.ravel() or a row");
    return Value::error();
  }
  auto length = call.args[1].type.is(TypeKind::integer) ? c.fold(call.args[1].expr) : std::nullopt;
  if (!length || length->as_int() < 0 || length->as_int() > max_fixed_tuple) {
    c.error(DiagKind::not_constant, call.range,
            length ? fmt::format("to_fixed_tuple() makes tuples of 0 to {} items, not {}", max_fixed_tuple,
                                 length->as_int())
                   : std::string("*length* argument must be a constant"),
            "the length is the tuple's type: write an integer literal or a module constant");
    return Value::error();
  }
  Value held = c.store_in_temporary(array, call.range);
  if (!held.ok()) return Value::error();
  ir::Expr tuple;
  tuple.kind = ir::ExprKind::make_tuple;
  tuple.range = call.range;
  for (int64_t k = 0; k < length->as_int(); ++k) {
    Value item = c.subscript_value(held, {c.make_constant({k}, Type::i64(), call.range)}, call.range);
    if (!item.ok()) return Value::error();
    tuple.args.push_back(item.expr);
  }
  tuple.type = Type::tuple(std::vector<Type>(static_cast<size_t>(length->as_int()), array.type.elements[0]));
  return c.value_of(c.add(std::move(tuple)));
}

// literal_unroll(t): Numba versions the loop body for each type a heterogeneous tuple holds
// (`for x in literal_unroll(t)`, sema/unroll.cpp, never reaches this). Over a tuple of one type,
// an array or a list it is the plain loop, which is what this gives; a tuple of several types
// anywhere else (bound to a name, inside enumerate or zip) is refused by name.
Value literal_unroll(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1)) return Value::error();
  const Value& iterable = call.args[0];
  const Type& type = iterable.type;
  if (type.is(TypeKind::tuple)) {
    for (const Type& element : type.elements)
      if (element != type.elements.front()) {
        c.error(DiagKind::unsupported_operation, call.range,
                "literal_unroll() over a tuple of different types ('" + to_string(type) +
                    "') is supported only as a for loop's iterable",
                "write 'for item in literal_unroll(t):', with no enumerate, zip or variable between");
        return Value::error();
      }
  }
  return iterable;
}

// literally(x): Numba compiles the function for x's literal value (its dispatcher asks the
// caller for Literal[int](3)), so x reads as the value itself. Integers, bools and strings have
// literals; anything else is Numba's LiteralTypingError.
Value literally(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1)) return Value::error();
  const Value& value = call.args[0];
  const Type& type = value.type;
  bool has_literal = value.is_string_literal() || type.is(TypeKind::string) || type.is_integer_like();
  if (value.kind != Value::Kind::expr && !value.is_string_literal()) has_literal = false;
  if (!has_literal) {
    std::string python = type.is(TypeKind::floating) ? "float"
                         : type.is(TypeKind::complex) ? "complex"
                         : type.is(TypeKind::array)   ? "numpy.ndarray"
                                                      : to_string(type);
    c.error(DiagKind::type_mismatch, call.range, "<class '" + python + "'> cannot be used as a literal",
            "numba.literally() takes an integer, a bool or a string (Numba's LiteralTypingError)");
    return Value::error();
  }
  return value;
}

}  // namespace

void add_numba_builtins(HandlerTable& t) {
  t["numba.literally"] = literally;
  t["numba.misc.special.literally"] = literally;
  t["numba.np.unsafe.ndarray.to_fixed_tuple"] = to_fixed_tuple;
  t["numba.literal_unroll"] = literal_unroll;
  t["numba.misc.literal.literal_unroll"] = literal_unroll;
}

}  // namespace pykern::sema

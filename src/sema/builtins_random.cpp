// Random numbers: numba.cuda.random's xoroshiro128p in kernels, and Python's and NumPy's random
// modules in @jit functions on the host, drawn as Numba's CPU target draws
// (runtime/pykern/host_random.cuh). Every draw has effects: draws in one expression come out
// in Python's order (sema/evaluation_order.cpp).
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// "random.uniform()", "np.random.randint()": a draw's name as the file wrote it, for messages.
std::string draw_name(const CallSite& call) {
  return (call.name.rfind("numpy.", 0) == 0 ? "np." + call.name.substr(6) : call.name) + "()";
}

// Random draws beyond random(): uniform, gauss/normal from Python's (which 0) or NumPy's
// (which 1) state. Scalars only: a size= argument would make an array, which these functions
// cannot.
Value host_draw(FunctionChecker& c, const CallSite& call, int64_t which, Op op, size_t min, size_t max) {
  const double defaults[2] = {0.0, 1.0};  // low/high, loc/scale, mu/sigma
  if (!want_args(c, call, min, max) || !c.allow_host_only(call.range, draw_name(call))) return Value::error();
  std::vector<ir::ExprId> args = {c.make_constant({which}, Type::i32(), call.range).expr};
  for (size_t i = 0; i < 2; ++i) {
    if (i < call.args.size()) {
      if (!want_numeric(c, call, call.args[i]) || call.args[i].type.is(TypeKind::complex)) return Value::error();
      args.push_back(c.cast_expr(call.args[i].expr, Type::f64()));
    } else {
      args.push_back(c.make_constant({defaults[i]}, Type::f64(), call.range).expr);
    }
  }
  return c.make_call(op, std::move(args), Type::f64(), call.range);
}

// randrange(stop) / (start, stop) / (start, stop, step), randint(a, b) (Python's, b included)
// and np.random.randint(high) / (low, high): in the widest of the arguments' integer types,
// signed if any is, as Numba types them.
Value host_randrange(FunctionChecker& c, const CallSite& call, int64_t which, bool inclusive) {
  size_t max = which == 0 && !inclusive ? 3 : 2;
  size_t min = which == 0 && inclusive ? 2 : 1;
  if (!want_args(c, call, min, max) || !c.allow_host_only(call.range, draw_name(call))) return Value::error();
  int bits = 0;
  bool is_signed = false;
  for (const Value& v : call.args) {
    if (!v.type.is(TypeKind::integer)) {
      c.error(DiagKind::type_mismatch, call.range, short_name(call.name) + "() takes integers");
      return Value::error();
    }
    bits = std::max(bits, v.type.bits);
    is_signed = is_signed || v.type.is_signed;
  }
  Type type = Type::int_(bits, is_signed);
  auto constant = [&](int64_t v) { return c.make_constant({v}, type, call.range).expr; };
  ir::ExprId start = call.args.size() >= 2 ? c.cast_expr(call.args[0].expr, type) : constant(0);
  ir::ExprId stop = c.cast_expr(call.args[call.args.size() >= 2 ? 1 : 0].expr, type);
  ir::ExprId step = call.args.size() == 3 ? c.cast_expr(call.args[2].expr, type) : constant(1);
  return c.make_call(inclusive ? Op::host_randint : Op::host_randrange,
                     {c.make_constant({which}, Type::i32(), call.range).expr, start, stop, step}, type, call.range);
}

// random.random() and np.random.random() draw as Numba's CPU target does; seed(n) seeds.
// Host only: a kernel cannot use Python's random module (numba.cuda.random is its API).
Handler host_random(int64_t which) {
  return [which](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 0, 0) || !c.allow_host_only(call.range, "random.random()")) return Value::error();
    return c.make_call(Op::host_random, {c.make_constant({which}, Type::i32(), call.range).expr}, Type::f64(),
                       call.range);
  };
}

Handler host_seed(int64_t which) {
  return [which](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 1, 1) || !c.allow_host_only(call.range, "random.seed()")) return Value::error();
    if (!call.args[0].type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, "seed() takes an integer");
      return Value::error();
    }
    return c.make_call(Op::host_random_seed,
                       {c.make_constant({which}, Type::i32(), call.range).expr,
                        c.cast_expr(call.args[0].expr, Type::int_(32, false))},
                       Type::void_(), call.range);
  };
}

Handler xoroshiro(Op op, Type result) {
  return [op, result](FunctionChecker& c, const CallSite& call) -> Value {
    if (!want_args(c, call, 2, 2)) return Value::error();
    const Type& states = call.args[0].type;
    if (!states.is(TypeKind::array) || states.ndim != 1 || states.dtype() != Type::xoroshiro128p_record()) {
      c.error(DiagKind::type_mismatch, call.range,
              "the first argument must be a 1-d array of xoroshiro128p states, not '" + to_string(states) + "'",
              "make the states with create_xoroshiro128p_states(n, seed)");
      return Value::error();
    }
    if (!call.args[1].type.is_integer_like()) {
      c.error(DiagKind::type_mismatch, call.range, "the state index must be an integer");
      return Value::error();
    }
    return c.make_call(op, {call.args[0].expr, c.cast_expr(call.args[1].expr, Type::i64())}, result, call.range);
  };
}

Value init_xoroshiro128p_state(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 3, 3)) return Value::error();
  const Type& states = call.args[0].type;
  if (!states.is(TypeKind::array) || states.ndim != 1 || states.dtype() != Type::xoroshiro128p_record() ||
      !call.args[1].type.is_integer_like() || !call.args[2].type.is_integer_like()) {
    c.error(DiagKind::type_mismatch, call.range,
            "init_xoroshiro128p_state(states, index, seed) takes the states array and two integers");
    return Value::error();
  }
  return c.make_call(Op::init_xoroshiro128p_state,
                     {call.args[0].expr, c.cast_expr(call.args[1].expr, Type::i64()),
                      c.cast_expr(call.args[2].expr, Type::u64())},
                     Type::void_(), call.range);
}

}  // namespace

void add_random_builtins(HandlerTable& t) {
  for (const auto& [module, which] : {std::pair<std::string, int64_t>{"random", 0}, {"numpy.random", 1}}) {
    t[module + ".random"] = host_random(which);
    t[module + ".seed"] = host_seed(which);
  }
  auto draw = [](int64_t which, Op op, size_t min, size_t max) {
    return [=](FunctionChecker& c, const CallSite& call) { return host_draw(c, call, which, op, min, max); };
  };
  t["random.uniform"] = draw(0, Op::host_uniform, 2, 2);
  t["random.gauss"] = draw(0, Op::host_gauss, 2, 2);
  t["random.normalvariate"] = draw(0, Op::host_gauss, 2, 2);
  t["numpy.random.uniform"] = draw(1, Op::host_uniform, 0, 2);
  t["numpy.random.normal"] = draw(1, Op::host_gauss, 0, 2);
  t["numpy.random.standard_normal"] = draw(1, Op::host_gauss, 0, 0);
  t["random.randrange"] = [](FunctionChecker& c, const CallSite& call) { return host_randrange(c, call, 0, false); };
  t["random.randint"] = [](FunctionChecker& c, const CallSite& call) { return host_randrange(c, call, 0, true); };
  t["numpy.random.randint"] = [](FunctionChecker& c, const CallSite& call) { return host_randrange(c, call, 1, false); };

  t["numba.cuda.random.xoroshiro128p_uniform_float32"] = xoroshiro(Op::xoroshiro128p_uniform_float32, Type::f32());
  t["numba.cuda.random.xoroshiro128p_uniform_float64"] = xoroshiro(Op::xoroshiro128p_uniform_float64, Type::f64());
  t["numba.cuda.random.xoroshiro128p_normal_float32"] = xoroshiro(Op::xoroshiro128p_normal_float32, Type::f32());
  t["numba.cuda.random.xoroshiro128p_normal_float64"] = xoroshiro(Op::xoroshiro128p_normal_float64, Type::f64());
  t["numba.cuda.random.init_xoroshiro128p_state"] = init_xoroshiro128p_state;
}

}  // namespace pykern::sema

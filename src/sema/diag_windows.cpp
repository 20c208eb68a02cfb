// np.diag and NumPy's window functions in @jit functions on the host, typed as Numba 0.68
// types them (numba/np/arraymath.py): np.diag(v, k=0) of a 1-d array is a 2-d C array of v's
// dtype with v on the k-th diagonal, of a 2-d array a new 1-d copy of that diagonal;
// np.hanning/hamming/blackman/bartlett(M) take an integer and make float64 arrays.
// Runtime: runtime/pykern/diag_windows.cuh.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

Value refused(FunctionChecker& c, const CallSite& call, const std::string& message) {
  c.error(DiagKind::type_mismatch, call.range, message);
  return Value::error();
}

Value diag(FunctionChecker& c, const CallSite& call) {
  if (!c.allow_host_only(call.range, "np.diag()")) return Value::error();
  auto bound = bind(c, call, {"v", "k"}, 1, "np.diag");
  if (!bound) return Value::error();
  const Value& v = *(*bound)[0];
  if (!v.type.is(TypeKind::array)) return refused(c, call, "np.diag(): the argument \"v\" must be an array, not '" + to_string(v.type) + "'");
  if (v.type.ndim != 1 && v.type.ndim != 2)
    return refused(c, call, fmt::format("np.diag(): input must be 1- or 2-d, not {}-d", v.type.ndim));
  if (v.type.dtype().is(TypeKind::record)) return refused(c, call, "np.diag() of a record array is not supported");
  ir::ExprId k = c.make_constant({int64_t(0)}, Type::i64(), call.range).expr;
  if ((*bound)[1]) {
    if (!(*bound)[1]->type.is(TypeKind::integer)) return refused(c, call, "np.diag(): the argument \"k\" must be an integer");
    k = c.cast_expr((*bound)[1]->expr, Type::i64());
  }
  if (v.type.ndim == 1)
    return c.make_call(Op::diag_of_vector, {v.expr, k}, Type::array(v.type.dtype(), 2, Layout::C), call.range);
  return c.make_call(Op::diag_of_matrix, {v.expr, k}, Type::array(v.type.dtype(), 1, Layout::C), call.range);
}

// np.hanning(M) and its kin: `which` picks the formula (diag_windows.cuh).
Handler window(int64_t which) {
  return [which](FunctionChecker& c, const CallSite& call) -> Value {
    std::string name = "np." + short_name(call.name) + "()";
    if (!c.allow_host_only(call.range, name) || !want_args(c, call, 1, 1)) return Value::error();
    if (!call.args[0].type.is(TypeKind::integer)) return refused(c, call, name + ": M must be an integer");
    return c.make_call(Op::window,
                       {c.make_constant({which}, Type::i64(), call.range).expr, c.cast_expr(call.args[0].expr, Type::i64())},
                       Type::array(Type::f64(), 1, Layout::C), call.range);
  };
}

}  // namespace

void add_diag_window_builtins(HandlerTable& t) {
  t["numpy.diag"] = diag;
  t["numpy.hanning"] = window(0);
  t["numpy.hamming"] = window(1);
  t["numpy.blackman"] = window(2);
  t["numpy.bartlett"] = window(3);
}

}  // namespace pykern::sema

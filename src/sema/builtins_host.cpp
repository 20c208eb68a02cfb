// What only @jit functions on the host have: a returned list's hand-over, numba's thread pool
// (lists themselves: sema/lists.cpp).
#include <fmt/format.h>

#include "sema/builtin_rules.h"
#include "sema/infer.h"

namespace pykern::sema {

using ir::Op;

namespace {

// numba.set_num_threads(n): the threads later prange loops of this OS thread use
// (runtime/pykern/parallel.cuh).
Value set_num_threads(FunctionChecker& c, const CallSite& call) {
  if (!want_args(c, call, 1, 1)) return Value::error();
  if (!call.args[0].type.is_integer_like()) {
    c.error(DiagKind::type_mismatch, call.range, "The number of threads specified must be an integer",
            "set_num_threads() takes an integer from 1 to NUMBA_NUM_THREADS");
    return Value::error();
  }
  return c.make_call(Op::set_num_threads, {c.cast_expr(call.args[0].expr, Type::i64())}, Type::none(), call.range);
}

// The host-call wrapper's argument read from its encoded bytes, as the type named by a string
// literal in signature syntax: __pk_import_value(__a0, 'ListType(int64)'); and its result
// written out for the caller: __pk_export_value(f(...)) (runtime/pykern/host_values.cuh).
Value import_value(FunctionChecker& c, const CallSite& call) {
  if (c.origin() != frontend::Origin::host_call) {
    c.error(DiagKind::unknown_function, call.range, "numba.cuda has no function '__pk_import_value'");
    return Value::error();
  }
  if (!want_args(c, call, 2, 2) || !call.args[0].type.is(TypeKind::array) || !call.args[1].is_string_literal())
    return Value::error();
  std::optional<Type> type = parse_type_text(call.args[1].name);
  if (!type) {
    c.error(DiagKind::internal_error, call.range, "a host call's argument type '" + call.args[1].name + "' does not parse");
    return Value::error();
  }
  return c.make_call(Op::import_value, {call.args[0].expr}, *type, call.range);
}

Value export_value(FunctionChecker& c, const CallSite& call) {
  if (c.origin() != frontend::Origin::host_call) {
    c.error(DiagKind::unknown_function, call.range, "numba.cuda has no function '__pk_export_value'");
    return Value::error();
  }
  if (!want_args(c, call, 1, 1)) return Value::error();
  return c.make_call(Op::export_value, {call.args[0].expr}, Type::void_(), call.range);
}

// A list or dict argument written back for the caller after the call:
// __pk_export_argument(0, __x0) (compiler/generated_source.cpp).
Value export_argument(FunctionChecker& c, const CallSite& call) {
  if (c.origin() != frontend::Origin::host_call) {
    c.error(DiagKind::unknown_function, call.range, "numba.cuda has no function '__pk_export_argument'");
    return Value::error();
  }
  if (!want_args(c, call, 2, 2) || !call.args[0].type.is_integer_like()) return Value::error();
  return c.make_call(Op::export_argument, {c.cast_expr(call.args[0].expr, Type::i64()), call.args[1].expr},
                     Type::void_(), call.range);
}

}  // namespace

void add_host_builtins(HandlerTable& t) {
  // The host-call wrapper's hand-over of a returned list (compiler/generated_source.cpp); no
  // function the user wrote may call it.
  t["numba.cuda.__pk_export_list"] = [](FunctionChecker& c, const CallSite& call) -> Value {
    if (c.origin() != frontend::Origin::host_call) {
      c.error(DiagKind::unknown_function, call.range, "numba.cuda has no function '__pk_export_list'");
      return Value::error();
    }
    if (!want_args(c, call, 1, 1) || !call.args[0].type.is(TypeKind::list)) return Value::error();
    return c.make_call(Op::export_list, {call.args[0].expr}, Type::void_(), call.range);
  };
  // get_num_threads() reads what set_num_threads() set; get_thread_id() names the pool thread
  // running the current part. A kernel's threads run no prange loops in parallel.
  t["numba.set_num_threads"] = set_num_threads;
  t["numba.cuda.__pk_import_value"] = Builtin::with_strings(import_value);
  t["numba.cuda.__pk_export_value"] = export_value;
  t["numba.cuda.__pk_export_argument"] = export_argument;
  t["numba.get_num_threads"] = nullary(Op::get_num_threads, Type::i64());
  t["numba.get_thread_id"] = nullary(Op::get_thread_id, Type::i64());
}

}  // namespace pykern::sema

// What only @jit functions on the host have: lists, numba's thread pool.
#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// l.append(x): the list's items' type is learnt from what is appended, as Numba's is.
Value list_append(FunctionChecker& c, const CallSite& call) {
  const Type& type = call.args[0].type;
  if (!type.is(TypeKind::list)) {
    c.error(DiagKind::unknown_attribute, call.range, "a value of type '" + to_string(type) + "' has no attribute 'append'");
    return Value::error();
  }
  if (call.args.size() != 2 || !call.keywords.empty()) {
    c.error(DiagKind::wrong_arity, call.range, "append() takes one argument");
    return Value::error();
  }
  Value item = c.as_runtime(call.args[1], call.range);
  if (!item.ok()) return Value::error();
  auto unified = unify(type.elements[0], item.type);
  if (!unified || !item.type.is_numeric() || item.type.is(TypeKind::record) ||
      (type.elements[0].known() && *unified != type.elements[0])) {
    if (unified && type.elements[0].known() && item.type.is_numeric()) {
      // A value of another number type converts to the list's items' type, as Numba's does.
      return c.make_call(Op::list_append, {call.args[0].expr, c.cast_expr(item.expr, type.elements[0])}, Type::void_(),
                         call.range);
    }
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("cannot append a '{}' to a {}", to_string(item.type), to_string(type)));
    return Value::error();
  }
  c.learn_list_type(call.args[0], Type::list_of(*unified));
  return c.make_call(Op::list_append, {call.args[0].expr, c.cast_expr(item.expr, *unified)}, Type::void_(), call.range);
}

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

}  // namespace

void add_host_builtins(HandlerTable& t) {
  t["method.append"] = list_append;
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
  t["numba.get_num_threads"] = nullary(Op::get_num_threads, Type::i64());
  t["numba.get_thread_id"] = nullary(Op::get_thread_id, Type::i64());
}

}  // namespace pykern::sema

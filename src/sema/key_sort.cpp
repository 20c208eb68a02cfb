// l.sort(key=f) and sorted(x, key=f), as numba/cpython/listobj.py's ol_list_sort: the keys
// [f(item) for item in l] are computed first, in order, then Numba's argsort quicksort of the
// keys orders the items (runtime/pykern/list_slices.cuh list_sort_by_keys). The key is an
// @njit function or a lambda (Numba: "Key must be None or a Numba JIT compiled function").
#include <fmt/format.h>

#include "sema/checker.h"
#include "sema/lists.h"

namespace pykern::sema {

// A new list of key(item) for each item of `list`, built by a loop emitted here; an error value
// after reporting.
Value FunctionChecker::keys_of(const Value& list, const Value& key, SourceRange range) {
  const frontend::ModuleFunction* target = key.kind == Value::Kind::function ? program_.function(key.name) : nullptr;
  const ast::Function* definition = target ? program_.lowered_function(key.name) : nullptr;
  if (!definition) {
    error(DiagKind::bad_argument, range, "Key must be None or a Numba JIT compiled function",
          "pass an @njit function or a lambda, e.g. key=lambda item: item[1]");
    return Value::error();
  }
  if (!definition->captured.empty()) {  // Numba's make_function pass refuses the closure
    error(DiagKind::unsupported_operation, range,
          "Cannot capture the non-constant value associated with variable '" + definition->captured.front() +
              "' in a function that may escape",
          "a sort key reads only its argument and module globals, as in Numba: sort (key, item) tuples instead");
    return Value::error();
  }
  Value held = store_in_temporary(list, range);  // the list read once
  int list_local = expr(held.expr).local;
  ir::Stmt loop;
  loop.kind = ir::StmtKind::for_range;
  loop.range = range;
  loop.loop_id = next_loop_id_++;
  loop.local = new_temporary(Type::i64());
  loop.start = make_constant({int64_t(0)}, Type::i64(), range).expr;
  loop.stop = make_call(ir::Op::list_len, {read_local(list_local, range).expr}, Type::i64(), range).expr;
  loop.step = make_constant({int64_t(1)}, Type::i64(), range).expr;
  loop.step_sign = 1;

  std::vector<ir::StmtId>* saved = current_block_;
  current_block_ = &loop.body;
  ir::Expr element;  // list[k]
  element.kind = ir::ExprKind::element;
  element.type = list.type.elements[0];
  element.range = range;
  element.args = {read_local(list_local, range).expr, read_local(loop.local, range).expr};
  Value item = value_of(add(std::move(element)));
  ast::Expr site;
  site.kind = ast::ExprKind::call;
  site.range = range;
  Value computed = call_device_function(key.name, {item}, {}, site);
  current_block_ = saved;
  if (!computed.ok()) return Value::error();
  if (!computed.type.known()) return Value::error();  // an earlier round: typed later
  if (!list_can_hold(computed.type) || computed.type.is(TypeKind::array)) {
    error(DiagKind::type_mismatch, range,
          fmt::format("a sort key must give numbers, tuples or lists, which compare with '<'; '{}' gives '{}'",
                      key.name, to_string(computed.type)));
    return Value::error();
  }
  int keys = new_temporary(Type::list_of(computed.type));
  ir::Stmt append;
  append.kind = ir::StmtKind::expr;
  append.range = range;
  append.value = make_call(ir::Op::list_append, {read_local(keys, range).expr, computed.expr}, Type::void_(), range).expr;
  current_block_ = &loop.body;
  emit_stmt(std::move(append));
  current_block_ = saved;
  ir::Stmt start;  // keys = [] before the loop
  start.kind = ir::StmtKind::assign;
  start.range = range;
  start.target = read_local(keys, range).expr;
  start.value = new_list(Type::list_of(computed.type), {}, range).expr;
  emit_stmt(std::move(start));
  emit_stmt(std::move(loop));
  return read_local(keys, range);
}

}  // namespace pykern::sema

// A ufunc's methods in @jit functions on the host, as Numba 0.68 types them. A @vectorize
// function (Numba's DUFunc) has .reduce (numba/np/ufunc/dufunc.py, ol_reduce), computed as
// Numba's implementation computes it:
//   - a 1-d array (whatever the axis, unless it is ()) folds to one number: from the first
//     element, or from initial= or the ufunc's identity; its type is what the fold unifies to
//     (an int64 array folded by a function returning float64 gives a float64);
//   - an integer axis gives a new array of the array's dtype without that axis, started from
//     the first slice along it (or filled with initial/identity) and folded with each further
//     slice: one fused loop per index along the axis (array_exprs.cpp);
//   - the axis left out is axis 0, the default Numba's overload declares and types the result
//     by (its implementation takes it for None and then fails to compile, or returns a number
//     where an array was typed: pykern keeps the declared default);
//   - a tuple of axes or axis=None reduce the smallest axis first, then the rest, as Numba's
//     impl_nd_axis_tuple does; only a reorderable ufunc (identity 0, 1 or 'reorderable')
//     reduces more than one axis;
//   - axis=() gives the array itself.
// Its errors are Numba's: "Invalid axis", "zero-size array to reduction operation f which has
// no identity", "duplicate value in 'axis'" (ValueError at run time); the others are located
// compile errors. Numba has no .accumulate or .outer on a DUFunc and no methods at all on
// NumPy's own ufuncs in @jit functions (np.add.reduce): "Unknown attribute", located here too.
// Numba's .at and .reduceat are not taken by pykern yet: located errors that say so.
#include <fmt/format.h>

#include "sema/array_exprs.h"
#include "sema/checker.h"

namespace pykern::sema {

namespace {

// The identity a @vectorize decorator gives its reductions.
struct Identity {
  bool reorderable = false;
  std::optional<int64_t> value;  // 0 or 1
};

Identity identity_of(const frontend::ModuleFunction& f) {
  const std::string& text = f.decoration.ufunc_identity;
  Identity id;
  id.reorderable = !text.empty();
  if (text == "0" || text == "1") id.value = text == "1" ? 1 : 0;
  return id;
}

// What axis= holds: left out, None, one integer (a run-time value), or a tuple of constants.
struct AxisArgument {
  enum class Kind { omitted, none, integer, tuple } kind = Kind::omitted;
  Value integer;
  std::vector<int64_t> axes;
};

}  // namespace

// The reduction of one ufunc, emitted into the calling function.
class UfuncMethods {
 public:
  UfuncMethods(FunctionChecker& c, std::string name, SourceRange range)
      : c_(c), name_(std::move(name)), range_(range), identity_(identity_of(*c.program_.function(name_))) {}

  Value reduce(const ast::Expr& call);

 private:
  Value reduce_array(const Value& array, const AxisArgument& axis, const std::optional<Value>& initial);
  Value reduce_axes(const Value& array, std::vector<int64_t> axes, const std::optional<Value>& initial);
  Value reduce_one_axis(const Value& array, const Value& axis, const std::optional<Value>& initial);
  Value reduce_1d(const Value& array, const std::optional<Value>& initial);
  std::optional<AxisArgument> axis_argument(const Value& axis);
  // The start of a fold: initial=, else the identity (a Python int), else none.
  std::optional<Value> start_value(const std::optional<Value>& initial);
  void raise_if(const Value& condition, const std::string& exception, const std::string& message);
  void raise(const std::string& exception, const std::string& message);
  // for i in range(start, stop): body(i), as a loop statement of the calling function.
  void emit_loop(const Value& start, const Value& stop, const std::function<void(const Value&)>& body);
  Value constant(int64_t v) { return c_.make_constant({v}, Type::i64(), range_); }
  std::string empty_message() const {
    return fmt::format("zero-size array to reduction operation {} which has no identity", name_);
  }

  FunctionChecker& c_;
  std::string name_;
  SourceRange range_;
  Identity identity_;
};

std::optional<Value> UfuncMethods::start_value(const std::optional<Value>& initial) {
  if (initial) return initial;
  if (identity_.value) return constant(*identity_.value);
  return std::nullopt;
}

void UfuncMethods::raise(const std::string& exception, const std::string& message) {
  ir::Stmt out;
  out.kind = ir::StmtKind::raise_;
  out.range = range_;
  out.exception = exception;
  out.message = message;
  c_.emit_stmt(std::move(out));
}

void UfuncMethods::raise_if(const Value& condition, const std::string& exception, const std::string& message) {
  ir::Stmt check;
  check.kind = ir::StmtKind::if_;
  check.range = range_;
  check.condition = condition.expr;
  std::vector<ir::StmtId>* saved = c_.current_block_;
  c_.current_block_ = &check.body;
  raise(exception, message);
  c_.current_block_ = saved;
  c_.emit_stmt(std::move(check));
}

void UfuncMethods::emit_loop(const Value& start, const Value& stop, const std::function<void(const Value&)>& body) {
  ir::Stmt loop;
  loop.kind = ir::StmtKind::for_range;
  loop.range = range_;
  loop.loop_id = c_.next_loop_id_++;
  loop.step_sign = 1;
  loop.start = start.expr;
  loop.stop = stop.expr;
  loop.step = constant(1).expr;
  loop.local = c_.new_temporary(Type::i64());
  std::vector<ir::StmtId>* saved = c_.current_block_;
  c_.current_block_ = &loop.body;
  body(c_.read_local(loop.local, range_));
  c_.current_block_ = saved;
  c_.emit_stmt(std::move(loop));
}

std::optional<AxisArgument> UfuncMethods::axis_argument(const Value& axis) {
  AxisArgument out;
  if (axis.type.is(TypeKind::none)) {
    out.kind = AxisArgument::Kind::none;
    return out;
  }
  if (axis.type.is(TypeKind::integer)) {
    out.kind = AxisArgument::Kind::integer;
    out.integer = c_.cast(axis, Type::i64(), range_);
    return out;
  }
  if (axis.type.is(TypeKind::tuple)) {
    const ir::Expr& tuple = c_.expr(axis.expr);
    bool constants = tuple.kind == ir::ExprKind::make_tuple;
    for (size_t i = 0; constants && i < tuple.args.size(); ++i) {
      const ir::Expr& item = c_.expr(tuple.args[i]);
      constants = item.kind == ir::ExprKind::constant && item.type.is(TypeKind::integer);
      if (constants) out.axes.push_back(item.constant.as_int());
    }
    if (constants) {
      out.kind = AxisArgument::Kind::tuple;
      return out;
    }
    c_.error(DiagKind::unsupported_operation, range_,
             fmt::format("{}.reduce(): a tuple of axes is taken when its items are integer literals", name_),
             "write the axes out: axis=(0, 2)");
    return std::nullopt;
  }
  c_.error(DiagKind::type_mismatch, range_,
           fmt::format("{}.reduce(): axis must be an integer, a tuple of integers or None, not '{}'", name_,
                       to_string(axis.type)));
  return std::nullopt;
}

Value UfuncMethods::reduce(const ast::Expr& call) {
  const ast::Ast& tree = c_.module().ast();
  static const char* const parameters[] = {"array", "axis", "dtype", "initial"};
  std::optional<Value> bound[4];
  if (call.operands.size() > 5) {
    c_.error(DiagKind::wrong_arity, range_,
             fmt::format("{}.reduce() takes at most 4 arguments (array, axis, dtype, initial), {} given", name_,
                         call.operands.size() - 1));
    return Value::error();
  }
  // dtype= names a type (np.float32): read as one, and refused below unless it is None.
  std::optional<SourceRange> dtype_given;
  auto evaluate = [&](size_t at, ast::ExprId id) {
    if (at != 2) return c_.check_expr(id);
    if (tree[id].kind != ast::ExprKind::none) dtype_given = tree[id].range;
    return c_.make_constant({int64_t(0)}, Type::none(), tree[id].range);
  };
  for (size_t i = 1; i < call.operands.size(); ++i) bound[i - 1] = evaluate(i - 1, call.operands[i]);
  for (const ast::Keyword& keyword : call.keywords) {
    size_t at = 0;
    while (at < 4 && keyword.name != parameters[at]) ++at;
    if (at == 4 || bound[at]) {
      c_.error(DiagKind::wrong_arity, keyword.range,
               at == 4 ? fmt::format("{}.reduce() got an unexpected keyword argument '{}'", name_, keyword.name)
                       : fmt::format("{}.reduce() got multiple values for argument '{}'", name_, keyword.name),
               "Numba's ufunc.reduce takes (array, axis=0, dtype=None, initial=None)");
      return Value::error();
    }
    bound[at] = evaluate(at, keyword.value);
  }
  for (auto& v : bound)
    if (v && (!v->ok() || !(v = c_.as_runtime(*v, range_))->ok())) return Value::error();
  if (!bound[0]) {
    c_.error(DiagKind::wrong_arity, range_, fmt::format("{}.reduce() missing the argument 'array'", name_));
    return Value::error();
  }
  Value array = *bound[0];
  if (!array.type.is(TypeKind::array)) {
    c_.error(DiagKind::type_mismatch, range_,
             fmt::format("{}.reduce(): The first argument \"array\" must be array-like, not '{}'", name_,
                         to_string(array.type)),
             "Numba's ufunc.reduce takes an array");
    return Value::error();
  }
  if (dtype_given) {
    c_.error(DiagKind::unsupported_operation, *dtype_given,
             fmt::format("{}.reduce() with dtype= is not supported by pykern yet", name_),
             "reduce in the array's dtype and convert the result with .astype()");
    return Value::error();
  }
  std::optional<Value> initial;
  if (bound[3] && !bound[3]->type.is(TypeKind::none)) {
    initial = *bound[3];
    if (!initial->type.is_numeric()) {
      c_.error(DiagKind::type_mismatch, range_,
               fmt::format("{}.reduce(): initial must be a number, not '{}'", name_, to_string(initial->type)));
      return Value::error();
    }
  }
  AxisArgument axis;
  if (bound[1]) {
    auto given = axis_argument(*bound[1]);
    if (!given) return Value::error();
    axis = *given;
  }
  bool several = axis.kind == AxisArgument::Kind::none ||
                 (axis.kind == AxisArgument::Kind::tuple && axis.axes.size() > 1);
  if (several && array.type.ndim > 1 && !identity_.reorderable) {
    c_.error(DiagKind::unsupported_operation, range_,
             fmt::format("reduction operation '{}' is not reorderable, so at most one axis may be specified", name_),
             "give the ufunc an identity (@vectorize(identity=0), 1 or 'reorderable'), or pass one axis: axis=0");
    return Value::error();
  }
  if (!c_.allow_host_only(range_, name_ + ".reduce()")) return Value::error();
  // Numba evaluates the array once; the fold reads it at each step.
  return reduce_array(c_.store_in_temporary(array, range_), axis, initial);
}

Value UfuncMethods::reduce_array(const Value& array, const AxisArgument& axis, const std::optional<Value>& initial) {
  bool empty_tuple = axis.kind == AxisArgument::Kind::tuple && axis.axes.empty();
  if (empty_tuple) return array;
  if (array.type.ndim == 1) return reduce_1d(array, initial);
  switch (axis.kind) {
    case AxisArgument::Kind::integer: return reduce_one_axis(array, axis.integer, initial);
    case AxisArgument::Kind::tuple: return reduce_axes(array, axis.axes, initial);
    case AxisArgument::Kind::omitted: return reduce_one_axis(array, constant(0), initial);
    case AxisArgument::Kind::none: {
      std::vector<int64_t> all;
      for (int d = 0; d < array.type.ndim; ++d) all.push_back(d);
      return reduce_axes(array, all, initial);
    }
  }
  return Value::error();
}

Value UfuncMethods::reduce_axes(const Value& array, std::vector<int64_t> axes, const std::optional<Value>& initial) {
  if (array.type.ndim == 1) return reduce_1d(array, initial);
  if (!identity_.reorderable && axes.size() > 1) {
    c_.error(DiagKind::unsupported_operation, range_,
             fmt::format("reduction operation '{}' is not reorderable, so at most one axis may be specified", name_),
             "give the ufunc an identity (@vectorize(identity=0), 1 or 'reorderable'), or reduce one axis at a time");
    return Value::error();
  }
  int ndim = array.type.ndim;
  for (int64_t& axis : axes) {
    if (axis < 0) axis += ndim;
    if (axis < 0 || axis >= ndim) {
      raise("ValueError", "Invalid axis");
      return reduce_one_axis(array, constant(0), initial);  // typed as Numba types it; never run
    }
  }
  for (size_t i = 0; i < axes.size(); ++i)
    for (size_t j = i + 1; j < axes.size(); ++j)
      if (axes[i] == axes[j]) raise("ValueError", "duplicate value in 'axis'");
  size_t min_at = 0;
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i] < axes[min_at]) min_at = i;
  Value first = reduce_one_axis(array, constant(axes[min_at]), initial);
  if (!first.ok() || axes.size() == 1) return first;
  Value held = c_.store_in_temporary(first, range_);
  if (axes.size() == 2) {
    int64_t other = axes[(min_at + 1) % 2] - 1;
    if (held.type.ndim == 1) return reduce_1d(held, std::nullopt);
    return reduce_one_axis(held, constant(other), std::nullopt);
  }
  // Numba's next step for three or more axes: ufunc.reduce(r, axis=ax), where ax is a tuple of
  // len(axes) - 1 zeros with each item but the smallest axis's position set from axes.
  std::vector<int64_t> rest(axes.size() - 1, 0);
  for (size_t i = 0; i < rest.size(); ++i)
    if (i != min_at) rest[i] = axes[i];
  return reduce_axes(held, rest, std::nullopt);
}

Value UfuncMethods::reduce_one_axis(const Value& array, const Value& axis, const std::optional<Value>& initial) {
  const Type& element = array.type.dtype();
  int ndim = array.type.ndim;
  Type result_type = Type::array(element, ndim - 1, Layout::C);
  Value at = c_.store_in_temporary(c_.make_call(ir::Op::ufunc_reduce_axis, {array.expr, axis.expr}, Type::i64(), range_), range_);
  Value extent = c_.store_in_temporary(c_.make_call(ir::Op::ufunc_axis_extent, {array.expr, at.expr}, Type::i64(), range_), range_);
  auto slice = [&](const Value& i) {
    return c_.make_call(ir::Op::ufunc_axis_slice, {array.expr, at.expr, i.expr}, Type::array(element, ndim - 1, Layout::A),
                        range_);
  };
  std::optional<Value> start = start_value(initial);
  Value started;
  if (start) {
    Value like = c_.make_constant({int64_t(0)}, element, range_);
    started = c_.make_call(ir::Op::ufunc_reduce_start, {like.expr, array.expr, at.expr, start->expr}, result_type, range_);
  } else {
    raise_if(c_.compare(ast::CompareOp::eq, extent, constant(0), range_), "ValueError", empty_message());
    started = c_.make_call(ir::Op::copy_array, {slice(constant(0)).expr}, result_type, range_);
  }
  Value result = c_.store_in_temporary(started, range_);
  // Each step is Numba's view[k] = ufunc(view[k], a[..., i, ...]): the loop for (dtype,
  // dtype), its result converted back to the dtype.
  std::optional<UfuncLoop> loop = c_.user_ufunc_loop(name_, {element, element}, range_);
  if (!loop) return Value::error();
  std::string name = name_;
  Type output = element;
  ElementRule rule = [name, output](FunctionChecker& f, const std::vector<Value>& x, SourceRange where) {
    Value v = f.user_ufunc_element(name, x, where);
    return v.ok() ? f.cast(v, output, where) : v;
  };
  bool failed = false;
  emit_loop(start ? constant(0) : constant(1), extent, [&](const Value& i) {
    Value map = c_.elementwise(fmt::format("{}.reduce()", name_), {result, slice(i)}, loop->inputs, element, rule, range_);
    if (!map.ok()) {
      failed = true;
      return;
    }
    ir::Stmt write;
    write.kind = ir::StmtKind::expr;
    write.range = range_;
    write.value = c_.make_call(ir::Op::assign_expr, {result.expr, c_.expr(map.expr).args[0]}, Type::void_(), range_).expr;
    c_.emit_stmt(std::move(write));
  });
  return failed ? Value::error() : result;
}

Value UfuncMethods::reduce_1d(const Value& array, const std::optional<Value>& initial) {
  const Type& element = array.type.dtype();
  ir::Expr length;
  length.kind = ir::ExprKind::member;
  length.name = "shape[0]";
  length.type = Type::i64();
  length.range = range_;
  length.args = {array.expr};
  Value count = c_.store_in_temporary(c_.value_of(c_.add(std::move(length))), range_);
  auto item = [&](const Value& i) {
    ir::Expr e;
    e.kind = ir::ExprKind::element;
    e.type = element;
    e.range = range_;
    e.args = {array.expr, i.expr};
    e.known_non_negative = 1;
    e.known_in_bounds = 1;
    return c_.value_of(c_.add(std::move(e)));
  };
  std::optional<Value> start = start_value(initial);
  // The fold's variable holds what Numba unifies it to: its start's type and every type the
  // ufunc returns for (that type, the element type).
  Type held = start ? start->type : element;
  for (int round = 0; round < 8; ++round) {
    std::optional<UfuncLoop> loop = c_.user_ufunc_loop(name_, {held, element}, range_);
    if (!loop) return Value::error();
    std::optional<Type> unified = unify(held, loop->output);
    if (!unified) {
      c_.error(DiagKind::type_mismatch, range_,
               fmt::format("{}.reduce(): the running value is a '{}' but the ufunc returns a '{}'", name_,
                           to_string(held), to_string(loop->output)));
      return Value::error();
    }
    if (*unified == held) break;
    held = *unified;
  }
  if (!start) raise_if(c_.compare(ast::CompareOp::eq, count, constant(0), range_), "ValueError", empty_message());
  int local = c_.new_temporary(held);
  auto assign = [&](const Value& v) {
    ir::Stmt store;
    store.kind = ir::StmtKind::assign;
    store.range = range_;
    store.target = c_.read_local(local, range_).expr;
    store.value = c_.cast(v, held, range_).expr;
    c_.emit_stmt(std::move(store));
  };
  assign(start ? *start : item(constant(0)));
  std::optional<UfuncLoop> loop = c_.user_ufunc_loop(name_, {held, element}, range_);
  if (!loop) return Value::error();
  bool failed = false;
  emit_loop(start ? constant(0) : constant(1), count, [&](const Value& i) {
    Value left = c_.cast(c_.read_local(local, range_), loop->inputs[0], range_);
    Value right = c_.cast(item(i), loop->inputs[1], range_);
    Value v = c_.user_ufunc_element(name_, {left, right}, range_);
    if (!v.ok()) {
      failed = true;
      return;
    }
    assign(v);
  });
  return failed ? Value::error() : c_.read_local(local, range_);
}

// name.method(...) where name is a @vectorize function, or np.<ufunc>.method(...).
std::optional<Value> FunctionChecker::call_ufunc_method(const Value& base, const std::string& method, const ast::Expr& e) {
  static const char* const methods[] = {"reduce", "accumulate", "outer", "at", "reduceat"};
  bool known = false;
  for (const char* m : methods) known |= method == m;
  if (base.kind == Value::Kind::qualified && base.name.rfind("numpy.", 0) == 0 && known &&
      ufunc_named(base.name.substr(6)) != nullptr) {
    error(DiagKind::unknown_attribute, e.range,
          fmt::format("Unknown attribute '{}' of type Function(<ufunc '{}'>): Numba's NumPy ufuncs have no methods in "
                      "@jit functions",
                      method, base.name.substr(6)),
          method == "reduce" ? "use the reduction NumPy names (np.sum, np.prod, np.max) or a loop"
                             : "write the loop, or use np.cumsum / np.cumprod");
    return Value::error();
  }
  if (base.kind != Value::Kind::function || !known) return std::nullopt;
  frontend::ModuleFunction* target = program_.function(base.name);
  if (target == nullptr || target->decoration.role != frontend::FunctionRole::vectorize || is_kernel_ ||
      module_function_.origin != frontend::Origin::user || target->decoration.target == "cuda")
    return std::nullopt;
  if (method == "reduce") return UfuncMethods(*this, base.name, e.range).reduce(e);
  if (method == "at" || method == "reduceat") {
    error(DiagKind::unsupported_operation, e.range,
          fmt::format("ufunc '{}'.{}() is not supported by pykern yet (Numba's is experimental)", base.name, method),
          method == "at" ? "write the loop: for i in indices: a[i] = f(a[i], b)" : "reduce each slice with .reduce()");
    return Value::error();
  }
  error(DiagKind::unknown_attribute, e.range,
        fmt::format("Unknown attribute '{}' of type Function(<numba._DUFunc '{}'>): Numba's @vectorize ufuncs have no "
                    "{}() in @jit functions",
                    method, base.name, method),
        method == "accumulate" ? "write the running loop in the @jit function, or call " + base.name +
                                     ".accumulate from outside it (pykern's Ufunc::accumulate)"
                               : "compute it with broadcasting: " + base.name + "(a[:, None], b[None, :])");
  return Value::error();
}

}  // namespace pykern::sema

// 0-d arrays in @jit functions on the host (sema/zero_d.h). What Numba 0.68 does with them,
// as its typing and lowering show (numba/np/arrayobj.py, numba/np/npyimpl.py): a 0-d array
// is array(dtype, 0d, C); getitem with () gives its element; a ufunc or operator whose array
// operands are all 0-d gives a number (npyimpl's _prepare_argument/ufunc typing: the result
// has the operands' largest ndim, and 0 means a scalar); reductions give what they give on
// the one element.
#include "sema/zero_d.h"

#include <fmt/format.h>

#include <set>
#include <string>

#include "sema/array_exprs.h"

namespace pykern::sema {

bool is_zero_d(const Value& v) {
  return v.ok() && v.kind == Value::Kind::expr && v.type.is(TypeKind::array) && v.type.ndim == 0;
}

Value zero_d_element(FunctionChecker& c, const Value& array, SourceRange range) {
  ir::Expr element;
  element.kind = ir::ExprKind::element;
  element.type = array.type.dtype();
  element.range = range;
  element.args.push_back(array.expr);
  return c.value_of(c.add(std::move(element)));
}

Value zero_d_as_operand(FunctionChecker& c, const Value& operand, SourceRange range) {
  return is_zero_d(operand) ? zero_d_element(c, operand, range) : operand;
}

void store_zero_d(FunctionChecker& c, const Value& array, const Value& computed, SourceRange range) {
  ir::Stmt store;
  store.kind = ir::StmtKind::assign;
  store.range = range;
  store.target = zero_d_element(c, array, range).expr;
  store.value = c.cast_expr(computed.expr, array.type.dtype());
  c.emit_stmt(std::move(store));
}

Value zero_d_of_number(FunctionChecker& c, const Value& number, const std::optional<Type>& dtype, SourceRange range) {
  Type element = dtype ? *dtype : number.type;
  return c.make_call(ir::Op::full_array, {c.cast_expr(number.expr, element)}, Type::array(element, 0, Layout::C), range);
}

void refuse_zero_d_parameters(FunctionChecker& c, const ast::Function& function, const std::vector<Type>& arguments) {
  for (size_t i = 0; i < arguments.size() && i < function.parameters.size(); ++i) {
    if (!arguments[i].is(TypeKind::array) || arguments[i].ndim != 0) continue;
    c.error(DiagKind::bad_signature, function.parameters[i].range,
            fmt::format("parameter '{}' is a 0-d array: kernels and device functions take arrays of 1 or more "
                        "dimensions",
                        function.parameters[i].name),
            "pass the value as a scalar, or a 1-element array (a[0])");
  }
}

namespace {

// Calls whose rules take a 0-d array as it is: new arrays like it, copies, its item, and
// (below) NumPy's ufuncs, which see its element.
const std::set<std::string>& takes_zero_d() {
  static const std::set<std::string> names = {
      "numpy.empty_like", "numpy.zeros_like", "numpy.ones_like", "numpy.full_like", "numpy.copy",
      "method.copy",      "method.item",      "numpy.asarray",
      "numba.cuda.__pk_export_array",  // a host call handing its returned 0-d array over
      "method.append",                 // a list of 0-d arrays (lists.cpp types the item)
      "method.astype",                 // a new 0-d array of the dtype, as Numba's
  };
  return names;
}

// Calls that give on a 0-d array what they give on the 1-element 1-d array of its element, as
// Numba's implementations do (a reduction's number, a flattening's 1-d array), when the array
// is their only argument. np.sum(z, axis=0) and the like are not among them: an axis of a 0-d
// array does not exist.
const std::set<std::string>& sees_one_element() {
  static const std::set<std::string> names = [] {
    std::set<std::string> n;
    for (const char* f : {"sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "all", "any",
                          "cumsum", "cumprod", "ravel", "flatten"}) {
      n.insert(std::string("method.") + f);
      n.insert(std::string("numpy.") + f);
    }
    for (const char* f : {"amin", "amax", "median", "nansum", "nanmean", "nanmin", "nanmax", "nanprod", "nanvar",
                          "nanstd", "nanmedian", "count_nonzero", "ptp", "nancumsum", "nancumprod", "atleast_1d"})
      n.insert(std::string("numpy.") + f);
    return n;
  }();
  return names;
}

// The name as the user wrote it, for messages: np.sum, a.sum, len.
std::string shown_name(const std::string& name) {
  if (name.rfind("numpy.", 0) == 0) return "np." + name.substr(6);
  if (name.rfind("method.", 0) == 0) return "array." + name.substr(7);
  if (name.rfind("builtins.", 0) == 0) return name.substr(9);
  return name;
}

bool is_ufunc_call(const CallSite& call) {
  if (call.name.rfind("numpy.", 0) != 0) return false;
  const Ufunc* u = ufunc_named(call.name.substr(6));
  // An output array among the arguments (np.add(z, 1, out)) is not taken yet.
  return u && call.args.size() <= static_cast<size_t>(u->inputs) && call.keywords.empty();
}

}  // namespace

std::optional<CallSite> zero_d_call(FunctionChecker& c, const CallSite& call) {
  bool any = false;
  for (const Value& v : call.args) any |= is_zero_d(v);
  for (const auto& [name, v] : call.keywords) any |= is_zero_d(v);
  if (!any || takes_zero_d().count(call.name) || is_ufunc_call(call)) return call;
  bool alone = call.args.size() == 1 && call.keywords.empty();
  if (alone && sees_one_element().count(call.name)) {
    CallSite seen = call;
    const Value& z = call.args[0];
    seen.args[0] = c.make_call(ir::Op::zero_d_as_1d, {z.expr}, Type::array(z.type.dtype(), 1, Layout::C), call.range);
    return seen;
  }
  c.error(DiagKind::unsupported_operation, call.range,
          fmt::format("{}() of a 0-d array is not supported", shown_name(call.name)),
          sees_one_element().count(call.name) ? "a 0-d array has no axes: call it with the array alone"
                                              : "read the 0-d array's value with z[()] (or z.item()) and pass that");
  return std::nullopt;
}

}  // namespace pykern::sema

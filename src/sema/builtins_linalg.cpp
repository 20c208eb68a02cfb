// NumPy's linear algebra in @jit functions on the host: np.dot, `a @ b` (operator.matmul),
// np.vdot, np.outer, np.trace and np.linalg's inv, det, solve, lstsq, cholesky, eigh, eigvalsh,
// qr, svd, norm, eig, eigvals, pinv, slogdet, matrix_power, matrix_rank and cond
// (runtime/pykern/linalg_more.cuh for the last seven). One row per Python name: its runtime operation (sema/calls.def,
// runtime/pykern/linalg.cuh, which calls BLAS/LAPACK as Numba calls SciPy's), the operands it
// takes, its optional argument, and how its result is typed (Numba's numba/np/linalg.py,
// whose TypingErrors the messages repeat). Kernels refuse them, as numba-cuda does.
#include <algorithm>

#include <fmt/format.h>

#include "sema/builtin_rules.h"

namespace pykern::sema {

using ir::Op;

namespace {

// What the first operand is.
enum class First {
  matrix,            // a 2-D float or complex array (np.linalg's _check_linalg_matrix)
  vector_or_matrix,  // a 1-D or 2-D float or complex array (norm)
  product,           // np.dot / '@': 1-D or 2-D arrays of one BLAS dtype
  vector,            // np.vdot: 1-D arrays of one BLAS dtype
  any_numeric,       // np.outer: 1-D or 2-D arrays of numbers
};
// The second operand, where there is one.
enum class Second { none, like_first, right_hand_side };
// The optional argument after the operands, its keyword and its default.
enum class Extra { none, rcond, full_matrices, ord, offset, pinv_rcond, tol, p, power };

struct LinalgRule {
  const char* name;   // the qualified Python name
  const char* shown;  // as messages name it: "np.linalg.inv", "np.dot", "'@'"
  Op op;
  First first;
  Second second;
  Extra extra;
  Type (*result)(const Type& a, const Type& b, bool extra_given);
};

Type real_of(const Type& dtype) {
  return dtype.is(TypeKind::complex) ? Type::float_(dtype.bits / 2) : dtype;
}
// Numba's sums from the integer 0 (trace) and its det: float64, or complex128.
Type widest_of(const Type& dtype) { return dtype.is(TypeKind::complex) ? Type::complex(128) : Type::f64(); }

Type product_result(const Type& a, const Type& b, bool) {
  if (a.ndim == 1 && b.ndim == 1) return a.dtype();
  return Type::array(a.dtype(), a.ndim == 2 && b.ndim == 2 ? 2 : 1, Layout::C);
}
Type scalar_of(const Type& a, const Type&, bool) { return a.dtype(); }
// np.multiply's loop as Numba picks it: an integer with a float or complex takes the other's
// type unwidened (float32 x int64 is float32, where NumPy gives float64); else NumPy's promotion.
Type multiply_result(const Type& a, const Type& b) {
  if (a.is_integer_like() && !b.is_integer_like()) return b;
  if (b.is_integer_like() && !a.is_integer_like()) return a;
  if (a.is(TypeKind::integer) && b.is(TypeKind::integer)) {
    // NumPy's array promotion (not Python's int64 for scalars): the narrowest integer holding
    // both; uint64 with a signed integer is float64.
    if (a.is_signed == b.is_signed) return Type::int_(std::max(a.bits, b.bits), a.is_signed);
    const Type& u = a.is_signed ? b : a;
    const Type& i = a.is_signed ? a : b;
    if (u.bits < i.bits) return i;
    return u.bits == 64 ? Type::f64() : Type::int_(u.bits * 2, true);
  }
  return arithmetic_result(a, b);
}
Type outer_result(const Type& a, const Type& b, bool) {
  return Type::array(multiply_result(a.dtype(), b.dtype()), 2, Layout::C);
}
Type widest_result(const Type& a, const Type&, bool) { return widest_of(a.dtype()); }
Type f_matrix(const Type& a, const Type&, bool) { return Type::array(a.dtype(), 2, Layout::F); }
Type c_matrix(const Type& a, const Type&, bool) { return Type::array(a.dtype(), 2, Layout::C); }
Type eigenvalues(const Type& a, const Type&, bool) { return Type::array(real_of(a.dtype()), 1, Layout::C); }
Type eigh_result(const Type& a, const Type& b, bool e) { return Type::tuple({eigenvalues(a, b, e), f_matrix(a, b, e)}); }
Type svd_result(const Type& a, const Type& b, bool e) {
  return Type::tuple({f_matrix(a, b, e), eigenvalues(a, b, e), f_matrix(a, b, e)});
}
Type qr_result(const Type& a, const Type& b, bool e) {
  return Type::tuple({Type::array(a.dtype(), 2, Layout::A), f_matrix(a, b, e)});
}
Type solve_result(const Type& a, const Type& b, bool) {
  return b.ndim == 1 ? Type::array(a.dtype(), 1, Layout::C) : Type::array(a.dtype(), 2, Layout::F);
}
Type lstsq_result(const Type& a, const Type& b, bool e) {
  Type reals = eigenvalues(a, b, e);
  return Type::tuple({Type::array(a.dtype(), b.ndim, Layout::C), reals, Type::i32(), reals});
}
// np.linalg.eig: the eigenvalues and the eigenvectors (as columns, F-ordered) of the matrix's
// own type: a real matrix's complex eigenvalues are a run-time ValueError in Numba.
Type c_vector(const Type& a, const Type&, bool) { return Type::array(a.dtype(), 1, Layout::C); }
Type eig_result(const Type& a, const Type& b, bool e) { return Type::tuple({c_vector(a, b, e), f_matrix(a, b, e)}); }
Type slogdet_result(const Type& a, const Type&, bool) { return Type::tuple({widest_of(a.dtype()), Type::f64()}); }
// np.linalg.matrix_power: a new C matrix (Numba's is typed Optional, as one path of its
// implementation falls off the end; every call returns an array).
Type power_result(const Type& a, const Type&, bool) {
  return Type::array(a.dtype(), 2, a.layout == Layout::C ? Layout::C : Layout::A);
}
Type rank_result(const Type&, const Type&, bool) { return Type::i64(); }
// np.linalg.cond: the ratio of singular values in their real type; with p, float64 (Numba's
// two branches unify so).
Type cond_result(const Type& a, const Type&, bool p_given) { return p_given ? Type::f64() : real_of(a.dtype()); }
// The 2-norm of a vector keeps the element's real type; every other norm is float64.
Type norm_result(const Type& a, const Type&, bool ord_given) {
  return a.ndim == 1 && !ord_given ? real_of(a.dtype()) : Type::f64();
}

const LinalgRule rules[] = {
    {"numpy.dot", "np.dot", Op::linalg_dot, First::product, Second::like_first, Extra::none, product_result},
    {"operator.matmul", "'@'", Op::linalg_dot, First::product, Second::like_first, Extra::none, product_result},
    {"numpy.vdot", "np.vdot", Op::linalg_vdot, First::vector, Second::like_first, Extra::none, scalar_of},
    {"numpy.outer", "np.outer", Op::linalg_outer, First::any_numeric, Second::like_first, Extra::none, outer_result},
    {"numpy.trace", "np.trace", Op::linalg_trace, First::matrix, Second::none, Extra::offset, widest_result},
    {"numpy.linalg.inv", "np.linalg.inv", Op::linalg_inv, First::matrix, Second::none, Extra::none, f_matrix},
    {"numpy.linalg.det", "np.linalg.det", Op::linalg_det, First::matrix, Second::none, Extra::none, widest_result},
    {"numpy.linalg.cholesky", "np.linalg.cholesky", Op::linalg_cholesky, First::matrix, Second::none, Extra::none,
     c_matrix},
    {"numpy.linalg.eigh", "np.linalg.eigh", Op::linalg_eigh, First::matrix, Second::none, Extra::none, eigh_result},
    {"numpy.linalg.eigvalsh", "np.linalg.eigvalsh", Op::linalg_eigvalsh, First::matrix, Second::none, Extra::none,
     eigenvalues},
    {"numpy.linalg.qr", "np.linalg.qr", Op::linalg_qr, First::matrix, Second::none, Extra::none, qr_result},
    {"numpy.linalg.svd", "np.linalg.svd", Op::linalg_svd, First::matrix, Second::none, Extra::full_matrices,
     svd_result},
    {"numpy.linalg.solve", "np.linalg.solve", Op::linalg_solve, First::matrix, Second::right_hand_side, Extra::none,
     solve_result},
    {"numpy.linalg.lstsq", "np.linalg.lstsq", Op::linalg_lstsq, First::matrix, Second::right_hand_side,
     Extra::rcond, lstsq_result},
    {"numpy.linalg.norm", "np.linalg.norm", Op::linalg_norm, First::vector_or_matrix, Second::none, Extra::ord,
     norm_result},
    {"numpy.linalg.eig", "np.linalg.eig", Op::linalg_eig, First::matrix, Second::none, Extra::none, eig_result},
    {"numpy.linalg.eigvals", "np.linalg.eigvals", Op::linalg_eigvals, First::matrix, Second::none, Extra::none,
     c_vector},
    {"numpy.linalg.pinv", "np.linalg.pinv", Op::linalg_pinv, First::matrix, Second::none, Extra::pinv_rcond,
     f_matrix},
    {"numpy.linalg.slogdet", "np.linalg.slogdet", Op::linalg_slogdet, First::matrix, Second::none, Extra::none,
     slogdet_result},
    {"numpy.linalg.matrix_power", "np.linalg.matrix_power", Op::linalg_matrix_power, First::matrix, Second::none,
     Extra::power, power_result},
    {"numpy.linalg.matrix_rank", "np.linalg.matrix_rank", Op::linalg_matrix_rank, First::vector_or_matrix,
     Second::none, Extra::tol, rank_result},
    {"numpy.linalg.cond", "np.linalg.cond", Op::linalg_cond, First::matrix, Second::none, Extra::p, cond_result},
};

// The parameter names, as Python binds them: the operands, then the optional argument.
std::vector<const char*> parameters(const LinalgRule& r) {
  std::vector<const char*> names = {r.op == Op::linalg_matrix_rank                           ? "A"
                                    : r.first == First::vector_or_matrix || r.op == Op::linalg_cond ? "x"
                                                                                                    : "a"};
  if (r.second != Second::none) names.push_back("b");
  switch (r.extra) {
    case Extra::none: break;
    case Extra::rcond: names.push_back("rcond"); break;
    case Extra::full_matrices: names.push_back("full_matrices"); break;
    case Extra::ord: names.push_back("ord"); break;
    case Extra::offset: names.push_back("offset"); break;
    case Extra::pinv_rcond: names.push_back("rcond"); break;
    case Extra::tol: names.push_back("tol"); break;
    case Extra::p: names.push_back("p"); break;
    case Extra::power: names.push_back("n"); break;
  }
  return names;
}

// The arguments by parameter: every operand given, the optional one perhaps.
std::optional<std::vector<std::optional<Value>>> bind(FunctionChecker& c, const CallSite& call, const LinalgRule& r) {
  std::vector<const char*> names = parameters(r);
  size_t operands = r.second == Second::none ? 1 : 2;
  std::vector<std::optional<Value>> bound(names.size());
  if (call.args.size() > names.size()) {
    c.error(DiagKind::wrong_arity, call.range,
            fmt::format("{}() takes at most {} arguments ({} given)", r.shown, names.size(), call.args.size()));
    return std::nullopt;
  }
  for (size_t i = 0; i < call.args.size(); ++i) bound[i] = call.args[i];
  for (const auto& [name, value] : call.keywords) {
    size_t k = 0;
    while (k < names.size() && name != names[k]) ++k;
    if (k == names.size() || bound[k]) {
      c.error(DiagKind::wrong_arity, call.range,
              k == names.size() ? fmt::format("{}() got an unexpected keyword argument '{}'", r.shown, name)
                                : fmt::format("{}() got multiple values for argument '{}'", r.shown, name));
      return std::nullopt;
    }
    bound[k] = value;
  }
  for (size_t k = 0; k < operands; ++k) {
    if (bound[k]) continue;
    c.error(DiagKind::wrong_arity, call.range, fmt::format("{}() missing required argument '{}'", r.shown, names[k]));
    return std::nullopt;
  }
  return bound;
}

bool is_blas_dtype(const Type& dtype) {
  return (dtype.is(TypeKind::floating) && dtype.bits >= 32) || dtype.is(TypeKind::complex);
}

// Numba's "only supported for array types / on 2-D arrays / on float and complex arrays".
bool want_operand(FunctionChecker& c, const CallSite& call, const LinalgRule& r, const Value& v) {
  bool dot = r.first == First::product || r.first == First::vector;
  if (!v.type.is(TypeKind::array)) {
    c.error(DiagKind::type_mismatch, call.range,
            dot ? fmt::format("{} takes arrays, not '{}'", r.shown, to_string(v.type))
                : fmt::format("{}() only supported for array types, not '{}'", r.shown, to_string(v.type)),
            r.first == First::any_numeric ? "0-d arrays (from a scalar) are not supported yet" : "");
    return false;
  }
  int ndim = v.type.ndim;
  const Type& dtype = v.type.dtype();
  bool dims_ok = r.first == First::matrix ? ndim == 2 : r.first == First::vector ? ndim == 1 : ndim == 1 || ndim == 2;
  if (!dims_ok) {
    std::string what = r.first == First::matrix   ? "only supported on 2-D arrays"
                       : r.first == First::vector ? "only supported on 1-D arrays"
                                                  : "only supported on 1 and 2-D arrays";
    c.error(DiagKind::type_mismatch, call.range,
            r.first == First::product ? fmt::format("{}: inputs must have compatible dimensions (1-D or 2-D), not "
                                                    "'{}'",
                                                    r.shown, to_string(v.type))
                                      : fmt::format("{}() {}, not '{}'", r.shown, what, to_string(v.type)));
    return false;
  }
  if (r.first == First::any_numeric) {
    if (dtype.is_numeric() && !dtype.is(TypeKind::boolean) && !dtype.is(TypeKind::record) &&
        !(dtype.is(TypeKind::floating) && dtype.bits == 16))
      return true;
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() of a '{}' is not supported", r.shown, to_string(v.type)),
            "np.outer takes arrays of integers, float32, float64 and complex numbers");
    return false;
  }
  if (is_blas_dtype(dtype)) return true;
  c.error(DiagKind::type_mismatch, call.range,
          dot ? fmt::format("{} of '{}' arrays is not supported: BLAS takes float32, float64, complex64 and "
                            "complex128, as Numba's does",
                            r.shown, to_string(dtype))
              : fmt::format("{}() only supported on float and complex arrays, not '{}'", r.shown, to_string(v.type)),
          "convert the array first, e.g. a.astype(np.float64)");
  return false;
}

// Both operands of one dtype (Numba's "arguments must all have the same dtype" and
// "only supports inputs that have homogeneous dtypes").
bool want_same_dtype(FunctionChecker& c, const CallSite& call, const LinalgRule& r, const Type& a, const Type& b) {
  if (a.dtype() == b.dtype() || r.first == First::any_numeric) return true;
  bool dot = r.first == First::product || r.first == First::vector;
  c.error(DiagKind::type_mismatch, call.range,
          dot ? fmt::format("{} arguments must all have the same dtype, not '{}' and '{}'", r.shown,
                            to_string(a.dtype()), to_string(b.dtype()))
              : fmt::format("{}() only supports inputs that have homogeneous dtypes, not '{}' and '{}'", r.shown,
                            to_string(a.dtype()), to_string(b.dtype())),
          "convert one of them with .astype()");
  return false;
}

// The optional argument as the runtime takes it; `given` says whether it changes the result.
std::optional<ir::ExprId> extra_argument(FunctionChecker& c, const CallSite& call, const LinalgRule& r,
                                         const std::optional<Value>& value, bool& given) {
  given = value && !value->type.is(TypeKind::none);
  const char* keyword = parameters(r).back();
  if (r.extra == Extra::power && !given) {
    c.error(DiagKind::wrong_arity, call.range, fmt::format("{}() missing required argument 'n'", r.shown));
    return std::nullopt;
  }
  if (r.extra == Extra::power && !value->type.is(TypeKind::integer)) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}(): Exponent must be an integer, not '{}'", r.shown, to_string(value->type)),
            "Numba's matrix_power takes integer powers only, as NumPy's does");
    return std::nullopt;
  }
  bool integer_only = r.extra == Extra::offset || r.extra == Extra::full_matrices;
  if (given && (!value->type.is_numeric() || value->type.is(TypeKind::complex) || value->type.is(TypeKind::record) ||
                (integer_only && !value->type.is_integer_like()))) {
    c.error(DiagKind::type_mismatch, call.range,
            fmt::format("{}() takes '{}' as {}, not '{}'", r.shown, keyword,
                        integer_only ? "an integer" : "a number", to_string(value->type)),
            r.extra == Extra::ord || r.extra == Extra::p
                ? "Numba's norm and cond take None or a number (np.inf, 1, 2, ...), not a string"
                : "");
    return std::nullopt;
  }
  switch (r.extra) {
    case Extra::rcond:
      return given ? c.cast_expr(value->expr, Type::f64()) : c.make_constant({-1.0}, Type::f64(), call.range).expr;
    case Extra::full_matrices:
      return given ? c.cast_expr(value->expr, Type::boolean())
                   : c.make_constant({int64_t(1)}, Type::boolean(), call.range).expr;
    case Extra::offset:
      return given ? c.cast_expr(value->expr, Type::i64()) : c.make_constant({int64_t(0)}, Type::i64(), call.range).expr;
    case Extra::ord:
    case Extra::tol:
    case Extra::p:
      if (given) return c.cast_expr(value->expr, Type::f64());
      return ir::ExprId{};  // None: the runtime's one-operand form
    case Extra::pinv_rcond:
      return given ? c.cast_expr(value->expr, Type::f64()) : c.make_constant({1e-15}, Type::f64(), call.range).expr;
    case Extra::power: return c.cast_expr(value->expr, Type::i64());
    case Extra::none: break;
  }
  return ir::ExprId{};
}

Value call_linalg(FunctionChecker& c, const CallSite& call, const LinalgRule& r) {
  std::string what = r.op == Op::linalg_dot && r.shown[0] == '\'' ? "the '@' operator" : std::string(r.shown) + "()";
  if (!c.allow_host_only(call.range, what,
                         "numba-cuda has no BLAS or LAPACK in kernels: write the loop, or call a @jit function on "
                         "the host"))
    return Value::error();
  auto bound = bind(c, call, r);
  if (!bound) return Value::error();
  std::vector<Value> operands;
  for (size_t k = 0; k < (r.second == Second::none ? 1u : 2u); ++k) {
    Value v = c.as_runtime(*(*bound)[k], call.range);
    if (!v.ok()) return Value::error();
    operands.push_back(v);
  }
  if (!want_operand(c, call, r, operands[0])) return Value::error();
  if (r.second == Second::like_first && !want_operand(c, call, r, operands[1])) return Value::error();
  if (r.second == Second::right_hand_side) {
    LinalgRule rhs = r;
    rhs.first = First::vector_or_matrix;
    if (!want_operand(c, call, rhs, operands[1])) return Value::error();
  }
  if (operands.size() == 2 && !want_same_dtype(c, call, r, operands[0].type, operands[1].type)) return Value::error();
  bool extra_given = false;
  std::optional<ir::ExprId> extra;
  if (r.extra != Extra::none) {
    extra = extra_argument(c, call, r, (*bound).back(), extra_given);
    if (!extra) return Value::error();
  }
  Type second = operands.size() == 2 ? operands[1].type : Type::unknown();
  Type result = r.result(operands[0].type, second, extra_given);
  std::vector<ir::ExprId> args;
  // np.outer and np.trace compute in their result's element type: a constant of it names it.
  if (r.op == Op::linalg_outer || r.op == Op::linalg_trace) {
    Type element = result.is(TypeKind::array) ? result.dtype() : result;
    args.push_back(c.make_constant({int64_t(0)}, element, call.range).expr);
  }
  for (const Value& v : operands) args.push_back(v.expr);
  if (extra && extra->valid()) args.push_back(*extra);
  return c.make_call(r.op, std::move(args), result, call.range);
}

}  // namespace

void add_linalg_builtins(HandlerTable& t) {
  for (const LinalgRule& r : rules)
    t[r.name] = [&r](FunctionChecker& c, const CallSite& call) { return call_linalg(c, call, r); };
}

}  // namespace pykern::sema

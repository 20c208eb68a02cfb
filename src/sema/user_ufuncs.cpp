// A @vectorize function called from a @jit function on the host, as Numba types the call of a
// DUFunc (numba/np/ufunc/dufunc.py, DUFunc._type_me): on numbers it is the ufunc's loop on
// them, on arrays a new array of the loop's output type, broadcast as NumPy broadcasts, its
// elements computed in one fused loop (sema/array_exprs.cpp) by calling the function on each.
// Without signatures the loop is the operands' own element types (Numba compiles one for
// them), its output what the function returns for them; with signatures (a frozen DUFunc) it
// is the first declared loop the operands convert to, by Numba's ufunc_find_matching_loop.
#include <fmt/format.h>

#include "sema/array_exprs.h"
#include "sema/checker.h"
#include "sema/infer.h"

namespace pykern::sema {

namespace {

const Type& element_of_operand(const Type& operand) { return operand.is(TypeKind::array) ? operand.dtype() : operand; }

std::string shown(const std::vector<Value>& operands) {
  std::string text;
  for (const Value& v : operands) text += (text.empty() ? "" : ", ") + to_string(v.type);
  return text;
}

}  // namespace

Value FunctionChecker::user_ufunc_element(const std::string& name, const std::vector<Value>& elements,
                                          SourceRange range) {
  Signature signature;
  ir::Expr call;
  call.kind = ir::ExprKind::device_call;
  for (const Value& v : elements) {
    signature.arguments.push_back(v.type);
    call.args.push_back(v.expr);
  }
  if (!resolve_device_call(name, signature, call, range)) return Value::error();
  call.range = range;
  return value_of(add(std::move(call)));
}

std::optional<UfuncLoop> FunctionChecker::user_ufunc_loop(const std::string& name, const std::vector<Type>& elements,
                                                          SourceRange range) {
  frontend::ModuleFunction* target = program_.function(name);
  // The loop's output: what the function returns for its input types.
  auto output_for = [&](const std::vector<Type>& inputs) -> std::optional<Type> {
    Signature signature;
    signature.arguments = inputs;
    ir::Expr probe;
    if (!resolve_device_call(name, signature, probe, range) || !probe.type.known()) return std::nullopt;
    return probe.type;
  };
  if (target->decoration.signatures.empty()) {
    auto output = output_for(elements);
    if (!output) return std::nullopt;
    return UfuncLoop{elements, *output};
  }
  std::string loops;
  for (ast::ExprId expr : target->decoration.signatures) {
    Diagnostics quiet;  // the module's load reported a malformed signature already
    auto signature = signature_from_decorator(module(), expr, quiet);
    if (!signature) continue;
    std::optional<Type> output = signature->return_type;
    if (!output) output = output_for(signature->arguments);
    if (!output) return std::nullopt;
    std::string loop;
    for (const Type& t : signature->arguments) loop += numpy_type_char(t);
    loop += "->";
    loop += numpy_type_char(*output);
    loops += (loops.empty() ? "" : " ") + loop;
  }
  return find_ufunc_loop(loops, elements);
}

// f(a, b, out): the loop the inputs choose, its result converted to out's dtype (Numba's DUFunc
// types the loop from the inputs alone and casts into the output as NumPy's unsafe casting
// would), one fused loop over the inputs broadcast to out's shape, written into out, which is
// the value of the call. An input of more dimensions than out is refused here (Numba reads
// past out's end); a shape that does not broadcast into out is a ValueError at run time
// ("cannot assign slice from input of different size", as an assignment into a view says).
Value FunctionChecker::user_ufunc_into(const std::string& name, std::vector<Value> args, SourceRange range) {
  Value out = unwrap_optional(as_runtime(args.back(), range), range);
  args.pop_back();
  if (!out.ok()) return Value::error();
  if (!out.type.is(TypeKind::array)) {
    error(DiagKind::type_mismatch, range,
          fmt::format("ufunc '{}' called with an explicit output that is not an array ('{}')", name, to_string(out.type)),
          "a ufunc writes into an array given after its inputs: " + name + "(a, b, out)");
    return Value::error();
  }
  if (!allow_host_only(range, "ufunc '" + name + "' into an output array")) return Value::error();
  if (out.type.readonly) {
    error(DiagKind::bad_assignment, range,
          fmt::format("ufunc '{}' called with an explicit output that is read-only (a module-level array, frozen as "
                      "in Numba)",
                      name));
    return Value::error();
  }
  std::vector<Type> elements;
  for (Value& v : args) {
    v = unwrap_optional(as_runtime(v, range), range);
    if (!v.ok() || !v.type.known()) return Value::error();
    if (v.type.is(TypeKind::array) && v.type.ndim > out.type.ndim) {
      error(DiagKind::type_mismatch, range,
            fmt::format("ufunc '{}': an input has {} dimensions, the output array {}", name, v.type.ndim, out.type.ndim),
            "the output array must hold the inputs' broadcast shape");
      return Value::error();
    }
    elements.push_back(element_of_operand(v.type));
  }
  std::optional<UfuncLoop> loop = user_ufunc_loop(name, elements, range);
  if (!loop) {
    if (!program_.function(name)->decoration.signatures.empty())
      error(DiagKind::type_mismatch, range, fmt::format("cannot call ufunc '{}' with types ({})", name, shown(args)),
            "no loop of its signatures takes these operands (Numba's NumbaTypeError); add a signature for them");
    return Value::error();
  }
  const Type& dtype = out.type.dtype();
  ElementRule rule = [name](FunctionChecker& c, const std::vector<Value>& x, SourceRange at) {
    return c.user_ufunc_element(name, x, at);
  };
  // The inputs' map, converted to out's dtype, broadcast into out as it is assigned; numbers
  // alone make one value, which a map of out and that value spreads over out.
  Value map = elementwise(fmt::format("ufunc '{}'", name), args, loop->inputs, dtype, rule, range);
  if (!map.ok()) return Value::error();
  if (!map.type.is(TypeKind::array))
    map = elementwise(
        fmt::format("ufunc '{}'", name), {out, map}, {dtype, dtype}, dtype,
        [](FunctionChecker&, const std::vector<Value>& x, SourceRange) { return x[1]; }, range);
  if (!map.ok()) return Value::error();
  ir::Stmt write;
  write.kind = ir::StmtKind::expr;
  write.range = range;
  write.value = make_call(ir::Op::assign_expr, {out.expr, expr(map.expr).args[0]}, Type::void_(), range).expr;
  emit_stmt(std::move(write));
  return out;
}

Value FunctionChecker::call_user_ufunc(const std::string& name, std::vector<Value> args,
                                       std::vector<std::pair<std::string, Value>> keywords, const ast::Expr& e) {
  const ast::Function* definition = program_.lowered_function(name);
  if (definition == nullptr) return Value::error();
  if (!keywords.empty()) {
    // Numba's DUFunc typing asserts there are none (an AssertionError): the output goes by position.
    std::string names;
    for (const auto& [keyword, value] : keywords) names += (names.empty() ? "" : ", ") + keyword + "=";
    error(DiagKind::wrong_arity, e.range,
          fmt::format("ufunc '{}' got keyword arguments ({}): Numba's ufuncs take none in @jit functions", name, names),
          "pass the output array after the inputs: " + name + "(..., out)");
    return Value::error();
  }
  size_t n = definition->parameters.size();
  if (args.size() == n + 1) return user_ufunc_into(name, std::move(args), e.range);
  if (args.size() != n) {
    error(DiagKind::wrong_arity, e.range,
          fmt::format("ufunc '{}' takes {} argument{} (and optionally an output array), {} given", name, n,
                      n == 1 ? "" : "s", args.size()));
    return Value::error();
  }
  std::vector<Type> elements;
  for (Value& v : args) {
    v = unwrap_optional(as_runtime(v, e.range), e.range);
    if (!v.ok() || !v.type.known()) return Value::error();
    elements.push_back(element_of_operand(v.type));
  }
  std::optional<UfuncLoop> loop = user_ufunc_loop(name, elements, e.range);
  if (!loop) {
    frontend::ModuleFunction* target = program_.function(name);
    if (!target->decoration.signatures.empty())
      error(DiagKind::type_mismatch, e.range, fmt::format("cannot call ufunc '{}' with types ({})", name, shown(args)),
            "no loop of its signatures takes these operands (Numba's NumbaTypeError); add a signature for them, or "
            "drop the signatures to compile one per call");
    return Value::error();
  }
  ElementRule rule = [name](FunctionChecker& c, const std::vector<Value>& x, SourceRange at) {
    return c.user_ufunc_element(name, x, at);
  };
  return elementwise(fmt::format("ufunc '{}'", name), std::move(args), loop->inputs, loop->output, rule, e.range);
}

}  // namespace pykern::sema

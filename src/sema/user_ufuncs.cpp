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

Value FunctionChecker::call_user_ufunc(const std::string& name, std::vector<Value> args,
                                       std::vector<std::pair<std::string, Value>> keywords, const ast::Expr& e) {
  const ast::Function* definition = program_.lowered_function(name);
  if (definition == nullptr) return Value::error();
  if (!keywords.empty()) {
    error(DiagKind::wrong_arity, e.range,
          fmt::format("ufunc '{}' takes its operands by position; out= and other keywords are not supported in "
                      "@jit functions yet",
                      name),
          "assign the result instead: out[:] = " + name + "(...)");
    return Value::error();
  }
  if (args.size() != definition->parameters.size()) {
    size_t n = definition->parameters.size();
    error(DiagKind::wrong_arity, e.range,
          fmt::format("ufunc '{}' takes {} argument{}, {} given", name, n, n == 1 ? "" : "s", args.size()));
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

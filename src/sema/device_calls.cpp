// Calls of device functions: binding arguments to parameters as Python does, and specialising
// the callee on its argument types. As in Numba, an argument known at compile time (a type, a
// function, an integer/bool literal or a tuple of them) specialises the callee on its value and
// is not passed at run time, so `cuda.shared.array(shape, dtype)` and `op(ary, i, v)` work in a
// device function called as `f(ary, (4, 8), uint32, cuda.atomic.add)`.
#include <algorithm>

#include <fmt/format.h>

#include "sema/checker.h"

namespace pykern::sema {

namespace {

std::string literal_key(const ir::Constant& value, const Type& type) {
  if (type.is(TypeKind::boolean)) return fmt::format("Literal[bool]({})", value.as_int() ? "True" : "False");
  return fmt::format("Literal[int]({})", value.as_int());
}

bool is_literal_type(const Type& type) { return type == Type::i64() || type.is(TypeKind::boolean); }

}  // namespace

Type ProgramBuilder::static_type(StaticValue value) {
  std::string key;
  switch (value.kind) {
    case Value::Kind::type: key = "class(" + to_string(value.type) + ")"; break;
    case Value::Kind::qualified: key = "Function(" + value.name + ")"; break;
    case Value::Kind::function: key = "Dispatcher(" + value.name + ")"; break;
    default: {
      if (value.type.is(TypeKind::none)) {  // None passed or left to a default of None
        key = "none";
        break;
      }
      if (!value.type.is(TypeKind::tuple)) {
        key = literal_key(value.literal.at(0), value.type);
        break;
      }
      std::vector<std::string> parts;
      for (size_t i = 0; i < value.literal.size(); ++i) parts.push_back(literal_key(value.literal[i], value.type.elements[i]));
      key = fmt::format("Tuple({})", fmt::join(parts, ", "));
    }
  }
  static_values_.emplace(key, std::move(value));
  return Type::static_value(key);
}

const StaticValue& ProgramBuilder::static_value(const Type& type) const { return static_values_.at(type.static_key); }

// The compile-time argument `value` as a static_value type, or nullopt for a run-time one. A
// literal is static only when the callee never rebinds the parameter.
std::optional<Type> FunctionChecker::static_argument(const Value& value, const ast::Function& callee,
                                                      const std::string& parameter) {
  bool recursion = program_.is_being_inferred(callee.name);
  if (value.kind == Value::Kind::type || value.kind == Value::Kind::qualified || value.kind == Value::Kind::function)
    return program_.static_type({value.kind, value.type, value.name, {}});
  if (value.kind != Value::Kind::expr || recursion || bindings_of(module().ast(), callee.body, parameter) > 0)
    return std::nullopt;
  StaticValue literal{Value::Kind::expr, value.type, "", {}};
  // None is no run-time value: the callee is typed for it, as Numba's for NoneType or
  // Omitted(None), and `if x is None:` is decided there.
  if (value.type.is(TypeKind::none)) return program_.static_type(std::move(literal));
  if (is_literal_type(value.type)) {
    auto folded = fold(value.expr);
    if (!folded) return std::nullopt;
    literal.literal.push_back(*folded);
  } else if (value.type.is(TypeKind::tuple) && expr(value.expr).kind == ir::ExprKind::make_tuple &&
             !value.type.elements.empty()) {
    for (ir::ExprId part : expr(value.expr).args) {
      auto folded = fold(part);
      if (!folded || !is_literal_type(expr(part).type)) return std::nullopt;
      literal.literal.push_back(*folded);
    }
  } else {
    return std::nullopt;
  }
  return program_.static_type(std::move(literal));
}

// What reading a compile-time parameter gives in the callee: the entity itself, or constants.
Value FunctionChecker::static_parameter_value(const StaticValue& value, SourceRange range) {
  if (value.kind != Value::Kind::expr) {
    Value entity;
    entity.kind = value.kind;
    entity.type = value.type;
    entity.name = value.name;
    return entity;
  }
  if (value.type.is(TypeKind::none)) return make_constant({int64_t(0)}, Type::none(), range);
  if (!value.type.is(TypeKind::tuple)) return make_constant(value.literal.at(0), value.type, range);
  ir::Expr tuple;
  tuple.kind = ir::ExprKind::make_tuple;
  tuple.range = range;
  tuple.type = value.type;
  for (size_t i = 0; i < value.literal.size(); ++i)
    tuple.args.push_back(make_constant(value.literal[i], value.type.elements[i], range).expr);
  return value_of(add(std::move(tuple)));
}

// The arguments of a call of a function with signatures in its decorator, converted to the one
// Numba's overload resolution picks (sema/signature.cpp); false when none takes them. Argument
// types may still change before the final round, which alone reports.
bool FunctionChecker::convert_to_declared(const frontend::ModuleFunction& target, Signature& signature,
                                          std::vector<ir::ExprId>& call_args, SourceRange range) {
  Diagnostics tentative;
  auto chosen = declared_overload(module(), target, signature.arguments, range, final_round_ ? diagnostics() : tentative);
  if (!chosen) return false;
  for (size_t i = 0; i < call_args.size(); ++i) call_args[i] = cast_expr(call_args[i], chosen->arguments[i]);
  signature = std::move(*chosen);
  return true;
}

// An inner function passed to another function leaves the scope that gives its captured
// variables. numba-cuda passes it on when they are constants, frozen into it; so does pykern
// for a variable bound once to an integer or bool ("Cannot capture the non-constant value ... in
// a function that may escape" otherwise). The value to pass, or nullopt after an error.
std::optional<Value> FunctionChecker::escaping_function(const Value& function, const std::string& callee,
                                                        SourceRange range) {
  const ast::Function* definition = program_.lowered_function(function.name);
  if (definition == nullptr || definition->captured.empty()) return function;
  std::vector<FrozenVariable> frozen;
  for (const std::string& variable : definition->captured) {
    int local = local_named(variable);
    auto literal = local >= 0 ? literal_locals_.find(local) : literal_locals_.end();
    if (literal == literal_locals_.end()) {
      error(DiagKind::unsupported_operation, range,
            "inner function '" + function.name + "' reads '" + variable +
                "' of the function that defines it, which is not a constant, so it cannot be passed to '" + callee +
                "'",
            "call it where it is defined, or pass '" + variable + "' to it as an argument");
      return std::nullopt;
    }
    frozen.push_back({variable, literal->second, function_.locals[local].type.is(TypeKind::boolean)});
  }
  Value passed = function;
  passed.name = program_.frozen_inner_function(function.name, frozen);
  return passed;
}

namespace {
bool captures(const ast::Function& function, const std::string& parameter) {
  return std::find(function.captured.begin(), function.captured.end(), parameter) != function.captured.end();
}
}  // namespace

// The value of each of the callee's parameters, bound as Python binds them: positional
// arguments, the rest as the *args tuple, keywords by name, then the defaults. nullopt after
// reporting an error.
std::optional<std::vector<Value>> FunctionChecker::bind_arguments(const std::string& name,
                                                                  const ast::Function& definition, std::vector<Value> args,
                                                                  std::vector<std::pair<std::string, Value>> keywords,
                                                                  SourceRange range) {
  const std::vector<ast::Parameter>& parameters = definition.parameters;
  std::vector<std::optional<Value>> bound(parameters.size());
  auto star = std::find_if(parameters.begin(), parameters.end(), [](const ast::Parameter& p) { return p.star; });
  size_t positional = static_cast<size_t>(star - parameters.begin());
  if (star == parameters.end() && args.size() > bound.size()) {
    error(DiagKind::wrong_arity, range,
          fmt::format("'{}' takes {} argument{} but {} were given", name, bound.size(), bound.size() == 1 ? "" : "s",
                      args.size()));
    return std::nullopt;
  }
  for (size_t i = 0; i < args.size() && i < positional; ++i) bound[i] = args[i];
  if (star != parameters.end()) {
    ir::Expr tuple;  // *args: the positional arguments past the named ones
    tuple.kind = ir::ExprKind::make_tuple;
    tuple.range = range;
    std::vector<Type> types;
    for (size_t i = positional; i < args.size(); ++i) {
      Value item = as_runtime(args[i], range);
      if (!item.ok()) return std::nullopt;
      tuple.args.push_back(item.expr);
      types.push_back(item.type);
    }
    tuple.type = Type::tuple(std::move(types));
    bound[positional] = value_of(add(std::move(tuple)));
  }
  for (auto& [keyword, value] : keywords) {
    auto parameter = std::find_if(parameters.begin(), parameters.end(),
                                  [&keyword = keyword](const ast::Parameter& p) { return p.name == keyword; });
    if (parameter == parameters.end()) {
      error(DiagKind::wrong_arity, range, "'" + name + "' has no parameter '" + keyword + "'");
      return std::nullopt;
    }
    bound[parameter - parameters.begin()] = value;
  }
  std::vector<Value> values;
  for (size_t i = 0; i < bound.size(); ++i) {
    const std::string& parameter = parameters[i].name;
    if (!bound[i] && parameters[i].default_value.valid()) bound[i] = check_expr(parameters[i].default_value);
    if (!bound[i] && captures(definition, parameter)) {
      // Called away from its definition, where nothing passes what it captured.
      error(DiagKind::unsupported_operation, range,
            "inner function '" + name + "' reads '" + parameter +
                "' of the function that defines it, so it can only be called there, not passed on",
            "pass '" + parameter + "' to it as an argument");
      return std::nullopt;
    }
    if (!bound[i] || !bound[i]->ok()) {
      error(DiagKind::wrong_arity, range, "missing argument '" + parameter + "' in the call of '" + name + "'");
      return std::nullopt;
    }
    values.push_back(*bound[i]);
  }
  return values;
}

// The callee and type of a call of `name` with these argument types: the function being
// inferred (a recursive call), its specialisation (final round), or only the type it would
// return (earlier rounds, while argument types may still change). False after an error.
bool FunctionChecker::resolve_device_call(const std::string& name, const Signature& signature, ir::Expr& call,
                                          SourceRange range) {
  if (auto recursive = program_.recursive_call(name, signature)) {
    // Numba types the call from the callee's other return paths; with none, it refuses.
    if (!recursive->return_type) {
      if (final_round_)
        error(DiagKind::recursion, range,
              "cannot infer the type of this recursive call: no return statement of '" + name +
                  "' gives a value without calling it again",
              "add a base case that returns a value without recursing");
      return false;
    }
    call.callee = recursive->index;
    call.type = *recursive->return_type;
  } else if (final_round_) {
    int index = program_.specialize(name, signature, false, range);
    if (index < 0) return false;
    call.callee = index;
    call.type = program_.program().functions[index].return_type;
    if (program_.program().functions[index].uses_barriers) function_.uses_barriers = true;
    if (program_.program().functions[index].syncs_grid) function_.syncs_grid = true;
    if (program_.program().functions[index].prints) function_.prints = true;
    if (program_.program().functions[index].host_only) {
      function_.host_only = true;
      if (is_user_kernel()) {
        error(DiagKind::unsupported_operation, range,
              "'" + name + "' runs only on the host (it makes a list or an array, uses Python's random module or reduces a NumPy array), so a kernel "
              "cannot call it",
              "call it on the host (Module::function, pykern run), or use a cuda.local.array");
        return false;
      }
    }
  } else {
    // Argument types may still change: learn the return type without keeping anything.
    auto type = program_.tentative_return_type(name, signature, range);
    if (!type) return false;
    call.type = *type;
  }
  return true;
}

Value FunctionChecker::call_device_function(const std::string& name, std::vector<Value> args,
                                            std::vector<std::pair<std::string, Value>> keywords, const ast::Expr& e) {
  frontend::ModuleFunction* target = program_.function(name);
  frontend::FunctionRole role = target->decoration.role;
  // A @jit function on the host calls a @vectorize function as a ufunc (sema/user_ufuncs.cpp).
  if (role == frontend::FunctionRole::vectorize && module_function_.origin == frontend::Origin::user && !is_kernel_ &&
      !module_function_.decoration.device_only && target->decoration.target != "cuda")
    return call_user_ufunc(name, std::move(args), std::move(keywords), e);
  if (role == frontend::FunctionRole::guvectorize && module_function_.origin == frontend::Origin::user && !is_kernel_ &&
      !module_function_.decoration.device_only)
    return call_user_gufunc(name, std::move(args), std::move(keywords), e);
  // The kernels pykern generates for @vectorize, @guvectorize and @cuda.reduce (and host
  // calls) call the user's scalar function as a device function.
  bool generated_caller = module_function_.origin != frontend::Origin::user &&
                          role != frontend::FunctionRole::kernel && role != frontend::FunctionRole::undecorated;
  // numba-cuda compiles a @cuda.jit kernel called from a kernel as a device function.
  bool callable = role == frontend::FunctionRole::device || role == frontend::FunctionRole::kernel;
  if (!callable && !generated_caller) {
    std::string hint = role == frontend::FunctionRole::undecorated ? "decorate it with @cuda.jit(device=True)" : "";
    error(DiagKind::not_a_device_function, e.range,
          "'" + name + "' is a " + frontend::to_string(role) + " and cannot be called from a kernel", hint);
    return Value::error();
  }
  const ast::Function* definition = program_.lowered_function(name);
  if (definition == nullptr) return Value::error();
  auto bound = bind_arguments(name, *definition, std::move(args), std::move(keywords), e.range);
  if (!bound) return Value::error();
  // Signatures in the decorator: Numba compiles only those, so no argument specialises the callee.
  bool declared = !target->decoration.signatures.empty() && role == frontend::FunctionRole::device;
  Signature signature;
  std::vector<ir::ExprId> call_args;
  for (size_t i = 0; i < bound->size(); ++i) {
    const std::string& parameter = definition->parameters[i].name;
    Value argument = (*bound)[i];
    // A function passed on leaves its definition; a sibling inner function passed as a captured
    // variable (g calling f is g(x, f=f)) goes with the variables it reads, which g captures too.
    if (argument.kind == Value::Kind::function && !captures(*definition, parameter)) {
      auto passed = escaping_function(argument, name, e.range);
      if (!passed) return Value::error();
      argument = *passed;
    }
    if (auto static_type = declared ? std::nullopt : static_argument(argument, *definition, parameter)) {
      signature.arguments.push_back(*static_type);
      continue;
    }
    Value value = as_runtime(argument, e.range);
    if (!value.ok()) return Value::error();
    signature.arguments.push_back(value.type);
    call_args.push_back(value.expr);
  }
  // Fixed-point rounds see partial types; specialise only once they are known.
  for (const Type& type : signature.arguments)
    if (!type.known()) return Value::error();
  if (declared && !convert_to_declared(*target, signature, call_args, e.range)) return Value::error();
  ir::Expr call;
  call.kind = ir::ExprKind::device_call;
  if (!resolve_device_call(name, signature, call, e.range)) return Value::error();
  call.args = std::move(call_args);
  call.range = e.range;
  return value_of(add(std::move(call)));
}

}  // namespace pykern::sema

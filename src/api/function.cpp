// Host calls of @jit / @njit functions. A call is a launch of one thread on the CPU simulator:
// pykern types the function for the argument types (as Numba specialises a dispatcher), then
// generates a one-thread kernel that calls it and stores what it returns into 1-element arrays
// (compiler/generated_source.cpp). The function's code is the same translation kernels use, built by
// the host compiler and cached the same way; a one-thread launch runs no fibers.
#include "pykern/function.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "abi/arguments.h"
#include "api/host_values.h"
#include "api/module_state.h"
#include "compiler/translate.h"
#include "sim/engine.h"

namespace pykern {

namespace {

// A host call's arguments: scalars and arrays as they are, and other values as the bytes the
// runtime reads them from (a uint8 array), with their types (api/host_values.h).
struct CallArguments {
  const std::vector<Argument>& args;
  std::vector<detail::ValueType> encoded;  // per argument when any is encoded; "" signatures for the others
  // Per argument, where a list or dict the function changed goes back to (the caller's Value),
  // or nullptr: a copy. Empty when none is shared.
  std::vector<Value*> shared = {};
  const std::vector<Value>* values = nullptr;  // the Values the encoded arguments were made of
  std::vector<std::string> encoded_signatures() const {
    std::vector<std::string> out;
    for (const detail::ValueType& t : encoded) out.push_back(t.signature);
    return out;
  }
};

// "(float64, int64[::1],)": the argument types as a signature without a return type; an
// encoded argument's type is its value's.
Result<std::string> argument_types(const std::vector<Argument>& args, const std::vector<detail::ValueType>& encoded = {}) {
  std::string text = "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i < encoded.size() && !encoded[i].signature.empty()) {
      text += encoded[i].signature + ",";
      continue;
    }
    auto type = detail::signature_type(args[i]);
    if (!type.ok()) return Error::make(ErrorKind::invalid_argument, fmt::format("argument {}: {}", i + 1, type.error().message));
    text += *type + ",";
  }
  return text + ")";
}

// The arguments as the typed function takes them: scalars converted to its parameter types
// (a decorator's signature fixes them, as Numba's eager compilation does); arrays must match.
Result<std::vector<Argument>> converted(const compiler::FunctionReturn& typed, const std::vector<Argument>& args,
                                        const std::vector<detail::ValueType>& encoded) {
  if (typed.parameters.size() != args.size())
    return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' takes {} arguments, not {}", typed.function,
                                                                typed.parameters.size(), args.size()));
  std::vector<Argument> out = args;
  for (size_t i = 0; i < args.size(); ++i) {
    const ParameterInfo& p = typed.parameters[i];
    if (i < encoded.size() && !encoded[i].signature.empty()) {  // a str, list, dict or tuple: no conversion
      if (i < typed.parameter_types.size() && typed.parameter_types[i] != encoded[i].name)
        return Error::make(ErrorKind::invalid_argument,
                           fmt::format("'{}' was compiled for {}; argument {} is {}, not {}", typed.function,
                                       typed.signature, i + 1, encoded[i].name, typed.parameter_types[i]));
      continue;
    }
    if (const Scalar* scalar = std::get_if<Scalar>(&args[i]); scalar && !p.is_array) {
      out[i] = scalar->as(p.dtype);
      continue;
    }
    const Array* array = std::get_if<Array>(&args[i]);
    if (!array || !p.is_array || array->dtype() != p.dtype || array->ndim() != p.ndim)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("'{}' was compiled for {}; argument {} does not convert to its type",
                                     typed.function, typed.signature, i + 1));
  }
  return out;
}

// NUMBA_BOUNDSCHECK=1 checks every function's indices and 0 none, whatever their decorators
// say, as in Numba (read when a function is first called for some argument types); unset, or
// not an integer (Numba warns and ignores it), each function's boundscheck option decides.
std::optional<bool> boundscheck_override() {
  const char* text = std::getenv("NUMBA_BOUNDSCHECK");
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  while (end && std::isspace(static_cast<unsigned char>(*end))) ++end;
  if (end == text || (end && *end) || errno != 0) return std::nullopt;
  return value != 0;
}

std::shared_ptr<detail::HostCall> remember(detail::ModuleState& module, std::shared_ptr<detail::HostCall> call,
                                           std::shared_ptr<detail::Specialization> compiled);

// The function typed for these argument types, once per types: later calls find it without
// building any text.
Result<std::shared_ptr<detail::HostCall>> prepare_call(detail::ModuleState& module, const std::string& function,
                                                       const CallArguments& arguments) {
  const std::vector<Argument>& given = arguments.args;
  {
    std::lock_guard<std::mutex> lock(module.mutex);
    for (const auto& call : module.host_calls)
      if (call->function == function && detail::have_types(given, call->given) &&
          call->encoded.size() == arguments.encoded.size() &&
          (arguments.encoded.empty() || call->encoded == arguments.encoded_signatures()))
        return call;
  }
  auto given_types = argument_types(given, arguments.encoded);
  if (!given_types.ok()) return given_types.error();
  // What the function returns for these argument types.
  compiler::Request typing = module.typing_request();
  typing.host_functions = {{function, *given_types}};  // no kernel: only the function and what it calls
  auto typed = compiler::translate(typing);
  if (!typed.ok()) return typed.error();
  if (typed->functions.size() != 1) return Error::make(ErrorKind::internal, "expected one typing of " + function);
  auto call = std::make_shared<detail::HostCall>();
  call->function = function;
  for (const Argument& a : given) call->given.push_back(detail::type_of(a));
  call->returns = typed->functions.front();
  call->warnings = typed->output.warnings;
  call->encoded = arguments.encoded_signatures();
  const compiler::FunctionReturn& r = call->returns;
  if (r.has_records)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' returns {} for these arguments; a host call returns no record (a structured "
                                   "dtype's element): return its fields, or an array of records",
                                   function, r.type));
  // What the fields of Returned do not hold comes back encoded (Returned::other).
  call->encoded_result = r.returns_other || (r.is_optional && (r.is_tuple || r.has_arrays())) ||
                         (r.is_list && !r.list_of_numbers);
  auto args = converted(r, given, arguments.encoded);
  if (!args.ok()) return args.error();
  auto types = argument_types(*args);
  if (!types.ok()) return types.error();
  if (call->encoded_result) {
    compiler::HostCallKernel caller{function, static_cast<int>(args->size()), 0, false, false, false, {},
                                    call->encoded, true};
    auto compiled = module.compile_generated({caller, "void(" + types->substr(1, types->size() - 2) + ")"});
    if (!compiled.ok()) return compiled.error();
    return remember(module, call, *compiled);
  }
  // The one-thread kernel that calls it, typed for 1-element result arrays and the arguments.
  compiler::HostCallKernel caller{function, static_cast<int>(args->size()),
                                  r.is_list ? 0 : static_cast<int>(r.parts.size()), r.is_tuple, r.is_optional,
                                  r.is_list, {}, call->encoded, false};
  if (r.has_arrays())
    for (int ndim : r.part_ndims) caller.array_parts.push_back(ndim >= 0);
  std::string signature = "void(";
  if (!r.is_list)  // a 1-element array per scalar part; arrays go to the engine
    for (size_t k = 0; k < r.parts.size(); ++k)
      if (r.part_ndims[k] < 0) signature += r.parts[k].name() + "[::1], ";
  if (r.is_optional) signature += "bool[::1], ";
  signature += types->substr(1, types->size() - 2) + ")";
  auto compiled = module.compile_generated({caller, signature});
  if (!compiled.ok()) return compiled.error();
  return remember(module, call, *compiled);
}

// The call, with its compiled caller, kept for later calls with these types.
std::shared_ptr<detail::HostCall> remember(detail::ModuleState& module, std::shared_ptr<detail::HostCall> call,
                                           std::shared_ptr<detail::Specialization> compiled) {
  const compiler::FunctionReturn& r = call->returns;
  call->caller = std::move(compiled);
  std::lock_guard<std::mutex> lock(module.mutex);
  // Built as Numba's CPU target builds it (its library is made on the first call, after this).
  call->caller->cpu_function = true;
  call->caller->boundscheck = boundscheck_override().value_or(r.boundscheck);
  call->caller->fastmath = r.fastmath;
  module.host_calls.push_back(call);
  return call;
}

// The scalars among the parts of what the function returns.
size_t scalar_parts(const compiler::FunctionReturn& r) {
  return static_cast<size_t>(std::count(r.part_ndims.begin(), r.part_ndims.end(), -1));
}

// The one-thread kernel's parameters: a 1-element array per returned scalar (in `results`,
// 16 bytes each), the optional's flag, then the arguments, scalars converted to the typed
// parameters (a decorator's signature fixes them, as Numba's eager compilation does).
Status pack_call(const detail::HostCall& call, const std::vector<Argument>& args, unsigned char* results,
                 detail::PackedArguments& packed) {
  const CompiledKernel& kernel = call.caller->kernel;
  size_t leading = call.returns.is_list || call.encoded_result
                       ? 0 : scalar_parts(call.returns) + (call.returns.is_optional ? 1 : 0);
  if (kernel.parameters.size() != leading + args.size())
    return Error::make(ErrorKind::internal, "the host call's kernel does not match its function; please report it");
  detail::layout_arguments(kernel, packed);
  for (size_t i = 0; i < leading; ++i) detail::pack_element_view(kernel, i, results + 16 * i, packed);
  for (size_t i = 0; i < args.size(); ++i)
    if (auto packing = detail::pack_argument(kernel, leading + i, args[i], Location::host, packed); !packing.ok())
      return packing;
  return ok_status();
}

// A returned array as the caller holds it: its own storage, which it now shares; or, for memory
// the call borrowed, the argument it views (kept alive with it), else (a module constant's) a copy.
Array returned_array(const sim::ExportedArray& exported, const DType& dtype, const std::vector<Argument>& args) {
  if (exported.storage)
    return Array::adopt(exported.storage, exported.data, dtype, exported.shape, exported.strides, Location::host);
  std::vector<Array> caller;
  for (const Argument& arg : args)
    if (const Array* a = std::get_if<Array>(&arg); a && a->location() == Location::host) caller.push_back(*a);
  return detail::caller_view(exported.data, dtype, exported.shape, exported.strides, caller);
}

// What the call returned, from its scalar slots and the engine's exported arrays.
Result<Returned> collect_returned(const compiler::FunctionReturn& r, const unsigned char* results,
                                  const sim::ExportedItems& items, const std::vector<Argument>& args) {
  Returned returned;
  returned.is_tuple = r.is_tuple;
  returned.type = r.type;
  size_t scalars = 0;
  for (size_t k = 0; k < r.parts.size(); ++k) {
    if (r.part_ndims[k] < 0) {
      returned.values.push_back(Scalar::load(r.parts[k], results + 16 * scalars++));
      if (r.has_arrays()) returned.array_items.push_back(false);
      continue;
    }
    auto exported = std::find_if(items.arrays.begin(), items.arrays.end(),
                                 [&](const sim::ExportedArray& a) { return a.slot == static_cast<int>(k); });
    if (exported == items.arrays.end())
      return Error::make(ErrorKind::internal, "a host call's returned array was not handed over; please report it");
    returned.arrays.push_back(returned_array(*exported, r.parts[k], args));
    returned.array_items.push_back(true);
  }
  return returned;
}

}  // namespace

std::variant<Scalar, Array> Returned::item(size_t k) const {
  if (array_items.empty()) return values.at(k);
  size_t arrays_before = static_cast<size_t>(std::count(array_items.begin(), array_items.begin() + k, true));
  if (array_items.at(k)) return arrays.at(arrays_before);
  return values.at(k - arrays_before);
}

Result<Function> Module::function(const std::string& name) const {
  if (kind_of(name) == "device function")
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' in {} is a CUDA device function (device=True): only kernels and other device "
                                   "functions call it, as in Numba; call it from a kernel, or decorate it with @njit "
                                   "to call it from the host",
                                   name, state_->name));
  auto at = detail::find_named(*state_, state_->host_functions, name, "@jit or @njit function", "functions");
  if (!at.ok()) return at.error();
  return Function(state_, name, state_->host_function_parameters[*at]);
}

Value Returned::value() const {
  if (other) return *other;
  if (list) {
    std::vector<Value> items;
    for (int64_t i = 0; i < list->size(); ++i) items.emplace_back(Scalar::load(list->dtype(), list->element({i})));
    return Value::list(std::move(items));
  }
  auto item_value = [&](size_t k) -> Value {
    std::variant<Scalar, Array> one = item(k);
    if (const Array* a = std::get_if<Array>(&one)) return *a;
    return std::get<Scalar>(one);
  };
  if (is_tuple) {
    std::vector<Value> items;
    for (size_t k = 0; k < size(); ++k) items.push_back(item_value(k));
    return Value::tuple(std::move(items));
  }
  return size() == 0 ? Value() : item_value(0);
}

namespace {

// The list and dict arguments as the call left them, into the caller's Values that share them
// (a Python list or typed container passed to an @njit function is the caller's own object).
Status write_back(const CallArguments& arguments, const sim::ExportedItems& items) {
  for (const auto& [index, bytes] : items.arguments) {
    auto i = static_cast<size_t>(index);
    if (i >= arguments.shared.size() || i >= arguments.encoded.size() || arguments.shared[i] == nullptr ||
        !arguments.values)
      continue;
    auto value = detail::decode_written_back(bytes, (*arguments.values)[i], arguments.encoded[i].signature);
    if (!value.ok()) return value.error();
    *arguments.shared[i] = std::move(*value);
  }
  return ok_status();
}

// One host call: the function typed for these arguments (once), its caller run on one thread,
// what it returned collected.
Result<Returned> call_function(detail::ModuleState& module, const std::string& name, const CallArguments& arguments) {
  const std::vector<Argument>& args = arguments.args;
  // As a launch refuses them (abi/arguments.h): the function may write its array arguments.
  for (size_t i = 0; i < args.size(); ++i)
    if (const Array* a = std::get_if<Array>(&args[i]); a && a->read_only())
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("'{}': argument {} is a read-only array (a DLPack tensor flagged read-only), and "
                                     "the function may write its array arguments: pass a writable copy (Array::copy())",
                                     name, i + 1));
  auto prepared = prepare_call(module, name, arguments);
  if (!prepared.ok()) return prepared.error();
  const detail::HostCall& call = **prepared;
  const compiler::FunctionReturn& r = call.returns;
  // Reused by every call on this thread: a warm call allocates only what it returns. The
  // returned values land in 16-byte slots (operator new aligns to 16), the flag after them.
  thread_local detail::PackedArguments packed;
  thread_local std::vector<unsigned char> slots;
  slots.assign(16 * (r.parts.size() + 1), 0);
  unsigned char* results = slots.data();
  if (auto packing = pack_call(call, args, results, packed); !packing.ok()) return packing.error();
  if (auto ready = module.prepare(*call.caller, Backend::cpu); !ready.ok()) return ready.error();
  sim::ExportedItems items;
  sim::capture_exported_items(&items);
  auto run = sim::launch(*call.caller->library, call.caller->kernel.symbol, packed.pointers.data(), Launch(1, 1));
  sim::capture_exported_items(nullptr);
  if (!run.ok()) {
    // One host call is no GPU thread: its failures read as Numba's CPU errors, without a thread.
    Error error = run.error();
    const std::string thread = " tid=[0, 0, 0] ctaid=[0, 0, 0]";
    if (auto at = error.message.find(thread); at != std::string::npos) {
      bool colon = at + thread.size() < error.message.size() && error.message[at + thread.size()] == ':';
      error.message.erase(at, thread.size() + (colon ? 1 : 0));
      if (!colon && at > 0 && error.message[at - 1] == ':') error.message.erase(at - 1, 1);  // no message
    }
    return error;
  }
  if (auto shared = write_back(arguments, items); !shared.ok()) return shared.error();
  Returned returned;
  returned.is_tuple = r.is_tuple;
  returned.type = r.type;
  returned.warnings = call.warnings;
  if (call.encoded_result) {  // a str, dict, list of other than numbers, ...: written out by the runtime
    returned.is_tuple = false;
    if (!items.set) return Error::make(ErrorKind::internal, "a host call's value was not handed over; please report it");
    auto value = detail::decode_value(items.bytes);
    if (!value.ok()) return value.error();
    returned.other = std::move(*value);
    return returned;
  }
  if (r.is_list) {  // a list of numbers comes back as a 1-d array of its items
    Array list = Array::zeros(r.parts.front(), {static_cast<int64_t>(items.count)});
    if (!items.bytes.empty()) std::memcpy(list.data(), items.bytes.data(), items.bytes.size());
    returned.list = list;
    return returned;
  }
  if (r.is_optional && results[16 * scalar_parts(r)] == 0) return returned;
  auto collected = collect_returned(r, results, items, args);
  if (!collected.ok()) return collected.error();
  collected->warnings = std::move(returned.warnings);
  return collected;
}

}  // namespace

Result<Returned> Function::call(const std::vector<Argument>& args) const {
  return detail::guarded([&]() -> Result<Returned> { return call_function(*module_, name_, {args, {}}); });
}

namespace {

// A call of Values: scalars and arrays as they are, other values encoded for the runtime. The
// list and dict arguments `shared` names (per argument, or empty) take what the function left
// in them.
Result<Returned> call_values(detail::ModuleState& module, const std::string& name, const std::vector<Value>& values,
                             std::vector<Value*> shared) {
  std::vector<Argument> args;
  std::vector<detail::ValueType> encoded;
  bool plain = std::all_of(values.begin(), values.end(), [](const Value& v) {
    return v.kind() == Value::Kind::scalar || v.kind() == Value::Kind::array;
  });
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    if (v.kind() == Value::Kind::scalar || v.kind() == Value::Kind::array) {
      args.push_back(v.kind() == Value::Kind::scalar ? Argument(v.scalar()) : Argument(v.array()));
      if (!plain) encoded.push_back({});
      continue;
    }
    auto type = detail::value_type(v);
    if (!type.ok())
      return Error::make(ErrorKind::invalid_argument, fmt::format("'{}': argument {}: {}", name, i + 1, type.error().message));
    std::vector<unsigned char> bytes = detail::encode_value(v);
    Array bytes_array = Array::zeros(DType::uint(8), {static_cast<int64_t>(bytes.size())});
    std::memcpy(bytes_array.data(), bytes.data(), bytes.size());
    args.push_back(bytes_array);
    encoded.push_back(std::move(*type));
  }
  return call_function(module, name, {args, std::move(encoded), std::move(shared), &values});
}

}  // namespace

Result<Returned> Function::call(const std::vector<Value>& values) const {
  return detail::guarded([&]() -> Result<Returned> { return call_values(*module_, name_, values, {}); });
}

Result<Returned> Function::call(std::vector<Value>& values) const {
  return detail::guarded([&]() -> Result<Returned> {
    std::vector<Value*> shared;
    for (Value& v : values) shared.push_back(&v);
    std::vector<Value> given = values;  // read while the call writes `values` back
    return call_values(*module_, name_, given, std::move(shared));
  });
}

Result<Returned> Function::call_sharing(std::vector<Value> values, std::vector<Value*> shared) const {
  return detail::guarded([&]() -> Result<Returned> { return call_values(*module_, name_, values, std::move(shared)); });
}

}  // namespace pykern

// @vectorize, @guvectorize and @cuda.reduce on the simulator: broadcasting and signature
// choice as Numba's CUDA ufuncs do them, then a generated kernel (compiler/generated_source.cpp).
#include "pykern/ufunc.h"

#include <cstring>

#include <fmt/format.h>

#include "api/module_state.h"
#include "api/ufunc_loops.h"

namespace pykern {

namespace {

using Shape = std::vector<int64_t>;
using compiler::GeneratorFunction;
using compiler::GeneratorSignature;

// NumPy's broadcasting of shapes.
Result<Shape> broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t ndim = 0;
  for (const Shape& s : shapes) ndim = std::max(ndim, s.size());
  Shape out(ndim, 1);
  for (const Shape& s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& dim = out[ndim - s.size() + i];
      if (s[i] == dim || s[i] == 1) continue;
      if (dim != 1) {
        std::string all;
        for (const Shape& t : shapes) all += " " + shape_text(t);
        return Error::make(ErrorKind::invalid_argument, "operands could not be broadcast together with shapes" + all);
      }
      dim = s[i];
    }
  }
  return out;
}

// A view of `a` with `shape` (leading axes added, size-1 axes stretched with stride 0).
Array broadcast_to(const Array& a, const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 0);
  size_t offset = shape.size() - a.shape().size();
  for (size_t i = 0; i < a.shape().size(); ++i)
    strides[offset + i] = a.shape()[i] == 1 ? 0 : a.strides()[i];
  return Array::wrap(a.data(), a.dtype(), shape, strides, a.location());
}

Array scalar_array(const Scalar& value, const DType& dtype) {
  Array a = Array::zeros(dtype, {1});
  value.store(dtype, a.data());
  return a;
}

std::string numba_dtype(const DType& dtype) { return dtype.kind == ScalarKind::boolean ? "boolean" : dtype.name(); }

// "float32[:, :]": a broadcast view's type in a generated kernel's signature.
std::string array_type(const DType& dtype, size_t ndim) {
  std::string axes;
  for (size_t i = 0; i < ndim; ++i) axes += i ? ", :" : ":";
  return numba_dtype(dtype) + "[" + axes + "]";
}

Launch grid_stride(int64_t count) {
  int64_t blocks = std::clamp<int64_t>((count + 127) / 128, 1, 4096);
  return Launch(static_cast<uint32_t>(blocks), 128);
}

const GeneratorFunction* find_generator(const detail::ModuleState& m, const std::string& name) {
  for (const GeneratorFunction& g : m.generators)
    if (g.name == name) return &g;
  return nullptr;
}

// Numba's CUDA ufunc rule: arrays must match a signature's types exactly; scalars match first
// by their own type, then any signature (they are converted to it). Several matches left for
// untyped scalars are ambiguous.
Result<const GeneratorSignature*> choose_signature(const GeneratorFunction& g, const std::vector<Argument>& inputs) {
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<const GeneratorSignature*> matches;
    for (const GeneratorSignature& s : g.signatures) {
      if (s.arguments.size() < inputs.size()) continue;
      bool all = true;
      for (size_t i = 0; i < inputs.size() && all; ++i) {
        const DType& formal = s.arguments[i].dtype;
        if (const Array* a = std::get_if<Array>(&inputs[i])) all = a->dtype() == formal;
        else all = pass == 1 || std::get<Scalar>(inputs[i]).type == formal;
      }
      if (all) matches.push_back(&s);
    }
    if (matches.size() == 1 || (pass == 0 && !matches.empty())) return matches.front();
    if (matches.size() > 1)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("'{}': ambiguous signature for these scalar arguments; give them a type, "
                                     "e.g. pykern::f32(x)", g.name));
  }
  std::string given;
  for (const Argument& a : inputs)
    given += (given.empty() ? "" : ", ") +
             (std::holds_alternative<Array>(a) ? std::get<Array>(a).dtype().name() + " array" : std::get<Scalar>(a).type.name());
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("no signature of '{}' matches ({}): a GPU ufunc needs array arguments of exactly "
                                 "its types, as NumPy's casting='no'", g.name, given));
}

bool cuda_target(const GeneratorFunction& g) { return g.target == "cuda"; }

// The loops a CPU ufunc chooses among: its signatures, or those a DUFunc compiled so far.
std::vector<GeneratorSignature> known_loops(detail::ModuleState& m, const GeneratorFunction& g) {
  if (!g.signatures.empty()) return g.signatures;
  std::lock_guard<std::mutex> lock(m.mutex);
  return m.dufunc_loops[g.name];
}

// A CPU ufunc's loop for these inputs, as Numba's (NumPy's) ufunc machinery chooses it: the
// first loop the inputs cast to safely; a @vectorize without signatures (a DUFunc) compiles a
// loop of the inputs' own types when none fits, and keeps it for later calls. `dynamic_gufunc`:
// a @guvectorize without signatures, typed by its arguments, outputs included.
Result<GeneratorSignature> choose_cpu_signature(detail::ModuleState& m, const GeneratorFunction& g,
                                                const std::vector<Argument>& inputs) {
  std::vector<GeneratorSignature> loops = known_loops(m, g);
  std::vector<detail::LoopInputs> loop_inputs;
  for (const GeneratorSignature& s : loops) {
    detail::LoopInputs types;
    for (size_t i = 0; i < s.arguments.size() && i < inputs.size(); ++i) types.push_back(s.arguments[i].dtype);
    loop_inputs.push_back(types);
  }
  std::optional<size_t> at = detail::choose_cpu_loop(loop_inputs, inputs);
  GeneratorSignature chosen;
  if (at) {
    chosen = loops[*at];
  } else if (g.signatures.empty() && g.kind == "vectorize") {
    for (const DType& t : detail::exact_loop(inputs)) chosen.arguments.push_back(ParameterInfo{"", false, t, 0, 'A'});
    std::lock_guard<std::mutex> lock(m.mutex);
    m.dufunc_loops[g.name].push_back(chosen);
  } else {
    return Error::make(ErrorKind::invalid_argument, detail::no_loop_error(g.name));
  }
  std::vector<DType> types;
  for (const ParameterInfo& p : chosen.arguments) types.push_back(p.dtype);
  if (std::string overflow = detail::scalar_overflow(inputs, types); !overflow.empty())
    return Error::make(ErrorKind::invalid_argument, overflow);
  return chosen;
}

// An input array of another type than its loop's: converted first, as NumPy's casting loop does.
Array as_loop_type(const Array& a, const DType& formal) {
  return a.dtype() == formal ? a : detail::converted_copy(a, formal);
}

// A gufunc layout "(m,n),(n)->(m)": the core dimension names of each argument.
Result<std::vector<std::vector<std::string>>> parse_layout(const std::string& layout, size_t& inputs) {
  std::vector<std::vector<std::string>> args;
  size_t arrow = layout.find("->");
  if (arrow == std::string::npos) return Error::make(ErrorKind::invalid_argument, "gufunc layout '" + layout + "' has no '->'");
  auto parse_side = [&](const std::string& side) -> bool {
    size_t i = 0;
    while (i < side.size()) {
      if (side[i] == ' ' || side[i] == ',') { ++i; continue; }
      if (side[i] != '(') return false;
      size_t close = side.find(')', i);
      if (close == std::string::npos) return false;
      std::vector<std::string> dims;
      std::string name;
      for (char c : side.substr(i + 1, close - i - 1)) {
        if (c == ',' || c == ' ') {
          if (!name.empty()) dims.push_back(name), name.clear();
        } else {
          name += c;
        }
      }
      if (!name.empty()) dims.push_back(name);
      args.push_back(dims);
      i = close + 1;
    }
    return true;
  };
  if (!parse_side(layout.substr(0, arrow))) return Error::make(ErrorKind::invalid_argument, "malformed gufunc layout '" + layout + "'");
  inputs = args.size();
  if (!parse_side(layout.substr(arrow + 2)) || args.size() == inputs)
    return Error::make(ErrorKind::invalid_argument, "malformed gufunc layout '" + layout + "'");
  return args;
}

// The type of a ufunc's output. numba-cuda compiles a signature without a return type
// ("(int16, int16)") as a device function for its argument types and gives the output the
// type the body returns (true division of integers: float64), so pykern types the function
// for them the same way, once per signature.
Result<DType> vectorize_result(detail::ModuleState& m, const GeneratorFunction& g, const GeneratorSignature& s) {
  if (s.result) return *s.result;
  std::string arguments;
  for (const ParameterInfo& p : s.arguments) arguments += numba_dtype(p.dtype) + ",";
  std::string key = g.name + "(" + arguments + ")";
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    if (auto known = m.ufunc_results.find(key); known != m.ufunc_results.end()) return known->second;
  }
  auto typed = compiler::translate(m.request_for(g.name, "(" + arguments + ")", std::nullopt));
  if (!typed.ok()) return typed.error();
  if (typed->functions.size() != 1) return Error::make(ErrorKind::internal, "expected one typing of " + key);
  const compiler::FunctionReturn& r = typed->functions.front();
  if (r.parts.size() != 1 || r.is_tuple || r.is_optional || r.is_list || r.returns_other || r.has_arrays())
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("ufunc '{}' returns {} for ({}); a ufunc's function returns one number", g.name,
                                   r.type, arguments.substr(0, arguments.size() - 1)));
  std::lock_guard<std::mutex> lock(m.mutex);
  m.ufunc_results.emplace(key, r.parts.front());
  return r.parts.front();
}

Result<std::vector<Array>> call_vectorize(detail::ModuleState& m, const GeneratorFunction& g,
                                         const std::vector<Argument>& args, std::optional<Array> out, Backend backend) {
  size_t inputs = g.parameters.size();
  if (args.size() != inputs)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("ufunc '{}' takes {} argument{}, {} given", g.name, inputs, inputs == 1 ? "" : "s", args.size()));
  GeneratorSignature s;
  if (cuda_target(g)) {
    auto signature = choose_signature(g, args);
    if (!signature.ok()) return signature.error();
    s = **signature;
  } else {
    auto signature = choose_cpu_signature(m, g, args);
    if (!signature.ok()) return signature.error();
    s = *signature;
  }
  std::vector<Shape> shapes;
  for (const Argument& a : args)
    shapes.push_back(std::holds_alternative<Array>(a) ? std::get<Array>(a).shape() : Shape{});
  auto shape = broadcast_shapes(shapes);
  if (!shape.ok()) return shape.error();
  Shape kernel_shape = shape->empty() ? Shape{1} : *shape;
  auto result_dtype = vectorize_result(m, g, s);
  if (!result_dtype.ok()) return result_dtype.error();
  const DType& result_type = *result_dtype;
  Array result;
  if (out) {
    if (out->shape() != *shape || out->dtype() != result_type)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("out= must be a {} array of shape {}, not {} of shape {}", result_type.name(),
                                     shape_text(*shape), out->dtype().name(), shape_text(out->shape())));
    result = *out;
  } else {
    result = Array::zeros(result_type, *shape);
  }
  std::vector<Argument> kernel_args = {broadcast_to(result, kernel_shape)};
  std::vector<Array> keep;  // scalars made arrays live until the launch ends
  std::string types = array_type(result_type, kernel_shape.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const DType& formal = s.arguments[i].dtype;
    Array a = std::holds_alternative<Array>(args[i]) ? as_loop_type(std::get<Array>(args[i]), formal)
                                                     : scalar_array(std::get<Scalar>(args[i]), formal);
    keep.push_back(a);
    kernel_args.push_back(broadcast_to(a, kernel_shape));
    types += ", " + array_type(formal, kernel_shape.size());
  }
  // On the CPU the elements run as a prange loop on the thread pool; on a GPU, grid-stride.
  bool cpu = Kernel::resolve(backend) == Backend::cpu;
  int ndim = static_cast<int>(kernel_shape.size());
  compiler::UfuncKernel kernel{g.name, static_cast<int>(inputs), ndim, cpu};
  auto compiled = m.compile_generated({kernel, "void(" + types + ")"});
  if (!compiled.ok()) return compiled.error();
  if (cpu) {  // a loop of pykern's own over in-bounds indices: built as Numba's CPU ufuncs, for this CPU
    std::lock_guard<std::mutex> lock(m.mutex);
    (*compiled)->cpu_function = true;
  }
  int64_t count = 1;
  for (int64_t d : kernel_shape) count *= d;
  Launch launch = cpu ? Launch(1, 1) : grid_stride(count);
  if (count > 0)
    if (auto ran = m.run(**compiled, launch.backend(backend), kernel_args); !ran.ok()) return ran.error();
  return std::vector<Array>{result};
}

// A gufunc argument as an array: a scalar (a Python number for a "()" core dimension) becomes a
// 0-d array of its signature's type, as numba-cuda's np.asarray of it does; `keep` holds it
// until the launch ends.
Result<Array> gufunc_operand(const GeneratorFunction& g, const Argument& argument, const DType& formal,
                             size_t position, size_t core_ndim, std::vector<Array>& keep) {
  if (const Array* a = std::get_if<Array>(&argument)) return *a;
  if (core_ndim != 0)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("gufunc '{}': argument {} has {} core dimension{}, so it takes an array, not a scalar",
                                   g.name, position + 1, core_ndim, core_ndim == 1 ? "" : "s"));
  Array a = Array::zeros(formal, {});
  std::get<Scalar>(argument).store(formal, a.data());
  keep.push_back(a);
  return a;
}

// `a` with one more axis, of extent 1, at the end: how an argument of core dimensions "()"
// reaches a function that takes it as an array (outputs, and inputs the signature types as
// arrays), as numba-cuda slices arg[i:i + 1].
Array with_unit_axis(const Array& a) {
  std::vector<int64_t> shape = a.shape(), strides = a.strides();
  shape.push_back(1);
  strides.push_back(a.dtype().itemsize);
  return Array::wrap(a.data(), a.dtype(), shape, strides, a.location());
}

// An output the caller gives must be what the gufunc would make: numba-cuda refuses another
// shape ("output shape mismatch"), and another dtype would not hold the signature's values.
Status check_gufunc_output(const GeneratorFunction& g, const GeneratorSignature& s, size_t i, size_t inputs,
                           const Array& given, const Shape& loop_shape, const Shape& core_shape) {
  if (i < inputs) return ok_status();
  Shape shape = loop_shape;
  shape.insert(shape.end(), core_shape.begin(), core_shape.end());
  if (given.shape() == shape && given.dtype() == s.arguments[i].dtype) return ok_status();
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("gufunc '{}': output {} must be a {} array of shape {}, not {} of shape {}", g.name,
                                 i - inputs + 1, s.arguments[i].dtype.name(), shape_text(shape), given.dtype().name(),
                                 shape_text(given.shape())));
}

// A @guvectorize without signatures (Numba's dynamic GUFunc): typed by its arguments, which must
// include the outputs. A "()" input is a scalar; every other argument an array of its own type.
Result<GeneratorSignature> dynamic_gufunc_signature(const GeneratorFunction& g, const std::vector<Argument>& args,
                                                   size_t total) {
  if (args.size() != total)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("TypeError: Too few arguments for function '{}'. Note that the pattern `out = "
                                   "gufunc(Arg1, Arg2, ..., ArgN)` is not allowed. Use `gufunc(Arg1, Arg2, ..., ArgN, "
                                   "out) instead.",
                                   g.name));
  GeneratorSignature s;
  for (const Argument& a : args) {
    if (const Array* array = std::get_if<Array>(&a)) s.arguments.push_back(ParameterInfo{"", true, array->dtype(), array->ndim(), 'A'});
    else s.arguments.push_back(ParameterInfo{"", false, std::get<Scalar>(a).type, 0, 'A'});
  }
  return s;
}

// Two sizes of one core dimension: NumPy's ValueError for a CPU gufunc (operands and their core
// dimensions counted from 0, the layout without spaces), pykern's words for a CUDA one.
std::string core_mismatch(const GeneratorFunction& g, size_t operand, size_t inputs, size_t axis,
                          const std::string& name, int64_t size, int64_t bound) {
  if (cuda_target(g))
    return fmt::format("gufunc '{}': core dimension '{}' is {} here but {} before", g.name, name, size, bound);
  std::string layout;
  for (char c : g.layout)
    if (c != ' ') layout += c;
  bool input = operand < inputs;
  return fmt::format("ValueError: {}: {} operand {} has a mismatch in its core dimension {}, with gufunc signature {} "
                     "(size {} is different from {})",
                     g.name, input ? "Input" : "Output", input ? operand : operand - inputs, axis, layout, size, bound);
}

Result<std::vector<Array>> call_guvectorize(detail::ModuleState& m, const GeneratorFunction& g,
                                           const std::vector<Argument>& args, Backend backend) {
  size_t inputs = 0;
  auto layout = parse_layout(g.layout, inputs);
  if (!layout.ok()) return layout.error();
  size_t total = layout->size();
  if (args.size() != inputs && args.size() != total)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("gufunc '{}' takes {} inputs (and optionally {} outputs), {} given", g.name, inputs,
                                   total - inputs, args.size()));
  for (size_t i = inputs; i < args.size(); ++i)
    if (!std::holds_alternative<Array>(args[i]))
      return Error::make(ErrorKind::invalid_argument, fmt::format("gufunc '{}': output {} must be an array", g.name, i - inputs + 1));
  std::vector<Argument> input_args(args.begin(), args.begin() + static_cast<long>(inputs));
  GeneratorSignature s;
  if (cuda_target(g)) {
    auto signature = choose_signature(g, input_args);
    if (!signature.ok()) return signature.error();
    s = **signature;
  } else if (g.signatures.empty()) {
    auto signature = dynamic_gufunc_signature(g, args, total);
    if (!signature.ok()) return signature.error();
    s = *signature;
  } else {
    auto signature = choose_cpu_signature(m, g, input_args);
    if (!signature.ok()) return signature.error();
    s = *signature;
  }
  if (s.arguments.size() != total)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("gufunc '{}': its signature has {} argument types but its layout '{}' has {} "
                                   "arguments", g.name, s.arguments.size(), g.layout, total));
  std::vector<Array> operands, keep;
  for (size_t i = 0; i < args.size(); ++i) {
    auto operand = gufunc_operand(g, args[i], s.arguments[i].dtype, i, (*layout)[i].size(), keep);
    if (!operand.ok()) return operand.error();
    operands.push_back(i < inputs ? as_loop_type(*operand, s.arguments[i].dtype) : *operand);
  }
  // Bind core dimensions from the inputs; the rest of each input's shape is its loop shape.
  std::map<std::string, int64_t> sizes;
  std::vector<Shape> loop_shapes;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Array& a = operands[i];
    const auto& core = (*layout)[i];
    if (a.ndim() < static_cast<int>(core.size()))
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("gufunc '{}': argument {} needs at least {} dimensions", g.name, i + 1, core.size()));
    size_t loop = a.shape().size() - core.size();
    for (size_t d = 0; d < core.size(); ++d) {
      int64_t n = a.shape()[loop + d];
      auto [it, fresh] = sizes.emplace(core[d], n);
      if (!fresh && it->second != n)
        return Error::make(ErrorKind::invalid_argument, core_mismatch(g, i, inputs, d, core[d], n, it->second));
    }
    loop_shapes.push_back(Shape(a.shape().begin(), a.shape().begin() + static_cast<long>(loop)));
  }
  auto loop_shape = broadcast_shapes(loop_shapes);
  if (!loop_shape.ok()) return loop_shape.error();
  // Arguments of no loop dimensions still make one call: the kernel loops over one element.
  Shape kernel_loop = loop_shape->empty() ? Shape{1} : *loop_shape;
  std::vector<Argument> kernel_args;
  std::vector<Array> returned;
  std::string types;
  for (size_t i = 0; i < total; ++i) {
    const auto& core = (*layout)[i];
    Shape core_shape;
    for (const std::string& d : core) {
      if (!sizes.count(d))
        return Error::make(ErrorKind::invalid_argument, fmt::format("gufunc '{}': output dimension '{}' is not bound by an input", g.name, d));
      core_shape.push_back(sizes[d]);
    }
    Array a;
    if (i < operands.size()) {
      a = operands[i];
      if (auto wrong = check_gufunc_output(g, s, i, inputs, a, *loop_shape, core_shape); !wrong.ok()) return wrong.error();
    } else {
      Shape shape = *loop_shape;
      shape.insert(shape.end(), core_shape.begin(), core_shape.end());
      a = Array::zeros(s.arguments[i].dtype, shape);
    }
    if (i >= inputs) returned.push_back(a);
    Shape full = kernel_loop;
    full.insert(full.end(), core_shape.begin(), core_shape.end());
    Array view = broadcast_to(a, full);
    // "()" reaches the function as a one-element array where it writes (outputs) or where the
    // signature types it as an array; else as the element itself.
    if (core_shape.empty() && (i >= inputs || s.arguments[i].is_array)) view = with_unit_axis(view);
    kernel_args.push_back(view);
    types += (i ? ", " : "") + array_type(a.dtype(), static_cast<size_t>(view.ndim()));
  }
  // On the CPU the loop indices run as a prange loop on the thread pool; on a GPU, grid-stride.
  bool cpu = Kernel::resolve(backend) == Backend::cpu;
  compiler::GufuncKernel kernel{g.name, static_cast<int>(total), static_cast<int>(kernel_loop.size()), cpu};
  auto compiled = m.compile_generated({kernel, "void(" + types + ")"});
  if (!compiled.ok()) return compiled.error();
  if (cpu) {  // built as Numba's CPU gufuncs are, for this CPU
    std::lock_guard<std::mutex> lock(m.mutex);
    (*compiled)->cpu_function = true;
  }
  int64_t count = 1;
  for (int64_t d : kernel_loop) count *= d;
  Launch launch = cpu ? Launch(1, 1) : grid_stride(count);
  if (count > 0)
    if (auto ran = m.run(**compiled, launch.backend(backend), kernel_args); !ran.ok()) return ran.error();
  return returned;
}

// Reduction::reduce, without its guard: level one folds up to 256 blocks of 256 threads into
// one partial each; level two folds those.
Result<Scalar> reduce_values(detail::ModuleState& module, const std::string& name, const Array& values,
                             std::optional<Scalar> init, std::optional<Array> res, Backend backend) {
  if (values.ndim() != 1) return Error::make(ErrorKind::invalid_argument, "a reduction takes a 1-d array");
  const DType& dtype = values.dtype();
  Scalar start = init.value_or(Scalar(static_cast<long long>(0))).as(dtype);
  Scalar result = start;
  if (values.size() > 0) {
    std::string type = numba_dtype(dtype);
    compiler::ReduceKernel kernel{name, type};
    auto compiled = module.compile_generated({kernel, fmt::format("void({0}[:], {0}[:], {0}, boolean)", type)});
    if (!compiled.ok()) return compiled.error();
    int64_t blocks = std::clamp<int64_t>((values.size() + 255) / 256, 1, 256);
    Array partials = Array::zeros(dtype, {blocks});
    if (auto ran = module.run(**compiled, Launch(static_cast<uint32_t>(blocks), 256).backend(backend),
                                {values, partials, start, Scalar(blocks == 1)});
        !ran.ok())
      return ran.error();
    if (blocks > 1) {
      Array final_value = Array::zeros(dtype, {1});
      if (auto ran = module.run(**compiled, Launch(1, 256).backend(backend), {partials, final_value, start, Scalar(true)});
          !ran.ok())
        return ran.error();
      partials = final_value;
    }
    result = Scalar::load(dtype, partials.data());
  }
  if (res) {
    if (res->size() < 1 || res->dtype() != dtype)
      return Error::make(ErrorKind::invalid_argument, "res= must be an array of " + dtype.name() + " with an element");
    result.store(dtype, res->data());
  }
  return result;
}

// A gufunc's out= is its (one) output given after the inputs, as Numba takes it; passing the
// outputs positionally as well gives too many arguments, which call_guvectorize reports.
std::vector<Argument> with_gufunc_out(const std::vector<Argument>& args, const std::optional<Array>& out) {
  std::vector<Argument> all = args;
  if (out) all.push_back(*out);
  return all;
}

// Arrays a generated kernel cannot take: bfloat16 ones (no kernel types them yet), and read-only
// ones it would write (`written`: an out array, or any argument of a @guvectorize function,
// whose body may write each).
Status check_arrays(const std::string& name, const std::vector<Argument>& args, bool written,
                    const std::optional<Array>& out) {
  auto check = [&](const Array& a, const std::string& which, bool writes) -> Status {
    if (a.dtype().kind == ScalarKind::bfloat)
      return Error::make(ErrorKind::invalid_argument, fmt::format("'{}': {} is an array of bfloat16, and generated "
                                                                  "kernels do not take bfloat16 yet; convert it to "
                                                                  "float32 first", name, which));
    if (writes && a.read_only())
      return Error::make(ErrorKind::invalid_argument, fmt::format("'{}': {} is a read-only array (a DLPack tensor "
                                                                  "flagged read-only) that the call would write; pass a "
                                                                  "writable copy (Array::copy())", name, which));
    return ok_status();
  };
  for (size_t i = 0; i < args.size(); ++i)
    if (const Array* a = std::get_if<Array>(&args[i]))
      if (auto s = check(*a, fmt::format("argument {}", i + 1), written); !s.ok()) return s;
  if (out)
    if (auto s = check(*out, "the out array", true); !s.ok()) return s;
  return ok_status();
}

}  // namespace

Result<std::vector<Array>> Ufunc::call_all(const std::vector<Argument>& args, Backend backend) const {
  return detail::guarded([&]() -> Result<std::vector<Array>> {
    const GeneratorFunction* g = find_generator(*module_, name_);
    if (auto s = check_arrays(name_, args, g->kind != "vectorize", std::nullopt); !s.ok()) return s.error();
    if (g->kind == "vectorize") return call_vectorize(*module_, *g, args, std::nullopt, backend);
    return call_guvectorize(*module_, *g, args, backend);
  });
}

Result<Array> Ufunc::call(const std::vector<Argument>& args, std::optional<Array> out, Backend backend) const {
  return detail::guarded([&]() -> Result<Array> {
    const GeneratorFunction* g = find_generator(*module_, name_);
    if (auto s = check_arrays(name_, args, g->kind != "vectorize", out); !s.ok()) return s.error();
    auto results = g->kind == "vectorize" ? call_vectorize(*module_, *g, args, out, backend)
                                          : call_guvectorize(*module_, *g, with_gufunc_out(args, out), backend);
    if (!results.ok()) return results.error();
    return results->front();
  });
}

Result<Scalar> Reduction::reduce(const Array& values, std::optional<Scalar> init, std::optional<Array> res,
                                 Backend backend) const {
  return detail::guarded([&]() -> Result<Scalar> {
    if (auto s = check_arrays(name_, {values}, false, res); !s.ok()) return s.error();
    return reduce_values(*module_, name_, values, init, res, backend);
  });
}

Result<Ufunc> Module::ufunc(const std::string& name) const {
  const GeneratorFunction* g = find_generator(*state_, name);
  if (!g || g->kind == "reduce")
    return Error::make(ErrorKind::invalid_argument, fmt::format("{} has no @vectorize or @guvectorize function '{}'", state_->name, name));
  if (g->signatures.empty() && cuda_target(*g))
    return Error::make(ErrorKind::invalid_argument, fmt::format("'{}' has no signatures: CUDA ufuncs need them, e.g. "
                                                                "@vectorize(['float32(float32)'], target='cuda')", name));
  return Ufunc(state_, name);
}

Result<Reduction> Module::reduction(const std::string& name) const {
  const GeneratorFunction* g = find_generator(*state_, name);
  if (!g || g->kind != "reduce")
    return Error::make(ErrorKind::invalid_argument, fmt::format("{} has no @cuda.reduce function '{}'", state_->name, name));
  return Reduction(state_, name);
}

std::string Module::kind_of(const std::string& name) const {
  for (const std::string& k : state_->kernels)
    if (k == name) return "kernel";
  for (const std::string& f : state_->host_functions)
    if (f == name) return "function";
  for (const std::string& f : state_->device_functions)
    if (f == name) return "device function";
  const GeneratorFunction* g = find_generator(*state_, name);
  return g ? g->kind : "";
}

std::vector<std::string> Module::names() const {
  std::vector<std::string> names = state_->kernels;
  names.insert(names.end(), state_->host_functions.begin(), state_->host_functions.end());
  names.insert(names.end(), state_->device_functions.begin(), state_->device_functions.end());
  for (const GeneratorFunction& g : state_->generators) names.push_back(g.name);
  return names;
}

}  // namespace pykern

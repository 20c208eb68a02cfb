// Ufunc::reduce and Ufunc::accumulate: NumPy's ufunc.reduce and ufunc.accumulate of a CPU
// @vectorize ufunc of two inputs, as Numba's DUFunc (a NumPy ufunc) runs them when called from
// Python. The loop is the one the ufunc's loops give for (dtype, dtype), chosen without
// compiling a new one, and its output type is the result's; each step along the axis is one
// call of the ufunc on the running slice and the next slice, written into the running slice
// (Ufunc::call with out=), so each element follows NumPy's order of operations.
#include <cstring>

#include <fmt/format.h>

#include "api/module_state.h"
#include "api/ufunc_loops.h"
#include "pykern/ufunc.h"

namespace pykern {

namespace {

using compiler::GeneratorFunction;

const GeneratorFunction* generator_named(const detail::ModuleState& m, const std::string& name) {
  for (const GeneratorFunction& g : m.generators)
    if (g.name == name) return &g;
  return nullptr;
}

// NumPy's name of a dtype's class: <class 'numpy.dtypes.Float64DType'>.
std::string dtype_class(const DType& dtype) {
  std::string name = dtype.name();
  if (name == "bool") return "BoolDType";
  if (name.rfind("uint", 0) == 0) return "UInt" + name.substr(4) + "DType";
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name + "DType";
}

// The checks both methods make, and the loop's output type for arrays of `dtype`.
Result<DType> method_output(const Ufunc& ufunc, detail::ModuleState& m, const std::string& method, const DType& dtype,
                            Backend backend) {
  const GeneratorFunction* g = generator_named(m, ufunc.name());
  if (g->kind != "vectorize" || g->parameters.size() != 2)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("ValueError: {} only supported for binary functions", method));
  if (g->target == "cuda")
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("'{}' is a CUDA ufunc: pykern offers {}() on CPU ufuncs only", g->name, method));
  std::vector<compiler::GeneratorSignature> loops = g->signatures;
  if (loops.empty()) {
    std::lock_guard<std::mutex> lock(m.mutex);
    loops = m.dufunc_loops[g->name];
  }
  std::vector<detail::LoopInputs> inputs;
  for (const compiler::GeneratorSignature& s : loops) {
    detail::LoopInputs types;
    for (const ParameterInfo& p : s.arguments) types.push_back(p.dtype);
    inputs.push_back(types.size() > 2 ? detail::LoopInputs(types.begin(), types.begin() + 2) : types);
  }
  Array none = Array::zeros(dtype, {0});
  if (!detail::choose_cpu_loop(inputs, {none, none}))
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("UFuncTypeError: ufunc '{}' did not contain a loop with signature matching types "
                                   "(None, <class 'numpy.dtypes.{}'>) -> None",
                                   g->name, dtype_class(dtype)));
  // The output type: what the ufunc makes of two empty arrays (no element is computed).
  auto typed = ufunc.call({none, none}, std::nullopt, backend);
  if (!typed.ok()) return typed.error();
  return typed->dtype();
}

// The view of `a` at index i along `axis`: one dimension less.
Array axis_slice(const Array& a, int axis, int64_t i) {
  std::vector<int64_t> shape, strides;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == axis) continue;
    shape.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  auto* data = static_cast<unsigned char*>(a.data()) + i * a.strides()[axis];
  return Array::wrap(data, a.dtype(), shape, strides, a.location());
}

Result<int> checked_axis(int axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("AxisError: axis {} is out of bounds for array of dimension {}", axis, ndim));
  return axis < 0 ? axis + ndim : axis;
}

// A new C array of `shape` and `dtype`, every element `value`.
Array filled(const DType& dtype, const std::vector<int64_t>& shape, const Scalar& value) {
  Array a = Array::zeros(dtype, shape);
  auto* items = static_cast<unsigned char*>(a.data());
  for (int64_t i = 0, n = a.size(); i < n; ++i) value.as(dtype).store(dtype, items + i * dtype.itemsize);
  return a;
}

// Copies `from` (any strides) into `to` (C-contiguous, same shape), converting to to's dtype.
void copy_converted(const Array& from, const Array& to) {
  Array converted = detail::converted_copy(from, to.dtype());
  std::memcpy(to.data(), converted.data(), static_cast<size_t>(converted.size() * to.dtype().itemsize));
}

}  // namespace

Result<Array> Ufunc::reduce(const Array& values, std::optional<int> axis, std::optional<Scalar> initial,
                            Backend backend) const {
  return detail::guarded([&]() -> Result<Array> {
    auto output = method_output(*this, *module_, "reduce", values.dtype(), backend);
    if (!output.ok()) return output.error();
    const std::string identity = generator_named(*module_, name_)->identity;
    Array source = values;
    int along = 0;
    if (!axis) {  // every axis: as one axis of the C-ordered elements, which a reorderable ufunc allows
      if (values.ndim() > 1 && identity.empty())
        return Error::make(ErrorKind::invalid_argument,
                           fmt::format("ValueError: reduction operation '{}' is not reorderable, so at most one axis "
                                       "may be specified",
                                       name_));
      Array flat = values.copy();
      source = Array::wrap(flat.data(), flat.dtype(), {flat.size()}, {}, flat.location());
      source = source.copy();  // owns its elements once `flat` is gone
    } else {
      auto checked = checked_axis(*axis, values.ndim());
      if (!checked.ok()) return checked.error();
      along = *checked;
    }
    std::vector<int64_t> shape;
    for (int d = 0; d < source.ndim(); ++d)
      if (d != along) shape.push_back(source.shape()[d]);
    int64_t extent = source.shape()[along];
    std::optional<Scalar> start = initial;
    if (!start && (identity == "0" || identity == "1")) start = Scalar(static_cast<long long>(identity == "1"));
    Array running;
    int64_t first = 0;
    if (start) {
      running = filled(*output, shape, *start);
    } else {
      if (extent == 0)
        return Error::make(ErrorKind::invalid_argument,
                           fmt::format("ValueError: zero-size array to reduction operation {} which has no identity", name_));
      running = Array::zeros(*output, shape);
      copy_converted(axis_slice(source, along, 0), running);
      first = 1;
    }
    for (int64_t i = first; i < extent; ++i) {
      auto step = call({running, axis_slice(source, along, i)}, running, backend);
      if (!step.ok()) return step.error();
    }
    return running;
  });
}

Result<Array> Ufunc::accumulate(const Array& values, int axis, Backend backend) const {
  return detail::guarded([&]() -> Result<Array> {
    auto output = method_output(*this, *module_, "accumulate", values.dtype(), backend);
    if (!output.ok()) return output.error();
    auto along = checked_axis(axis, values.ndim());
    if (!along.ok()) return along.error();
    // The steps run on a C array with the axis first, so each running slice is one block.
    std::vector<int64_t> moved_shape = {values.shape()[*along]};
    for (int d = 0; d < values.ndim(); ++d)
      if (d != *along) moved_shape.push_back(values.shape()[d]);
    Array moved = Array::zeros(*output, moved_shape);
    int64_t extent = moved_shape[0];
    if (extent > 0) copy_converted(axis_slice(values, *along, 0), axis_slice(moved, 0, 0));
    for (int64_t i = 1; i < extent; ++i) {
      auto step = call({axis_slice(moved, 0, i - 1), axis_slice(values, *along, i)}, axis_slice(moved, 0, i), backend);
      if (!step.ok()) return step.error();
    }
    if (*along == 0) return moved;
    // Back to the array's axis order, as a new C array.
    std::vector<int64_t> shape = values.shape(), strides(values.ndim());
    for (int d = 0, k = 1; d < values.ndim(); ++d) strides[d] = d == *along ? moved.strides()[0] : moved.strides()[k++];
    return Array::wrap(moved.data(), moved.dtype(), shape, strides, moved.location()).copy();
  });
}

}  // namespace pykern

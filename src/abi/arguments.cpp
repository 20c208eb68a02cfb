#include "abi/arguments.h"

#include <cstring>

#include <fmt/format.h>

namespace pykern::detail {

namespace {

// Why a kernel cannot take bfloat16 yet: sema has no bfloat16 type (numba.cuda.bf16's).
const char* const no_bfloat16 =
    "kernels do not take bfloat16 yet (pykern has no bfloat16 type: numba.cuda.bf16's intrinsics and arithmetic are "
    "not translated); convert the array to float32 first";

// A record in the signature language sema reads: Record(SIZE, ('name', TYPE, OFFSET[, (SHAPE)]), ...).
Result<std::string> dtype_text(const DType& dtype) {
  if (dtype.kind == ScalarKind::bfloat) return Error::make(ErrorKind::invalid_argument, std::string("bfloat16: ") + no_bfloat16);
  if (dtype.kind != ScalarKind::record) return dtype.name();
  if (dtype == DType::xoroshiro128p()) return std::string("xoroshiro128p_type");
  if (!dtype.naturally_aligned())
    return Error::make(ErrorKind::invalid_argument,
                       "record dtype " + dtype.descr() +
                           " is packed: a field is not at a multiple of its alignment, or the size not at a multiple "
                           "of the largest; kernels take records laid out as C structs (np.dtype([...], align=True))");
  std::string text = fmt::format("Record({}", dtype.itemsize);
  for (const DTypeField& f : dtype.fields) {
    auto type = dtype_text(f.type[0]);
    if (!type.ok()) return type.error();
    std::string shape;
    for (int64_t extent : f.shape) shape += fmt::format("{}, ", extent);
    // The name is a Python string literal: quotes and backslashes escaped, control characters
    // (NumPy allows any name) written \xhh; other bytes are the name's own UTF-8.
    std::string name;
    for (char c : f.name) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        name += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        continue;
      }
      if (c == '\\' || c == '\'') name += '\\';
      name += c;
    }
    text += fmt::format(", ('{}', {}, {}{})", name, *type, f.offset, shape.empty() ? "" : ", (" + shape + ")");
  }
  return text + ")";
}

std::string describe(const Argument& a) {
  if (const Array* array = std::get_if<Array>(&a))
    return fmt::format("a {}-d array of {}", array->ndim(), array->dtype().name());
  return fmt::format("a {} scalar", std::get<Scalar>(a).type.name());
}

std::string describe(const ParameterInfo& p) {
  if (!p.is_array) return fmt::format("a {} scalar", p.dtype.name());
  std::string layout = p.layout == 'C' ? ", C-contiguous" : p.layout == 'F' ? ", Fortran-contiguous" : "";
  return fmt::format("a {}-d array of {}{}", p.ndim, p.dtype.name(), layout);
}

bool layout_ok(const ParameterInfo& p, const Array& a) {
  return p.layout == 'A' || (p.layout == 'C' && a.is_c_contiguous()) || (p.layout == 'F' && a.is_f_contiguous());
}

bool accepts_one(const ParameterInfo& p, const Argument& a) {
  if (p.is_array) {
    const Array* array = std::get_if<Array>(&a);
    return array && array->dtype() == p.dtype && array->ndim() == p.ndim && layout_ok(p, *array);
  }
  const Scalar* scalar = std::get_if<Scalar>(&a);
  if (!scalar) return false;
  // A record is passed by value as exactly the record the kernel was specialised for; numbers
  // convert to the parameter's type as Numba's do.
  bool record = scalar->type.kind == ScalarKind::record, wanted = p.dtype.kind == ScalarKind::record;
  return record == wanted &&
         (!record || (scalar->type == p.dtype && scalar->record_bytes.size() == static_cast<size_t>(p.dtype.itemsize)));
}

}  // namespace

Result<std::string> signature_type(const Argument& argument) {
  if (const Scalar* scalar = std::get_if<Scalar>(&argument)) return dtype_text(scalar->type);
  const Array& array = std::get<Array>(argument);
  auto dtype = dtype_text(array.dtype());
  if (!dtype.ok()) return dtype.error();
  // A 0-d array has no slice syntax: Numba's Array(dtype, 0, 'C') (a @jit function's argument).
  if (array.ndim() == 0) return "Array(" + *dtype + ", 0, 'C')";
  // Numba's layout: C when C-contiguous, else F when Fortran-contiguous, else any.
  bool c = array.is_c_contiguous(), f = !c && array.is_f_contiguous();
  std::string axes;
  for (int i = 0; i < array.ndim(); ++i) {
    bool unit = (c && i == array.ndim() - 1) || (f && i == 0);
    axes += (i ? ", " : "") + std::string(unit ? "::1" : ":");
  }
  return *dtype + "[" + axes + "]";
}

Result<std::string> signature_for(const std::vector<Argument>& args) {
  std::string text = "void(";
  for (size_t i = 0; i < args.size(); ++i) {
    const Array* array = std::get_if<Array>(&args[i]);
    if (array && array->ndim() == 0)
      return Error::make(ErrorKind::invalid_argument, "0-d arrays cannot be passed to kernels; pass a scalar");
    auto type = signature_type(args[i]);
    if (!type.ok()) return Error::make(ErrorKind::invalid_argument, fmt::format("argument {}: {}", i + 1, type.error().message));
    text += (i ? ", " : "") + *type;
  }
  return text + ")";
}

std::string numba_type_name(const Argument& argument) {
  if (const Scalar* scalar = std::get_if<Scalar>(&argument)) return scalar->type.name();
  const Array& array = std::get<Array>(argument);
  const char* layout = array.is_c_contiguous() ? "C" : array.is_f_contiguous() ? "F" : "A";
  return fmt::format("array({}, {}d, {})", array.dtype().name(), array.ndim(), layout);
}

bool accepts(const CompiledKernel& kernel, const std::vector<Argument>& args) {
  if (kernel.parameters.size() != args.size()) return false;
  for (size_t i = 0; i < args.size(); ++i)
    if (!accepts_one(kernel.parameters[i], args[i])) return false;
  return true;
}

namespace {
// Numba's layout of an array argument: C, else F, else A.
char layout_of(const Array& a) { return a.is_c_contiguous() ? 'C' : a.is_f_contiguous() ? 'F' : 'A'; }
}  // namespace

ArgumentType type_of(const Argument& argument) {
  if (const Array* a = std::get_if<Array>(&argument)) return {true, a->dtype(), a->ndim(), layout_of(*a)};
  return {false, std::get<Scalar>(argument).type, 0, 'A'};
}

bool have_types(const std::vector<Argument>& args, const std::vector<ArgumentType>& types) {
  if (args.size() != types.size()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgumentType& t = types[i];
    if (const Array* a = std::get_if<Array>(&args[i])) {
      if (!t.is_array || a->dtype() != t.dtype || a->ndim() != t.ndim || layout_of(*a) != t.layout) return false;
    } else if (t.is_array || std::get<Scalar>(args[i]).type != t.dtype) {
      return false;
    }
  }
  return true;
}

bool matches_exactly(const CompiledKernel& kernel, const std::vector<Argument>& args) {
  if (kernel.parameters.size() != args.size()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    const ParameterInfo& p = kernel.parameters[i];
    if (const Array* a = std::get_if<Array>(&args[i])) {
      if (!p.is_array || a->dtype() != p.dtype || a->ndim() != p.ndim || layout_of(*a) != p.layout) return false;
    } else if (p.is_array || std::get<Scalar>(args[i]).type != p.dtype) {
      return false;
    }
  }
  return true;
}

Error arity_error(const std::string& kernel, const std::vector<std::string>& parameters, size_t given) {
  std::string names;
  for (const std::string& p : parameters) names += (names.empty() ? "" : ", ") + p;
  return Error::make(ErrorKind::invalid_argument,
                     fmt::format("kernel '{}' takes {} argument{} ({}), {} given", kernel, parameters.size(),
                                 parameters.size() == 1 ? "" : "s", names, given));
}

Status check_array_data(const std::string& kernel, const std::vector<std::string>& parameters,
                        const std::vector<Argument>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const Array* array = std::get_if<Array>(&args[i]);
    if (!array) continue;
    auto refuse = [&](const std::string& why) {
      return Error::make(ErrorKind::invalid_argument, fmt::format("kernel '{}': parameter '{}' (argument {}) {}", kernel,
                                                                  i < parameters.size() ? parameters[i] : "?", i + 1, why));
    };
    if (!*array) return refuse(fmt::format("is an array of {} elements whose data pointer is null", array->size()));
    // Numba types a non-writeable array readonly and refuses writes to it when it compiles;
    // pykern's launch signatures have no read-only array type yet, and a silent copy would
    // drop what the kernel writes, so the caller chooses: a copy, or a writable tensor.
    if (array->read_only())
      return refuse("is a read-only array (a DLPack tensor flagged read-only), and a kernel may write its array "
                    "arguments: pass a writable copy (Array::copy() on the host; device_array_like and copy_to_device on a GPU)");
    if (array->dtype().kind == ScalarKind::bfloat) return refuse(std::string("is an array of bfloat16: ") + no_bfloat16);
  }
  return ok_status();
}

namespace {
// A parameter's C++ type in the emitted kernel: an array is pk::Array {T* data; i64 shape[N];
// i64 strides[N]}; a scalar is its dtype's type (bool, pk::f16, pk::complex<T>, a record's
// struct), of the dtype's size and NumPy's aligned alignment.
ParameterPlace type_of_parameter(const ParameterInfo& p) {
  if (p.is_array) return {0, 8 + 16 * static_cast<size_t>(p.ndim), 8};
  return {0, static_cast<size_t>(p.dtype.itemsize), static_cast<size_t>(std::max<int64_t>(p.dtype.alignment(), 1))};
}

// The launcher's buffer for a parameter: at least 8 bytes (a scalar is stored zero-extended).
size_t parameter_bytes(const ParameterInfo& p) { return std::max<size_t>(type_of_parameter(p).size, 8); }
}  // namespace

std::vector<ParameterPlace> parameter_bank_layout(const CompiledKernel& kernel) {
  std::vector<ParameterPlace> places;
  size_t end = 0;
  for (const ParameterInfo& p : kernel.parameters) {
    ParameterPlace place = type_of_parameter(p);
    place.offset = (end + place.alignment - 1) / place.alignment * place.alignment;
    end = place.offset + place.size;
    places.push_back(place);
  }
  return places;
}

size_t parameter_bank_bytes(const CompiledKernel& kernel) {
  auto places = parameter_bank_layout(kernel);
  return places.empty() ? 0 : places.back().offset + places.back().size;
}

void layout_arguments(const CompiledKernel& kernel, PackedArguments& packed) {
  packed.offsets.clear();
  size_t total = 0;
  for (const ParameterInfo& p : kernel.parameters) {
    packed.offsets.push_back(total);
    total += (parameter_bytes(p) + 15) & ~size_t(15);  // 16-byte aligned: complex128 scalars need it
  }
  packed.bytes.resize(total);
  packed.pointers.clear();
  for (size_t offset : packed.offsets) packed.pointers.push_back(packed.bytes.data() + offset);
}

Status pack_argument(const CompiledKernel& kernel, size_t i, const Argument& arg, Location where,
                     PackedArguments& packed) {
  const ParameterInfo& p = kernel.parameters[i];
  auto refuse = [&](const std::string& why) {
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("kernel '{}': parameter '{}' (argument {}) takes {}, not {}{}", kernel.function,
                                   p.name, i + 1, describe(p), describe(arg), why));
  };
  unsigned char* bytes = packed.bytes.data() + packed.offsets[i];
  if (p.is_array) {
    const Array* array = std::get_if<Array>(&arg);
    if (!array || !accepts_one(p, arg)) return refuse("");
    if (!*array) return refuse(" (its data pointer is null)");  // Kernel::launch refuses it sooner
    if (array->location() != where && array->location() != Location::unified)  // unified: both address it
      return refuse(where == Location::host ? " (it lives on the device; the CPU simulator needs host memory)"
                                            : " (it lives in host memory)");
    void* data = array->data();
    std::memcpy(bytes, &data, 8);
    if (p.ndim > 0) {  // a 0-d array has no shape or strides (and an empty vector's data() may be null)
      std::memcpy(bytes + 8, array->shape().data(), 8 * static_cast<size_t>(p.ndim));
      std::memcpy(bytes + 8 + 8 * p.ndim, array->strides().data(), 8 * static_cast<size_t>(p.ndim));
    }
  } else {
    const Scalar* scalar = std::get_if<Scalar>(&arg);
    if (!scalar || !accepts_one(p, arg)) return refuse("");
    std::memset(bytes, 0, parameter_bytes(p));
    scalar->store(p.dtype, bytes);
  }
  return ok_status();
}

void pack_element_view(const CompiledKernel& kernel, size_t i, void* data, PackedArguments& packed) {
  unsigned char* bytes = packed.bytes.data() + packed.offsets[i];
  int64_t shape = 1, stride = kernel.parameters[i].dtype.itemsize;
  std::memcpy(bytes, &data, 8);
  std::memcpy(bytes + 8, &shape, 8);
  std::memcpy(bytes + 16, &stride, 8);
}

Status pack_arguments(const CompiledKernel& kernel, const std::vector<Argument>& args, Location where,
                      PackedArguments& packed) {
  if (args.size() != kernel.parameters.size()) {
    std::vector<std::string> names;
    for (const ParameterInfo& p : kernel.parameters) names.push_back(p.name);
    return arity_error(kernel.function, names, args.size());
  }
  layout_arguments(kernel, packed);
  for (size_t i = 0; i < args.size(); ++i)
    if (auto packing = pack_argument(kernel, i, args[i], where, packed); !packing.ok()) return packing;
  return ok_status();
}

}  // namespace pykern::detail

// Arrays to and from DLPack: views (DLTensor) and tensors lent with their owner's deleter
// (DLManagedTensorVersioned, and the legacy DLManagedTensor).
#include "pykern/array.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include <fmt/format.h>

namespace pykern {

// The 1.0 ABI, whichever header declared it: the fields up to flags never move.
static_assert(offsetof(DLManagedTensorVersioned, version) == 0);
static_assert(offsetof(DLManagedTensorVersioned, manager_ctx) == 8);
static_assert(offsetof(DLManagedTensorVersioned, deleter) == 16);
static_assert(offsetof(DLManagedTensorVersioned, flags) == 24);
static_assert(offsetof(DLManagedTensorVersioned, dl_tensor) == 32);

namespace {

Error refuse(const std::string& why) { return Error::make(ErrorKind::invalid_argument, "DLPack tensor: " + why); }

// DLPack before 0.8 has no bool code: a DLTensor made against such a header says 8-bit
// unsigned, which its consumers know. A versioned tensor's consumer knows kDLBool.
#if defined(DLPACK_MAJOR_VERSION) || DLPACK_VERSION >= 80
constexpr bool header_has_bool = true;
#else
constexpr bool header_has_bool = false;
#endif

// The DLPack type code of a dtype; nullopt for a record (DLPack has no structured types).
std::optional<uint8_t> type_code(const DType& dtype, bool bool_code) {
  switch (dtype.kind) {
    case ScalarKind::boolean: return bool_code ? dlpack_bool_code : uint8_t(kDLUInt);
    case ScalarKind::int_: return uint8_t(kDLInt);
    case ScalarKind::uint: return uint8_t(kDLUInt);
    case ScalarKind::float_: return uint8_t(kDLFloat);
    case ScalarKind::bfloat: return dlpack_bfloat_code;
    case ScalarKind::complex: return uint8_t(kDLComplex);
    case ScalarKind::record: break;
  }
  return std::nullopt;
}

// The dtype of a DLPack element type, or why pykern has none for it.
Result<DType> dtype_of(DLDataType type) {
  if (type.lanes != 1) return refuse(fmt::format("vector elements of {} lanes are not supported", type.lanes));
  int bits = type.bits;
  auto unsupported = [&](const char* what) -> Result<DType> {
    return refuse(fmt::format("{}-bit {} elements (type code {}) are not supported; pykern takes bool, int8 to int64, "
                              "uint8 to uint64, float16, float32, float64, bfloat16, complex64 and complex128",
                              bits, what, int(type.code)));
  };
  bool whole_bytes = bits == 8 || bits == 16 || bits == 32 || bits == 64;
  switch (type.code) {
    case kDLInt:
      if (whole_bytes) return DType::int_(bits);
      return unsupported("integer");
    case kDLUInt:
      if (bits == 1) return DType::boolean();  // how NumPy and others sent bools before kDLBool
      if (whole_bytes) return DType::uint(bits);
      return unsupported("unsigned integer");
    case kDLFloat:
      if (bits == 16 || bits == 32 || bits == 64) return DType::float_(bits);
      return unsupported("float");
    case kDLComplex:
      if (bits == 64 || bits == 128) return DType::complex(bits);
      return unsupported("complex");
    case kDLOpaqueHandle: return unsupported("opaque handle");
    default: break;
  }
  if (type.code == dlpack_bool_code) return bits == 8 ? Result<DType>(DType::boolean()) : unsupported("bool");
  if (type.code == dlpack_bfloat_code) return bits == 16 ? Result<DType>(DType::bfloat16()) : unsupported("bfloat");
  if (type.code >= 7 && type.code <= 14) return unsupported("float8");
  if (type.code >= 15 && type.code <= 17) return unsupported("float6 or float4");
  return unsupported("unknown");
}

// DLPack's name for where an array is: managed memory for unified memory (mapped host memory
// included: a consumer may read both from the host and from the GPU).
DLDevice dlpack_device(const Array& a) {
  switch (a.location()) {
    case Location::host: return {kDLCPU, 0};
    case Location::device: return {kDLCUDA, a.device_id()};
    case Location::unified: return {kDLCUDAManaged, a.device_id()};
  }
  return {kDLCPU, 0};
}

// Where the memory is: host (CPU, pinned host), a GPU (CUDA) or both (managed), and which GPU.
Result<std::pair<Location, int>> location_of(DLDevice device) {
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDAHost: return std::pair{Location::host, 0};
    case kDLCUDA:
    case kDLCUDAManaged:
      if (device.device_id < 0) return refuse(fmt::format("CUDA device id {}", device.device_id));
      return std::pair{device.device_type == kDLCUDA ? Location::device : Location::unified, device.device_id};
    default:
      return refuse(fmt::format("device type {} is not supported; pykern takes CPU ({}), CUDA ({}), CUDA host ({}) "
                                "and CUDA managed ({}) memory",
                                int(device.device_type), int(kDLCPU), int(kDLCUDA), int(kDLCUDAHost),
                                int(kDLCUDAManaged)));
  }
}

// The ways an export can fail, checked before anything is allocated.
Status exportable(const Array& a) {
  if (a.dtype().kind == ScalarKind::record)
    return Error::make(ErrorKind::invalid_argument,
                       "DLPack has no record dtypes: cannot export an array of " + a.dtype().name());
  for (int64_t stride : a.strides())
    if (stride % a.dtype().itemsize != 0)
      return Error::make(ErrorKind::invalid_argument,
                         fmt::format("DLPack counts strides in elements: a byte stride of {} is not a whole number of "
                                     "{}-byte elements", stride, a.dtype().itemsize));
  return ok_status();
}

// A managed tensor pykern made: its manager_ctx, holding the array (and so its storage) and
// the shape and strides the tensor points at.
template <class Managed> struct Exported {
  Managed managed{};
  Array array;
  std::vector<int64_t> shape, strides;

  static void release(Managed* self) { delete static_cast<Exported*>(self->manager_ctx); }

  static Managed* make(const Array& a, bool bool_code) {
    auto e = std::make_unique<Exported>();
    e->array = a;
    e->shape = a.shape();
    for (int64_t stride : a.strides()) e->strides.push_back(stride / a.dtype().itemsize);
    DLTensor& t = e->managed.dl_tensor;
    t.data = a.size() == 0 ? nullptr : a.data();  // as DLPack asks of a tensor with no elements
    t.device = dlpack_device(a);
    t.ndim = a.ndim();
    t.dtype = {*type_code(a.dtype(), bool_code), static_cast<uint8_t>(a.dtype().itemsize * 8), 1};
    t.shape = e->shape.data();
    t.strides = e->strides.data();
    t.byte_offset = 0;
    e->managed.manager_ctx = e.get();
    e->managed.deleter = &Exported::release;
    return &e.release()->managed;
  }
};

// The owner of an imported tensor, shared by the Array and its views: the last to go calls
// the tensor's deleter. `release` knows the tensor's struct (versioned or legacy).
struct ImportedTensor {
  void* tensor = nullptr;
  void (*release)(void* tensor) = nullptr;
  ImportedTensor() = default;
  ImportedTensor(const ImportedTensor&) = delete;
  ImportedTensor& operator=(const ImportedTensor&) = delete;
  ~ImportedTensor() {
    if (tensor) release(tensor);
  }
};

template <class Managed> void call_deleter(void* tensor) {
  auto* managed = static_cast<Managed*>(tensor);
  if (managed->deleter) managed->deleter(managed);
}

}  // namespace

DLTensor Array::to_dlpack() const {
  DLTensor t{};
  t.data = data_;
  t.device = dlpack_device(*this);
  t.ndim = ndim();
  static_assert(sizeof(int64_t) == sizeof(*t.shape));
  t.shape = const_cast<int64_t*>(reinterpret_cast<const int64_t*>(shape_.data()));
  // DLPack strides count elements; this array keeps them alive for the tensor.
  dlpack_strides_.clear();
  for (int64_t s : strides_) dlpack_strides_.push_back(s / dtype_.itemsize);
  t.strides = dlpack_strides_.data();
  t.dtype = {type_code(dtype_, header_has_bool).value_or(uint8_t(kDLOpaqueHandle)),
             static_cast<uint8_t>(dtype_.itemsize * 8), 1};
  t.byte_offset = 0;
  return t;
}

Result<Array> Array::from_dlpack(const DLTensor& t) {
  if (t.ndim < 0 || t.ndim > 32) return refuse(fmt::format("{} dimensions (0 to 32)", t.ndim));
  if (t.ndim > 0 && t.shape == nullptr) return refuse("no shape");
  for (int i = 0; i < t.ndim; ++i)
    if (t.shape[i] < 0) return refuse(fmt::format("dimension {} is {}", i, t.shape[i]));
  auto dtype = dtype_of(t.dtype);
  if (!dtype.ok()) return dtype.error();
  auto where = location_of(t.device);
  if (!where.ok()) return where.error();
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
  std::vector<int64_t> strides;  // empty: C-contiguous, as null strides mean
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) {
      int64_t limit = INT64_MAX / dtype->itemsize;
      if (t.strides[i] > limit || t.strides[i] < -limit)
        return refuse(fmt::format("stride {} of axis {} does not fit in 64 bits as bytes", t.strides[i], i));
      strides.push_back(t.strides[i] * dtype->itemsize);
    }
  }
  // Added as an address, not as pointer arithmetic on memory pykern cannot see.
  void* data = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(t.data) + t.byte_offset);
  Array a;
  try {
    a = wrap(data, *dtype, std::move(shape), std::move(strides), where->first);
  } catch (const std::invalid_argument& e) {  // a shape spanning more than 2**63 bytes
    return refuse(e.what());
  }
  a.device_id_ = where->second;
  return a;
}

Result<Array> Array::adopt_dlpack(const DLTensor& t, void* tensor, void (*release)(void*), bool read_only) {
  std::shared_ptr<ImportedTensor> owner;
  Result<Array> view = Array();
  try {
    view = from_dlpack(t);
    if (!view.ok()) return view.error();
    owner = std::make_shared<ImportedTensor>();
  } catch (const std::bad_alloc&) {
    return refuse("not enough memory to take it");
  }
  // Nothing can fail past here: the tensor is pykern's from this line on.
  owner->tensor = tensor;
  owner->release = release;
  Array a = std::move(*view);
  a.owner_ = std::move(owner);
  a.read_only_ = read_only;
  return a;
}

Result<Array> Array::from_dlpack(DLManagedTensorVersioned* tensor) {
  if (tensor == nullptr) return refuse("a null DLManagedTensorVersioned");
  if (tensor->version.major != dlpack_major_version)
    return refuse(fmt::format("DLPack version {}.{}, and pykern reads version {}.x (it implements {}.{}); pykern has "
                              "not taken the tensor: its deleter is still the caller's to call",
                              tensor->version.major, tensor->version.minor, dlpack_major_version, dlpack_major_version,
                              dlpack_minor_version));
  bool read_only = (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  return adopt_dlpack(tensor->dl_tensor, tensor, &call_deleter<DLManagedTensorVersioned>, read_only);
}

Result<Array> Array::from_dlpack(DLManagedTensor* tensor) {
  if (tensor == nullptr) return refuse("a null DLManagedTensor");
  return adopt_dlpack(tensor->dl_tensor, tensor, &call_deleter<DLManagedTensor>, false);
}

Result<DLManagedTensorVersioned*> Array::to_dlpack_versioned() const {
  if (auto s = exportable(*this); !s.ok()) return s.error();
  DLManagedTensorVersioned* managed = Exported<DLManagedTensorVersioned>::make(*this, true);
  managed->version = {dlpack_major_version, dlpack_minor_version};
  managed->flags = read_only_ ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  return managed;
}

Result<DLManagedTensor*> Array::to_dlpack_legacy() const {
  if (auto s = exportable(*this); !s.ok()) return s.error();
  if (read_only_)
    return Error::make(ErrorKind::invalid_argument, "a read-only array cannot be exported as a legacy DLManagedTensor, "
                                                    "which has no read-only flag: use to_dlpack_versioned()");
  return Exported<DLManagedTensor>::make(*this, header_has_bool);
}

}  // namespace pykern

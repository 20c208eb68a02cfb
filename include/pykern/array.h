// A NumPy-style array: a data pointer, a dtype, a shape and byte strides, and where the bytes
// live. Copies are cheap views sharing the same storage; slicing and transposing make views
// without copying, as NumPy does.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "pykern/dlpack.h"
#include "pykern/dtype.h"
#include "pykern/result.h"

namespace pykern {

// Where an array's bytes are. `unified`: memory the host and the GPU both address with the same
// pointer (managed memory, mapped host memory): a launch hands it to the kernel as it is, and
// the host reads and writes it directly (once the GPU's work on it is done).
enum class Location { host, device, unified };
enum class Order { C, F };

// Python's slice: start:stop:step, with nullopt for an omitted part.
struct Slice {
  std::optional<int64_t> start, stop, step;
};

class Array {
  // char, unsigned char, std::byte: raw memory, not an element type.
  template <class T> struct is_byte
      : std::bool_constant<std::is_same_v<std::remove_cv_t<T>, char> || std::is_same_v<std::remove_cv_t<T>, unsigned char> ||
                           std::is_same_v<std::remove_cv_t<T>, std::byte>> {};

 public:
  Array() = default;
  // A new array owning zeroed storage. Throws std::bad_alloc when the memory cannot be had (or
  // the byte count overflows) and std::invalid_argument for a negative dimension, as
  // std::vector would; pykern's own readers (load_npy) turn these into errors.
  static Array zeros(DType dtype, std::vector<int64_t> shape, Order order = Order::C);
  // A view of memory someone else owns (host or device), with byte strides; empty strides
  // mean C-contiguous. Throws std::invalid_argument for a negative dimension, strides that are
  // not one per dimension, or a shape spanning more than 2**63 bytes.
  static Array wrap(void* data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
                    Location location = Location::host);
  // The same, the dtype that of T (float: float32, int64_t: int64, std::complex<double>: ...).
  template <class T, class = std::enable_if_t<!std::is_void_v<T> && !is_byte<T>::value>>
  static Array wrap(T* data, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
                    Location location = Location::host) {
    return wrap(static_cast<void*>(data), DType::of<T>(), std::move(shape), std::move(strides), location);
  }
  // A typed pointer with a dtype: the two must agree (std::invalid_argument otherwise), so a
  // float* cannot be read as float64. Byte pointers (char, unsigned char, std::byte) are raw
  // memory, as void* is.
  template <class T, class = std::enable_if_t<!std::is_void_v<T> && !is_byte<T>::value>>
  static Array wrap(T* data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
                    Location location = Location::host) {
    if (!element_type_matches<T>(dtype)) throw std::invalid_argument(type_mismatch(dtype, sizeof(T), "Array::wrap"));
    return wrap(static_cast<void*>(data), std::move(dtype), std::move(shape), std::move(strides), location);
  }
  // A view of memory kept alive by `owner` (the allocation the memory belongs to); views of
  // the result share the owner. `device_id` is the GPU's ordinal for device memory.
  static Array adopt(std::shared_ptr<void> owner, void* data, DType dtype, std::vector<int64_t> shape,
                     std::vector<int64_t> strides, Location location, int device_id = 0);
  // A new array holding `values` (1-d unless `shape` is given). Throws std::invalid_argument
  // when the shape does not hold exactly values.size() elements.
  template <class T>
  static Array from(const std::vector<T>& values, std::vector<int64_t> shape = {});

  void* data() const { return data_; }
  const DType& dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }  // bytes
  Location location() const { return location_; }
  // The GPU (its ordinal) that device memory belongs to; 0 for host memory.
  int device_id() const { return device_id_; }
  // Memory its owner lent not to be written (a DLPack tensor flagged read-only), and every view
  // of it: Array::at<T> gives it as const T only, copies into it are refused, and so are
  // launches (a kernel may write its array arguments).
  bool read_only() const { return read_only_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const;
  int64_t nbytes() const { return size() * dtype_.itemsize; }
  bool is_c_contiguous() const;
  bool is_f_contiguous() const;
  explicit operator bool() const { return data_ != nullptr || size() == 0; }

  // Where the array came from, in a few words ("x.npy", "column 'price'"), or "": messages
  // about it name it ("a: array(float32, 1d, C) from x.npy"). load_npy sets the file's path;
  // views and copies of the Array keep it.
  Array with_label(std::string label) const;
  const std::string& label() const;

  // Views, as NumPy makes them.
  Array transpose() const;
  Result<Array> slice(int axis, Slice slice) const;
  Result<Array> index(int axis, int64_t i) const;  // drops the axis
  // A C-contiguous copy (host arrays).
  Array copy(Order order = Order::C) const;

  // Element access for host arrays, checked as std::vector::at checks: T must be the dtype's
  // C++ type (pykern::bfloat16 for bfloat16; a record's or another dtype's: a type of its
  // itemsize), else std::invalid_argument; one index per axis, each within the shape, else
  // std::out_of_range. A read-only array is read as at<const T> (std::invalid_argument else).
  template <class T, class... I> T& at(I... index) const {
    const int64_t indices[] = {0, static_cast<int64_t>(index)...};  // the leading 0 lets a 0-d array be read
    if (!element_type_matches<T>(dtype_)) throw std::invalid_argument(type_mismatch(dtype_, sizeof(T), "Array::at"));
    if (read_only_ && !std::is_const_v<T>) throw std::invalid_argument(read_only_access());
    std::byte* p = checked_element(indices + 1, sizeof...(I));
    return *reinterpret_cast<T*>(p);
  }
  // The byte address of an element given all indices.
  std::byte* element(const std::vector<int64_t>& index) const;

  // DLPack (include/pykern/dlpack.h; DLPack 1.0's ABI even where the installed header is older).
  //
  // Views without ownership: a DLTensor viewing this array (valid while the array lives), and
  // an Array viewing a DLTensor's memory (valid while its owner keeps it).
  DLTensor to_dlpack() const;
  static Result<Array> from_dlpack(const DLTensor& tensor);
  //
  // Export with ownership: a managed tensor that keeps this array's storage alive until the
  // consumer calls its deleter (exactly once; the deleter frees the tensor too). Version 1.x,
  // strides in elements, kDLCPU or kDLCUDA with device_id(), the read-only flag when
  // read_only(), byte_offset 0 (data points at the first element; null when there are none).
  // An error when DLPack cannot describe the array: a record dtype, or a byte stride that is
  // not a whole number of elements. Throws std::bad_alloc when memory runs out. An array made
  // by wrap() owns nothing: its tensor is valid while that memory is.
  Result<DLManagedTensorVersioned*> to_dlpack_versioned() const;
  // The pre-1.0 struct, which has no version and no flags: a read-only array is refused.
  Result<DLManagedTensor*> to_dlpack_legacy() const;
  //
  // Import with ownership: on success the Array (and every view made from it) owns `tensor`,
  // and the last of them to go calls its deleter, once (a null deleter is never called). On
  // an error pykern has not taken the tensor, nor called its deleter: the caller still owns
  // it and calls the deleter itself, as a Python consumer leaves a capsule it cannot use to
  // its producer. Refused: a null tensor, a major version other than 1 (then nothing past
  // the flags is read: DLPack only keeps the fields up to them in place across majors),
  // vector lanes, dtypes pykern has no type for (float8, bfloat16 of other than 16 bits,
  // opaque handles), devices other than CPU (and pinned host) or CUDA (and managed), shapes
  // and strides that do not fit. Null strides mean C-contiguous; byte_offset is added to
  // data. A tensor flagged read-only gives a read_only() Array.
  static Result<Array> from_dlpack(DLManagedTensorVersioned* tensor);
  static Result<Array> from_dlpack(DLManagedTensor* tensor);  // legacy: always writable

 private:
  // Whether T can stand for an element of `dtype`: its dtype for numbers; its size otherwise.
  template <class T> static bool element_type_matches(const DType& dtype) {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_arithmetic_v<U> || is_complex<U>::value || std::is_same_v<U, bfloat16>)
      return dtype == DType::of<U>();
    else return sizeof(U) == static_cast<size_t>(dtype.itemsize);
  }
  static std::string type_mismatch(const DType& dtype, size_t type_size, const char* where);
  static std::string read_only_access();
  // An imported managed tensor's Array: `t` checked and viewed, then `tensor` owned (the last
  // view calls release(tensor)) once nothing can fail any more.
  static Result<Array> adopt_dlpack(const DLTensor& t, void* tensor, void (*release)(void*), bool read_only);
  std::byte* checked_element(const int64_t* indices, size_t count) const;

  std::shared_ptr<void> owner_;
  void* data_ = nullptr;
  DType dtype_;
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
  Location location_ = Location::host;
  int device_id_ = 0;
  bool read_only_ = false;
  mutable std::vector<int64_t> dlpack_strides_;  // element strides handed out by to_dlpack
  std::shared_ptr<const std::string> label_;     // shared: copying an unlabelled view costs nothing
};

template <class T>
Array Array::from(const std::vector<T>& values, std::vector<int64_t> shape) {
  if (shape.empty()) shape = {static_cast<int64_t>(values.size())};
  Array a = zeros(DType::of<T>(), shape);
  if (a.size() != static_cast<int64_t>(values.size()))
    throw std::invalid_argument("Array::from: the shape does not hold the values given");
  std::copy(values.begin(), values.end(), static_cast<T*>(a.data()));
  return a;
}

// Copies `from`'s elements into `to` (host arrays of the same dtype and shape, any strides;
// `to` not read-only).
Status copy_elements(const Array& from, const Array& to);

// A shape as NumPy prints it: "(3,)", "(2, 4)".
std::string shape_text(const std::vector<int64_t>& shape);

// C-contiguous byte strides for a shape.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape, int64_t itemsize, Order order);

}  // namespace pykern

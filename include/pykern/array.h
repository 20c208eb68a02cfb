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
#include <vector>

#include <dlpack/dlpack.h>

#include "pykern/dtype.h"
#include "pykern/result.h"

namespace pykern {

enum class Location { host, device };
enum class Order { C, F };

// Python's slice: start:stop:step, with nullopt for an omitted part.
struct Slice {
  std::optional<int64_t> start, stop, step;
};

class Array {
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
  // A view of memory kept alive by `owner` (the allocation the memory belongs to); views of
  // the result share the owner.
  static Array adopt(std::shared_ptr<void> owner, void* data, DType dtype, std::vector<int64_t> shape,
                     std::vector<int64_t> strides, Location location);
  // A new array holding `values` (1-d unless `shape` is given). Throws std::invalid_argument
  // when the shape does not hold exactly values.size() elements.
  template <class T>
  static Array from(const std::vector<T>& values, std::vector<int64_t> shape = {});

  void* data() const { return data_; }
  const DType& dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }  // bytes
  Location location() const { return location_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const;
  int64_t nbytes() const { return size() * dtype_.itemsize; }
  bool is_c_contiguous() const;
  bool is_f_contiguous() const;
  explicit operator bool() const { return data_ != nullptr || size() == 0; }

  // Views, as NumPy makes them.
  Array transpose() const;
  Result<Array> slice(int axis, Slice slice) const;
  Result<Array> index(int axis, int64_t i) const;  // drops the axis
  // A C-contiguous copy (host arrays).
  Array copy(Order order = Order::C) const;

  // Element access for host arrays (no checks beyond the debug assert).
  template <class T, class... I> T& at(I... index) const {
    const int64_t indices[] = {static_cast<int64_t>(index)...};
    std::byte* p = static_cast<std::byte*>(data_);
    for (size_t axis = 0; axis < sizeof...(I); ++axis) p += indices[axis] * strides_[axis];
    return *reinterpret_cast<T*>(p);
  }
  // The byte address of an element given all indices.
  std::byte* element(const std::vector<int64_t>& index) const;

  // DLPack: a DLTensor viewing this array (valid while the array lives), and an Array
  // viewing a DLTensor's memory.
  DLTensor to_dlpack() const;
  static Result<Array> from_dlpack(const DLTensor& tensor);

 private:
  std::shared_ptr<void> owner_;
  void* data_ = nullptr;
  DType dtype_;
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
  Location location_ = Location::host;
  mutable std::vector<int64_t> dlpack_strides_;  // element strides handed out by to_dlpack
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

// Copies `from`'s elements into `to` (host arrays of the same dtype and shape, any strides).
Status copy_elements(const Array& from, const Array& to);

// A shape as NumPy prints it: "(3,)", "(2, 4)".
std::string shape_text(const std::vector<int64_t>& shape);

// C-contiguous byte strides for a shape.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape, int64_t itemsize, Order order);

}  // namespace pykern

#include "pykern/array.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

namespace pykern {

namespace {
// Whether the contiguous strides of `shape` fit in an int64: the extents' byte count, zeros
// counted as one, as the strides multiply them. Negative extents are the caller's to refuse.
bool strides_fit(const std::vector<int64_t>& shape, int64_t itemsize) {
  uint64_t bytes = static_cast<uint64_t>(std::max(itemsize, int64_t(1)));
  for (int64_t dim : shape) {
    uint64_t extent = static_cast<uint64_t>(std::max(dim, int64_t(1)));
    if (bytes > static_cast<uint64_t>(INT64_MAX) / extent) return false;
    bytes *= extent;
  }
  return true;
}
}  // namespace

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape, int64_t itemsize, Order order) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = itemsize;
  if (order == Order::C) {
    for (size_t i = shape.size(); i-- > 0;) {
      strides[i] = stride;
      stride *= std::max<int64_t>(shape[i], 1);
    }
  } else {
    for (size_t i = 0; i < shape.size(); ++i) {
      strides[i] = stride;
      stride *= std::max<int64_t>(shape[i], 1);
    }
  }
  return strides;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

Array Array::zeros(DType dtype, std::vector<int64_t> shape, Order order) {
  Array a;
  a.dtype_ = std::move(dtype);
  a.shape_ = std::move(shape);
  // The byte count, checked: a negative or overflowing shape is refused, not wrapped.
  uint64_t bytes = static_cast<uint64_t>(std::max(a.dtype_.itemsize, int64_t(1)));
  for (int64_t dim : a.shape_) {
    if (dim < 0) throw std::invalid_argument("Array::zeros: a negative dimension");
    if (dim > 0 && bytes > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(dim)) throw std::bad_alloc();
    bytes *= static_cast<uint64_t>(dim);
  }
  if (!strides_fit(a.shape_, a.dtype_.itemsize)) throw std::bad_alloc();  // (0, 2**62): no bytes, but no strides
  a.strides_ = contiguous_strides(a.shape_, a.dtype_.itemsize, order);
  void* memory = std::calloc(1, static_cast<size_t>(std::max<uint64_t>(bytes, 1)));
  if (memory == nullptr) throw std::bad_alloc();
  a.owner_ = std::shared_ptr<void>(memory, std::free);
  a.data_ = a.owner_.get();
  return a;
}

Array Array::wrap(void* data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
                  Location location) {
  // What launches and copies read of the view must be there: one stride per dimension, and
  // extents whose strides can be counted.
  for (int64_t dim : shape)
    if (dim < 0) throw std::invalid_argument("Array::wrap: a negative dimension");
  if (!strides_fit(shape, dtype.itemsize))
    throw std::invalid_argument("Array::wrap: the shape spans more than 2**63 bytes");
  if (!strides.empty() && strides.size() != shape.size())
    throw std::invalid_argument("Array::wrap: " + std::to_string(strides.size()) + " strides for " +
                                std::to_string(shape.size()) + " dimensions");
  Array a;
  a.data_ = data;
  a.dtype_ = std::move(dtype);
  a.shape_ = std::move(shape);
  a.strides_ = strides.empty() ? contiguous_strides(a.shape_, a.dtype_.itemsize, Order::C) : std::move(strides);
  a.location_ = location;
  return a;
}

Array Array::adopt(std::shared_ptr<void> owner, void* data, DType dtype, std::vector<int64_t> shape,
                   std::vector<int64_t> strides, Location location, int device_id) {
  Array a = wrap(data, std::move(dtype), std::move(shape), std::move(strides), location);
  a.owner_ = std::move(owner);
  a.device_id_ = location == Location::host ? 0 : device_id;
  return a;
}

int64_t Array::size() const {
  return std::accumulate(shape_.begin(), shape_.end(), int64_t(1), std::multiplies<int64_t>());
}

namespace {
bool holds_no_elements(const std::vector<int64_t>& shape) {
  return std::any_of(shape.begin(), shape.end(), [](int64_t extent) { return extent == 0; });
}
}  // namespace

bool Array::is_c_contiguous() const {
  if (holds_no_elements(shape_)) return true;  // as NumPy's flags: an empty array is both C and F
  int64_t expected = dtype_.itemsize;
  for (size_t i = shape_.size(); i-- > 0;) {
    if (shape_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

bool Array::is_f_contiguous() const {
  if (holds_no_elements(shape_)) return true;  // as NumPy's flags: an empty array is both C and F
  int64_t expected = dtype_.itemsize;
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (shape_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

Array Array::with_label(std::string label) const {
  Array labelled = *this;
  labelled.label_ = label.empty() ? nullptr : std::make_shared<const std::string>(std::move(label));
  return labelled;
}

const std::string& Array::label() const {
  static const std::string none;
  return label_ ? *label_ : none;
}

Array Array::transpose() const {
  Array t = *this;
  std::reverse(t.shape_.begin(), t.shape_.end());
  std::reverse(t.strides_.begin(), t.strides_.end());
  return t;
}

Result<Array> Array::index(int axis, int64_t i) const {
  if (axis < 0 || axis >= ndim())
    return Error::make(ErrorKind::invalid_argument, fmt::format("axis {} is out of range for {} dimensions", axis, ndim()));
  int64_t n = shape_[axis];
  int64_t wrapped = i < 0 ? i + n : i;
  if (wrapped < 0 || wrapped >= n)
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("index {} is out of bounds for axis {} with size {}", i, axis, n));
  Array v = *this;
  v.data_ = static_cast<std::byte*>(data_) + wrapped * strides_[axis];
  v.shape_.erase(v.shape_.begin() + axis);
  v.strides_.erase(v.strides_.begin() + axis);
  return v;
}

Result<Array> Array::slice(int axis, Slice s) const {
  if (axis < 0 || axis >= ndim())
    return Error::make(ErrorKind::invalid_argument, fmt::format("axis {} is out of range for {} dimensions", axis, ndim()));
  int64_t n = shape_[axis];
  int64_t step = s.step.value_or(1);
  if (step == 0) return Error::make(ErrorKind::invalid_argument, "slice step cannot be zero");
  auto clamp = [](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); };
  int64_t start, stop;
  if (step > 0) {
    start = s.start ? clamp(*s.start < 0 ? *s.start + n : *s.start, 0, n) : 0;
    stop = s.stop ? clamp(*s.stop < 0 ? *s.stop + n : *s.stop, 0, n) : n;
  } else {
    start = s.start ? clamp(*s.start < 0 ? *s.start + n : *s.start, -1, n - 1) : n - 1;
    stop = s.stop ? clamp(*s.stop < 0 ? *s.stop + n : *s.stop, -1, n - 1) : -1;
  }
  int64_t length = step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                            : std::max<int64_t>(0, (start - stop - step - 1) / (-step));
  Array v = *this;
  if (length > 0) v.data_ = static_cast<std::byte*>(data_) + start * strides_[axis];
  v.shape_[axis] = length;
  v.strides_[axis] = strides_[axis] * step;
  return v;
}

std::byte* Array::element(const std::vector<int64_t>& index) const {
  std::byte* p = static_cast<std::byte*>(data_);
  for (size_t axis = 0; axis < index.size(); ++axis) p += index[axis] * strides_[axis];
  return p;
}

std::string Array::type_mismatch(const DType& dtype, size_t type_size, const char* where) {
  return fmt::format("{}: the element type ({} bytes) is not the array's dtype {} ({} bytes each)", where, type_size,
                     dtype.name(), dtype.itemsize);
}

std::string Array::read_only_access() {
  return "Array::at: the array is read-only (its owner lent it so through DLPack); read it with at<const T>";
}

std::byte* Array::checked_element(const int64_t* indices, size_t count) const {
  if (location_ == Location::device)
    throw std::invalid_argument("Array::at: the array lives on a device; copy it to the host first");
  if (count != shape_.size())
    throw std::out_of_range(fmt::format("Array::at: {} indices for a {}-d array", count, shape_.size()));
  std::byte* p = static_cast<std::byte*>(data_);
  for (size_t axis = 0; axis < count; ++axis) {
    if (indices[axis] < 0 || indices[axis] >= shape_[axis])
      throw std::out_of_range(fmt::format("Array::at: index {} is out of bounds for axis {} with size {}",
                                          indices[axis], axis, shape_[axis]));
    p += indices[axis] * strides_[axis];
  }
  return p;
}

Array Array::copy(Order order) const {
  Array out = zeros(dtype_, shape_, order);
  (void)copy_elements(*this, out);  // cannot fail: same dtype and shape, both on the host
  return out;
}

Status copy_elements(const Array& from, const Array& to) {
  if (from.dtype() != to.dtype() || from.shape() != to.shape())
    return Error::make(ErrorKind::invalid_argument,
                       fmt::format("cannot copy a {} array of shape {} into a {} array of shape {}", from.dtype().name(),
                                   shape_text(from.shape()), to.dtype().name(), shape_text(to.shape())));
  if (from.location() == Location::device || to.location() == Location::device)
    return Error::make(ErrorKind::invalid_argument, "copy_elements copies between host arrays; use copy_to_host or "
                                                    "copy_to_device for device arrays");
  if (to.read_only())
    return Error::make(ErrorKind::invalid_argument, "cannot copy into a read-only array (its owner lent it so through "
                                                    "DLPack)");
  std::vector<int64_t> index(from.shape().size(), 0);
  int64_t count = from.size();
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(to.element(index), from.element(index), static_cast<size_t>(from.dtype().itemsize));
    for (size_t axis = index.size(); axis-- > 0;) {  // odometer, last axis fastest
      if (++index[axis] < from.shape()[axis]) break;
      index[axis] = 0;
    }
  }
  return ok_status();
}

}  // namespace pykern

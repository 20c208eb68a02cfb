// View<T, N>: an array argument whose element type and rank are part of its C++ type, for
// launches (Kernel::launch takes it as it takes an Array) and for the typed launch functions of
// a bundle header, which refuse a wrong one at compile time.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "pykern/array.h"
#include "pykern/launch.h"
#include "pykern/result.h"

namespace pykern {

// An array argument whose element type and rank are part of its C++ type, so that a typed
// launch function of a bundle refuses a wrong one at compile time. The layout (contiguity) is
// checked when the kernel launches.
template <class T, int N>
class View {
 public:
  // A 1-d view of a vector's elements (host memory, which the kernel may write).
  template <int M = N, class = std::enable_if_t<M == 1>>
  View(std::vector<T>& values)
      : array_(Array::wrap(values.data(), DType::of<T>(), {static_cast<int64_t>(values.size())})) {}
  // A 1-d input from read-only memory: the kernel sees a copy, so nothing it writes lands.
  template <int M = N, class = std::enable_if_t<M == 1>>
  View(const std::vector<T>& values) : array_(Array::from(values)) {}
  // C-contiguous memory of this shape, on the host or the device.
  View(T* data, const std::array<int64_t, N>& shape, Location location = Location::host)
      : array_(Array::wrap(data, DType::of<T>(), std::vector<int64_t>(shape.begin(), shape.end()), {}, location)) {}
  // Any layout: byte strides, as NumPy gives them.
  View(T* data, const std::array<int64_t, N>& shape, const std::array<int64_t, N>& byte_strides,
       Location location = Location::host)
      : array_(Array::wrap(data, DType::of<T>(), std::vector<int64_t>(shape.begin(), shape.end()),
                           std::vector<int64_t>(byte_strides.begin(), byte_strides.end()), location)) {}
  // An Array whose element type and rank are checked now.
  static Result<View> of(const Array& array) {
    if (array.dtype() != DType::of<T>() || array.ndim() != N)
      return Error::make(ErrorKind::invalid_argument,
                         "an array of " + array.dtype().name() + ", " + std::to_string(array.ndim()) +
                             "-d, where " + DType::of<T>().name() + ", " + std::to_string(N) + "-d is expected");
    return View(array);
  }

  const Array& array() const { return array_; }
  operator Argument() const { return array_; }

 private:
  explicit View(Array array) : array_(std::move(array)) {}
  Array array_;
};

}  // namespace pykern

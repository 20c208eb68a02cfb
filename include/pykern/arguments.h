// What a launch (or a host call) takes as an argument, and how each C++ value becomes one:
//
//   Array, View<T, N>          as they are (a view of their memory)
//   std::vector<T>&            a 1-d view of its elements: what the kernel writes lands there
//   const std::vector<T>&      a 1-d input: the kernel sees a copy
//   std::span<T>               a 1-d view of its elements
//   std::span<const T>         a 1-d input: the kernel sees a copy
//   std::mdspan (C++23)        a view with its extents and strides (layout_right/left/stride)
//   numbers, std::complex      scalars, typed as pykern/scalar.h says
//
// A pointer is none of these (Scalar refuses it): wrap it with Array::wrap or View.
#pragma once
#include <complex>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

// Spans and mdspans where the language has them: the header itself is C++17, so that a bundle
// header compiles in a C++17 program.
#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif
#if __cplusplus > 202002L && __has_include(<mdspan>)
#include <mdspan>
#endif

#include "pykern/array.h"
#include "pykern/launch.h"
#include "pykern/scalar.h"
#include "pykern/view.h"

namespace pykern {

// An element type an array can hold: a number (bool, integers, floats) or a std::complex.
template <class T>
struct is_element : std::bool_constant<std::is_arithmetic_v<std::remove_const_t<T>> || is_complex<std::remove_const_t<T>>::value> {};
template <class T> using if_element = std::enable_if_t<is_element<T>::value, int>;

// A 1-d view of `count` elements at `data`, which the kernel may write.
template <class T> Array view_of(T* data, size_t count) {
  return Array::wrap(static_cast<void*>(data), DType::of<T>(), {static_cast<int64_t>(count)});
}

inline Argument to_argument(const Array& array) { return array; }
inline Argument to_argument(const Scalar& scalar) { return scalar; }
inline Argument to_argument(const Argument& argument) { return argument; }
template <class T, int N> Argument to_argument(const View<T, N>& view) { return view.array(); }

template <class T, if_element<T> = 0> Argument to_argument(std::vector<T>& values) {
  return view_of(values.data(), values.size());
}
template <class T, if_element<T> = 0> Argument to_argument(const std::vector<T>& values) {
  return Array::from(values);
}

#if defined(__cpp_lib_span)
template <class T, size_t E, if_element<T> = 0> Argument to_argument(std::span<T, E> values) {
  if constexpr (std::is_const_v<T>) {
    return Array::from(std::vector<std::remove_const_t<T>>(values.begin(), values.end()));
  } else {
    return view_of(values.data(), values.size());
  }
}
#endif

#if defined(__cpp_lib_mdspan)
template <class T, class Extents, class Layout, class Accessor, if_element<T> = 0>
Argument to_argument(std::mdspan<T, Extents, Layout, Accessor> view) {
  static_assert(!std::is_const_v<T>, "a const mdspan cannot be written by a kernel: copy it into an Array");
  std::vector<int64_t> shape, strides;
  for (size_t r = 0; r < Extents::rank(); ++r) {
    shape.push_back(static_cast<int64_t>(view.extent(r)));
    strides.push_back(static_cast<int64_t>(view.stride(r) * sizeof(T)));
  }
  return Array::wrap(static_cast<void*>(view.data_handle()), DType::of<T>(), std::move(shape), std::move(strides));
}
#endif

// Numbers (and anything else a Scalar is made from).
template <class T, class = std::enable_if_t<std::is_constructible_v<Scalar, const T&> && !std::is_pointer_v<T>>>
Argument to_argument(const T& value) {
  return Scalar(value);
}

// Whether launch() and call() take an A: to_argument has an overload for it.
template <class A, class = void> struct is_argument : std::false_type {};
template <class A>
struct is_argument<A, std::void_t<decltype(to_argument(std::declval<A>()))>> : std::true_type {};
template <class... A> using if_arguments = std::enable_if_t<(is_argument<A>::value && ...), int>;

}  // namespace pykern

// pykern runtime: x[<whole-array expression>] in @jit functions on the host, the expression's
// elements computed where the selection reads them (sema/fancy_index.cpp passes the lazy node
// of array_expr.cuh instead of the array it would make). x[x > 0.25] then makes no mask array:
// the comparison runs in the count and again in the copy, which is cheaper than writing and
// reading a mask and gives the same elements (an element-wise expression has no side effects,
// and nothing is written before the copy). Host builds only, like both headers it joins.
#ifndef PYKERN_FUSED_INDEX_CUH
#define PYKERN_FUSED_INDEX_CUH
#include "pykern/array_expr.cuh"
#include "pykern/fancy_index.cuh"

#if !PK_DEVICE_BUILD
namespace pk {

// a[expression]: a 1-D view reads the expression's elements one by one; an N-d view's picked
// axis needs them as positions, so the expression is made into its array first.
template <int Axis, int Front, class T, int N, Layout L, class E, class = typename E::is_node>
OwnedArray<T, N, layout_c> take_axis(const char* file, int line, int shown_axis, const Array<T, N, L>& view, E e) {
  using I = ex::result_t<E>;
  static_assert(E::ndim == 1, "sema passes 1-D index expressions only");
  if constexpr (N == 1) {
    i64 shape[1];
    ex::broadcast_shape(file, line, e, shape);
    e.bind(shape);
    if (e.linear()) return take_one_axis<I>(file, line, shown_axis, view, shape[0], [&e](i64 k) { return e.at_linear(k); });
    return take_one_axis<I>(file, line, shown_axis, view, shape[0], [&e](i64 k) {
      const i64 at[1] = {k};
      return e.at(at);
    });
  } else {
    auto index = ex::materialize(file, line, e);
    return take_axis<Axis, Front>(file, line, shown_axis, view, static_cast<const Array<I, 1, layout_c>&>(index));
  }
}

}  // namespace pk
#endif
#endif  // PYKERN_FUSED_INDEX_CUH

// A @vectorize ufunc's methods and output arrays: .reduce in @jit functions as Numba 0.68's
// DUFunc.reduce computes it (sema/ufunc_methods.cpp, runtime/pykern/ufunc_methods.cuh), the
// output array after the inputs (sema/user_ufuncs.cpp), and NumPy's reduce and accumulate from
// C++ (Ufunc::reduce, Ufunc::accumulate in api/ufunc_methods.cpp). The values expected are what
// Numba 0.68 with NumPy 2 gives; corpus cases cpu/v001..v004 check more against Numba itself.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "host_module.h"
#include "pykern/function.h"
#include "pykern/ufunc.h"

using namespace pykern;

namespace {

const char* source = R"py(
import math
import numpy as np
from numba import njit, vectorize


@vectorize
def half(x, y):
    return (x + y) / 2


@vectorize(identity=1)
def times(x, y):
    return x * y


@vectorize(identity='reorderable')
def larger(x, y):
    return x if x > y else y


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
def hyp(x, y):
    return math.sqrt(x * x + y * y)


@vectorize
def negate(x):
    return -x


@njit
def folds_1d(a):
    return half.reduce(a), half.reduce(a, initial=3.5), times.reduce(a), larger.reduce(a, axis=None)


@njit
def folds_2d(m):
    return half.reduce(m, axis=0), half.reduce(m, axis=-1, initial=3.5), times.reduce(m, axis=1), larger.reduce(m)


@njit
def folds_3d(c):
    return times.reduce(c, axis=(0, 2)), larger.reduce(c, axis=None), larger.reduce(c, axis=(2, 0)), times.reduce(c, axis=())


@njit
def three_axes(c):
    return larger.reduce(c, axis=(2, 0, 1))


@njit
def fold_axis(m, k):
    return half.reduce(m, axis=k)


@njit
def fold_empty(a):
    return half.reduce(a)


@njit
def fold_empty_rows(m):
    return half.reduce(m, axis=1), times.reduce(m, axis=1)


@njit
def into(a, b, out):
    half(a, b, out)
    r = hyp(a, b, out)
    return out, r


@njit
def into_scalar(x, out):
    return half(x, 1.0, out)


@njit
def frozen_fold(a):
    return hyp.reduce(a)


@njit
def scalars(x, y):
    return half(x, y), half(x, 2), times(3, y)
)py";

Module load() { return test::load_host_module(source, "ufunc_methods.py", "ufunc-methods"); }

Array array_item(const Returned& r, size_t k) { return std::get<Array>(r.item(k)); }
Scalar scalar_item(const Returned& r, size_t k) { return std::get<Scalar>(r.item(k)); }

Array matrix(std::vector<double> values, int64_t rows, int64_t cols) {
  Array a = Array::from<double>(values);
  return Array::wrap(a.data(), a.dtype(), {rows, cols}).copy();
}

}  // namespace

TEST_CASE("ufunc.reduce of a 1-d array in a @jit function folds to one number of the type the fold unifies to") {
  Module module = load();
  Returned ints = test::call(module, "folds_1d", Array::from<int64_t>({1, 2, 3, 4}));
  CHECK(scalar_item(ints, 0).type == DType::float_(64));  // int64 start, float64 steps: float64
  CHECK(scalar_item(ints, 0).value.real() == 3.125);
  CHECK(scalar_item(ints, 1).value.real() == 3.28125);    // from initial=3.5
  CHECK(scalar_item(ints, 2).type == DType::int_(64));    // identity 1, int64 products
  CHECK(scalar_item(ints, 2).integer == 24);
  CHECK(scalar_item(ints, 3).integer == 4);               // axis=None of a 1-d array
  Returned floats = test::call(module, "folds_1d", Array::from<double>({1, 2, 3, 4}));
  CHECK(scalar_item(floats, 2).type == DType::float_(64));
  // a frozen ufunc: int16 elements take the float32 loop, so the fold is float32
  Returned frozen = test::call(module, "frozen_fold", Array::from<int16_t>({1, 2, 3}));
  CHECK(scalar_item(frozen, 0).type == DType::float_(32));
  CHECK(scalar_item(frozen, 0).value.real() == doctest::Approx(std::sqrt(14.0)).epsilon(1e-6));
}

TEST_CASE("ufunc.reduce along an axis gives an array of the array's dtype, each step converted back to it") {
  Module module = load();
  std::vector<int64_t> values = {0, 1, 2, 3, 4, 5};
  Array m = Array::wrap(values.data(), {2, 3}).copy();
  Returned r = test::call(module, "folds_2d", m);
  Array down = array_item(r, 0);
  CHECK(down.dtype() == DType::int_(64));  // (0 + 3) / 2 = 1.5, stored as int64 1
  CHECK(down.shape() == std::vector<int64_t>{3});
  CHECK(down.at<int64_t>(0) == 1);
  CHECK(down.at<int64_t>(2) == 3);
  Array across = array_item(r, 1);  // axis=-1 from 3.5: ((3.5 + 0) / 2 + 1) / 2 + 2) / 2 -> 1
  CHECK(across.at<int64_t>(0) == 1);
  CHECK(across.at<int64_t>(1) == 4);
  CHECK(array_item(r, 2).at<int64_t>(1) == 60);
  Array left_out = array_item(r, 3);  // the axis left out: axis 0
  CHECK(left_out.shape() == std::vector<int64_t>{3});
  CHECK(left_out.at<int64_t>(2) == 5);
}

TEST_CASE("ufunc.reduce over several axes reduces the smallest first, as Numba; axis=() is the array") {
  Module module = load();
  std::vector<double> values(24);
  for (int i = 0; i < 24; ++i) values[i] = i + 1;
  Array c = Array::wrap(values.data(), {2, 3, 4}).copy();
  Returned r = test::call(module, "folds_3d", c);
  Array kept = array_item(r, 0);
  CHECK(kept.shape() == std::vector<int64_t>{3});
  CHECK(kept.at<double>(0) == 1048320.0);
  CHECK(kept.at<double>(2) == 3029685120.0);
  CHECK(scalar_item(r, 1).value.real() == 24.0);
  Array two = array_item(r, 2);
  CHECK(two.shape() == std::vector<int64_t>{3});
  CHECK(two.at<double>(0) == 16.0);
  Array same = array_item(r, 3);
  CHECK(same.shape() == std::vector<int64_t>{2, 3, 4});
  CHECK(same.data() == c.data());  // Numba returns the array itself
  // Numba's step for three axes asks the 2-d result for axis 2: its ValueError
  CHECK(test::failure(module, "three_axes", c).find("ValueError: Invalid axis") != std::string::npos);
}

TEST_CASE("ufunc.reduce's run-time errors are Numba's: an axis out of range, an empty fold without identity") {
  Module module = load();
  Array m = matrix({0, 1, 2, 3, 4, 5}, 2, 3);
  Returned last = test::call(module, "fold_axis", m, i64(-1));
  CHECK(array_item(last, 0).at<double>(0) == 1.25);
  CHECK(test::failure(module, "fold_axis", m, i64(2)).find("ValueError: Invalid axis") != std::string::npos);
  CHECK(test::failure(module, "fold_empty", Array::from<double>({})).find(
            "ValueError: zero-size array to reduction operation half which has no identity") != std::string::npos);
  Array no_columns = Array::zeros(DType::float_(64), {2, 0});
  CHECK(test::failure(module, "fold_empty_rows", no_columns).find("zero-size array to reduction operation half") !=
        std::string::npos);
}

TEST_CASE("a ufunc in a @jit function writes into an output array given after its inputs, broadcast into it") {
  Module module = load();
  Array out = Array::zeros(DType::int_(64), {2, 3});
  Returned r = test::call(module, "into", Array::from<double>({0, 1, 2}), matrix({1, 2}, 2, 1), out);
  // hyp(a, b) converted to int64: sqrt(0 + 1), sqrt(1 + 1), sqrt(4 + 1) / sqrt(4), sqrt(5), sqrt(8)
  CHECK(out.at<int64_t>(0, 0) == 1);
  CHECK(out.at<int64_t>(0, 1) == 1);
  CHECK(out.at<int64_t>(0, 2) == 2);
  CHECK(out.at<int64_t>(1, 0) == 2);
  CHECK(array_item(r, 1).at<int64_t>(1, 2) == 2);
  Array filled = Array::zeros(DType::float_(32), {2});
  test::call(module, "into_scalar", 3.0, filled);  // a number broadcast into the whole output
  CHECK(filled.at<float>(0) == 2.0f);
  CHECK(filled.at<float>(1) == 2.0f);
  // a shape that does not broadcast into the output is an error, not a write past its end
  Array small = Array::zeros(DType::int_(64), {2, 2});
  CHECK_FALSE(module.function("into")->call(Array::from<double>({0, 1, 2}), matrix({1, 2}, 2, 1), small).ok());
}

TEST_CASE("a ufunc called with numbers in a @jit function returns a number") {
  Module module = load();
  Returned r = test::call(module, "scalars", i64(3), 4.0);
  CHECK(scalar_item(r, 0).type == DType::float_(64));
  CHECK(scalar_item(r, 0).value.real() == 3.5);
  CHECK(scalar_item(r, 1).value.real() == 2.5);
  CHECK(scalar_item(r, 2).value.real() == 12.0);
}

TEST_CASE("Ufunc::reduce from C++ is NumPy's reduce over the loops the ufunc has") {
  Module module = load();
  auto half = module.ufunc("half");
  REQUIRE(half.ok());
  Array m = matrix({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 3, 4);
  // A DUFunc compiles no loop for a method (as from Python): none yet
  auto fresh = half->reduce(m);
  REQUIRE_FALSE(fresh.ok());
  CHECK(fresh.error().message.find("did not contain a loop with signature matching types (None, <class "
                                   "'numpy.dtypes.Float64DType'>) -> None") != std::string::npos);
  REQUIRE(half->call({1.0, 2.0}).ok());  // compiles 'dd->d'
  auto down = half->reduce(m);
  REQUIRE(down.ok());
  CHECK(down->shape() == std::vector<int64_t>{4});
  CHECK(down->at<double>(0) == 5.0);  // ((0 + 4) / 2 + 8) / 2
  auto across = half->reduce(m, 1, Scalar(1.0));
  REQUIRE(across.ok());
  CHECK(across->at<double>(0) == 2.1875);
  CHECK(across->at<double>(2) == 9.6875);
  auto ints = half->reduce(Array::from<int64_t>({0, 1, 2, 3}));  // int64 takes 'dd->d': a float64 result
  REQUIRE(ints.ok());
  CHECK(ints->ndim() == 0);
  CHECK(ints->at<double>() == 2.125);
  auto all = half->reduce(m, std::nullopt);
  REQUIRE_FALSE(all.ok());
  CHECK(all.error().message == "ValueError: reduction operation 'half' is not reorderable, so at most one axis may be specified");
  auto bad_axis = half->reduce(m, 2);
  REQUIRE_FALSE(bad_axis.ok());
  CHECK(bad_axis.error().message == "AxisError: axis 2 is out of bounds for array of dimension 2");
  auto empty = half->reduce(Array::zeros(DType::float_(64), {0, 3}));
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().message == "ValueError: zero-size array to reduction operation half which has no identity");
  auto times = module.ufunc("times");
  REQUIRE(times->call({1.0, 2.0}).ok());
  auto product = times->reduce(m, std::nullopt);  // reorderable: every axis, a 0-d array
  REQUIRE(product.ok());
  CHECK(product->at<double>() == 0.0);
  auto ones = times->reduce(Array::zeros(DType::float_(64), {0, 3}));  // empty: the identity
  REQUIRE(ones.ok());
  CHECK(ones->at<double>(1) == 1.0);
  auto unary = module.ufunc("negate");
  auto refused = unary->reduce(m);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "ValueError: reduce only supported for binary functions");
}

TEST_CASE("Ufunc::accumulate from C++ keeps every step along the axis, in the loop NumPy picks") {
  Module module = load();
  auto larger = module.ufunc("larger");
  REQUIRE(larger->call({1.0, 2.0}).ok());
  auto running = larger->accumulate(Array::from<double>({3, 1, 4, 1, 5}));
  REQUIRE(running.ok());
  std::vector<double> expected = {3, 3, 4, 4, 5};
  for (int i = 0; i < 5; ++i) CHECK(running->at<double>(i) == expected[i]);
  Array m = matrix({8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}, 3, 4);
  auto rows = larger->accumulate(m, 1);
  REQUIRE(rows.ok());
  CHECK(rows->shape() == std::vector<int64_t>{3, 4});
  CHECK(rows->is_c_contiguous());
  CHECK(rows->at<double>(1, 3) == 7.0);
  auto columns = larger->accumulate(m, 0);
  REQUIRE(columns.ok());
  CHECK(columns->at<double>(2, 0) == 8.0);
  auto hyp = module.ufunc("hyp");  // frozen: float32 elements take its first loop
  auto steps = hyp->accumulate(Array::from<float>({3, 4, 12}));
  REQUIRE(steps.ok());
  CHECK(steps->dtype() == DType::float_(32));
  CHECK(steps->at<float>(1) == 5.0f);
  CHECK(steps->at<float>(2) == 13.0f);
  auto empty = larger->accumulate(Array::zeros(DType::float_(64), {0}));
  REQUIRE(empty.ok());
  CHECK(empty->size() == 0);
  CHECK_FALSE(larger->accumulate(Array::from<double>({1}), 1).ok());
}

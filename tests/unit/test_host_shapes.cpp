// NumPy's array building, reshaping and joining in @jit functions on the host
// (sema/builtins_shapes.cpp, runtime/pykern/array_shapes.cuh): Numba's types, views that share
// their array's storage, copies that do not, and Numba's run-time errors. The corpus cases
// cpu/h001..h004 check the values against Numba itself.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <variant>

#include "host_module.h"
#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def literals(x):
    return np.array([[1, 2], [3, 4]]), np.array((1, 2.5)), np.array([x, 1], dtype=np.float32), np.asarray((True, False))

@njit
def from_list(n):
    items = []
    for i in range(n):
        items.append(i * 0.5)
    return np.array(items)

@njit
def flat_views(n):
    a = np.zeros((2, n))
    r = a.ravel()
    r[1] = 7.0
    f = a.flatten()
    f[2] = 9.0
    t = a.T.ravel()
    return a, r, f, t

@njit
def kept_view(n):
    return np.expand_dims(np.arange(n), 0)

@njit
def lifted(a, m):
    return np.atleast_2d(a, m)

@njit
def join(a, b, axis):
    return np.concatenate((a, b), axis=axis)

@njit
def stacked(a, b):
    return np.stack((a, b))

@njit
def spaced(n):
    return np.linspace(1.0, 2, n)

@njit
def diagonals(n, m, k):
    return np.eye(n, m, k, dtype=np.int8), np.identity(n)

@njit
def rolled(a, shift):
    return np.roll(a, shift), np.repeat(a, 2), np.flipud(a), np.flip(a)

@njit
def f_reshape(a, rows):
    return a.T.reshape(rows, -1, 1)

@njit
def repeated(a, count):
    return a.repeat(count)

@njit
def same(a):
    b = np.asarray(a)
    c = np.ascontiguousarray(a)
    b[0] = -1.0
    return c[0], np.ascontiguousarray(a.T).shape[0], a.astype(np.int32), np.transpose(a), a.transpose()
)py";

Module load() { return test::load_host_module(source, "shapes.py", "host-shapes"); }

std::string message(const Result<Returned>& r) { return r.ok() ? "(ok)" : r.error().describe(); }

}  // namespace

TEST_CASE("np.array of nested list and tuple literals: Numba's dtypes and shapes, dtype= converting") {
  Module module = load();
  auto made = module.function("literals")->call(int64_t(5));
  REQUIRE_MESSAGE(made.ok(), message(made));
  CHECK(made->type ==
        "Tuple(array(int64, 2d, C), array(float64, 1d, C), array(float32, 1d, C), array(bool, 1d, C))");
  CHECK(made->arrays[0].shape() == std::vector<int64_t>{2, 2});
  CHECK(made->arrays[0].at<int64_t>(1, 0) == 3);
  CHECK(made->arrays[1].at<double>(1) == 2.5);
  CHECK(made->arrays[2].at<float>(0) == 5.0f);
  CHECK(made->arrays[3].at<bool>(1) == false);
  auto listed = module.function("from_list")->call(int64_t(4));
  REQUIRE_MESSAGE(listed.ok(), message(listed));
  CHECK(listed->type == "array(float64, 1d, C)");
  CHECK(listed->arrays[0].shape() == std::vector<int64_t>{4});
  CHECK(listed->arrays[0].at<double>(3) == 1.5);
  auto empty = module.function("from_list")->call(int64_t(0));
  REQUIRE_MESSAGE(empty.ok(), message(empty));
  CHECK(empty->arrays[0].shape() == std::vector<int64_t>{0});
}

TEST_CASE("ravel of a C array is a view of it; flatten and the ravel of a transpose are copies") {
  Module module = load();
  auto made = module.function("flat_views")->call(int64_t(3));
  REQUIRE_MESSAGE(made.ok(), message(made));
  const Array& a = made->arrays[0];
  CHECK(a.at<double>(0, 1) == 7.0);              // written through the ravel
  CHECK(made->arrays[1].data() == a.data());     // the same storage
  CHECK(made->arrays[2].at<double>(2) == 9.0);   // the copy was written
  CHECK(a.at<double>(0, 2) == 0.0);              // not the array
  CHECK(made->arrays[3].at<double>(2) == 7.0);   // C order of the transpose: a[0, 1] third
  CHECK(made->arrays[3].data() != a.data());
}

TEST_CASE("a view of a local array returned keeps the array's storage") {
  Module module = load();
  auto made = module.function("kept_view")->call(int64_t(4));
  REQUIRE_MESSAGE(made.ok(), message(made));
  CHECK(made->type == "array(int64, 2d, C)");
  CHECK(made->arrays[0].shape() == std::vector<int64_t>{1, 4});
  CHECK(made->arrays[0].at<int64_t>(0, 3) == 3);
  Array a = Array::from<double>({1, 2, 3});
  Array m = Array::from<double>({1, 2, 3, 4}, {2, 2});
  auto both = module.function("lifted")->call(a, m);
  REQUIRE_MESSAGE(both.ok(), message(both));
  CHECK(both->type == "UniTuple(array(float64, 2d, C) x 2)");
  CHECK(both->arrays[0].shape() == std::vector<int64_t>{1, 3});
  CHECK(both->arrays[1].data() == m.data());
}

TEST_CASE("np.concatenate and np.stack: promoted dtypes and Numba's errors for shapes and axes") {
  Module module = load();
  Array a = Array::from<double>({1, 2, 3});
  Array b = Array::from<int64_t>({4, 5});
  auto joined = module.function("join")->call(a, b, int64_t(-1));
  REQUIRE_MESSAGE(joined.ok(), message(joined));
  CHECK(joined->type == "array(float64, 1d, C)");
  CHECK(joined->arrays[0].at<double>(4) == 5.0);
  auto out_of_bounds = module.function("join")->call(a, b, int64_t(1));
  REQUIRE_FALSE(out_of_bounds.ok());
  CHECK(out_of_bounds.error().message.find("IndexError: np.concatenate(): axis out of bounds") != std::string::npos);
  auto stacked = module.function("stacked")->call(a, b);
  REQUIRE_FALSE(stacked.ok());
  CHECK(stacked.error().message.find("ValueError: np.stack(): all input arrays must have the same shape") !=
        std::string::npos);
  Array c = Array::from<double>({7, 8, 9});
  auto rows = module.function("stacked")->call(a, c);
  REQUIRE_MESSAGE(rows.ok(), message(rows));
  CHECK(rows->arrays[0].shape() == std::vector<int64_t>{2, 3});
  CHECK(rows->arrays[0].at<double>(1, 0) == 7.0);
}

TEST_CASE("np.linspace's ends and sizes, np.eye's diagonals past the edges, roll, repeat and flips") {
  Module module = load();
  auto five = module.function("spaced")->call(int64_t(5));
  REQUIRE_MESSAGE(five.ok(), message(five));
  CHECK(five->arrays[0].at<double>(4) == 2.0);
  CHECK(five->arrays[0].at<double>(1) == 1.25);
  auto one = module.function("spaced")->call(int64_t(1));
  REQUIRE_MESSAGE(one.ok(), message(one));
  CHECK(one->arrays[0].at<double>(0) == 1.0);
  auto none = module.function("spaced")->call(int64_t(0));
  REQUIRE_MESSAGE(none.ok(), message(none));
  CHECK(none->arrays[0].shape() == std::vector<int64_t>{0});
  auto negative = module.function("spaced")->call(int64_t(-1));
  REQUIRE_FALSE(negative.ok());
  CHECK(negative.error().message.find("ValueError: negative dimensions not allowed") != std::string::npos);
  auto eye = module.function("diagonals")->call(int64_t(3), int64_t(4), int64_t(-2));
  REQUIRE_MESSAGE(eye.ok(), message(eye));
  CHECK(eye->arrays[0].at<int8_t>(2, 0) == 1);
  CHECK(eye->arrays[0].at<int8_t>(1, 0) == 0);
  auto past = module.function("diagonals")->call(int64_t(3), int64_t(4), int64_t(9));
  REQUIRE_MESSAGE(past.ok(), message(past));
  CHECK(past->arrays[1].at<double>(2, 2) == 1.0);
  Array a = Array::from<int64_t>({1, 2, 3, 4});
  auto rolled = module.function("rolled")->call(a, int64_t(-5));
  REQUIRE_MESSAGE(rolled.ok(), message(rolled));
  CHECK(rolled->type ==
        "Tuple(array(int64, 1d, C), array(int64, 1d, C), array(int64, 1d, A), array(int64, 1d, A))");
  CHECK(rolled->arrays[0].at<int64_t>(0) == 2);
  CHECK(rolled->arrays[1].shape() == std::vector<int64_t>{8});
  CHECK(rolled->arrays[1].at<int64_t>(3) == 2);
  CHECK(rolled->arrays[2].at<int64_t>(0) == 4);
  CHECK(rolled->arrays[3].at<int64_t>(3) == 1);
  auto repeated = module.function("repeated")->call(a, int64_t(1) << 62);
  REQUIRE_FALSE(repeated.ok());
  CHECK_MESSAGE(repeated.error().message.find("ValueError: array is too big") != std::string::npos, repeated.error().message);
  auto negative_count = module.function("repeated")->call(a, int64_t(-1));
  REQUIRE_FALSE(negative_count.ok());
  CHECK(negative_count.error().message.find("ValueError: negative dimensions are not allowed") != std::string::npos);
}

TEST_CASE("np.asarray of an array is the array; np.ascontiguousarray copies only what is not C") {
  Module module = load();
  Array a = Array::from<double>({1.5, 2.5, 3.5});
  auto made = module.function("same")->call(a);
  REQUIRE_MESSAGE(made.ok(), message(made));
  CHECK(made->values[0].value.real() == -1.0);  // c is a, written through b
  CHECK(made->values[1].integer == 3);
  CHECK(made->arrays[0].at<int32_t>(1) == 2);
  CHECK(made->arrays[2].at<double>(2) == 3.5);  // a.transpose() of a 1-d array: itself
  CHECK(a.at<double>(0) == -1.0);
}

TEST_CASE("an F array reshapes as Numba reads it, in C order without a copy, or fails with its error") {
  Module module = load();
  Array a = Array::from<double>({0, 1, 2, 3, 4, 5}, {2, 3});
  auto kept = module.function("f_reshape")->call(a, int64_t(3));
  REQUIRE_MESSAGE(kept.ok(), message(kept));
  CHECK(kept->type == "array(float64, 3d, F)");
  CHECK(kept->arrays[0].shape() == std::vector<int64_t>{3, 2, 1});
  CHECK(kept->arrays[0].at<double>(2, 1, 0) == 5.0);  // a.T[2, 1]
  CHECK(kept->arrays[0].at<double>(0, 1, 0) == 3.0);
  auto regrouped = module.function("f_reshape")->call(a, int64_t(2));
  REQUIRE_FALSE(regrouped.ok());
  CHECK(regrouped.error().message.find("NotImplementedError: incompatible shape for array") != std::string::npos);
}

TEST_CASE("np.NaN and np.Inf, which NumPy 2 removed, are located errors in @jit functions on the host") {
  ModuleOptions options;
  options.cache_dir =
      (std::filesystem::temp_directory_path() / ("pykern-host-shapes-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source("import numpy as np\nfrom numba import njit\n\n@njit\ndef f(x):\n"
                                    "    return max(x, -np.Inf)\n",
                                    "removed.py", options);
  REQUIRE(module.ok());
  auto called = module->function("f")->call(1.0);
  REQUIRE_FALSE(called.ok());
  CHECK(called.error().describe().find("removed.py:6:20: error: np.Inf was removed in NumPy 2.0") !=
        std::string::npos);
}

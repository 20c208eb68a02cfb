// np.dot, `a @ b`, np.vdot, np.outer, np.trace and np.linalg in @jit functions called on the
// host (sema/builtins_linalg.cpp, runtime/pykern/linalg.cuh, sim/blas_library.cpp): Numba's
// result types and layouts, the products and factorisations by BLAS/LAPACK for every operand
// layout, Numba's errors at the call's line, and how the library is found. Expected types are
// Numba 0.68.1's; values are checked against the mathematics with tolerances, since BLAS
// libraries may sum in different orders.
#include <unistd.h>

#include <cmath>
#include <complex>
#include <filesystem>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/compiler.h"
#include "pykern/function.h"
#include "sim/blas_library.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit

@njit
def product(a, b):
    return np.dot(a, b)

@njit
def matmul(a, b):
    return a @ b

@njit
def conjugate_dot(a, b):
    return np.vdot(a, b)

@njit
def outer(a, b):
    return np.outer(a, b)

@njit
def trace(a, k):
    return np.trace(a, offset=k)

@njit
def inverse(a):
    return np.linalg.inv(a)

@njit
def determinant(a):
    return np.linalg.det(a)

@njit
def solve(a, b):
    return np.linalg.solve(a, b)

@njit
def cholesky(a):
    return np.linalg.cholesky(a)

@njit
def eigh(a):
    return np.linalg.eigh(a)

@njit
def eigenvalues(a):
    return np.linalg.eigvalsh(a)

@njit
def lstsq(a, b):
    return np.linalg.lstsq(a, b)

@njit
def qr(a):
    return np.linalg.qr(a)

@njit
def svd(a):
    return np.linalg.svd(a)

@njit
def norm(x):
    return np.linalg.norm(x)

@njit
def norm_ord(x, p):
    return np.linalg.norm(x, p)
)py";

Module load() { return test::load_host_module(source, "algebra.py", "linalg"); }

using test::call;
template <class... A> std::string failure(Module& module, const char* name, A&&... args) {
  return test::failure_described(module, name, std::forward<A>(args)...);
}
// The error a call's typing reports.
template <class... A> std::string refusal(Module& module, const char* name, A&&... args) {
  return failure(module, name, std::forward<A>(args)...);
}

bool near(double a, double b, double tolerance = 1e-12) { return std::fabs(a - b) <= tolerance * (1 + std::fabs(b)); }

// A 3x3 system with a known inverse: [[4, 1, 0], [1, 3, 1], [0, 1, 2]].
Array spd() { return Array::from<double>({4, 1, 0, 1, 3, 1, 0, 1, 2}, {3, 3}); }

}  // namespace

TEST_CASE("np.dot and '@' give Numba's types: a scalar for two vectors, C-ordered arrays otherwise") {
  Module module = load();
  Array v = Array::from<double>({1, 2, 3});
  Returned vv = call(module, "product", v, v);
  CHECK(vv.type == "float64");
  CHECK(vv.values[0].value.real() == 14.0);
  Array m = Array::from<double>({1, 2, 3, 4, 5, 6}, {2, 3});
  Returned mv = call(module, "matmul", m, v);
  CHECK(mv.type == "array(float64, 1d, C)");
  CHECK(mv.arrays[0].at<double>(0) == 14.0);
  CHECK(mv.arrays[0].at<double>(1) == 32.0);
  Returned vm = call(module, "product", Array::from<double>({1, 1}), m);
  CHECK(vm.type == "array(float64, 1d, C)");
  CHECK(vm.arrays[0].at<double>(2) == 9.0);
  Returned mm = call(module, "matmul", m, m.transpose());
  CHECK(mm.type == "array(float64, 2d, C)");
  CHECK(mm.arrays[0].at<double>(0, 0) == 14.0);
  CHECK(mm.arrays[0].at<double>(0, 1) == 32.0);
  CHECK(mm.arrays[0].at<double>(1, 1) == 77.0);
  Returned f32 = call(module, "product", Array::from<float>({1, 2}, {1, 2}), Array::from<float>({3, 4}, {2, 1}));
  CHECK(f32.type == "array(float32, 2d, C)");
  CHECK(f32.arrays[0].at<float>(0, 0) == 11.0f);
}

TEST_CASE("products of every layout: F-ordered, transposed and strided operands give the same result") {
  Module module = load();
  std::vector<double> data = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  Array a = Array::wrap(data.data(), {3, 2}, {32, 8});  // every other column of a 3x4 C array
  Array b = Array::from<double>({1, -1, 2, 0.5}, {2, 2}).transpose();  // F order
  Returned ab = call(module, "matmul", a, b);
  // a = [[1, 2], [5, 6], [9, 10]]; b = [[1, 2], [-1, 0.5]]
  CHECK(ab.arrays[0].at<double>(0, 0) == -1.0);
  CHECK(ab.arrays[0].at<double>(0, 1) == 3.0);
  CHECK(ab.arrays[0].at<double>(2, 0) == -1.0);
  CHECK(ab.arrays[0].at<double>(2, 1) == 23.0);
  Array column = Array::wrap(data.data() + 1, {3}, {32});  // 2, 6, 10
  CHECK(call(module, "product", column, column).values[0].value.real() == 140.0);
  Returned vm = call(module, "product", column, a);
  CHECK(vm.arrays[0].at<double>(0) == 122.0);
  CHECK(vm.arrays[0].at<double>(1) == 140.0);
  Array empty = Array::from<double>({}, {0, 2});
  Returned zero = call(module, "matmul", Array::from<double>({}, {2, 0}), empty);
  CHECK(zero.arrays[0].shape() == std::vector<int64_t>{2, 2});
  CHECK(zero.arrays[0].at<double>(1, 1) == 0.0);
}

TEST_CASE("complex products: np.dot does not conjugate, np.vdot conjugates its first operand") {
  Module module = load();
  using C = std::complex<double>;
  Array z = Array::from<C>({{1, 2}, {3, -1}});
  Array w = Array::from<C>({{0, 1}, {2, 2}});
  Returned dot = call(module, "product", z, w);
  CHECK(dot.type == "complex128");
  CHECK(dot.values[0].value == C(1, 2) * C(0, 1) + C(3, -1) * C(2, 2));
  Returned vdot = call(module, "conjugate_dot", z, w);
  CHECK(vdot.values[0].value == std::conj(C(1, 2)) * C(0, 1) + std::conj(C(3, -1)) * C(2, 2));
  // Numba's multiply loop: float32 x int32 stays float32 (NumPy would give float64).
  Returned outer = call(module, "outer", Array::from<float>({1, 2}), Array::from<int32_t>({3, 4, 5}));
  CHECK(outer.type == "array(float32, 2d, C)");
  CHECK(outer.arrays[0].at<float>(1, 2) == 10.0f);
  CHECK(call(module, "outer", Array::from<float>({1}), Array::from<double>({2})).type == "array(float64, 2d, C)");
  CHECK(call(module, "outer", Array::from<int8_t>({1}), Array::from<uint8_t>({2})).type == "array(int16, 2d, C)");
  CHECK(call(module, "outer", Array::from<int64_t>({1}), Array::from<std::complex<float>>({{2, 1}})).type ==
        "array(complex64, 2d, C)");
  Returned trace = call(module, "trace", Array::from<float>({1, 2, 3, 4}, {2, 2}), int64_t(1));
  CHECK(trace.type == "float64");
  CHECK(trace.values[0].value.real() == 2.0);
}

TEST_CASE("np.linalg: inv is F-ordered, det float64, solve of a vector and of a matrix, Cholesky lower") {
  Module module = load();
  Array a = spd();
  Returned inv = call(module, "inverse", a);
  CHECK(inv.type == "array(float64, 2d, F)");
  // inv(a) * 18 = [[5, -2, 1], [-2, 8, -4], [1, -4, 11]]
  CHECK(near(inv.arrays[0].at<double>(0, 0) * 18, 5));
  CHECK(near(inv.arrays[0].at<double>(1, 2) * 18, -4));
  Returned det = call(module, "determinant", Array::from<float>({4, 1, 0, 1, 3, 1, 0, 1, 2}, {3, 3}));
  CHECK(det.type == "float64");
  CHECK(near(det.values[0].value.real(), 18.0, 1e-6));
  CHECK(near(call(module, "determinant", Array::from<double>({0, 1, 1, 0}, {2, 2})).values[0].value.real(), -1.0));
  using C = std::complex<double>;
  Returned complex_det = call(module, "determinant", Array::from<std::complex<float>>({{0, 2}, {1, 0}, {0, 0}, {3, 0}}, {2, 2}));
  CHECK(complex_det.type == "complex128");
  CHECK(std::abs(complex_det.values[0].value - C(0, 6)) < 1e-5);
  Returned x = call(module, "solve", a, Array::from<double>({5, 5, 3}));
  CHECK(x.type == "array(float64, 1d, C)");
  for (int i = 0; i < 3; ++i) CHECK(near(x.arrays[0].at<double>(i), 1.0));
  Returned xs = call(module, "solve", a, a.transpose());
  CHECK(xs.type == "array(float64, 2d, F)");
  CHECK(near(xs.arrays[0].at<double>(0, 0), 1.0));
  CHECK(near(xs.arrays[0].at<double>(0, 1) + 1.0, 1.0));
  Returned l = call(module, "cholesky", a);
  CHECK(l.type == "array(float64, 2d, C)");
  CHECK(near(l.arrays[0].at<double>(0, 0), 2.0));
  CHECK(near(l.arrays[0].at<double>(1, 0), 0.5));
  CHECK(l.arrays[0].at<double>(0, 1) == 0.0);
}

TEST_CASE("np.linalg: eigh, eigvalsh, lstsq's 4-tuple, qr and svd with Numba's types") {
  Module module = load();
  Returned e = call(module, "eigh", Array::from<double>({2, 1, 1, 2}, {2, 2}));
  CHECK(e.type == "Tuple(array(float64, 1d, C), array(float64, 2d, F))");
  CHECK(near(e.arrays[0].at<double>(0), 1.0));
  CHECK(near(e.arrays[0].at<double>(1), 3.0));
  CHECK(near(std::fabs(e.arrays[1].at<double>(0, 1)), std::sqrt(0.5)));
  Returned w = call(module, "eigenvalues", Array::from<std::complex<float>>({{2, 0}, {0, 1}, {0, -1}, {2, 0}}, {2, 2}));
  CHECK(w.type == "array(float32, 1d, C)");
  CHECK(near(w.arrays[0].at<float>(1), 3.0, 1e-6));
  // A line through (0, 1), (1, 3), (2, 5) plus noise-free data: y = 1 + 2x, no residual.
  Array design = Array::from<double>({1, 0, 1, 1, 1, 2}, {3, 2});
  Returned fit = call(module, "lstsq", design, Array::from<double>({1, 3, 5}));
  CHECK(fit.type == "Tuple(array(float64, 1d, C), array(float64, 1d, C), int32, array(float64, 1d, C))");
  CHECK(near(fit.arrays[0].at<double>(0), 1.0));
  CHECK(near(fit.arrays[0].at<double>(1), 2.0));
  CHECK(fit.arrays[1].shape() == std::vector<int64_t>{1});
  CHECK(fit.values[0].integer == 2);  // the rank
  Returned q = call(module, "qr", design);
  CHECK(q.type == "Tuple(array(float64, 2d, A), array(float64, 2d, F))");
  CHECK(q.arrays[0].shape() == std::vector<int64_t>{3, 2});
  CHECK(q.arrays[1].shape() == std::vector<int64_t>{2, 2});
  CHECK(near(std::fabs(q.arrays[1].at<double>(0, 0)), std::sqrt(3.0)));
  Returned s = call(module, "svd", Array::from<double>({3, 0, 0, -2}, {2, 2}));
  CHECK(s.type == "Tuple(array(float64, 2d, F), array(float64, 1d, C), array(float64, 2d, F))");
  CHECK(near(s.arrays[1].at<double>(0), 3.0));
  CHECK(near(s.arrays[1].at<double>(1), 2.0));
}

TEST_CASE("np.linalg.norm: the vector 2-norm keeps float32, other orders and matrices are float64") {
  Module module = load();
  Returned two = call(module, "norm", Array::from<float>({3, 4}));
  CHECK(two.type == "float32");
  CHECK(two.values[0].value.real() == 5.0);
  Returned frobenius = call(module, "norm", Array::from<float>({1, 2, 2, 4}, {2, 2}).transpose());
  CHECK(frobenius.type == "float64");
  CHECK(near(frobenius.values[0].value.real(), 5.0, 1e-6));
  // A reversed view (a negative stride, which ?nrm2 does not take) and a stepped one.
  std::vector<double> data = {0, 4, 9, 3};
  CHECK(call(module, "norm", Array::wrap(data.data() + 3, {2}, {-16})).values[0].value.real() == 5.0);
  CHECK(call(module, "norm", Array::wrap(data.data() + 1, {2}, {16})).values[0].value.real() == 5.0);
  Array v = Array::from<double>({3, -4, 0});
  CHECK(call(module, "norm_ord", v, 1.0).values[0].value.real() == 7.0);
  CHECK(call(module, "norm_ord", v, INFINITY).values[0].value.real() == 4.0);
  CHECK(call(module, "norm_ord", v, -INFINITY).values[0].value.real() == 0.0);
  CHECK(call(module, "norm_ord", v, 0.0).values[0].value.real() == 2.0);
  Array m = Array::from<double>({1, -2, 3, 4}, {2, 2});
  CHECK(call(module, "norm_ord", m, 1.0).values[0].value.real() == 6.0);
  CHECK(call(module, "norm_ord", m, INFINITY).values[0].value.real() == 7.0);
  CHECK(call(module, "norm_ord", m, -1.0).values[0].value.real() == 4.0);
  CHECK(near(call(module, "norm_ord", Array::from<double>({3, 0, 0, -2}, {2, 2}), 2.0).values[0].value.real(), 3.0));
  CHECK(failure(module, "norm_ord", m, 3.0).find("ValueError: Invalid norm order for matrices.") != std::string::npos);
}

TEST_CASE("Numba's run-time errors at the call's line: sizes, singular and indefinite matrices, NaN") {
  Module module = load();
  Array v = Array::from<double>({1, 2, 3});
  CHECK(failure(module, "product", v, Array::from<double>({1, 2})).find(
            "algebra.py:6: ValueError: incompatible array sizes for np.dot(a, b) (vector * vector)") != std::string::npos);
  CHECK(failure(module, "matmul", Array::from<double>({1, 2}, {1, 2}), v)
            .find("algebra.py:10: ValueError: incompatible array sizes for np.dot(a, b) (matrix * vector)") !=
        std::string::npos);
  Array singular = Array::from<double>({1, 2, 2, 4}, {2, 2});
  CHECK(failure(module, "inverse", singular).find("LinAlgError: Matrix is singular to machine precision.") !=
        std::string::npos);
  CHECK(failure(module, "solve", singular, Array::from<double>({1, 1})).find("Matrix is singular") !=
        std::string::npos);
  CHECK(call(module, "determinant", singular).values[0].value.real() == 0.0);
  CHECK(failure(module, "inverse", Array::from<double>({1, 2}, {1, 2})).find(
            "LinAlgError: Last 2 dimensions of the array must be square.") != std::string::npos);
  CHECK(failure(module, "cholesky", Array::from<double>({1, 2, 2, 1}, {2, 2}))
            .find("LinAlgError: Matrix is not positive definite.") != std::string::npos);
  CHECK(failure(module, "inverse", Array::from<double>({1, NAN, 0, 1}, {2, 2}))
            .find("LinAlgError: Array must not contain infs or NaNs.") != std::string::npos);
  CHECK(failure(module, "solve", spd(), Array::from<double>({1, 2})).find(
            "LinAlgError: Incompatible array sizes, system is not dimensionally valid.") != std::string::npos);
  CHECK(failure(module, "lstsq", Array::from<double>({}, {0, 2}), Array::from<double>({}, {0}))
            .find("LinAlgError: Arrays cannot be empty") != std::string::npos);
}

TEST_CASE("typing errors name the function as Numba does: integer, mixed and 3-D operands") {
  Module module = load();
  CHECK(refusal(module, "product", Array::from<int64_t>({1, 2}), Array::from<int64_t>({1, 2}))
            .find("np.dot of 'int64' arrays is not supported") != std::string::npos);
  CHECK(refusal(module, "matmul", Array::from<float>({1, 2}), Array::from<double>({1, 2}))
            .find("'@' arguments must all have the same dtype, not 'float32' and 'float64'") != std::string::npos);
  CHECK(refusal(module, "inverse", Array::from<double>({1, 2}))
            .find("np.linalg.inv() only supported on 2-D arrays") != std::string::npos);
  CHECK(refusal(module, "solve", spd(), Array::from<float>({1, 2, 3}))
            .find("np.linalg.solve() only supports inputs that have homogeneous dtypes") != std::string::npos);
  CHECK(refusal(module, "inverse", Array::from<int32_t>({1, 0, 0, 1}, {2, 2}))
            .find("np.linalg.inv() only supported on float and complex arrays") != std::string::npos);
}

TEST_CASE("the BLAS library: PYKERN_BLAS is checked, a missing one says what to install") {
  std::string error;
  auto defaults = sim::blas_candidates(nullptr, error);
  REQUIRE(defaults.size() == 3);
  CHECK(defaults[0] == std::vector<std::string>{"libopenblas.so.0"});
  CHECK(defaults[2] == std::vector<std::string>{"libblas.so.3", "liblapack.so.3"});
  CHECK(sim::blas_candidates("/opt/blas/libopenblas.so:liblapack.so.3", error) ==
        std::vector<std::vector<std::string>>{{"/opt/blas/libopenblas.so", "liblapack.so.3"}});
  for (const char* hostile : {"", "lib/../evil.so", "libblas.so.3:", "a\nb", "lib blas.so"}) {
    error.clear();
    CHECK(sim::blas_candidates(hostile, error).empty());
    CHECK(error.find("PYKERN_BLAS must name BLAS/LAPACK libraries") != std::string::npos);
  }
  CHECK(sim::blas_candidates(std::string(5000, 'a').c_str(), error).empty());
  error.clear();
  CHECK(sim::blas_routine_from({{"/nonexistent/libblas-none.so"}}, "dgemm_", error) == nullptr);
  CHECK(error.find("no BLAS/LAPACK library could be loaded (tried /nonexistent/libblas-none.so") != std::string::npos);
  CHECK(error.find("install Debian's libopenblas0-pthread") != std::string::npos);
  // The C library loads but has no BLAS routine.
  error.clear();
  CHECK(sim::blas_routine_from({{"libc.so.6"}}, "dgemm_", error) == nullptr);
  CHECK(error.find("has no routine 'dgemm_'") != std::string::npos);
}

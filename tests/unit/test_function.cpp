// @jit / @njit functions called from C++ (pykern/function.h): typed per argument types, run
// on the host, returning None, a scalar, a tuple or an optional scalar; arrays by reference.
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include <doctest/doctest.h>

#include "pykern/function.h"

using namespace pykern;

namespace {

const char* source = R"py(from numba import jit, njit
import math

@jit
def hypot(x, y):
    x = abs(x);
    y = abs(y);
    t = min(x, y);
    x = max(x, y);
    t = t / x;
    return x * math.sqrt(1+t*t)

@njit
def stats(a):
    s = 0.0
    m = a[0]
    for v in a:
        s += v
        m = max(m, v)
    a[0] = -1.0
    return s, m

@njit
def first_big(a, limit):
    for i in range(a.shape[0]):
        if a[i] > limit:
            return i

@njit
def nothing(a):
    a[1] = 42.0

@njit(boundscheck=True)
def out_of_bounds(a):
    return a[10]
)py";

Module load() {
  ModuleOptions options;
  options.cache_dir = (std::filesystem::temp_directory_path() / ("pykern-function-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source(source, "host.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  return *module;
}

std::string message(const Result<Returned>& r) { return r.ok() ? "(ok)" : r.error().describe(); }

}  // namespace

TEST_CASE("a @jit function is called from C++ with scalars and gives Numba's value and type") {
  Module module = load();
  CHECK(module.kind_of("hypot") == "function");
  auto hypot = module.function("hypot");
  REQUIRE(hypot.ok());
  auto five = hypot->call(3.0, 4.0);
  REQUIRE_MESSAGE(five.ok(), message(five));
  CHECK(five->type == "float64");
  REQUIRE(five->values.size() == 1);
  CHECK(five->values[0].value.real() == 5.0);
  // Typed again for other argument types, as Numba's dispatcher specialises: int64 arguments.
  auto ints = hypot->call(int64_t(6), int64_t(8));
  REQUIRE_MESSAGE(ints.ok(), message(ints));
  CHECK(ints->values[0].value.real() == 10.0);
}

TEST_CASE("tuples, optionals and None come back; arrays are passed by reference") {
  Module module = load();
  Array a = Array::from<double>({1, 5, 3, 9});
  auto stats = module.function("stats")->call(a);
  REQUIRE_MESSAGE(stats.ok(), message(stats));
  CHECK(stats->is_tuple);
  CHECK(stats->type == "UniTuple(float64 x 2)");
  REQUIRE(stats->values.size() == 2);
  CHECK(stats->values[0].value.real() == 18.0);
  CHECK(stats->values[1].value.real() == 9.0);
  CHECK(a.at<double>(0) == -1.0);  // the function wrote its argument
  auto found = module.function("first_big")->call(a, 4.0);
  REQUIRE_MESSAGE(found.ok(), message(found));
  CHECK(found->type == "OptionalType(int64)");
  REQUIRE(found->values.size() == 1);
  CHECK(found->values[0].integer == 1);
  auto none = module.function("first_big")->call(a, 100.0);
  REQUIRE_MESSAGE(none.ok(), message(none));
  CHECK(none->values.empty());
  auto nothing = module.function("nothing")->call(a);
  REQUIRE_MESSAGE(nothing.ok(), message(nothing));
  CHECK(nothing->type == "none");
  CHECK(nothing->values.empty());
  CHECK(a.at<double>(1) == 42.0);
}

TEST_CASE("host calls report wrong arguments, unknown names and run-time errors") {
  Module module = load();
  auto missing = module.function("hypot")->call(3.0);
  REQUIRE_FALSE(missing.ok());
  CAPTURE(missing.error().describe());
  CHECK(missing.error().describe().find("'hypot' takes 2 arguments but the signature gives 1") != std::string::npos);
  auto unknown = module.function("no_such_function");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().message.find("its functions: hypot, stats, first_big, nothing, out_of_bounds") !=
        std::string::npos);
  auto oob = module.function("out_of_bounds")->call(Array::from<double>({1, 2}));
  REQUIRE_FALSE(oob.ok());
  CAPTURE(oob.error().message);
  CHECK(oob.error().message.find("host.py:35: IndexError: index 10 is out of bounds") != std::string::npos);
  CHECK(oob.error().message.find("index 10 is out of bounds for axis 0 with size 2") != std::string::npos);
}

TEST_CASE("random.random() without a seed draws from system entropy: monte_carlo_pi is near pi") {
  auto module = Module::load_source(R"py(from numba import jit
import random

@jit
def monte_carlo_pi(nsamples):
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x**2 + y**2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples
)py", "pi.py");
  REQUIRE(module.ok());
  auto first = module->function("monte_carlo_pi")->call(int64_t(400000));
  auto second = module->function("monte_carlo_pi")->call(int64_t(400000));
  REQUIRE_MESSAGE(first.ok(), message(first));
  REQUIRE(second.ok());
  // 4 * Binomial(n, pi/4) / n has a standard deviation of about 0.0026 here: 0.02 is 7.7 sigma.
  CHECK(std::abs(first->values[0].value.real() - 3.14159265) < 0.02);
  CHECK(std::abs(second->values[0].value.real() - 3.14159265) < 0.02);
  CHECK(first->values[0].value.real() != second->values[0].value.real());  // the state moves on
}

TEST_CASE("random draws outside their domain raise Numba's errors; a kernel cannot draw from them") {
  auto module = Module::load_source(R"py(import random
import numpy as np
from numba import njit, cuda

@njit
def empty(n):
    return random.randrange(n)

@njit
def empty_np(low, high):
    return np.random.randint(low, high)

@cuda.jit
def kernel(a):
    a[0] = random.uniform(0.0, 1.0)
)py",
                                    "draws.py");
  REQUIRE(module.ok());
  auto none = module->function("empty")->call(int64_t(0));
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message == "draws.py:7: ValueError: empty range for randrange()");
  auto reversed = module->function("empty_np")->call(int64_t(5), int64_t(2));
  REQUIRE_FALSE(reversed.ok());
  CHECK(reversed.error().message == "draws.py:11: ValueError: empty range for randrange()");
  // One value is always that value (NumPy draws nothing for it).
  auto one = module->function("empty_np")->call(int64_t(4), int64_t(5));
  REQUIRE(one.ok());
  CHECK(one->values[0].integer == 4);
  Array a = Array::zeros(DType::float_(64), {1});
  auto in_kernel = module->kernel("kernel")->launch({1}, {1}, a);
  REQUIRE_FALSE(in_kernel.ok());
  CHECK(in_kernel.error().message.find("random.uniform() is not supported in kernels") != std::string::npos);
}

TEST_CASE("a @jit function called on the host cannot use numba.cuda intrinsics, as Numba's CPU target cannot") {
  auto module = Module::load_source(R"py(from numba import cuda, njit

@njit
def lane_sum(a):
    return a[cuda.threadIdx.x] + cuda.popc(7)

@cuda.jit
def k(a, out):
    out[0] = lane_sum(a)
)py", "intrinsics.py");
  REQUIRE_MESSAGE(module.ok(), module.error().describe());
  // From a kernel the same function is a device function, and fine.
  auto kernel = module->kernel("k");
  REQUIRE(kernel.ok());
  Array a = Array::from<double>({1.5, 2.0});
  Array out = Array::zeros(DType::float_(64), {1});
  REQUIRE(kernel->launch(Launch(1, 1).backend(Backend::cpu), {a, out}).ok());
  CHECK(out.at<double>(0) == 4.5);
  auto called = module->function("lane_sum")->call(a);
  REQUIRE_FALSE(called.ok());
  CAPTURE(called.error().describe());
  CHECK(called.error().describe().find("intrinsics.py:5:14: error: this numba.cuda intrinsic runs only in kernels and "
                                       "device functions") != std::string::npos);
}

TEST_CASE("a CUDA device function is told apart from a @jit function and is not called from the host") {
  const char* file = R"py(from numba import cuda, njit

@cuda.jit(device=True)
def twice(x):
    return 2 * x

def thrice(x):
    return 3 * x

three = cuda.jit(device=True)(thrice)

@njit
def four(x):
    return 4 * x

@cuda.jit
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = twice(a[i]) + three(a[i]) + four(a[i])
)py";
  ModuleOptions options;
  options.use_cache = false;
  auto module = Module::load_source(file, "devices.py", options);
  REQUIRE_MESSAGE(module.ok(), (module.ok() ? std::string() : module.error().describe()));
  CHECK(module->kind_of("twice") == "device function");
  CHECK(module->kind_of("three") == "device function");
  CHECK(module->kind_of("four") == "function");
  CHECK(module->kind_of("scale") == "kernel");
  CHECK(module->kind_of("thrice") == "");  // undecorated: Python's own function, not pykern's
  std::vector<std::string> names = module->names();
  CHECK(names == std::vector<std::string>{"scale", "four", "twice", "three"});
  auto refused = module->function("twice");
  REQUIRE_FALSE(refused.ok());
  CHECK_MESSAGE(refused.error().message.find("'twice' in devices.py is a CUDA device function (device=True): only "
                                             "kernels and other device functions call it") != std::string::npos,
                refused.error().message);
  auto called = module->function("four");
  REQUIRE(called.ok());
  auto sixteen = called->call(int64_t(4));
  REQUIRE(sixteen.ok());
  CHECK(sixteen->values[0].value.real() == 16.0);
}

// Values crossing between C++ and @njit functions (issues 33/34): list and dict arguments the
// function changes come back into the caller's shared Values, as Numba's reflected lists and
// typed containers do; float16 in containers; 0-d arrays at the boundary.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "host_module.h"
#include "pykern/function.h"
#include "pykern/npy.h"

using namespace pykern;

namespace {

const char* shared_source = R"py(import numpy as np
from numba import njit


@njit
def record_peaks(signal, threshold, events):
    for i in range(1, signal.shape[0] - 1):
        if signal[i] > threshold and signal[i] >= signal[i - 1] and signal[i] > signal[i + 1]:
            events.append(i)
    return len(events)


@njit
def tally(words, counts):
    for w in words:
        counts[w] = counts.get(w, 0) + 1


@njit
def drain(stack):
    total = 0
    while len(stack) > 0:
        total += stack.pop()
    return total


@njit
def keep_views(a, parts):
    parts.append(a)
    parts.append(np.zeros(2))
    parts[0][0] = 99.0


@njit
def grow_rows(rows):
    rows[0].append(7)
    rows.append([1, 2])
    return len(rows)


@njit
def fail_after_append(items):
    items.append(1)
    raise ValueError("stop")


@njit
def relabel(pairs):
    pairs[(1, 2)] = 'seen'
    del pairs[(0, 0)]


@njit
def first_word(words):
    words.append('x')
    return words[0]
)py";

Module shared_module() { return test::load_host_module(shared_source, "shared.py", "boundary"); }

}  // namespace

TEST_CASE("a list passed as a non-const Value holds what the function appended, call after call") {
  Module module = shared_module();
  Value events = Value::list({}, "int64");
  Array signal = Array::zeros(DType::float_(64), {8});
  double samples[] = {0, 2, 0, 0, 3, 1, 0, 0};
  for (int64_t i = 0; i < 8; ++i) *reinterpret_cast<double*>(signal.element({i})) = samples[i];
  auto first = test::call(module, "record_peaks", signal, 0.5, events);
  CHECK(first.values[0].integer == 2);
  CHECK(events.to_string() == "[1, 4]");
  auto second = test::call(module, "record_peaks", signal, 2.5, events);  // the list keeps growing
  CHECK(second.values[0].integer == 3);
  CHECK(events.to_string() == "[1, 4, 4]");
}

TEST_CASE("a dict passed as a non-const Value holds the keys the function set") {
  Module module = shared_module();
  Value counts = Value::dict({{"a", int64_t(5)}});
  test::call(module, "tally", std::vector<std::string>{"a", "b", "a"}, counts);
  CHECK(counts.to_string() == "{'a': 7, 'b': 1}");
  Value pairs = Value::dict({{Value::tuple({int64_t(0), int64_t(0)}), "old"}});
  test::call(module, "relabel", pairs);
  CHECK(pairs.to_string() == "{(1, 2): 'seen'}");
}

TEST_CASE("const Values, temporaries and converted C++ containers stay the caller's own copies") {
  Module module = shared_module();
  const Value fixed = Value::dict({{"a", int64_t(1)}});
  test::call(module, "tally", std::vector<std::string>{"a"}, fixed);
  CHECK(fixed.to_string() == "{'a': 1}");
  std::vector<std::string> words = {"z"};
  CHECK(test::call(module, "first_word", words).value().str() == "z");
  CHECK(words.size() == 1);  // a std::vector converts to a new list
  std::vector<Value> copied = {Value::list({int64_t(1), int64_t(2)})};
  const std::vector<Value>& read_only = copied;
  CHECK(test::call(module, "drain", read_only).values[0].integer == 3);
  CHECK(copied[0].size() == 2);
}

TEST_CASE("a non-const vector of Values shares its lists: emptied, the list keeps its item type") {
  Module module = shared_module();
  std::vector<Value> args = {Value::list({int64_t(4), int64_t(5)})};
  CHECK(test::call(module, "drain", args).values[0].integer == 9);
  CHECK(args[0].to_string() == "[]");
  CHECK(args[0].as_list()->item_type == "int64");
  CHECK(test::call(module, "drain", args).values[0].integer == 0);  // an empty list passes again
}

TEST_CASE("arrays a shared list keeps are still views of the caller's; new ones are the function's") {
  Module module = shared_module();
  Array a = Array::zeros(DType::float_(64), {4});
  Value parts = Value::list({Value(a)});
  test::call(module, "keep_views", a, parts);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].array().data() == a.data());  // the caller's array itself
  CHECK(a.at<double>(0) == 99.0);
  CHECK(parts[1].array().data() == a.data());  // appended: the same array again
  *reinterpret_cast<double*>(a.element({1})) = 5.0;
  CHECK(parts[1].array().at<double>(1) == 5.0);
  CHECK(parts[2].array().shape() == std::vector<int64_t>{2});  // made by the function: its own
  CHECK(parts[2].array().data() != a.data());
}

TEST_CASE("lists inside a shared list come back changed, as typed.List's nested lists do") {
  Module module = shared_module();
  Value rows = Value::list({Value::list({int64_t(0)})});
  CHECK(test::call(module, "grow_rows", rows).values[0].integer == 2);
  CHECK(rows.to_string() == "[[0, 7], [1, 2]]");
}

TEST_CASE("a call that fails leaves a shared list as it was") {
  Module module = shared_module();
  Value items = Value::list({int64_t(0)});
  std::string message = test::failure(module, "fail_after_append", items);
  CHECK(message.find("ValueError: stop") != std::string::npos);
  CHECK(items.to_string() == "[0]");
}

namespace {

const char* float16_source = R"py(import numpy as np
from numba import cuda, njit


@njit
def window_means(buffer):
    means = [buffer[0]]
    return means


@njit
def made_inside(n):
    levels = {1: np.float16(2.5)}
    return len(levels) + n


@njit
def as_float32(x):
    return x * 2.0


@cuda.jit
def halve(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * np.float16(0.5)
)py";

}  // namespace

TEST_CASE("float16 in @jit functions on the host is refused where it enters, as Numba's CPU target refuses it") {
  Module module = test::load_host_module(float16_source, "sensor.py", "boundary16");
  Array buffer = Array::zeros(DType::float_(16), {4});
  std::string message = test::failure(module, "window_means", buffer);
  CHECK(message.find("parameter 'buffer' is array(float16, 1d, C)") != std::string::npos);
  CHECK(message.find("NotImplementedError: float16") != std::string::npos);
  auto described = module.function("window_means")->call(buffer).error().describe();
  CHECK(described.find("sensor.py:6:") != std::string::npos);  // the parameter's line
  // Made inside the function: refused at the first float16 value, not by the host compiler.
  auto inside = module.function("made_inside")->call(int64_t(1));
  REQUIRE_FALSE(inside.ok());
  CHECK(inside.error().describe().find("sensor.py:13:") != std::string::npos);
  CHECK(inside.error().message.find("float16") != std::string::npos);
  // In a list, dict or tuple argument too.
  Value half = Value::list({Value(Scalar(1.5).as(DType::float_(16)))});
  CHECK(test::failure(module, "window_means", half).find("float16") != std::string::npos);
  // float32 is fine; kernels keep float16 (numba-cuda's).
  CHECK(test::call(module, "as_float32", Scalar(1.5).as(DType::float_(32))).values[0].value.real() == 3.0);
  Array a = Array::zeros(DType::float_(16), {8});
  CHECK(module.kernel("halve")->launch(Launch::forall(8).backend(Backend::cpu), a).ok());
}

namespace {

const char* zero_d_source = R"py(import numpy as np
from numba import njit


@njit
def as_scalar_array(a):
    z = a.reshape(())
    z[()] += 1.0
    return z


@njit
def via_np_reshape(a):
    return np.reshape(a, ()).item()


@njit
def rounded(z):
    return z.astype(np.int32)


@njit
def refill(z):
    z.fill(7.0)
    return z
)py";

}  // namespace

TEST_CASE("a.reshape(()) is a 1-element array's 0-d view; other sizes are Numba's ValueError") {
  Module module = test::load_host_module(zero_d_source, "zero_d.py", "boundary0d");
  Array one = Array::zeros(DType::float_(64), {1});
  *reinterpret_cast<double*>(one.data()) = 4.0;
  Returned r = test::call(module, "as_scalar_array", one);
  REQUIRE(r.arrays.size() == 1);
  CHECK(r.arrays[0].ndim() == 0);
  CHECK(r.arrays[0].data() == one.data());  // a view: the store reached the caller's array
  CHECK(one.at<double>(0) == 5.0);
  Array f_one = Array::zeros(DType::float_(64), {1, 1});
  *reinterpret_cast<double*>(f_one.data()) = 2.5;
  CHECK(test::call(module, "via_np_reshape", f_one).values[0].value.real() == 2.5);
  Array two = Array::zeros(DType::float_(64), {2});
  CHECK(test::failure(module, "as_scalar_array", two).find("ValueError: total size of new array must be unchanged") !=
        std::string::npos);
}

TEST_CASE("z.astype(dtype) of a 0-d array is a new 0-d array, as Numba's; z.fill stays refused as Numba refuses it") {
  Module module = test::load_host_module(zero_d_source, "zero_d.py", "boundary0d");
  Array z = Array::zeros(DType::float_(64), {});
  *reinterpret_cast<double*>(z.data()) = 2.75;
  Returned r = test::call(module, "rounded", z);
  REQUIRE(r.arrays.size() == 1);
  CHECK(r.arrays[0].ndim() == 0);
  CHECK(r.arrays[0].dtype() == DType::int_(32));
  CHECK(r.arrays[0].at<int32_t>() == 2);
  CHECK(r.arrays[0].data() != z.data());
  CHECK(test::failure(module, "refill", z).find("fill() of a 0-d array is not supported") != std::string::npos);
}

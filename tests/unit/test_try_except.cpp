// try statements in @jit functions called on the host (frontend/try_statement.h,
// sema/check_try.cpp, emit/try_blocks.h, runtime/pykern/exceptions.cuh): every form Numba 0.68
// supports, with the values and types it gives (each expectation below is Numba's, run on the
// same functions), the forms it refuses as located errors, and kernels refusing try as
// numba-cuda does. Where Numba fails inside (an exception leaving a handler or a finally block
// ends in its internal "RERAISE" AssertionError), pykern keeps Python's meaning.
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include <doctest/doctest.h>

#include "frontend/module.h"
#include "host_module.h"
#include "pykern/compiler.h"
#include "syntax/syntax_tree.h"

using namespace pykern;

namespace {

const char* source = R"py(import numpy as np
from numba import njit, prange


@njit
def checked(x):
    if x < 0:
        raise ValueError("negative input")
    return x * 2


@njit
def bare(x):
    try:
        r = checked(x)
    except:
        r = -1
    return r


@njit
def any_exception(x):
    try:
        if x > 10:
            raise KeyError("too big")
        r = 10 // x
    except Exception:
        r = -1
    return r


@njit
def with_else(x):
    r = 0
    try:
        r = 100 // x
    except Exception:
        r = -1
    else:
        r += 1000
    return r


@njit
def raise_in_else(x):
    r = 0
    try:
        r = 1
    except Exception:
        r = 2
    else:
        if x > 0:
            raise ValueError("from else")
    return r


@njit
def finally_runs(a, x):
    r = 0
    try:
        r = 10 // x
    except Exception:
        r = -1
    finally:
        a[0] += 1.0
        r += 100
    return r


@njit
def return_through_finally(a, x):
    try:
        if x > 0:
            return x
        a[1] = 7.0
    finally:
        a[0] = 5.0
    return -x


@njit
def return_in_finally(a):
    try:
        a[1] = 1.0
    finally:
        return 3


@njit
def loop_counts(n):
    bad = 0
    s = 0
    for i in range(n):
        try:
            if i % 3 == 0:
                raise ValueError("multiple of three")
            if i == 7:
                continue
            s += i
        except Exception:
            bad += 1
            continue
    return s, bad


@njit
def break_in_handler(n):
    s = 0
    for i in range(n):
        try:
            if i == 5:
                raise ValueError("stop")
            s += i
        except Exception:
            break
    return s


@njit
def while_until_error(limit):
    n = 0
    while True:
        try:
            n += 1
            if n > limit:
                raise ValueError("done")
        except Exception:
            break
    return n


@njit
def finally_in_loop(a, n):
    s = 0
    for i in range(n):
        try:
            if i == 2:
                continue
            if i == 4:
                break
            s += i
        finally:
            a[0] += 1.0
    return s


@njit
def nested(x):
    r = 0
    try:
        try:
            if x > 0:
                raise ValueError("inner")
        except Exception:
            r += 1
            raise ValueError("again")
    except Exception:
        r += 10
    return r


@njit
def nested_finally(a, x):
    try:
        try:
            if x > 0:
                return 1
        finally:
            a[0] += 1.0
    finally:
        a[1] += 1.0
    return 2


@njit
def floor_divide(a, b):
    try:
        return a // b
    except Exception:
        return -1


@njit
def safe_inverse_corner(m):
    try:
        return np.linalg.inv(m)[0, 0]
    except Exception:
        return np.nan


@njit(boundscheck=True)
def checked_index(a, i):
    try:
        return a[i]
    except Exception:
        return -1.0


@njit
def list_index(i):
    items = [1, 2, 3]
    try:
        return items[i]
    except Exception:
        return -1


@njit
def falls_off(x):
    try:
        return 10 // x
    except Exception:
        pass


@njit
def partial_write(x):
    y = 0
    try:
        y = 5
        z = 10 // x
        y = 7
    except Exception:
        pass
    return y


@njit
def unify_types(x):
    try:
        y = 10 // x
    except Exception:
        y = 1.5
    return y


@njit
def assert_caught(x):
    try:
        assert x < 0, "must be negative"
        return 1
    except Exception:
        return 2


@njit(parallel=True)
def try_in_prange(n):
    out = np.zeros(n)
    for i in prange(n):
        try:
            out[i] = 10 // (i % 3)
        except Exception:
            out[i] = -1
    return out


@njit(parallel=True)
def prange_in_try(n):
    out = np.zeros(n)
    try:
        for i in prange(n):
            out[i] = 10 // (i - 5)
    except Exception:
        out[0] = -5
    return out


@njit(parallel=True)
def carried_in_try(n):
    out = np.zeros(n)
    last = 0.0
    for i in prange(n):
        try:
            out[i] = last
            last = i * 1.0
        except Exception:
            pass
    return out


@njit
def flag_then_raise(x):
    failed = False
    try:
        y = 10 // x
    except Exception:
        failed = True
        y = 0
    if failed:
        raise ValueError("x must not be zero")
    return y


@njit
def raise_in_handler(x):
    try:
        r = 10 // x
    except Exception:
        raise ValueError("no zero here")
    return r


@njit
def finally_then_error(a, x):
    try:
        r = 10 // x
    finally:
        a[0] = 9.0
    return r


@njit
def uncaught_after_try(x):
    try:
        r = 1
    except Exception:
        r = 2
    return r // x
)py";

Module load() { return test::load_host_module(source, "guarded.py", "try-except"); }

using test::call;

int64_t integer(const Returned& r, size_t k = 0) { return r.values.at(k).integer; }
double real(const Returned& r, size_t k = 0) { return r.values.at(k).value.real(); }

// The error of a call whose function does not compile, with its location and source line.
std::string refusal(const char* text, const char* name) {
  ModuleOptions options;
  options.cache_dir =
      (std::filesystem::temp_directory_path() / ("pykern-try-refusals-" + std::to_string(::getpid()))).string();
  auto module = Module::load_source(text, "refused.py", options);
  REQUIRE_MESSAGE(module.ok(), module.error().describe());
  auto returned = module->function(name)->call(int64_t(1));
  REQUIRE_FALSE(returned.ok());
  return returned.error().describe();
}

}  // namespace

TEST_SUITE_BEGIN("try-except");

TEST_CASE("a bare except and 'except Exception' catch a raise in the try block and one in a called function") {
  Module module = load();
  CHECK(integer(call(module, "bare", int64_t(3))) == 6);
  CHECK(integer(call(module, "bare", int64_t(-3))) == -1);
  CHECK(integer(call(module, "any_exception", int64_t(5))) == 2);
  CHECK(integer(call(module, "any_exception", int64_t(0))) == -1);   // ZeroDivisionError
  CHECK(integer(call(module, "any_exception", int64_t(11))) == -1);  // KeyError
}

TEST_CASE("the operations that fail inside a try block are caught: //, np.linalg, a checked index, a list, assert") {
  Module module = load();
  CHECK(integer(call(module, "floor_divide", int64_t(7), int64_t(2))) == 3);
  CHECK(integer(call(module, "floor_divide", int64_t(7), int64_t(0))) == -1);
  Returned singular = call(module, "safe_inverse_corner", Array::from<double>({0, 0, 0, 0}, {2, 2}));
  CHECK(std::isnan(real(singular)));
  CHECK(real(call(module, "safe_inverse_corner", Array::from<double>({2, 0, 0, 4}, {2, 2}))) == 0.5);
  Array a = Array::from<double>({0, 1, 2});
  CHECK(real(call(module, "checked_index", a, int64_t(5))) == -1.0);
  CHECK(real(call(module, "checked_index", a, int64_t(2))) == 2.0);
  CHECK(integer(call(module, "list_index", int64_t(10))) == -1);
  CHECK(integer(call(module, "list_index", int64_t(1))) == 2);
  CHECK(integer(call(module, "assert_caught", int64_t(1))) == 2);
  CHECK(integer(call(module, "assert_caught", int64_t(-1))) == 1);
}

TEST_CASE("else runs after a try block that raised nothing, outside the handler's reach") {
  Module module = load();
  CHECK(integer(call(module, "with_else", int64_t(5))) == 1020);
  CHECK(integer(call(module, "with_else", int64_t(0))) == -1);
  CHECK(integer(call(module, "raise_in_else", int64_t(0))) == 1);
  std::string error = test::failure(module, "raise_in_else", int64_t(1));
  CHECK(error.find("guarded.py:53: ValueError: from else") != std::string::npos);
}

TEST_CASE("finally runs after the try block, after the handler, and on the way out of a return, break or continue") {
  Module module = load();
  Array a = Array::from<double>({0});
  CHECK(integer(call(module, "finally_runs", a, int64_t(5))) == 102);
  CHECK(integer(call(module, "finally_runs", a, int64_t(0))) == 99);
  CHECK(a.at<double>(0) == 2.0);
  Array b = Array::from<double>({0, 0});
  CHECK(integer(call(module, "return_through_finally", b, int64_t(3))) == 3);
  CHECK(b.at<double>(0) == 5.0);
  CHECK(b.at<double>(1) == 0.0);
  CHECK(integer(call(module, "return_through_finally", b, int64_t(-3))) == 3);
  CHECK(b.at<double>(1) == 7.0);
  Array c = Array::from<double>({0, 0});
  CHECK(integer(call(module, "return_in_finally", c)) == 3);
  CHECK(c.at<double>(1) == 1.0);
  Array d = Array::from<double>({0});
  CHECK(integer(call(module, "finally_in_loop", d, int64_t(10))) == 4);
  CHECK(d.at<double>(0) == 5.0);  // iterations 0..4: a continue and a break among them
  Array e = Array::from<double>({0, 0});
  CHECK(integer(call(module, "nested_finally", e, int64_t(1))) == 1);
  CHECK(integer(call(module, "nested_finally", e, int64_t(0))) == 2);
  CHECK(e.at<double>(0) == 2.0);
  CHECK(e.at<double>(1) == 2.0);
}

TEST_CASE("try statements in loops: continue and break in the block and in the handler, while True until an error") {
  Module module = load();
  Returned counts = call(module, "loop_counts", int64_t(10));
  CHECK(counts.type == "UniTuple(int64 x 2)");
  CHECK(integer(counts, 0) == 20);
  CHECK(integer(counts, 1) == 4);
  CHECK(integer(call(module, "break_in_handler", int64_t(10))) == 10);
  CHECK(integer(call(module, "while_until_error", int64_t(4))) == 5);
}

TEST_CASE("nested try statements: a raise in an inner handler is caught by the outer one") {
  Module module = load();
  CHECK(integer(call(module, "nested", int64_t(1))) == 11);
  CHECK(integer(call(module, "nested", int64_t(0))) == 0);
}

TEST_CASE("types as Numba's: returns in the block and the handler give a value, a handler that falls off an Optional") {
  Module module = load();
  CHECK(call(module, "floor_divide", int64_t(7), int64_t(0)).type == "int64");
  Returned none = call(module, "falls_off", int64_t(0));
  CHECK(none.type == "OptionalType(int64)");
  CHECK(none.values.empty());
  CHECK(integer(call(module, "falls_off", int64_t(5))) == 2);
  CHECK(integer(call(module, "partial_write", int64_t(0))) == 5);  // what ran before the raise stays
  CHECK(integer(call(module, "partial_write", int64_t(1))) == 7);
  Returned unified = call(module, "unify_types", int64_t(2));
  CHECK(unified.type == "float64");
  CHECK(real(unified) == 5.0);
  CHECK(real(call(module, "unify_types", int64_t(0))) == 1.5);
}

TEST_CASE("prange: a try in the body runs in parallel; a prange loop in a try block runs in order, stopping at the error") {
  Module module = load();
  Returned inside = call(module, "try_in_prange", int64_t(6));
  const double per_row[] = {-1, 10, 5, -1, 10, 5};
  for (int i = 0; i < 6; ++i) CHECK(inside.arrays[0].at<double>(i) == per_row[i]);
  Returned around = call(module, "prange_in_try", int64_t(10));
  const double in_order[] = {-5, -3, -4, -5, -10, 0, 0, 0, 0, 0};
  for (int i = 0; i < 10; ++i) CHECK(around.arrays[0].at<double>(i) == in_order[i]);
  CHECK(around.warnings.find("it is inside a try block") != std::string::npos);
  // A value the try block reads before it assigns it is carried from one iteration to the next.
  Returned carried = call(module, "carried_in_try", int64_t(8));
  for (int i = 0; i < 8; ++i) CHECK(carried.arrays[0].at<double>(i) == (i == 0 ? 0.0 : i - 1.0));
  CHECK(carried.warnings.find("'last' carries a value") != std::string::npos);
}

TEST_CASE("what a try statement does not catch reaches the caller with its own message and line") {
  Module module = load();
  CHECK(integer(call(module, "flag_then_raise", int64_t(5))) == 2);
  CHECK(test::failure(module, "flag_then_raise", int64_t(0)).find("guarded.py:290: ValueError: x must not be zero") !=
        std::string::npos);
  CHECK(test::failure(module, "uncaught_after_try", int64_t(0)).find("ZeroDivisionError") != std::string::npos);
  // Numba ends these two in its internal "RERAISE" AssertionError; Python raises the exception.
  CHECK(test::failure(module, "raise_in_handler", int64_t(0)).find("guarded.py:299: ValueError: no zero here") !=
        std::string::npos);
  Array a = Array::from<double>({0});
  CHECK(test::failure(module, "finally_then_error", a, int64_t(0)).find("ZeroDivisionError") != std::string::npos);
  CHECK(a.at<double>(0) == 9.0);  // the finally block ran first
  CHECK(integer(call(module, "finally_then_error", a, int64_t(5))) == 2);
}

TEST_CASE("Numba's refusals are located errors: a class other than Exception, a tuple, 'as e', a bare re-raise") {
  std::string specific = refusal(R"py(from numba import njit

@njit
def f(x):
    try:
        r = 10 // x
    except ZeroDivisionError:
        r = 0
    return r
)py", "f");
  CHECK(specific.find("refused.py:7:12: error: exception matching is limited to 'Exception', as in Numba: "
                      "'except ZeroDivisionError' cannot catch ZeroDivisionError alone") != std::string::npos);
  std::string tuple = refusal(R"py(from numba import njit

@njit
def f(x):
    try:
        r = 10 // x
    except (ValueError, ZeroDivisionError):
        r = 0
    return r
)py", "f");
  CHECK(tuple.find("refused.py:7:12: error: exception matching is limited to 'Exception'") != std::string::npos);
  CHECK(tuple.find("cannot catch those classes alone") != std::string::npos);
  std::string bound = refusal(R"py(from numba import njit

@njit
def f(x):
    try:
        r = 10 // x
    except Exception as err:
        r = 0
    return r
)py", "f");
  CHECK(bound.find("refused.py:7:25: error: an exception cannot be bound to a name ('as err')") != std::string::npos);
  std::string reraise = refusal(R"py(from numba import njit

@njit
def f(x):
    try:
        r = 10 // x
    except Exception:
        if x > 0:
            raise
        r = 0
    return r
)py", "f");
  CHECK(reraise.find("refused.py:9:13: error: re-raising the exception a handler caught (a bare 'raise') is not "
                     "supported") != std::string::npos);
  std::string shadowed = refusal(R"py(from numba import njit

@njit
def f(x):
    Exception = 3
    try:
        r = 10 // x
    except Exception:
        r = 0
    return r
)py", "f");
  CHECK(shadowed.find("refused.py:8:12: error: exception matching is limited to the builtin 'Exception'") !=
        std::string::npos);
}

TEST_CASE("the lowering: else ends the protected block, later handlers are dropped, finally wraps the whole") {
  SourceFile file("t.py",
                  "from numba import njit\n@njit\ndef f(x):\n    try:\n        x = 1\n    except Exception:\n"
                  "        x = 2\n    except:\n        x = 3\n    else:\n        x = 4\n    finally:\n        x = 5\n");
  auto tree = syntax::SyntaxTree::parse(file);
  REQUIRE(tree.ok());
  Diagnostics diagnostics;
  frontend::Module module = frontend::Module::build(tree.value(), diagnostics);
  const ast::Function* f = module.lowered_function("f", diagnostics);
  REQUIRE(f != nullptr);
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(ast::dump(module.ast(), *f) ==
        "def f(x):\n  try:\n    try:\n      x = 1\n      else:\n        x = 4\n    except Exception:\n      x = 2\n"
        "  finally:\n    x = 5\n");
}

TEST_CASE("kernels refuse try statements, their own and those of the @jit functions they call") {
  CompileOptions options;
  options.emit = EmitKind::cuda;
  options.use_cache = false;
  options.signatures.push_back({"k", "void(float64[:])"});
  auto own = compile_source(R"py(from numba import cuda

@cuda.jit
def k(a):
    try:
        a[0] = 1.0
    except Exception:
        pass
)py", "kernels.py", options);
  REQUIRE_FALSE(own.ok());
  CHECK(own.error().describe().find("kernels.py:5:5: error: 'try' statement is not supported in kernels") !=
        std::string::npos);
  auto called = compile_source(R"py(from numba import cuda, njit

@njit
def guarded(x):
    try:
        return 1.0 / x
    except Exception:
        return 0.0

@cuda.jit
def k(a):
    a[0] = guarded(a[0])
)py", "kernels.py", options);
  REQUIRE_FALSE(called.ok());
  CHECK(called.error().describe().find("kernels.py:5:5: error: 'try' statement is not supported in kernels") !=
        std::string::npos);
  CHECK(called.error().describe().find("'guarded' is compiled for a kernel here") != std::string::npos);
}

TEST_SUITE_END();

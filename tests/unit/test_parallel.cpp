// prange loops of parallel=True functions: which loops run on the thread pool and how
// (sema/parallel_loops.h), the pool itself (sim/thread_pool.h), and host calls that use them.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "frontend/module.h"
#include "pykern/function.h"
#include "sema/infer.h"
#include "sema/passes.h"
#include "sim/thread_pool.h"
#include "syntax/syntax_tree.h"

using namespace pykern;

namespace {

// The plan of every prange loop of `f` (called from a kernel), one line each, then the
// rendered warnings: "parallel privates=[i, t] reductions=[s +, m pk::min]" or "in order".
std::string plans_of(const std::string& body) {
  std::string text = "import numba\nfrom numba import cuda, njit, prange\n\n@njit(parallel=True)\n" + body +
                     "\n@cuda.jit\ndef k(a, b):\n    f(a, b)\n";
  SourceFile file("k.py", text);
  auto tree = syntax::SyntaxTree::parse(file);
  REQUIRE(tree.ok());
  Diagnostics diagnostics;
  auto module = frontend::Module::build(*tree, diagnostics);
  SourceFile sig_file("sig", "void(float64[::1], float64[::1])");
  auto signature = sema::parse_signature(sig_file, diagnostics);
  REQUIRE(signature);
  auto program = sema::infer(module, {{"k", *signature, {}}}, diagnostics);
  REQUIRE_MESSAGE(!diagnostics.has_errors(), diagnostics.render());
  sema::sequence_effects(program);
  sema::plan_parallel_loops(program, file, diagnostics);
  std::string out;
  for (const ir::Function& f : program.functions) {
    if (f.python_name != "f") continue;
    for (size_t i = 0; i < f.stmts.size(); ++i) {
      const ir::Stmt& s = f.stmts[ir::StmtId(static_cast<uint32_t>(i))];
      if (s.kind != ir::StmtKind::for_range || !s.is_prange) continue;
      if (!s.parallel.enabled) {
        out += "in order\n";
        continue;
      }
      std::string privates, reductions;
      for (int p : s.parallel.privates)
        if (!f.locals[p].is_temporary) privates += (privates.empty() ? "" : ", ") + f.locals[p].name;
      for (const ir::Reduction& r : s.parallel.reductions)
        reductions += fmt::format("{}{} {}", reductions.empty() ? "" : ", ", f.locals[r.local].name,
                                  ir::call_info(r.combine).spelling);
      out += fmt::format("parallel privates=[{}] reductions=[{}]\n", privates, reductions);
    }
  }
  for (const Diagnostic& d : diagnostics.all()) out += d.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("prange: each of Numba's reduction forms is a reduction; assigned names are private") {
  CHECK(plans_of("def f(a, b):\n    s = 0.0\n    p = 1.0\n    d = 0.0\n    q = 1.0\n    lo = a[0]\n    hi = a[0]\n"
                 "    for i in prange(a.shape[0]):\n        t = a[i] * 2\n        s += t\n        p = p * t\n"
                 "        d -= t\n        q /= t\n        lo = min(lo, t)\n        hi = max(t, hi)\n"
                 "    b[0] = s + p + d + q + lo + hi\n") ==
        "parallel privates=[i, t] reductions=[s +, p *, d +, q *, lo pk::min, hi pk::max]\n");
  // s = x + s reduces too; a name assigned before it is read in the iteration is private.
  CHECK(plans_of("def f(a, b):\n    s = 0.0\n    for i in prange(a.shape[0]):\n        x = a[i]\n"
                 "        if x > 0:\n            y = x\n        else:\n            y = -x\n        s = y + s\n"
                 "    b[0] = s\n") == "parallel privates=[i, x, y] reductions=[s +]\n");
}

TEST_CASE("prange: a loop that carries other values, breaks, returns or shares a list runs in order") {
  auto warned = [](const std::string& plans, const std::string& why) {
    return plans.rfind("in order\n", 0) == 0 && plans.find(why) != std::string::npos;
  };
  CHECK(warned(plans_of("def f(a, b):\n    x = 0.0\n    for i in prange(a.shape[0]):\n        x = x * 0.5 + a[i]\n"
                        "    b[0] = x\n"),
               "'x' carries a value from one iteration into the next and is not a reduction"));
  // A reduction name read elsewhere in the body is no reduction.
  CHECK(warned(plans_of("def f(a, b):\n    s = 0.0\n    for i in prange(a.shape[0]):\n        s += a[i]\n"
                        "        b[i] = s\n"),
               "'s' carries a value"));
  // += here and *= there: no one reduction.
  CHECK(warned(plans_of("def f(a, b):\n    s = 1.0\n    for i in prange(a.shape[0]):\n        s += a[i]\n"
                        "        s *= 2.0\n    b[0] = s\n"),
               "'s' carries a value"));
  // Assigned on one branch only, then read: the other branch reads the last iteration's value.
  CHECK(warned(plans_of("def f(a, b):\n    y = 0.0\n    for i in prange(a.shape[0]):\n        if a[i] > 0:\n"
                        "            y = a[i]\n        b[i] = y\n"),
               "'y' carries a value"));
  CHECK(warned(plans_of("def f(a, b):\n    for i in prange(a.shape[0]):\n        if a[i] > 0:\n            break\n"
                        "        b[i] = 1.0\n"),
               "it breaks out of the loop"));
  CHECK(warned(plans_of("def f(a, b):\n    for i in prange(a.shape[0]):\n        if a[i] > 0:\n            return\n"
                        "        b[i] = 1.0\n"),
               "it returns from inside the loop"));
  CHECK(warned(plans_of("def f(a, b):\n    for i in prange(a.shape[0]):\n        b[i] = 1.0\n    else:\n"
                        "        b[0] = 2.0\n"),
               "it has an else branch"));
}

TEST_CASE("prange: only the outermost loop is parallel; a break in an inner loop is its own") {
  CHECK(plans_of("def f(a, b):\n    for i in prange(a.shape[0]):\n        m = 0.0\n"
                 "        for j in prange(a.shape[0]):\n            m = max(m, a[j])\n"
                 "        for j in range(3):\n            if j == 1:\n                break\n        b[i] = m\n") ==
        "in order\nparallel privates=[i, m, j] reductions=[]\n");  // inner loops are stored first
}

TEST_CASE("prange: found however it was imported (numba.prange, a renamed numba, a renamed prange)") {
  const std::string want = "parallel privates=[i] reductions=[s +]\n";
  CHECK(plans_of("def f(a, b):\n    s = 0.0\n    for i in numba.prange(a.shape[0]):\n        s += a[i]\n"
                 "    b[0] = s\n") == want);
  // Module-level imports after f still name its globals, as Numba resolves them when f compiles.
  CHECK(plans_of("def f(a, b):\n    s = 0.0\n    for i in nb.prange(a.shape[0]):\n        s += a[i]\n"
                 "    b[0] = s\n\nimport numba as nb\n") == want);
  CHECK(plans_of("def f(a, b):\n    s = 0.0\n    for i in pr(a.shape[0]):\n        s += a[i]\n"
                 "    b[0] = s\n\nfrom numba import prange as pr\n") == want);
  // A range is no prange.
  CHECK(plans_of("def f(a, b):\n    s = 0.0\n    for i in range(a.shape[0]):\n        s += a[i]\n"
                 "    b[0] = s\n") == "");
}

TEST_CASE("the thread pool runs parts concurrently and hands the first failure to the caller") {
  if (sim::thread_limit().threads < 2 || !sim::thread_limit().error.empty()) return;  // one core: nothing to show
  // Two parts that wait for each other can only finish if they run at once.
  std::mutex mutex;
  std::condition_variable met;
  int arrived = 0;
  bool timed_out = false;
  sim::set_num_threads(2);
  sim::run_parts(
      2,
      [&](int) {
        std::unique_lock<std::mutex> lock(mutex);
        ++arrived;
        met.notify_all();
        if (!met.wait_for(lock, std::chrono::seconds(20), [&] { return arrived == 2; })) timed_out = true;
      },
      [] {});
  CHECK(arrived == 2);
  CHECK_FALSE(timed_out);
  // A failing part: the others still run, and the caller sees the exception.
  std::atomic<int> ran{0};
  CHECK_THROWS_WITH_AS(sim::run_parts(
                           8,
                           [&](int part) {
                             ++ran;
                             if (part == 3) throw std::runtime_error("part 3 failed");
                           },
                           [] {}),
                       "part 3 failed", std::runtime_error);
  CHECK(ran.load() >= 4);
  // Inside a part, a loop is one part.
  int inner_parts = -1;
  sim::run_parts(1, [&](int) { inner_parts = sim::parallel_parts(1000); }, [] {});
  CHECK(sim::parallel_parts(1000) == 2);
  sim::set_num_threads(1);
  CHECK(sim::parallel_parts(1000) == 1);
  sim::set_num_threads(0);
}

namespace {
const char* parallel_source = R"py(import numba
from numba import njit, prange

@njit(parallel=True)
def summed(a, threads):
    numba.set_num_threads(threads)
    total = 0
    lowest = a[0]
    for i in prange(a.shape[0]):
        total += a[i] * (i % 7)
        lowest = min(lowest, a[i])
        last = a[i] + 1
    return total, lowest, last, numba.get_num_threads()

@njit(parallel=True)
def ids(out):
    for i in prange(out.shape[0]):
        out[i] = numba.get_thread_id()

@njit(parallel=True, boundscheck=True)
def failing(a, at):
    for i in prange(a.shape[0]):
        a[i + at] = 1

@njit(parallel=True)
def threads(n):
    numba.set_num_threads(n)
)py";
}  // namespace

TEST_CASE("a parallel host call gives the sequential answer for any number of threads") {
  auto module = Module::load_source(parallel_source, "par.py");
  REQUIRE(module.ok());
  auto summed = module->function("summed");
  REQUIRE(summed.ok());
  Array a = Array::zeros(DType::int_(64), {100003});
  int64_t total = 0, lowest = 0;
  for (int64_t i = 0; i < a.size(); ++i) {
    int64_t v = (i * 7919) % 1000 - 500;
    a.at<int64_t>(i) = v;
    total += v * (i % 7);
    lowest = std::min(lowest, v);
  }
  int limit = sim::thread_limit().threads;
  for (int64_t threads : {int64_t(1), int64_t(limit)}) {
    auto r = summed->call(a, threads);
    REQUIRE_MESSAGE(r.ok(), r.error().message);
    REQUIRE(r->values.size() == 4);
    CHECK(r->values[0].integer == total);
    CHECK(r->values[1].integer == lowest);
    CHECK(r->values[2].integer == a.at<int64_t>(a.size() - 1) + 1);  // the last iteration's value
    CHECK(r->values[3].integer == threads);
    CHECK(r->warnings.empty());
  }
  auto ids = module->function("ids");
  Array out = Array::zeros(DType::int_(64), {64});
  REQUIRE(ids->call(out).ok());
  for (int64_t i = 0; i < out.size(); ++i) CHECK((out.at<int64_t>(i) >= 0 && out.at<int64_t>(i) < limit));
}

TEST_CASE("a parallel host call's errors are Numba's: IndexError in a part, ValueError from set_num_threads") {
  auto module = Module::load_source(parallel_source, "par.py");
  REQUIRE(module.ok());
  Array a = Array::zeros(DType::int_(64), {1000});
  auto failed = module->function("failing")->call(a, int64_t(5));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().message == "par.py:23: IndexError: index 1000 is out of bounds for axis 0 with size 1000");
  auto refused = module->function("threads")->call(int64_t(0));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message ==
        fmt::format("par.py:27: ValueError: The number of threads must be between 1 and {}", sim::thread_limit().threads));
}

// Integer min/max chains in a loop that carries a value are written as branches on the host
// (emit/carried_chains.h, runtime pk::min_branch): which ones, and that they compute what
// Numba's min and max do.
#include <string>

#include <doctest/doctest.h>

#include "compiler/translate.h"
#include "pykern/function.h"

namespace {

const char* chains_source = R"py(from numba import cuda, njit

@cuda.jit('void(int64[:], int64[:], int64[:])')
def edit_row(a, b, row):
    diagonal = row[0]
    for j in range(1, b.shape[0] + 1):
        above = row[j]
        row[j] = min(above + 1, row[j - 1] + 1, diagonal + (0 if a[0] == b[j - 1] else 1))
        diagonal = above

@cuda.jit('void(int64[:], int64[:], int64[:], int64[:])')
def elementwise(a, b, c, out):
    for i in range(a.shape[0]):
        out[i] = min(a[i], b[i], c[i])

@cuda.jit('void(int64[:], int64[:])')
def reduction(a, out):
    m = a[0]
    for i in range(a.shape[0]):
        m = min(m, a[i])
    out[0] = m

@cuda.jit('void(float64[:], float64[:])')
def float_chain(a, out):
    carried = 0.0
    for i in range(a.shape[0]):
        out[i] = min(a[i], carried, 1.0)
        carried = a[i]

@njit
def levenshtein(a, b, row):
    m = b.shape[0]
    for j in range(m + 1):
        row[j] = j
    for i in range(1, a.shape[0] + 1):
        diagonal = row[0]
        row[0] = i
        for j in range(1, m + 1):
            above = row[j]
            substitution = diagonal + (0 if a[i - 1] == b[j - 1] else 1)
            row[j] = min(above + 1, row[j - 1] + 1, substitution)
            diagonal = above
    return row[m]

@njit
def longest_run(a):
    best = 0
    run = 0
    for i in range(a.shape[0]):
        run = max(0, max(run + 1 if a[i] > 0 else 0, run - 100))
        best = max(best, max(run, best - 1))
    return best
)py";

// The CUDA C++ of a kernel, or of an @njit function typed for `host_types`.
std::string emitted(const std::string& kernel, const std::string& host_types = "") {
  pykern::compiler::Request request{chains_source, "chains.py", {}};
  request.options.emit = pykern::EmitKind::cuda;
  request.options.use_cache = false;
  if (host_types.empty()) request.options.kernels = {kernel};
  else request.host_functions = {{kernel, host_types}};
  auto translated = pykern::compiler::translate(request);
  REQUIRE_MESSAGE(translated.ok(), (translated.ok() ? std::string() : translated.error().describe()));
  return translated->output.cuda_source;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

pykern::Array int64s(std::vector<int64_t> values) { return pykern::Array::from<int64_t>(values); }

}  // namespace

TEST_CASE("a chain of integer mins in a loop that carries a value is written as branches; others stay selects") {
  std::string row = emitted("edit_row");
  CHECK(has(row, "pk::min_branch(pk::min_branch("));
  CHECK_FALSE(has(row, "pk::min("));
  // No carried value: the loop may vectorise, so the select stays.
  CHECK(has(emitted("elementwise"), "pk::min(pk::min("));
  CHECK_FALSE(has(emitted("elementwise"), "min_branch"));
  // A reduction carries m, but through one min: no chain.
  CHECK_FALSE(has(emitted("reduction"), "min_branch"));
  // Floats keep Python's select (a NaN operand), and vectorise.
  CHECK_FALSE(has(emitted("float_chain"), "min_branch"));
}

TEST_CASE("branch-written min and max chains give Numba's results in host calls") {
  pykern::ModuleOptions options;
  options.use_cache = false;
  auto module = pykern::Module::load_source(chains_source, "chains.py", options);
  REQUIRE(module.ok());
  // kitten -> sitting: 3 edits; 0..3 against 3..0 and empty strings.
  auto distance = [&](std::vector<int64_t> a, std::vector<int64_t> b) {
    pykern::Array row = pykern::Array::zeros(pykern::DType::int_(64), {static_cast<int64_t>(b.size()) + 1});
    auto r = module->function("levenshtein")->call(int64s(a), int64s(b), row);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? std::string() : r.error().message));
    return r->values.at(0).integer;
  };
  CHECK(distance({'k', 'i', 't', 't', 'e', 'n'}, {'s', 'i', 't', 't', 'i', 'n', 'g'}) == 3);
  CHECK(distance({0, 1, 2, 3}, {3, 2, 1, 0}) == 4);
  CHECK(distance({}, {1, 2}) == 2);
  CHECK(distance({5, 6, 7}, {}) == 3);
  CHECK(distance({1, 2, 3}, {1, 2, 3}) == 0);
  // A max chain with a carried value: the longest run of positive values.
  auto run = module->function("longest_run")->call(int64s({1, 1, 0, 1, 1, 1, -2, 1}));
  REQUIRE(run.ok());
  CHECK(run->values.at(0).integer == 3);
  std::string source = emitted("longest_run", "(int64[::1],)");
  CHECK(has(source, "pk::max_branch"));
}

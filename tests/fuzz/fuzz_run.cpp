// libFuzzer target that writes kernels instead of mutating text: the input drives a generator of
// typed expression trees (int64 and float64, Python's operators, builtins and math functions),
// and each generated kernel runs on the CPU simulator twice:
//   - `runtime`: the operands come from arrays, so every operation runs in the runtime headers;
//   - `folded`:  the same expression with the operands written as literals, bound to module
//                globals, which pykern's constant folder evaluates at compile time (as Numba
//                freezes globals).
// Both must give the same bits (NaN matching NaN). Anything else (a crash, a trap, the host
// compiler rejecting generated code, a difference) aborts with the kernel printed.
// PYKERN_FUZZ_VERBOSE=1 prints every program run and every refusal. Seed it with random bytes
// and -len_control=0: each input is a stream of the generator's choices (.ci/run).
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "pykern/module.h"

namespace {

// Values the generator's operands take: the edges where Python and C++ disagree, and plain ones.
constexpr int64_t interesting_ints[] = {0, 1, -1, 2, -2, 3, 7, -7, 63, 64, 65, -64, 1000, INT64_MAX, INT64_MIN, 255, 256};
constexpr double interesting_floats[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e300, -1e300, 1e-310, 7.25, 100.0};

std::string int_literal(int64_t v) {
  if (v == INT64_MIN) return "(-9223372036854775807 - 1)";
  return v < 0 ? fmt::format("({})", v) : std::to_string(v);
}

std::string float_literal(double v) {
  std::string text = fmt::format("{:.17g}", v);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return v < 0 || std::signbit(v) ? "(" + text + ")" : text;
}

// Writes one expression twice: with variable names and with their values as literals.
class Generator {
 public:
  Generator(FuzzedDataProvider& input, const int64_t ints[2], const double floats[2])
      : input_(input), ints_(ints), floats_(floats) {}

  struct Text {
    std::string runtime, folded;
  };

  Text int_expr(int depth) {
    switch (depth <= 0 ? input_.ConsumeIntegralInRange(0, 1) : input_.ConsumeIntegralInRange(0, 9)) {
      case 0: {
        int which = input_.ConsumeIntegralInRange(0, 1);
        return {which ? "b" : "a", int_literal(ints_[which])};
      }
      case 1: {
        std::string v = int_literal(input_.PickValueInArray(interesting_ints));
        return {v, v};
      }
      case 2: case 3: {
        static const char* ops[] = {"+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^"};
        return binary(int_expr(depth - 1), input_.PickValueInArray(ops), int_expr(depth - 1));
      }
      case 4: {
        Text e = int_expr(depth - 1);
        const char* op = input_.ConsumeBool() ? "-" : "~";
        return {fmt::format("({}{})", op, e.runtime), fmt::format("({}{})", op, e.folded)};
      }
      case 5: {
        static const char* calls[] = {"abs", "min", "max"};
        return call(input_.PickValueInArray(calls), depth, true);
      }
      case 6: {
        Text base = int_expr(depth - 1);
        std::string exponent = std::to_string(input_.ConsumeIntegralInRange(0, 5));
        return {fmt::format("({} ** {})", base.runtime, exponent), fmt::format("({} ** {})", base.folded, exponent)};
      }
      case 7: return conditional(depth, true);
      case 8: {  // bools count as integers
        Text c = condition(depth - 1);
        return {fmt::format("({} + 0)", c.runtime), fmt::format("({} + 0)", c.folded)};
      }
      default: {  // round(), int() of a float are left out: Numba leaves them undefined for inf and NaN
        Text c = condition(depth - 1);
        return {fmt::format("int({})", c.runtime), fmt::format("int({})", c.folded)};
      }
    }
  }

  Text float_expr(int depth) {
    switch (depth <= 0 ? input_.ConsumeIntegralInRange(0, 1) : input_.ConsumeIntegralInRange(0, 8)) {
      case 0: {
        int which = input_.ConsumeIntegralInRange(0, 1);
        return {which ? "g" : "f", float_literal(floats_[which])};
      }
      case 1: {
        std::string v = float_literal(input_.PickValueInArray(interesting_floats));
        return {v, v};
      }
      case 2: case 3: {
        static const char* ops[] = {"+", "-", "*", "/", "//", "%"};
        bool mixed = input_.ConsumeBool();  // int op float promotes
        return binary(mixed ? int_expr(depth - 1) : float_expr(depth - 1), input_.PickValueInArray(ops),
                      float_expr(depth - 1));
      }
      case 4: {
        Text e = float_expr(depth - 1);
        return {fmt::format("(-{})", e.runtime), fmt::format("(-{})", e.folded)};
      }
      case 5: {
        static const char* calls[] = {"abs", "min", "max", "math.sqrt", "math.sin", "math.atan", "math.fabs", "math.tanh",
                                      "math.copysign", "math.hypot", "math.atan2", "float"};
        return call(input_.PickValueInArray(calls), depth, false);
      }
      case 6: {
        Text base = float_expr(depth - 1);
        std::string exponent = std::to_string(input_.ConsumeIntegralInRange(-3, 4));
        return {fmt::format("({} ** {})", base.runtime, exponent), fmt::format("({} ** {})", base.folded, exponent)};
      }
      case 7: return conditional(depth, false);
      default: {
        Text e = int_expr(depth - 1);
        return {fmt::format("float({})", e.runtime), fmt::format("float({})", e.folded)};
      }
    }
  }

 private:
  static Text binary(const Text& left, const char* op, const Text& right) {
    return {fmt::format("({} {} {})", left.runtime, op, right.runtime),
            fmt::format("({} {} {})", left.folded, op, right.folded)};
  }

  Text call(const std::string& name, int depth, bool integer) {
    bool two = name == "min" || name == "max" || name == "math.copysign" || name == "math.hypot" || name == "math.atan2";
    Text first = integer ? int_expr(depth - 1) : float_expr(depth - 1);
    if (name == "math.sqrt") first = {"abs(" + first.runtime + ")", "abs(" + first.folded + ")"};
    if (!two) return {fmt::format("{}({})", name, first.runtime), fmt::format("{}({})", name, first.folded)};
    Text second = integer ? int_expr(depth - 1) : float_expr(depth - 1);
    return {fmt::format("{}({}, {})", name, first.runtime, second.runtime),
            fmt::format("{}({}, {})", name, first.folded, second.folded)};
  }

  Text conditional(int depth, bool integer) {
    Text yes = integer ? int_expr(depth - 1) : float_expr(depth - 1);
    Text test = condition(depth - 1);
    Text no = integer ? int_expr(depth - 1) : float_expr(depth - 1);
    return {fmt::format("({} if {} else {})", yes.runtime, test.runtime, no.runtime),
            fmt::format("({} if {} else {})", yes.folded, test.folded, no.folded)};
  }

  Text condition(int depth) {
    static const char* comparisons[] = {"<", "<=", "==", "!=", ">", ">="};
    switch (depth <= 0 ? 0 : input_.ConsumeIntegralInRange(0, 3)) {
      case 0: return binary(int_expr(depth - 1), input_.PickValueInArray(comparisons), int_expr(depth - 1));
      case 1: return binary(float_expr(depth - 1), input_.PickValueInArray(comparisons), float_expr(depth - 1));
      case 2: {
        Text c = condition(depth - 1);
        return {"(not " + c.runtime + ")", "(not " + c.folded + ")"};
      }
      default: return binary(condition(depth - 1), input_.ConsumeBool() ? "and" : "or", condition(depth - 1));
    }
  }

  FuzzedDataProvider& input_;
  const int64_t* ints_;
  const double* floats_;
};

std::string source_text(const Generator::Text& int_expr, const Generator::Text& float_expr) {
  return fmt::format(
      "import math\n"
      "from numba import cuda\n\n"
      "FOLDED_INT = {}\n"
      "FOLDED_FLOAT = {}\n\n"
      "@cuda.jit\n"
      "def runtime(xi, xf, out_i, out_f):\n"
      "    a = xi[0]\n"
      "    b = xi[1]\n"
      "    f = xf[0]\n"
      "    g = xf[1]\n"
      "    out_i[0] = {}\n"
      "    out_f[0] = {}\n\n"
      "@cuda.jit\n"
      "def folded(xi, xf, out_i, out_f):\n"
      "    out_i[0] = FOLDED_INT\n"
      "    out_f[0] = FOLDED_FLOAT\n",
      int_expr.folded, float_expr.folded, int_expr.runtime, float_expr.runtime);
}

bool same_bits(double x, double y) { return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof x) == 0; }

[[noreturn]] void fail(const std::string& why, const std::string& source) {
  std::fprintf(stderr, "%s\n--- generated kernel file ---\n%s\n", why.c_str(), source.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const int64_t ints[2] = {input.PickValueInArray(interesting_ints), input.ConsumeIntegral<int64_t>()};
  const double floats[2] = {input.PickValueInArray(interesting_floats), input.ConsumeFloatingPoint<double>()};
  if (!std::isfinite(floats[1])) return 0;  // no literal spells inf or NaN
  Generator generator(input, ints, floats);
  int depth = input.ConsumeIntegralInRange(1, 5);
  Generator::Text int_expr = generator.int_expr(depth);
  Generator::Text float_expr = generator.float_expr(depth);
  std::string source = source_text(int_expr, float_expr);

  pykern::ModuleOptions options;
  options.use_cache = false;
  auto module = pykern::Module::load_source(source, "generated.py", options);
  if (!module.ok()) {
    // A typing error on a generated program is pykern's to explain, not a crash; an internal
    // error is a bug.
    if (module.error().kind == pykern::ErrorKind::internal) fail(module.error().describe(), source);
    if (std::getenv("PYKERN_FUZZ_VERBOSE")) std::fprintf(stderr, "refused: %s\n", module.error().describe().c_str());
    return 0;
  }
  pykern::Array xi = pykern::Array::zeros(pykern::DType::int_(64), {2});
  pykern::Array xf = pykern::Array::zeros(pykern::DType::float_(64), {2});
  std::memcpy(xi.data(), ints, sizeof ints);
  std::memcpy(xf.data(), floats, sizeof floats);
  int64_t out_i[2] = {};
  double out_f[2] = {};
  const char* names[2] = {"runtime", "folded"};
  for (int run = 0; run < 2; ++run) {
    pykern::Array oi = pykern::Array::zeros(pykern::DType::int_(64), {1});
    pykern::Array of = pykern::Array::zeros(pykern::DType::float_(64), {1});
    auto kernel = module->kernel(names[run]);
    if (!kernel.ok()) fail(kernel.error().describe(), source);
    auto status = kernel->launch(pykern::Launch(1, 1).backend(pykern::Backend::cpu).timeout(30), xi, xf, oi, of);
    if (!status.ok()) {
      if (status.error().kind == pykern::ErrorKind::compile) {  // refused with a diagnostic
        if (std::getenv("PYKERN_FUZZ_VERBOSE")) std::fprintf(stderr, "refused: %s\n", status.error().describe().c_str());
        return 0;
      }
      fail(status.error().describe(), source);
    }
    out_i[run] = *static_cast<int64_t*>(oi.data());
    out_f[run] = *static_cast<double*>(of.data());
  }
  if (std::getenv("PYKERN_FUZZ_VERBOSE")) std::fprintf(stderr, "ran: %s", source.c_str());
  if (out_i[0] != out_i[1]) fail(fmt::format("int64: runtime {} != folded {}", out_i[0], out_i[1]), source);
  if (!same_bits(out_f[0], out_f[1]))
    fail(fmt::format("float64: runtime {:.17g} != folded {:.17g}", out_f[0], out_f[1]), source);
  return 0;
}

// The runtime headers' GPU code, checked in the PTX that NVRTC makes of small kernels: the
// instructions numba-cuda emits for integer atomics and float16 arithmetic, not the software
// loops and conversions that stand in for them. Skipped where NVRTC cannot be loaded.
#include <regex>
#include <string>

#include <doctest/doctest.h>

#include "jit/nvrtc.h"
#include "pykern/compiler.h"

namespace {

// The PTX of `source`'s kernels (their signatures in the decorators), for sm_90.
std::string ptx_of(const std::string& source) {
  pykern::CompileOptions options;
  options.emit = pykern::EmitKind::ptx;
  options.arch = "sm_90";
  options.use_cache = false;
  auto compiled = pykern::compile_source(source, "kernel.py", options);
  REQUIRE_MESSAGE(compiled.ok(), (compiled.ok() ? std::string() : compiled.error().describe()));
  return compiled->binary;
}

// One kernel's body in `ptx`: from its .entry to the next one (or the end).
std::string entry_of(const std::string& ptx, const std::string& python_name) {
  size_t start = ptx.find(".entry pk_kernel_py_" + python_name + "_");
  REQUIRE_MESSAGE(start != std::string::npos, "no kernel " << python_name << " in the PTX");
  size_t end = ptx.find(".entry ", start + 1);
  return ptx.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// How many instructions of `ptx` match `pattern` (a regular expression for one mnemonic).
long count_of(const std::string& ptx, const std::string& pattern) {
  std::regex instruction("\\s" + pattern + "\\s");
  return std::distance(std::sregex_iterator(ptx.begin(), ptx.end(), instruction), std::sregex_iterator());
}

// atom.global.max.s32 where the compiler knows the address is global, atom.max.s32 elsewhere.
std::string atom(const std::string& operation) { return "atom(\\.global)?\\." + operation; }

bool have_nvrtc() {
  if (pykern::jit::nvrtc_version().ok()) return true;
  MESSAGE("NVRTC not found: the PTX checks are skipped");
  return false;
}

// A kernel of every integer atomic but cas on `dtype`, and one of cas alone.
std::string integer_atomics_source(const std::string& dtype, bool unsigned_type) {
  std::string sig = "'void(" + dtype + "[::1], " + dtype + "[::1], " + dtype + "[:, ::1])'";
  std::string text =
      "@cuda.jit(" + sig + ")\n"
      "def ops_" + dtype + "(state, values, olds):\n"
      "    i = cuda.grid(1)\n"
      "    if i < values.size:\n"
      "        v = values[i]\n"
      "        olds[i, 0] = cuda.atomic.max(state, 0, v)\n"
      "        olds[i, 1] = cuda.atomic.min(state, 1, v)\n"
      "        olds[i, 2] = cuda.atomic.and_(state, 2, v)\n"
      "        olds[i, 3] = cuda.atomic.or_(state, 3, v)\n"
      "        olds[i, 4] = cuda.atomic.xor(state, 4, v)\n"
      "        olds[i, 5] = cuda.atomic.exch(state, 5, v)\n"
      "        olds[i, 6] = cuda.atomic.nanmax(state, 6, v)\n"
      "        olds[i, 7] = cuda.atomic.nanmin(state, 7, v)\n";
  if (unsigned_type)
    text +=
        "        olds[i, 8] = cuda.atomic.inc(state, 8, v)\n"
        "        olds[i, 9] = cuda.atomic.dec(state, 9, v)\n";
  text +=
      "@cuda.jit(" + sig + ")\n"
      "def swap_" + dtype + "(state, values, olds):\n"
      "    i = cuda.grid(1)\n"
      "    if i < values.size:\n"
      "        olds[i, 0] = cuda.atomic.cas(state, 0, values[0], values[i])\n";
  return text;
}

}  // namespace

TEST_CASE("integer atomics compile to the GPU's atom instructions, as numba-cuda's do, not to compare-and-swap loops") {
  if (!have_nvrtc()) return;
  struct Case {
    const char* dtype;
    const char* order;  // max/min compare signed or unsigned
    const char* bits;   // and/or/xor/exch/cas work on the bits
    bool is_unsigned;
  };
  const Case cases[] = {{"int32", "s32", "b32", false},
                        {"uint32", "u32", "b32", true},
                        {"int64", "s64", "b64", false},
                        {"uint64", "u64", "b64", true}};
  std::string source = "from numba import cuda\n";
  for (const Case& c : cases) source += integer_atomics_source(c.dtype, c.is_unsigned);
  std::string ptx = ptx_of(source);
  for (const Case& c : cases) {
    CAPTURE(c.dtype);
    std::string ops = entry_of(ptx, std::string("ops_") + c.dtype);
    // max and nanmax, min and nanmin: integers have no NaN, so numba-cuda lowers both alike.
    CHECK(count_of(ops, atom(std::string("max.") + c.order)) == 2);
    CHECK(count_of(ops, atom(std::string("min.") + c.order)) == 2);
    for (const char* operation : {"and", "or", "xor", "exch"})
      CHECK_MESSAGE(count_of(ops, atom(std::string(operation) + "." + c.bits)) == 1, operation);
    if (std::string(c.dtype) == "uint32") {
      CHECK(count_of(ops, atom("inc.u32")) == 1);
      CHECK(count_of(ops, atom("dec.u32")) == 1);
      CHECK(count_of(ops, atom("cas\\.b\\d+")) == 0);
    } else if (std::string(c.dtype) == "uint64") {
      // The GPU has no 64-bit inc/dec: numba-cuda loops with compare-and-swap too
      // (___numba_atomic_u64_inc/dec), one loop each.
      CHECK(count_of(ops, atom("cas.b64")) == 2);
    } else {
      CHECK(count_of(ops, atom("cas\\.b\\d+")) == 0);
    }
    // cas is one compare-and-swap, not a loop of them.
    std::string swap = entry_of(ptx, std::string("swap_") + c.dtype);
    CHECK(count_of(swap, atom(std::string("cas.") + c.bits)) == 1);
    CHECK(count_of(swap, "atom\\S*") == 1);
  }
}

TEST_CASE("float16 arithmetic compiles to the GPU's half instructions, rounded on each operation") {
  if (!have_nvrtc()) return;
  std::string ptx = ptx_of(
      "from numba import cuda\n"
      "from numba.cuda import fp16\n"
      "@cuda.jit('void(float16[::1], float16[::1], float16[::1], float16[::1])')\n"
      "def arithmetic(out, a, b, c):\n"
      "    i = cuda.grid(1)\n"
      "    if i < out.size:\n"
      "        out[i] = a[i] * b[i] + c[i] - a[i]\n"
      "@cuda.jit('void(float16[::1], float16[::1], float16[::1], float16[::1])')\n"
      "def fused(out, a, b, c):\n"
      "    i = cuda.grid(1)\n"
      "    if i < out.size:\n"
      "        out[i] = fp16.hfma(a[i], b[i], c[i])\n"
      "@cuda.jit('void(float16[::1], float64[::1], float32[::1], int32[::1])')\n"
      "def convert(out, wide, single, whole):\n"
      "    i = cuda.grid(1)\n"
      "    if i < out.size:\n"
      "        out[i] = wide[i]\n"
      "        single[i] = out[i]\n"
      "        out[i] = single[i]\n"
      "        out[i] = whole[i]\n");
  // .rn on each: without it ptxas may fuse the multiply and the add, which rounds once where
  // the simulator rounds twice.
  const std::string float_conversion = "cvt\\S*\\.f(16|32|64)";  // not the index arithmetic's
  std::string arithmetic = entry_of(ptx, "arithmetic");
  CHECK(count_of(arithmetic, "mul\\.rn\\.f16") == 1);
  CHECK(count_of(arithmetic, "add\\.rn\\.f16") == 1);
  CHECK(count_of(arithmetic, "sub\\.rn\\.f16") == 1);
  CHECK(count_of(arithmetic, float_conversion) == 0);  // no widening to float32 and rounding back
  CHECK(count_of(arithmetic, "fma\\S*") == 0);
  std::string fused = entry_of(ptx, "fused");
  CHECK(count_of(fused, "fma\\.rn\\.f16") == 1);
  CHECK(count_of(fused, float_conversion) == 0);
  // Conversions are one instruction each: float64 directly (through float32 would round twice).
  std::string convert = entry_of(ptx, "convert");
  CHECK(count_of(convert, "cvt\\.rn\\.f16\\.f64") == 1);
  CHECK(count_of(convert, "cvt\\.f32\\.f16") == 1);
  CHECK(count_of(convert, "cvt\\.rn\\.f16\\.f32") >= 1);
  CHECK(count_of(convert, "cvt\\.rn\\.f32\\.s32") == 1);
}

TEST_CASE("float % divides once, as numba-cuda's NVVM lowers it, not CUDA's fmod loop") {
  if (!have_nvrtc()) return;
  std::string ptx = ptx_of(
      "from numba import cuda\n"
      "@cuda.jit('void(float64[::1], float64[::1], float64[::1])')\n"
      "def wrap64(x, box, out):\n"
      "    i = cuda.grid(1)\n"
      "    if i < x.size:\n"
      "        out[i] = x[i] % box[i]\n"
      "@cuda.jit('void(float32[::1], float32[::1], float32[::1])')\n"
      "def wrap32(x, box, out):\n"
      "    i = cuda.grid(1)\n"
      "    if i < x.size:\n"
      "        out[i] = x[i] % box[i]\n");
  // |a| - floor(|a| / |b|) * |b|: one rounded division and one floor, where CUDA's fmod has
  // neither (it subtracts the shifted divisor once per bit of the quotient, in a loop).
  for (std::string bits : {"64", "32"}) {
    CAPTURE(bits);
    std::string wrap = entry_of(ptx, "wrap" + bits);
    CHECK(count_of(wrap, "div\\.rn\\.f" + bits) == 1);
    CHECK(count_of(wrap, "cvt\\.rmi\\.f" + bits + "\\.f" + bits) == 1);
  }
}

TEST_CASE("a float atomic max or min that leaves the element as it is writes nothing, as numba-cuda's") {
  if (!have_nvrtc()) return;
  std::string ptx = ptx_of(
      "from numba import cuda\n"
      "import numpy as np\n"
      "@cuda.jit('void(float32[::1])')\n"
      "def never_wins(x):\n"
      "    x[1] = cuda.atomic.min(x, 0, np.nan)\n"
      "@cuda.jit('void(float64[::1], float64[::1])')\n"
      "def running_max(x, values):\n"
      "    i = cuda.grid(1)\n"
      "    if i < values.size:\n"
      "        cuda.atomic.max(x, 0, values[i])\n");
  // A NaN never compares less: the element is read (volatile, as numba-cuda reads it), no
  // compare-and-swap is left.
  std::string never_wins = entry_of(ptx, "never_wins");
  CHECK(count_of(never_wins, "atom\\S*") == 0);
  CHECK(count_of(never_wins, "ld\\.volatile\\S*") == 1);
  // Where the value may win, one compare-and-swap in a loop, skipped where the element wins.
  std::string running_max = entry_of(ptx, "running_max");
  CHECK(count_of(running_max, atom("cas.b64")) == 1);
  CHECK(count_of(running_max, "ld\\.volatile\\S*") == 1);
}

// Module-level values kernels read, typed as Numba types the values Python computed at import:
// np.finfo / np.iinfo fields, enum members, dtypes, and arrays built by NumPy's functions.
#include <doctest/doctest.h>

#include <string>

#include "frontend/module.h"
#include "inferred_locals.h"
#include "sema/infer.h"
#include "syntax/syntax_tree.h"

using namespace pykern;

namespace {
// Infers `name` with `signature` and returns the locals as "name: type" lines (or the errors).
std::string locals_of(const std::string& text, const std::string& name, const std::string& signature) {
  return test::inferred_locals(text, name, signature, "a", false);
}
const char* header = "import enum\nimport math\nimport numpy as np\nfrom numba import cuda\n";
}  // namespace

TEST_CASE("np.finfo and np.iinfo fields have NumPy's types: eps of float32 is float32, iinfo's max a Python int") {
  std::string text = std::string(header) +
                     "EPS32 = np.finfo(np.float32).eps\nBIG = np.finfo('double').max\n"
                     "IMAX = np.iinfo(np.int32).max\nUMAX = np.iinfo(np.uint64).max\nBITS = np.finfo(np.float16).bits\n"
                     "@cuda.jit\ndef k(a):\n    e = EPS32\n    b = BIG\n    i = IMAX\n    u = UMAX\n    n = BITS\n"
                     "    t = np.finfo(a.dtype).tiny\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "e: float32\nb: float64\ni: int64\nu: uint64\nn: int64\nt: float32\n");
}

TEST_CASE("enum members: IntEnum and Enum members are their values' Numba types, .value reads them") {
  std::string text = std::string(header) +
                     "class Mode(enum.IntEnum):\n    A = 1\n    B = enum.auto()\n"
                     "class Gain(enum.Enum):\n    LOW = 0.5\n    HIGH = 2.0\n"
                     "@cuda.jit\ndef k(a):\n    m = Mode.B\n    g = Gain.HIGH\n    v = g.value\n    s = m + 1\n"
                     "    w = Mode['A']\n";
  CHECK(locals_of(text, "k", "void(float32[:])") == "m: int64\ng: float64\nv: float64\ns: int64\nw: int64\n");
}

TEST_CASE("module arrays from NumPy's functions are frozen read-only with NumPy's dtypes and shapes") {
  std::string text = std::string(header) +
                     "M = np.arange(12).reshape(3, -1)\nF = np.linspace(0, 1, 5).astype(np.float32)\n"
                     "D = cuda.to_device(np.ones((2, 2, 2), dtype=np.int16))\nW = np.array([1, 2, 1]) / 4\nB = M\n"
                     "@cuda.jit\ndef k(a):\n    m = M\n    f = F\n    d = D\n    w = W\n    b = B\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "m: readonly array(int64, 2d, C)\nf: readonly array(float32, 1d, C)\nd: readonly array(int16, 3d, C)\n"
        "w: readonly array(float64, 1d, C)\nb: readonly array(int64, 2d, C)\n");
}

TEST_CASE("a dtype's type converts and its itemsize is a constant") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a):\n    h = a.dtype.type(0.5)\n    n = a.dtype.itemsize\n"
                     "    i = np.dtype(np.int16).itemsize\n";
  CHECK(locals_of(text, "k", "void(float32[:])") == "h: float32\nn: int64\ni: int64\n");
}

TEST_CASE("a module record array is frozen with NumPy's layout: align=True pads, a packed C-like layout stays") {
  std::string text = std::string(header) +
                     "R = np.dtype([('a', np.uint8), ('y', np.uint32)], align=True)\n"
                     "T = np.array([(1, 2), (3, 4)], dtype=R)\n"
                     "P = np.array([(1.0, 2)], dtype=[('x', float), ('n', int)])\n"
                     "@cuda.jit\ndef k(a):\n    t = T\n    p = P\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "t: readonly array(Record(a[type=uint8;offset=0],y[type=uint32;offset=4];8;True), 1d, C)\n"
        "p: readonly array(Record(x[type=float64;offset=0],n[type=int64;offset=8];16;True), 1d, C)\n");
}

TEST_CASE("Python's float and int and NumPy's C-named aliases are dtypes at import: np.finfo(float), dtype=int") {
  std::string text = std::string(header) +
                     "E = np.finfo(float).eps\nS = np.finfo(np.single).eps\nI = np.iinfo(int).min\n"
                     "A = np.array([1, 2], dtype=float)\nZ = np.zeros(2, dtype=int)\nB = np.ones(2, dtype=np.byte)\n"
                     "@cuda.jit\ndef k(a):\n    e = E\n    s = S\n    i = I\n    x = A\n    z = Z\n    b = B\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "e: float64\ns: float32\ni: int64\nx: readonly array(float64, 1d, C)\nz: readonly array(int64, 1d, C)\n"
        "b: readonly array(int8, 1d, C)\n");
}

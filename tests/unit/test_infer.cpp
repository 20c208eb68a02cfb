// Inference by Numba's rules, read off the typed IR.
#include <doctest/doctest.h>

#include "frontend/module.h"
#include "sema/infer.h"
#include "syntax/syntax_tree.h"

using namespace pykern;

namespace {
// Infers `name` with `signature` and returns the locals as "name: type" lines.
std::string locals_of(const std::string& text, const std::string& name, const std::string& signature) {
  SourceFile file("k.py", text);
  auto tree = syntax::SyntaxTree::parse(file);
  REQUIRE(tree.ok());
  Diagnostics diagnostics;
  auto module = frontend::Module::build(*tree, diagnostics);
  SourceFile sig_file("sig", signature);
  auto parsed = sema::parse_signature(sig_file, diagnostics);
  REQUIRE(parsed);
  auto program = sema::infer(module, {{name, *parsed, {}}}, diagnostics);
  if (diagnostics.has_errors()) return diagnostics.render();
  std::string out;
  const ir::Function& f = program.functions[program.kernels.at(0)];
  for (const ir::Local& l : f.locals)
    if (!l.is_temporary) out += l.name + ": " + sema::to_string(l.type) + "\n";
  return out + "-> " + sema::to_string(f.return_type);
}
const char* header = "import math\nimport numpy as np\nfrom numba import cuda, float32\n";
}  // namespace

TEST_CASE("literals, thread indices and grid positions have Numba's types") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    t = cuda.threadIdx.x\n    f = 1.5\n"
                     "    b = True\n    c = 1j\n    x, y = cuda.grid(2)\n    w = cuda.blockDim.x * cuda.blockIdx.x\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "a: array(float32, 1d, A)\ni: int64\nt: int32\nf: float64\nb: bool\nc: complex128\nx: int64\n"
        "y: int64\nw: int64\n-> none");
}

TEST_CASE("a variable assigned on several paths unifies: acc = 0 then acc += float32 is float64") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a):\n    acc = 0\n    for v in a:\n        acc += v\n    a[0] = acc\n";
  CHECK(locals_of(text, "k", "void(float32[::1])") ==
        "a: array(float32, 1d, C)\nacc: float64\nv: float32\n-> none");
}

TEST_CASE("math keeps float32; integer true division is float64; floor gives a float on CUDA") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(a, n):\n    s = math.sin(a[0])\n    d = n / 2\n    q = n // 2\n"
                     "    fl = math.floor(a[0])\n    e = math.exp(n)\n    r = round(a[0])\n    p = a[0] ** 2\n"
                     "    m = max(a[0], 0.5)\n    z = abs(n)\n    k2 = np.float32(n)\n";
  CHECK(locals_of(text, "k", "void(float32[:], int32)") ==
        "a: array(float32, 1d, A)\nn: int32\ns: float32\nd: float64\nq: int64\nfl: float32\ne: float64\n"
        "r: int64\np: float32\nm: float64\nz: int32\nk2: float32\n-> none");
}

TEST_CASE("device functions are specialised per call-site types and return tuples") {
  std::string text = std::string(header) +
                     "@cuda.jit(device=True)\ndef pair(x, y):\n    return x * 2, y\n"
                     "@cuda.jit\ndef k(a):\n    u, v = pair(a[0], 1)\n    s, t = pair(1, 2.5)\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "a: array(float32, 1d, A)\nu: float64\nv: int64\ns: int64\nt: float64\n-> none");
  std::string device = std::string(header) + "@cuda.jit(device=True)\ndef f(a, b):\n    return a + b\n";
  CHECK(locals_of(device, "f", "f8(i4, i4)").find("-> float64") != std::string::npos);
}

TEST_CASE("module constants fold: TPB = 16 as a shape, SQRT_2PI as float32") {
  std::string text = std::string(header) +
                     "TPB = 16\nSQRT_2PI = np.float32((2*math.pi)**0.5)\nHALF = TPB // 2\n"
                     "@cuda.jit\ndef k(a):\n    s = cuda.shared.array(shape=(TPB, HALF), dtype=float32)\n"
                     "    c = SQRT_2PI\n    h = HALF\n";
  CHECK(locals_of(text, "k", "void(float32[:])") ==
        "a: array(float32, 1d, A)\ns: array(float32, 2d, C)\nc: float32\nh: int64\n-> none");
}

TEST_CASE("views: fixing a leading axis keeps C order, slicing gives A") {
  std::string text = std::string(header) +
                     "@cuda.jit\ndef k(m):\n    r = m[1]\n    c = m[:, 0]\n    s = m[1:3]\n    t = m.T\n";
  CHECK(locals_of(text, "k", "void(float32[:, ::1])") ==
        "m: array(float32, 2d, C)\nr: array(float32, 1d, C)\nc: array(float32, 1d, A)\n"
        "s: array(float32, 2d, A)\nt: array(float32, 2d, F)\n-> none");
}

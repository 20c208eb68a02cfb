#include <doctest/doctest.h>

#include "emit/emit_cuda.h"
#include "sema/ir.h"

using pykern::emit::mangle_local;

TEST_CASE("Python names are mangled so that none can collide with C++ or pykern names") {
  CHECK(mangle_local("x") == "py_x");
  CHECK(mangle_local("int") == "py_int");
  CHECK(mangle_local("__global__") == "py___global__");
  CHECK(mangle_local("pk_tmp0") == "py_pk_tmp0");  // pykern's own temporaries are pk_tmpN
  CHECK(mangle_local("é") == "pyx_c3a9");
  CHECK(mangle_local("a_b") != mangle_local("a__b"));
}

#include "jit/nvrtc.h"
#include "pykern/compiler.h"

TEST_CASE("decorator options reach NVRTC; kernels needing different options are refused together") {
  if (!pykern::jit::nvrtc_version().ok()) return;
  const char* text =
      "from numba import cuda\n"
      "@cuda.jit('void(f4[:])', opt=0, lineinfo=True, fastmath=True, max_registers=32)\ndef k(a):\n    a[0] = 1\n"
      "@cuda.jit('void(f4[:])', debug=True)\ndef d(a):\n    assert a[0] > 0, 'positive'\n    a[0] = 1\n";
  pykern::CompileOptions options;
  options.use_cache = false;
  options.arch = "sm_90";
  for (const char* kernel : {"k", "d"}) {
    options.kernels = {kernel};
    auto result = pykern::compile_source(text, "o.py", options);
    CAPTURE(kernel);
    CHECK(result.ok());
  }
  options.kernels.clear();
  auto both = pykern::compile_source(text, "o.py", options);
  REQUIRE_FALSE(both.ok());
  CHECK(both.error().message.find("different compiler options") != std::string::npos);
}

TEST_CASE("kernel and device symbols are distinct for names that differ only in spelling") {
  pykern::ir::Function a, b;
  a.python_name = "_c3a9";
  b.python_name = "\xc3\xa9";  // é
  CHECK(pykern::emit::device_symbol(a) != pykern::emit::device_symbol(b));
  CHECK(pykern::emit::kernel_symbol(a) != pykern::emit::kernel_symbol(b));
  CHECK(pykern::emit::kernel_symbol(a).rfind("pk_kernel_", 0) == 0);
}

#include <doctest/doctest.h>

#include "emit/emit_cuda.h"

using pykern::emit::mangle_local;

TEST_CASE("Python names are mangled so that none can collide with C++ or pykern names") {
  CHECK(mangle_local("x") == "py_x");
  CHECK(mangle_local("int") == "py_int");
  CHECK(mangle_local("__global__") == "py___global__");
  CHECK(mangle_local("pk_tmp0") == "py_pk_tmp0");  // pykern's own temporaries are pk_tmpN
  CHECK(mangle_local("é") == "pyx_c3a9");
  CHECK(mangle_local("a_b") != mangle_local("a__b"));
}

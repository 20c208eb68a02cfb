// pykern runtime, whole: the core every kernel includes, complex math and float16. The emitter
// includes only the parts a program needs (emit/includes.cpp); the library's own C++ includes
// this one.
#ifndef PYKERN_RUNTIME_CUH
#define PYKERN_RUNTIME_CUH
#include "pykern/core.cuh"
#include "pykern/cmath.cuh"
#include "pykern/fp16.cuh"
#endif  // PYKERN_RUNTIME_CUH

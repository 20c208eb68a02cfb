// pykern runtime: the one header emitted kernels include.
#pragma once
#include "pykern/base.cuh"
#include "pykern/complex.cuh"
#include "pykern/math.cuh"
#include "pykern/arith.cuh"
#include "pykern/errors.cuh"
#include "pykern/array.cuh"
#include "pykern/thread.cuh"
#include "pykern/random.cuh"

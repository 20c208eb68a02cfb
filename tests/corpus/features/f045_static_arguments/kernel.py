# Device functions take compile-time arguments as Numba's do: a dtype, a shape tuple, an atomic
# function, another device function and a bool literal. Each call specialises the callee on
# them; the branch under a False literal is pruned before typing (its uint64 % int64 would
# give float64 indices). (Numba's simulator keys shared arrays by call site, so the kernel
# calls through_shared once.)
import numpy as np
from numba import cuda, uint32, uint64, float64


@cuda.jit(device=True)
def through_shared(ary, amount, dtype, shape, op, cast, wrap):
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sm = cuda.shared.array(shape, dtype)
    sm[tx, ty] = ary[tx, ty]
    cuda.syncthreads()
    where = (tx, cast(ty))
    if wrap:
        where = (where[0] % shape[0], where[1] % shape[1])
    op(sm, where, amount)
    cuda.syncthreads()
    ary[tx, ty] = sm[tx, ty]


@cuda.jit(device=True)
def apply(op, ary, where, amount):
    op(ary, where, amount)


@cuda.jit(device=True)
def as_is(n):
    return n


@cuda.jit(device=True)
def to_uint64(n):
    return uint64(n)


@cuda.jit(device=True)
def scaled(x, factor=3):
    return x * factor


@cuda.jit
def static_arguments(counts, values, out):
    through_shared(counts, 1, uint32, (4, 8), cuda.atomic.add, to_uint64, False)
    apply(cuda.atomic.max, values, (cuda.threadIdx.x, as_is(cuda.threadIdx.y)), float64(2.5))
    i = cuda.threadIdx.x * 8 + cuda.threadIdx.y
    out[i] = scaled(i) + scaled(i, 2) + scaled(np.int32(i), 5)

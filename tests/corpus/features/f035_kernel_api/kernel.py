# More of numba-cuda's kernel API: selp, fma, cbrt, the bit intrinsics, math.frexp/modf/
# remainder/exp2/ldexp, laneid/warpsize, match_any_sync/match_all_sync, grid(3), nanosleep,
# and a local array with a tuple shape.
import math
from numba import cuda, float64


@cuda.jit
def kernel_api(x, bits, out_f, out_i):
    t = cuda.threadIdx.x
    out_i[t, 0] = cuda.laneid
    out_i[t, 1] = cuda.warpsize
    out_i[t, 2] = cuda.selp(t % 3 == 0, 10, 20)
    out_i[t, 3] = cuda.popc(bits[t])
    out_i[t, 4] = cuda.brev(bits[t])
    out_i[t, 5] = cuda.clz(bits[t])
    out_i[t, 6] = cuda.ffs(bits[t])
    x0, y0, z0 = cuda.grid(3)
    out_i[t, 7] = x0 + 10 * y0 + 100 * z0
    v = x[t]
    mantissa, exponent = math.frexp(v)
    fraction, whole = math.modf(v)
    out_f[t, 0] = mantissa
    out_f[t, 1] = exponent
    out_f[t, 2] = fraction
    out_f[t, 3] = whole
    out_f[t, 4] = math.remainder(v, 1.5)
    out_f[t, 5] = math.exp2(v / 4.0)
    out_f[t, 6] = math.ldexp(v, 3)
    out_f[t, 7] = cuda.fma(v, 2.0, 0.25)
    out_f[t, 8] = cuda.cbrt(abs(v))  # the simulator computes v ** (1/3): NaN below zero, unlike CUDA
    scratch = cuda.local.array((2, 3), float64)
    for i in range(2):
        for j in range(3):
            scratch[i, j] = v * (i + 1) + j
    out_f[t, 9] = scratch[1, 2] - scratch[0, 1]

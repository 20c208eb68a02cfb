# A program includes the runtime's complex math and float16 parts only where one of its values
# is complex or float16 (emit/includes.cpp); a step known to be positive tests i < stop.
from numba import cuda, float16, float32
import cmath
# pykern: --sig rotate=void(complex128[:], float64)
# pykern: --sig halve=void(float16[:], float32[:])
# pykern: --sig strided=void(float32[:])


@cuda.jit
def rotate(z, angle):
    i = cuda.grid(1)
    if i < z.size:
        z[i] = z[i] * cmath.exp(1j * angle)


@cuda.jit
def halve(h, out):
    i = cuda.grid(1)
    if i < h.size:
        out[i] = float32(h[i] * float16(0.5))


@cuda.jit
def strided(a):
    start = cuda.grid(1)
    step = cuda.gridsize(1)
    for i in range(start, a.size, step):
        a[i] = 2 * a[i]

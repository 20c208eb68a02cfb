# numba-cuda's vector types: constructors from scalars and from smaller vectors, CUDA's alias
# names, lanes read as attributes, vectors passed to and returned from device functions.
from numba import cuda


@cuda.jit(device=True)
def swizzle(v):
    return cuda.float32x4(v.w, v.z, v.y, v.x)


@cuda.jit
def vectors(a, out, ints):
    i = cuda.grid(1)
    if i < a.size:
        pair = cuda.float32x2(a[i], 2 * a[i])
        quad = cuda.float32x4(pair, 0.5, i)
        flipped = swizzle(quad)
        out[i, 0] = flipped.x
        out[i, 1] = flipped.y
        out[i, 2] = flipped.z
        out[i, 3] = flipped.w
        d = cuda.double3(a[i], pair.y, quad.z)
        out[i, 4] = d.x + d.y * d.z
        one = cuda.float32x1(a[i])
        out[i, 5] = cuda.float32x3(one, pair).z
        v = cuda.int2(i, -i)
        u = cuda.uchar4(i, 255, 1, 2)
        ints[i, 0] = v.x - v.y
        ints[i, 1] = u.y + u.x
        ints[i, 2] = cuda.int32x3(v, 7).z

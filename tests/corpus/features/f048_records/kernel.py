# Record (structured) dtypes as kernel arguments: fields by attribute and by name, subarray
# fields, a nested record, padding (align=True), a record variable that refers into the array,
# a record passed to a device function, and whole-record copies.
from numba import cuda


@cuda.jit(device=True)
def bump(r, v):
    r.b += v
    return r.a + v


@cuda.jit
def records(ary, copies, out):
    i = cuda.grid(1)
    if i < ary.shape[0]:
        r = ary[i]
        r.a = r.a * 2 + r.b
        out[i, 0] = bump(r, 10)
        out[i, 1] = r.c.real + r.c.imag + r.d[1] + r['h'][2, 1]
        r.d[0] = 7
        r['h'][0, 1] = r.x.z * 0.5
        r.x.y = r.x.y * 3 + 1
        ary[i]['b'] += 100
        out[i, 2] = r.b
        copies[i, 1] = ary[i]
        copies[i, 0].x.z = -1.5

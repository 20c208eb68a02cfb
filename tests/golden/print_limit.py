# print() as numba-cuda prints it on a GPU, where printf formats at most 32 values: a call of
# more than 32 items prints its raw format instead (with a warning), and past 32 values (a string
# literal or a tuple's element counts as one) the rest print as their conversions. Every value
# is still evaluated: the atomic adds happen.
from numba import cuda
# pykern: --sig items=void(int64[::1], uint32)
# pykern: --sig values=void(int64[::1], float32)

@cuda.jit
def items(r, u):
    print("100%", r[0], u, r[0] > 0, 2.5, (r[1], u), r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10],
          r[11], r[12], r[13], r[14], r[15], r[16], r[17], r[18], r[19], r[20], r[21], r[22], r[23], r[24],
          r[25], r[26], r[27], "last", cuda.atomic.add(r, 0, 1))

@cuda.jit
def values(r, f):
    t = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9])
    print("a", t, t, t, "b%", t, f > 0, f, cuda.atomic.add(r, 0, 1))

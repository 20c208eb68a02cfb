# The integer atomics numba-cuda lowers to native atom.* instructions (max/min/and/or/xor/exch/
# cas on int32, uint32, int64 and uint64; inc/dec on uint32) and the two it loops over with
# compare-and-swap (inc/dec on uint64). Signed and unsigned orders differ above 2**31 and 2**63;
# inc wraps to 0 at its bound, dec to the bound at 0 or above it. One thread, so that the order
# of the updates and every returned old value is fixed.
from numba import cuda


@cuda.jit(device=True)
def update(state, values, olds):
    held = state[6]  # what the compare-and-swap slot holds
    for i in range(values.size):
        v = values[i]
        olds[i, 0] = cuda.atomic.max(state, 0, v)
        olds[i, 1] = cuda.atomic.min(state, 1, v)
        olds[i, 2] = cuda.atomic.and_(state, 2, v)
        olds[i, 3] = cuda.atomic.or_(state, 3, v)
        olds[i, 4] = cuda.atomic.xor(state, 4, v)
        olds[i, 5] = cuda.atomic.exch(state, 5, v)
        # Every third swap expects a value the slot does not hold and fails; the others succeed.
        expected = v if i % 3 == 2 else held
        found = cuda.atomic.cas(state, 6, expected, v)
        olds[i, 6] = found
        if found == expected:
            held = v
        olds[i, 7] = cuda.atomic.nanmax(state, 7, v)
        olds[i, 8] = cuda.atomic.nanmin(state, 8, v)


@cuda.jit(device=True)
def wrap(counters, inc_bounds, dec_bounds, olds):
    for i in range(inc_bounds.size):
        olds[i, 0] = cuda.atomic.inc(counters, 0, inc_bounds[i])
        olds[i, 1] = cuda.atomic.dec(counters, 1, dec_bounds[i])


@cuda.jit
def native_atomics(s32, v32, o32, su32, vu32, ou32, s64, v64, o64, su64, vu64, ou64,
                   c32, inc32, dec32, w32, c64, inc64, dec64, w64):
    update(s32, v32, o32)
    update(su32, vu32, ou32)
    update(s64, v64, o64)
    update(su64, vu64, ou64)
    wrap(c32, inc32, dec32, w32)
    wrap(c64, inc64, dec64, w64)

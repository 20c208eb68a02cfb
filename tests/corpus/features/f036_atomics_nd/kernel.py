# Atomics on 2-d and 3-d arrays with tuple indices, on float64, int32 and uint32, including
# inc/dec with their wrap bounds. Every result is order-independent, so many threads may race.
from numba import cuda


@cuda.jit
def atomics_nd(values, sums, extremes, counters):
    i = cuda.grid(1)
    if i < values.size:
        v = values[i]
        cuda.atomic.add(sums, (i % 2, i % 3), v)
        cuda.atomic.max(extremes, (0, i % 2, 0), v)
        cuda.atomic.min(extremes, (1, i % 2, 1), v)
        cuda.atomic.add(counters, (0, i % 4), 1)
        cuda.atomic.inc(counters, (1, i % 4), 5)
        cuda.atomic.dec(counters, (2, i % 4), 3)
        cuda.atomic.max(counters, (3, i % 4), i)

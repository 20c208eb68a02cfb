# print() in a kernel: integers, negative and unsigned values, booleans, tuples (nested, and of
# one element) and string literals with every kind of escape, one line per thread, as Numba
# prints them.
import numpy as np
from numba import cuda


@cuda.jit
def print_values(values, out):
    i = cuda.grid(1)
    if i < values.size:
        print("thread", i, "value", values[i], 'tab\there "quoted" \'single\' back\\slash')
        print("\x41\u00e9\U0001F600 \101 100% done", np.uint32(values[i]) * 2, -i)
        print("even", i % 2 == 0, "pair", (i, -values[i]), "single", (i,), "nested", (i > 2, (i, 7)))
        out[i] = values[i] + 1

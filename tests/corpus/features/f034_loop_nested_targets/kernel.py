# Loop targets nest as Python's do: enumerate of zip, zip of three, a tuple bound whole, and
# iterating over a tuple.
from numba import cuda


@cuda.jit
def weave(xs, ys, zs, out):
    total = 0.0
    for k, (x, y) in enumerate(zip(xs, ys), 1):
        total += k * x * y
    out[0] = total
    total = 0.0
    for x, y, z in zip(xs, ys, zs):
        total += x - y * z
    out[1] = total
    total = 0.0
    for k, pair in enumerate(zip(ys, zs)):
        total += pair[0] * pair[1] + k
    out[2] = total
    total = 0.0
    for w in (1.5, 2.5, 4.0):
        total += w * xs[0]
    out[3] = total

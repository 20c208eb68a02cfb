# range(...) objects held in variables: iterated (twice), counted with len(), with negative and
# runtime steps, and empty.
from numba import cuda


@cuda.jit
def ranges(out, n, step):
    i = cuda.grid(1)
    if i < out.shape[0]:
        r = range(i, n, step)
        total = 0
        for v in r:
            total += v
        for v in r:
            total += 1
        down = range(n, i, -step)
        product = 1
        for v in down:
            product = (product * (v + 1)) % 1000003
        out[i, 0] = total
        out[i, 1] = len(r)
        out[i, 2] = len(down)
        out[i, 3] = product
        out[i, 4] = len(range(n, i))

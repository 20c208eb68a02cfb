# for-else, while-else, break/continue, tuples, chained comparisons, device functions with
# tuple returns and defaults, enumerate and zip, local arrays.
from numba import cuda, int64


@cuda.jit(device=True)
def divmod_floor(a, b=3):
    return a // b, a % b


@cuda.jit
def flow(values, out):
    i = cuda.grid(1)
    if i >= values.shape[0]:
        return
    n = values[i]
    found = -1
    for d in range(2, 20):
        if n % d == 0:
            found = d
            break
    else:
        found = 0
    k = 0
    steps = 0
    while k < n:
        k += 7
        steps += 1
        if steps > 100:
            break
    else:
        steps = -steps
    q, r = divmod_floor(n)
    q2, r2 = divmod_floor(n, 5)
    scratch = cuda.local.array(4, int64)
    for j, v in enumerate((q, r, q2, r2)):
        scratch[j] = v
    acc = 0
    for u, w in zip(scratch, values[:4]):
        if u == 0:
            continue
        acc += u * w
    a, b = n, -n
    a, b = b, a
    out[i, 0] = found
    out[i, 1] = steps
    out[i, 2] = acc
    out[i, 3] = 1 if 0 < n < 50 else (2 if n > 50 else 3)
    out[i, 4] = a - b

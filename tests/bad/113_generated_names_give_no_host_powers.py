# A kernel named like the one-thread kernels pykern generates for host calls is still the
# user's kernel: what a kernel may use does not follow from its name.
from numba import cuda

# pykern: --sig __pk_call_total=void(float64[::1], float64[::1])


@cuda.jit
def __pk_call_total(out, values):
    items = [0.0]
    for v in values:
        items.append(v)
    out[0] = len(items)

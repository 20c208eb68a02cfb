# literal_unroll over a tuple of several types versions a for loop's body: a second
# literal_unroll loop inside it is refused (Numba: "Nesting of literal_unroll is unsupported"),
# the loop's variable read after the loop holds several types (Numba: "Cannot unify"), and
# the tuple must be the loop's own iterable, not enumerate's.
import numpy as np
from numba import cuda, njit, literal_unroll

# pykern: --sig k=void(float64[:])


@njit
def nested(a):
    s = 0.0
    for x in literal_unroll((1, 2.5)):
        for y in literal_unroll((3, a)):
            s += x
    return s


@njit
def escaping(a):
    acc = 0.0
    for item in literal_unroll((1, a)):
        acc += 1.0
    return acc + item[0]


@njit
def counted(a):
    s = 0.0
    for j, v in enumerate(literal_unroll((1, 2.5))):
        s += v
    return s


@cuda.jit
def k(a):
    a[0] = nested(a) + escaping(a) + counted(a)

# Lists in @njit functions: literals, aliasing (two names, one list), append with conversion,
# negative indices, iteration, len, items written, and a list built in a loop and summed.
from numba import njit


@njit
def lists(n, scale):
    a = [1.5, 2.5]
    b = a
    b.append(n)
    total = 0.0
    for v in a:
        total += v
    a[0] = a[-1] * scale
    squares = []
    for i in range(n):
        squares.append(i * i)
    s = 0
    for k in range(len(squares)):
        s += squares[k]
    return len(a), total, a[0], s, squares[-1]

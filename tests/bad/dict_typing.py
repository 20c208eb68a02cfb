import numpy as np
from numba import cuda, njit, types
from numba.typed import Dict
# pykern: --sig k=void(int64[:])


@njit
def narrowing(n):
    d = {}
    d[1] = n
    d[2] = 2.5
    return d[1]


@njit
def mixed_keys(n):
    d = {1: 2.0, 2.5: 3}
    return d[n]


@njit
def list_value(n):
    d = {}
    d[n] = [1, 2]
    return len(d)


@njit
def never_stored(n):
    d = {}
    return d.get(n, 0)


@njit
def sliced(n):
    d = {1: 2}
    return d[0:n]


@njit
def in_keys(n):
    d = {1: 2}
    return n in d.keys()


@njit
def no_such_method(n):
    d = {1: 2}
    d.append(n)
    return n


@njit
def string_keys(n):
    d = Dict.empty(key_type=types.unicode_type, value_type=types.int64)
    return len(d)


@njit
def dict_of_values(n):
    d = dict(n)
    return len(d)


@njit
def array_key(n):
    d = {}
    d[np.zeros(n)] = 1
    return len(d)


@cuda.jit
def k(a):
    a[0] = (narrowing(a[1]) + mixed_keys(a[1]) + list_value(a[1]) + never_stored(a[1]) + sliced(a[1]) +
            in_keys(a[1]) + no_such_method(a[1]) + string_keys(a[1]) + dict_of_values(a[1]) + array_key(a[1]))

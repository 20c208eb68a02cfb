import numpy as np
from numba import cuda, njit, types
from numba.typed import Dict
# pykern: --sig k=void(int64[:])


@njit
def view_subscript(n):
    d = {1: 2}
    return d.keys()[0]


@njit
def view_store(n):
    d = {1: 2}
    v = d.values()
    v[0] = n
    return n


@njit
def wrong_arity(n):
    d = {1: 2}
    return d.get(1, 2, 3) + d.pop() + d.setdefault(1)


@njit
def mismatched_update(n):
    d = {1: 2}
    e = {1.5: 2.5}
    d.update(e)
    return n


@njit
def bad_type_argument(n):
    d = Dict.empty(key_type=np.zeros(3), value_type=types.int64)
    e = Dict.empty(key_type=types.int64)
    f = Dict.empty(key_type=types.int64, value_type=types.float64, capacity=4)
    return len(d) + len(e) + len(f)


@njit
def tuple_constructor_in_body(n):
    t = types.UniTuple(types.int64, 2)
    return n


@njit
def never_typed(n):
    d = {}
    s = 0
    for k in d:
        s += k
    return s


@cuda.jit
def k(a):
    a[0] = (view_subscript(a[1]) + view_store(a[1]) + wrong_arity(a[1]) + mismatched_update(a[1]) +
            bad_type_argument(a[1]) + tuple_constructor_in_body(a[1]) + never_typed(a[1]))

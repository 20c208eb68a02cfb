from numba import cuda
# pykern: --sig k=void(Record(9, ('a', int8, 0), ('b', float64, 1))[:])


@cuda.jit
def k(ary):
    ary[0].a = 1

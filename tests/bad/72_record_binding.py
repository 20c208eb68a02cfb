from numba import cuda
# pykern: --sig k=void(Record(16, ('a', float64, 0), ('b', int32, 8))[:])


@cuda.jit(device=True)
def first(ary):
    return ary[0]


@cuda.jit
def k(ary):
    r = first(ary)
    r.b = 1
    ary[0].h = 2
    ary[0].a = ary[1]

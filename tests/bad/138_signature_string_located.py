# A decorator's signature string: each error points into the string, at the part at fault.
from numba import cuda, float32, void


@cuda.jit("void(flaot32[:])")
def typo(a):
    a[0] = 1


@cuda.jit('void(float32[:, ::1, :])')
def layout(a):
    a[0, 0, 0] = 1


@cuda.jit(r"""void(float32[:], int64)""")
def too_few(a, b, c):
    a[0] = b + c


@cuda.jit("float32(float32[:])")
def returns(a):
    a[0] = 1


# A signature written as types, not a string, is located the same way.
@cuda.jit(void(float32[::1], float32))
def typed(a):
    a[0] = 1


# An escape moves the text's bytes: the whole literal is marked.
@cuda.jit("void(flaot32\x5b:])")
def escaped(a):
    a[0] = 1

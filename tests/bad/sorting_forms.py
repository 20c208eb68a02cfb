# NumPy's sorting and searching in @njit functions: what Numba refuses when it types them (a
# kind or side that is not a literal it knows, np.sort's kind, argsort of 2-d arrays, bincount
# of floats and uint64, histogram's bins and range) and the element types pykern does not
# order. (A kernel calls the function so that it is typed; its own refusal follows.)
import numpy as np
from numba import cuda, njit
FROZEN = np.array([3.0, 1.0, 2.0])
# pykern: --sig k=void(float64[:, :], complex128[:], uint64[:], float64, int64[:])


@njit
def forms(a, z, u, x, c):
    row = a[0]
    s1 = np.sort(row, kind="mergesort")
    s2 = np.argsort(a)
    s3 = row.argsort(kind="heapsort")
    row.sort(kind=x)
    s4 = np.searchsorted(row, 1.0, side="middle")
    s5 = np.searchsorted(a, 1.0)
    s6 = np.bincount(row)
    s7 = np.bincount(u)
    s8 = np.histogram(row, 2.5)
    s9 = np.histogram(row, 3, (0.0, 1.0, 2.0))
    s10 = np.sort(z)
    s11 = np.unique(x)
    s12 = np.digitize(row, a)
    s13 = np.bincount(c, minlength=1.5)
    s14 = np.argwhere(row, 1)
    s15 = np.searchsorted(row, "x")
    FROZEN.sort()
    return 0.0


@cuda.jit
def k(a, z, u, x, c):
    a[0, 0] = forms(a, z, u, x, c)

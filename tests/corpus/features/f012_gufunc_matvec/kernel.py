# A gufunc with two core dimensions on its first input, looping over the leading one.
from numba import guvectorize


@guvectorize(['(float64[:, :], float64[:], float64[:])'], '(m,n),(n)->(m)', target='cuda')
def matvec(m, v, out):
    for i in range(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * v[j]
        out[i] = acc

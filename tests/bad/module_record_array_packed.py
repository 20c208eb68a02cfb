import numpy as np
from numba import cuda
# pykern: --sig k=void(int64[:])
PACKED = np.array([(1, 2), (3, 4)], dtype=[("tag", np.uint8), ("count", np.uint32)])
NESTED = np.array([((1.0, 2.0), 3)], dtype=[("xy", np.float64, (2,)), ("n", np.int64)])


@cuda.jit
def k(a):
    a[0] = PACKED[0]["count"]
    a[1] = NESTED[0]["n"]

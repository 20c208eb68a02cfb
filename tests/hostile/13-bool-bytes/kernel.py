from numba import cuda


# in.npy is tests/npy/bools.npy: np.frombuffer(b'\x00\x01\x02\xff', dtype=bool), saved raw.
@cuda.jit
def k(b):
    print("ints", int(b[0]), int(b[1]), int(b[2]), int(b[3]), "sum", b[2] + b[3])

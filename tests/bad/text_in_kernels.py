from numba import cuda
# pykern: --sig k=void(float64[:], int64)

@cuda.jit
def k(a, n):
    label = f"row {n}"
    if n > 0:
        print("n is", n)
    a[0] = len(str(n))
    b = f"{n:5d}"

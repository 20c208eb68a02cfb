from numba import cuda


# in.npy is tests/npy/unicode.npy: field names past U+00FF, which NumPy writes in format 3.0
# (UTF-8), and a lone surrogate, which it escapes as \ud800.
@cuda.jit
def k(a):
    r = a[0]
    r["\u2028"] = r["\ud800"] + r["e\u0301"]
    print("fields", r["\u4e2d"], r["\U0001f600"], r["\ud800"], r["\u2028"], r["e\u0301"])

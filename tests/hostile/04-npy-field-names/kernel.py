from numba import cuda


# in.npy is tests/npy/names.npy: np.save of a record whose field names NumPy must quote and
# escape, one of them "y', '<f8'), ('z", which pasted unescaped adds a field.
@cuda.jit
def k(a):
    r = a[1]
    r["y', '<f8'), ('z"] = r["y', '<f8'), ('z"] + 32.0
    print("fields", r["x'y"], r['a"b'], r["q'\""], r["back\\slash"], r["\xe9"], r["\x85nel"], r["\x00nul"],
          r["tab\t"], r["y', '<f8'), ('z"])

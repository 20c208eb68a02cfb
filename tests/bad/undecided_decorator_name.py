# The decorator's module is bound by a `try:` whose handler catches something else than
# ImportError: pykern cannot resolve `@gpu.jit`, and says so at the decorator.
try:
    from numba import cuda as gpu
except KeyError:
    gpu = None


@gpu.jit
def fill(a):
    a[0] = 1.0

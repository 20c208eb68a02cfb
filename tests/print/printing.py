from numba import cuda

@cuda.jit
def items(r):
    print("100%", r[0], r[0] > 0, 0.5, (r[1],), r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1],
          r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1], r[1],
          cuda.atomic.add(r, 0, 1))

@cuda.jit
def values(r):
    t = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9])
    print("a", t, t, t, "b%", t, r[0] > 0, 0.5, cuda.atomic.add(r, 1, 1))

@cuda.jit
def exactly(r):
    print(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[0], r[1], r[2], r[3], r[4], r[5],
          r[6], r[7], r[8], r[9], r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[0], r[1])

@cuda.jit
def hello(n):
    print("hello", n)

@cuda.jit
def many(n):
    i = cuda.grid(1)
    if i < n:
        print("thread", i, "of", n)

# print() at and past printf's limits, shared by tests/unit/test_print.cpp (the simulator, the
# emitted CUDA, the warnings) and tests/gpu/test_gpu_print.cpp (the same on a GPU). The tests name
# lines of this file in the warnings they expect: add kernels after the others.

"""Batched 64-point complex FFTs, one block per signal, in shared memory.

Iterative radix-2 decimation in time: bit-reversed load, log2(N) butterfly
stages separated by barriers, twiddles from cmath.exp.  Also returns the
power spectrum, which is what the spectrogram code downstream uses.
"""
import cmath
import math

import numpy as np
from numba import cuda, complex128

N = 64
LOG2N = 6
TWO_PI = 2.0 * math.pi


@cuda.jit(device=True)
def bit_reverse(i, bits):
    r = 0
    for _ in range(bits):
        r = (r << 1) | (i & 1)
        i >>= 1
    return r


@cuda.jit
def fft64(signals, spectra, power):
    buf = cuda.shared.array(N, dtype=complex128)
    s = cuda.blockIdx.x
    t = cuda.threadIdx.x            # N // 2 threads: one butterfly each

    for k in range(t, N, N // 2):   # the two elements this thread owns
        buf[bit_reverse(k, LOG2N)] = signals[s, k]
    cuda.syncthreads()

    half = 1
    for stage in range(LOG2N):
        group = t // half
        pos = t % half
        top = group * 2 * half + pos
        bottom = top + half
        w = cmath.exp(complex(0.0, -TWO_PI * pos / (2 * half)))
        a = buf[top]
        b = buf[bottom] * w
        cuda.syncthreads()
        buf[top] = a + b
        buf[bottom] = a - b
        cuda.syncthreads()
        half *= 2

    for k in range(t, N, N // 2):   # the two elements this thread owns
        v = buf[k]
        spectra[s, k] = v
        power[s, k] = v.real * v.real + v.imag * v.imag


if __name__ == "__main__":
    tt = np.arange(N) / N
    x = np.stack([np.exp(2j * np.pi * 5 * tt), np.cos(2 * np.pi * 9 * tt) + 0j])
    spec = np.zeros_like(x)
    pw = np.zeros(x.shape)
    fft64[2, N // 2](x, spec, pw)
    print(np.abs(spec - np.fft.fft(x)).max())

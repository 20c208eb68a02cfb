"""Stereo balance of 16-bit PCM audio as a GPU ufunc.

The signatures give the argument types only, so Numba compiles the function for them and the
output takes the type the body returns: true division of int16 samples makes float64.
"""
import numpy as np
from numba import vectorize

FULL_SCALE = 32768


@vectorize(['(int16, int16)', '(float32, float32)'], target='cuda')
def balance(left, right):
    # -1 (all left) .. +1 (all right); silence is centred.
    total = abs(left) + abs(right)
    if total == 0:
        return 0.0
    return (abs(right) - abs(left)) / total


@vectorize(['(int16,)'], target='cuda')
def level(sample):
    return sample / FULL_SCALE


def stereo_balance(pcm):
    return balance(pcm[:, 0], pcm[:, 1])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    pcm = rng.integers(-32768, 32767, size=(1024, 2), dtype=np.int16)
    print(stereo_balance(pcm).dtype, level(pcm[:, 0]).max())

"""A toy message-digest round over 32-bit words.

The round constants live on the device, copied there once at import with
cuda.to_device, as hashing and crypto ports do; kernels read the module-level
device array directly. A plain alias of a module array is read the same way.
"""
import numpy as np
from numba import cuda

_K = np.array([0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5,
               0x3956C25B, 0x59F111F1, 0x923F82A4, 0xAB1C5ED5], dtype=np.uint32)
_K_device = cuda.to_device(_K)
_ROT = np.array([7, 12, 17, 22], dtype=np.uint32)
ROTATIONS = _ROT
_SBOX_device = cuda.to_device(np.arange(16, dtype=np.uint8) * 3)
MASK = np.uint32(0xFFFFFFFF)


@cuda.jit(device=True)
def rotl(x, r):
    return ((x << r) | (x >> (np.uint32(32) - r))) & MASK


@cuda.jit
def digest(words, out):
    i = cuda.grid(1)
    if i >= words.shape[0]:
        return
    h = words[i]
    for r in range(_K_device.shape[0]):
        h = (h + _K_device[r]) & MASK
        h = rotl(h, ROTATIONS[r % 4])
        h ^= np.uint32(_SBOX_device[(h >> np.uint32(28)) & np.uint32(15)])
    out[i] = h


if __name__ == "__main__":
    words = np.arange(64, dtype=np.uint32)
    d_out = cuda.device_array(64, dtype=np.uint32)
    digest[2, 32](cuda.to_device(words), d_out)
    print(d_out.copy_to_host()[:4], _K_device.copy_to_host().sum())

# Unary - and ~ on integers narrower than 64 bits: Numba types the result 64 bits wide (uint64
# for an unsigned operand, int64 for a signed one) but computes it in the operand's own width
# first (cpython/numbers.py int_negate_impl / int_invert_impl), so ~ on a uint32 word keeps 32
# bits and -uint8(3) is 253. ~ on a bool is a bool (its bit flipped), as NumPy's is.
import numpy as np
from numba import cuda


@cuda.jit
def plane_stats(planes, pixels, samples, clear, holes, levels, flipped, kept):
    i = cuda.grid(1)
    if i >= planes.shape[0]:
        return
    holes[i] = cuda.popc(~planes[i])           # 32 - popc(word), not 64 - popc(word)
    levels[i, 0] = -pixels[i] // 2            # (256 - p) // 2 for p > 0
    levels[i, 1] = ~pixels[i]                 # 255 - p
    levels[i, 2] = -samples[i]                # int16: -(-32768) wraps to -32768
    levels[i, 3] = -(-samples[i])             # the outer negation is in int64
    flipped[i] = ~np.uint16(pixels[i]) >> 8   # a uint16 inverted in 16 bits, then shifted
    valid = ~clear[i]
    if valid:
        kept[i] = 1
    if ~clear[i] == (not clear[i]):
        kept[i] += 2

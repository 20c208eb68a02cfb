"""Levels, gamma and posterisation of an 8-bit grey image: integer array arithmetic with
NumPy's types (uint8 with Python ints widens to int64), floor division, bit masks, shifts,
comparisons, and a float gamma curve written back into a uint8 array."""
import numpy as np
from numba import njit


@njit
def levels(img, black, white, gamma):
    h, w = img.shape
    # stretch [black, white] to [0, 255] in integers: uint8 - int gives int64
    span = white - black
    stretched = (img - black) * 255 // span
    stretched = np.clip(stretched, 0, 255)
    # gamma in float64, then stored into a uint8 array (truncating, as NumPy casts)
    norm = stretched / 255.0
    curved = np.empty((h, w), dtype=np.uint8)
    curved[:, :] = np.floor(255.0 * norm ** gamma + 0.5)
    # posterise to 8 levels with a bit mask and shifts
    poster = (curved & 0xE0) | (curved >> 5)
    # parity and remainders of the original
    odd = img % 2 == 1
    quarter = img // 4
    inverted = ~img
    bright = (img > 200) | (curved > 200)
    # a 3x3 box mean of the interior, from shifted views
    box = np.zeros((h, w))
    box[1:-1, 1:-1] = (img[:-2, :-2] + img[:-2, 1:-1] + img[:-2, 2:] + img[1:-1, :-2] + img[1:-1, 1:-1]
                       + img[1:-1, 2:] + img[2:, :-2] + img[2:, 1:-1] + img[2:, 2:]) / 9.0
    edges = np.abs(box - img) > 20.0
    return stretched, curved, poster, odd, quarter, inverted, np.sum(bright), box, np.sum(edges), img + np.int32(0)

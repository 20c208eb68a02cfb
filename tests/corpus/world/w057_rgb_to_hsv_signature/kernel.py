"""RGB (uint8, H x W x 3) to HSV (float32) colour conversion.

The kernel carries an explicit signature with C-contiguous layouts, so it is
compiled when the module is imported; fastmath is safe here because the
inputs are bounded.  Pixels are read as length-3 rows of the image.
"""
import numpy as np
from numba import cuda, float32

INV255 = np.float32(1.0 / 255.0)


@cuda.jit('float32(float32, float32, float32, float32, float32)', device=True)
def hue(r, g, b, mx, delta):
    if delta == 0:
        return float32(0.0)
    if mx == r:
        h = (g - b) / delta
        if h < 0:
            h += 6
    elif mx == g:
        h = (b - r) / delta + 2
    else:
        h = (r - g) / delta + 4
    return h * float32(60.0)


@cuda.jit('void(uint8[:, :, ::1], float32[:, :, ::1])', fastmath=True)
def rgb_to_hsv(rgb, hsv):
    y, x = cuda.grid(2)
    if y < rgb.shape[0] and x < rgb.shape[1]:
        px = rgb[y, x]
        r = px[0] * INV255
        g = px[1] * INV255
        b = px[2] * INV255
        mx = max(r, g, b)
        mn = min(r, g, b)
        delta = mx - mn
        out = hsv[y, x]
        out[0] = hue(r, g, b, mx, delta)
        out[1] = delta / mx if mx > 0 else float32(0.0)
        out[2] = mx


if __name__ == "__main__":
    img = np.array([[[255, 0, 0], [0, 255, 0]], [[0, 0, 255], [128, 128, 128]]], np.uint8)
    out = np.zeros(img.shape, np.float32)
    rgb_to_hsv[(1, 1), (16, 16)](img, out)
    print(out)

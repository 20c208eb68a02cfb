"""A small CNN layer in NCHW layout: 3x3 convolution + bias + ReLU + 2x2 max pool.

One thread per pooled output element (n, k, py, px): it evaluates the four
convolution outputs under its pooling window and keeps the largest.  The
filter of output channel k and input channel c is taken as a 2-D view of
the 4-D weight tensor.
"""
import numpy as np
from numba import cuda, float32

KSIZE = 3
POOL = 2


@cuda.jit(device=True)
def conv_at(img, weights, k, oy, ox):
    acc = float32(0.0)
    for c in range(img.shape[0]):
        w = weights[k, c]                 # (KSIZE, KSIZE) view
        plane = img[c]
        for dy in range(KSIZE):
            for dx in range(KSIZE):
                acc += w[dy, dx] * plane[oy + dy, ox + dx]
    return acc


@cuda.jit
def conv_relu_pool(x, weights, bias, out):
    idx = cuda.grid(1)
    n_img, n_k, ph, pw = out.shape
    if idx >= n_img * n_k * ph * pw:
        return
    px = idx % pw
    py = (idx // pw) % ph
    k = (idx // (pw * ph)) % n_k
    n = idx // (pw * ph * n_k)
    img = x[n]                            # (C, H, W) view
    best = float32(0.0)                   # ReLU: nothing below zero survives
    for sy in range(POOL):
        for sx in range(POOL):
            v = conv_at(img, weights, k, py * POOL + sy, px * POOL + sx) + bias[k]
            if v > best:
                best = v
    out[n, k, py, px] = best


def forward(x, w, b):
    n, c, h, wd = x.shape
    oh, ow = (h - KSIZE + 1) // POOL, (wd - KSIZE + 1) // POOL
    out = np.zeros((n, w.shape[0], oh, ow), np.float32)
    total = out.size
    conv_relu_pool[(total + 127) // 128, 128](x, w, b, out)
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 12, 12)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.3
    print(forward(x, w, np.zeros(4, np.float32)).shape)

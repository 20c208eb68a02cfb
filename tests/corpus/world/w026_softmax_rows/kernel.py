"""Numerically stable row softmax and cross-entropy loss for a classifier head.

One block per row of logits: the block finds the row maximum, sums the
shifted exponentials, writes probabilities and the loss of the labelled class.
"""
import math

import numpy as np
from numba import cuda, float32, int32

BLOCK = 64
NEG_INF = -math.inf


@cuda.jit(device=True)
def block_max(v, buf):
    t = cuda.threadIdx.x
    buf[t] = v
    cuda.syncthreads()
    stride = cuda.blockDim.x // 2
    while stride > 0:
        if t < stride and buf[t + stride] > buf[t]:
            buf[t] = buf[t + stride]
        cuda.syncthreads()
        stride //= 2
    r = buf[0]
    cuda.syncthreads()
    return r


@cuda.jit(device=True)
def block_add(v, buf):
    t = cuda.threadIdx.x
    buf[t] = v
    cuda.syncthreads()
    stride = cuda.blockDim.x // 2
    while stride > 0:
        if t < stride:
            buf[t] += buf[t + stride]
        cuda.syncthreads()
        stride //= 2
    r = buf[0]
    cuda.syncthreads()
    return r


@cuda.jit
def softmax_xent(logits, labels, probs, loss):
    row = cuda.blockIdx.x
    t = cuda.threadIdx.x
    n_cls = logits.shape[1]
    buf = cuda.shared.array(BLOCK, float32)

    m = float32(NEG_INF)
    for c in range(t, n_cls, BLOCK):
        m = max(m, logits[row, c])
    m = block_max(m, buf)

    s = float32(0)
    for c in range(t, n_cls, BLOCK):
        e = math.exp(logits[row, c] - m)
        probs[row, c] = e
        s += e
    s = block_add(s, buf)

    inv = float32(1) / s
    for c in range(t, n_cls, BLOCK):
        probs[row, c] *= inv
    if t == 0:
        label = labels[row]
        loss[row] = -(logits[row, label] - m - math.log(s))


def predict(logits, labels):
    probs = np.zeros_like(logits)
    loss = np.zeros(logits.shape[0], dtype=np.float32)
    softmax_xent[logits.shape[0], BLOCK](logits, labels.astype(np.int32), probs, loss)
    return probs, loss.mean()


if __name__ == "__main__":
    rng = np.random.default_rng(8)
    z = (rng.standard_normal((16, 10)) * 4).astype(np.float32)
    y = rng.integers(0, 10, 16)
    p, l = predict(z, y)
    print(p.sum(axis=1), l)

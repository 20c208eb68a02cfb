"""Single-head scaled dot-product attention with a causal mask.

One block per query position: threads compute the scores against every key
in shared memory, the block takes the softmax (max, sum), then threads
split the output features and accumulate the weighted values.
"""
import math

import numpy as np
from numba import cuda, float32

MAX_SEQ = 128
THREADS = 32


@cuda.jit
def causal_attention(q, k, v, out, weights_out):
    scores = cuda.shared.array(MAX_SEQ, float32)
    stats = cuda.shared.array(2, float32)
    i = cuda.blockIdx.x              # query position
    t = cuda.threadIdx.x
    seq, d = q.shape
    scale = float32(1.0 / math.sqrt(d))

    for j in range(t, seq, THREADS):
        if j <= i:
            s = float32(0.0)
            for f in range(d):
                s += q[i, f] * k[j, f]
            scores[j] = s * scale
        else:
            scores[j] = -math.inf
    cuda.syncthreads()

    if t == 0:
        m = scores[0]
        for j in range(1, i + 1):
            m = max(m, scores[j])
        total = float32(0.0)
        for j in range(i + 1):
            total += math.exp(scores[j] - m)
        stats[0] = m
        stats[1] = total
    cuda.syncthreads()

    for j in range(t, seq, THREADS):
        w = math.exp(scores[j] - stats[0]) / stats[1] if j <= i else float32(0.0)
        scores[j] = w
        weights_out[i, j] = w
    cuda.syncthreads()

    for f in range(t, d, THREADS):
        acc = float32(0.0)
        for j in range(i + 1):
            acc += scores[j] * v[j, f]
        out[i, f] = acc


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((16, 8)).astype(np.float32) for _ in range(3))
    o = np.zeros_like(q)
    w = np.zeros((16, 16), np.float32)
    causal_attention[16, THREADS](q, k, v, o, w)
    print(w.sum(axis=1))

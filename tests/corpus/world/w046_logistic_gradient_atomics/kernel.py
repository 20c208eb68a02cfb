"""Mini-batch gradient of L2-regularised logistic regression.

One thread per sample computes its margin, loss and gradient contribution;
contributions are summed into the gradient vector with float32 atomics.  The
sigmoid and log-loss are written to avoid overflow for large margins.
"""
import math

import numpy as np
from numba import cuda, float32

L2 = 1e-3
THREADS = 128


@cuda.jit(device=True)
def sigmoid(z):
    if z >= 0:
        e = math.exp(-z)
        return 1.0 / (1.0 + e)
    e = math.exp(z)
    return e / (1.0 + e)


@cuda.jit(device=True)
def log1p_exp(z):
    # log(1 + exp(z)) without overflow
    if z > 30.0:
        return z
    if z < -30.0:
        return math.exp(z)
    return math.log1p(math.exp(z))


@cuda.jit
def logistic_grad(X, y, w, b, grad, loss):
    i = cuda.grid(1)
    n, d = X.shape
    if i < n:
        z = b[0]
        for k in range(d):
            z += X[i, k] * w[k]
        p = sigmoid(z)
        err = p - y[i]
        for k in range(d):
            cuda.atomic.add(grad, k, float32(err * X[i, k] / n))
        cuda.atomic.add(grad, d, float32(err / n))           # bias slot
        # y in {0, 1}: loss = log(1 + e^z) - y z
        cuda.atomic.add(loss, 0, float32((log1p_exp(z) - y[i] * z) / n))
    if i < d:
        cuda.atomic.add(grad, i, float32(L2 * w[i]))


def train(X, y, epochs=100, lr=0.5):
    n, d = X.shape
    w = np.zeros(d, np.float32)
    b = np.zeros(1, np.float32)
    for _ in range(epochs):
        g = np.zeros(d + 1, np.float32)
        loss = np.zeros(1, np.float32)
        logistic_grad[(n + THREADS - 1) // THREADS, THREADS](X, y, w, b, g, loss)
        w -= lr * g[:d]
        b -= lr * g[d]
    return w, b, loss[0]


if __name__ == "__main__":
    rng = np.random.default_rng(5)
    X = rng.standard_normal((500, 4)).astype(np.float32)
    y = (X @ np.array([1.0, -2.0, 0.5, 0.0]) > 0).astype(np.float32)
    print(train(X, y))

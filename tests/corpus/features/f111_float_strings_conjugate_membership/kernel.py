"""Nearest-neighbour search and a phase correction, written the way scripts write them.

float("inf") seeds a running minimum, z.conjugate() undoes a phase, and
`label in ACCEPTED` filters by a tuple of codes.
"""
import numpy as np
from numba import cuda

ACCEPTED = (1, 3, 4)


@cuda.jit
def nearest_accepted(points, labels, re, im, best, corrected):
    i = cuda.grid(1)
    if i < points.shape[0]:
        nearest = float("inf")
        farthest = float("-inf")
        for j in range(points.shape[0]):
            if j != i and labels[j] in ACCEPTED:
                dx = points[i, 0] - points[j, 0]
                dy = points[i, 1] - points[j, 1]
                d = dx * dx + dy * dy
                nearest = min(nearest, d)
                farthest = max(farthest, d)
        best[i, 0] = nearest
        best[i, 1] = farthest
        z = complex(re[i], im[i])
        unit = z / abs(z) if abs(z) > 0 else 1 + 0j
        corrected[i] = z * unit.conjugate() + np.conj(z) * (labels[i] not in ACCEPTED)


if __name__ == "__main__":
    rng = np.random.default_rng(11)
    pts = rng.uniform(-1, 1, (48, 2))
    labels = rng.integers(0, 6, 48)
    re = rng.normal(size=48)
    im = rng.normal(size=48)
    best = np.zeros((48, 2))
    corrected = np.zeros(48, dtype=np.complex128)
    nearest_accepted[1, 64](pts, labels, re, im, best, corrected)
    print(best[:4], corrected[:4])

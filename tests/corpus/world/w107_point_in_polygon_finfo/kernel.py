"""Point-in-polygon classification by winding number, with an on-edge band.

GIS clipping code: each thread classifies one query point against a closed
polygon (vertex list, last vertex not repeated) as outside (0), inside (1) or
on the boundary (2).  The boundary tolerance scales machine epsilon by the
size of the coordinates, the usual robust-geometry idiom.
"""
import numpy as np
from numba import cuda

EPS = np.finfo(np.float64).eps
TOL_FACTOR = 64.0
OUTSIDE, INSIDE, ON_EDGE = 0, 1, 2


@cuda.jit(device=True)
def orient(ax, ay, bx, by, px, py):
    return (bx - ax) * (py - ay) - (px - ax) * (by - ay)


@cuda.jit(device=True)
def on_segment(ax, ay, bx, by, px, py, tol):
    if abs(orient(ax, ay, bx, by, px, py)) > tol:
        return False
    return (min(ax, bx) - tol <= px <= max(ax, bx) + tol and
            min(ay, by) - tol <= py <= max(ay, by) + tol)


@cuda.jit
def classify(poly, pts, scale, result, winding):
    i = cuda.grid(1)
    if i >= pts.shape[0]:
        return
    px = pts[i, 0]
    py = pts[i, 1]
    tol = TOL_FACTOR * EPS * scale * scale
    n = poly.shape[0]
    wn = 0
    for k in range(n):
        ax, ay = poly[k, 0], poly[k, 1]
        bx, by = poly[(k + 1) % n, 0], poly[(k + 1) % n, 1]
        if on_segment(ax, ay, bx, by, px, py, tol):
            result[i] = ON_EDGE
            winding[i] = 0
            return
        if ay <= py:
            if by > py and orient(ax, ay, bx, by, px, py) > 0:
                wn += 1
        elif by <= py and orient(ax, ay, bx, by, px, py) < 0:
            wn -= 1
    result[i] = INSIDE if wn != 0 else OUTSIDE
    winding[i] = wn


if __name__ == "__main__":
    square = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]])
    q = np.array([[2.0, 2.0], [5.0, 1.0], [4.0, 2.0], [0.0, 0.0]])
    res = np.zeros(4, np.int32)
    wn = np.zeros(4, np.int32)
    classify[1, 32](square, q, 4.0, res, wn)
    print(res, wn)

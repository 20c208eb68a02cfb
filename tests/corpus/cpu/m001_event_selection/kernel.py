# Event selection as an analysis skim writes it: a per-event mask built in a loop from
# kinematic cuts, the passing rows taken with a[mask], a column of them with a[mask, k], the
# kept columns picked with a[:, cols], weights by the same mask, and the leading candidates
# gathered by integer positions (negative ones count from the end).
import numpy as np
from numba import njit


@njit
def passes(pt, eta, pt_cut, eta_cut):
    keep = np.zeros(pt.shape[0], dtype=np.bool_)
    for i in range(pt.shape[0]):
        keep[i] = pt[i] > pt_cut and abs(eta[i]) < eta_cut
    return keep


@njit
def leading(values, count):
    # positions of the `count` largest values, largest first (a partial selection sort)
    order = np.arange(values.shape[0])
    for i in range(min(count, values.shape[0])):
        best = i
        for j in range(i + 1, values.shape[0]):
            if values[order[j]] > values[order[best]]:
                best = j
        order[i], order[best] = order[best], order[i]
    return order[:count]


@njit
def skim(events, weights, pt_cut, eta_cut):
    keep = passes(events[:, 0], events[:, 1], pt_cut, eta_cut)
    rows = events[keep]
    pts = events[keep, 0]
    w = weights[keep]
    cols = np.zeros(events.shape[1], dtype=np.bool_)
    cols[0] = True
    cols[3] = True
    kinematics = rows[:, cols]
    total = 0.0
    for i in range(pts.shape[0]):
        total += pts[i] * w[i]
    top = leading(pts, 3)
    best = rows[top]
    last_two = np.zeros(2, dtype=np.int64)
    last_two[0] = -1
    last_two[1] = -2
    tail = pts[last_two]
    return rows, pts, kinematics, total, best, tail, keep.sum()

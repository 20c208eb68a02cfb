# @njit functions in the shape of real numerical code, for bench/njit_bench.py: each is run
# through pykern's C++ API (bench/bench_njit.cpp) and through Numba in the same run, on the same
# inputs (bench/njit_cases.json), and their results are compared before their times are.
# Written for this benchmark; the shapes are those of molecular dynamics, image filters, time
# series classification, orbital mechanics, ODE solvers and Monte Carlo pricing codes.
import math

import numpy as np
from numba import njit, prange


# Molecular dynamics: Lennard-Jones forces and potential energy with a cutoff, one particle
# per parallel iteration (every pair visited twice, so no two iterations write one row).
@njit(parallel=True)
def lennard_jones(pos, forces, epsilon, sigma, cutoff):
    n = pos.shape[0]
    rc2 = cutoff * cutoff
    s2 = sigma * sigma
    energy = 0.0
    for i in prange(n):
        xi = pos[i, 0]
        yi = pos[i, 1]
        zi = pos[i, 2]
        fx = 0.0
        fy = 0.0
        fz = 0.0
        for j in range(n):
            if j == i:
                continue
            dx = xi - pos[j, 0]
            dy = yi - pos[j, 1]
            dz = zi - pos[j, 2]
            r2 = dx * dx + dy * dy + dz * dz
            if r2 < rc2:
                inv2 = s2 / r2
                inv6 = inv2 * inv2 * inv2
                energy += 2.0 * epsilon * (inv6 * inv6 - inv6)
                scale = 24.0 * epsilon * (2.0 * inv6 * inv6 - inv6) / r2
                fx += scale * dx
                fy += scale * dy
                fz += scale * dz
        forces[i, 0] = fx
        forces[i, 1] = fy
        forces[i, 2] = fz
    return energy


# Heat equation: Jacobi sweeps of the 5-point stencil, boundary held fixed.
@njit
def jacobi_sweeps(u, scratch, sweeps):
    n, m = u.shape
    for _ in range(sweeps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                scratch[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                u[i, j] = scratch[i, j]


# Euclidean distance matrix of row vectors.
@njit
def pairwise_distances(points, out):
    n, d = points.shape
    for i in range(n):
        for j in range(i, n):
            acc = 0.0
            for k in range(d):
                diff = points[i, k] - points[j, k]
                acc += diff * diff
            dist = math.sqrt(acc)
            out[i, j] = dist
            out[j, i] = dist


# Dynamic time warping distance between two series, full cost table.
@njit
def dtw_distance(a, b, cost):
    n = a.shape[0]
    m = b.shape[0]
    inf = np.inf
    for i in range(n + 1):
        for j in range(m + 1):
            cost[i, j] = inf
    cost[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d = abs(a[i - 1] - b[j - 1])
            best = min(cost[i - 1, j], cost[i, j - 1], cost[i - 1, j - 1])
            cost[i, j] = d + best
    return cost[n, m]


# Edit distance of two integer sequences, one row of the table kept.
@njit
def levenshtein(a, b, row):
    m = b.shape[0]
    for j in range(m + 1):
        row[j] = j
    for i in range(1, a.shape[0] + 1):
        diagonal = row[0]
        row[0] = i
        for j in range(1, m + 1):
            above = row[j]
            substitution = diagonal + (0 if a[i - 1] == b[j - 1] else 1)
            row[j] = min(above + 1, row[j - 1] + 1, substitution)
            diagonal = above
    return row[m]


# Fixed-width histogram, values outside [lo, hi) dropped.
@njit
def histogram(values, lo, hi, counts):
    bins = counts.shape[0]
    scale = bins / (hi - lo)
    kept = 0
    for i in range(values.shape[0]):
        k = int((values[i] - lo) * scale)
        if k >= 0 and k < bins:
            counts[k] += 1
            kept += 1
    return kept


# Summary statistics in one parallel pass: count, sum, sum of squares, minimum, maximum.
@njit(parallel=True)
def moments(x):
    total = 0.0
    squares = 0.0
    low = np.inf
    high = -np.inf
    for i in prange(x.shape[0]):
        v = x[i]
        total += v
        squares += v * v
        low = min(low, v)
        high = max(high, v)
    n = x.shape[0]
    mean = total / n
    return mean, squares / n - mean * mean, low, high


# 3x3 median filter: the nine neighbours sorted by a compare-exchange network.
@njit
def median3x3(image, out):
    n, m = image.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            p0 = image[i - 1, j - 1]
            p1 = image[i - 1, j]
            p2 = image[i - 1, j + 1]
            p3 = image[i, j - 1]
            p4 = image[i, j]
            p5 = image[i, j + 1]
            p6 = image[i + 1, j - 1]
            p7 = image[i + 1, j]
            p8 = image[i + 1, j + 1]
            p1, p2 = min(p1, p2), max(p1, p2)
            p4, p5 = min(p4, p5), max(p4, p5)
            p7, p8 = min(p7, p8), max(p7, p8)
            p0, p1 = min(p0, p1), max(p0, p1)
            p3, p4 = min(p3, p4), max(p3, p4)
            p6, p7 = min(p6, p7), max(p6, p7)
            p1, p2 = min(p1, p2), max(p1, p2)
            p4, p5 = min(p4, p5), max(p4, p5)
            p7, p8 = min(p7, p8), max(p7, p8)
            p3 = max(p0, p3)
            p5 = min(p5, p8)
            p4, p7 = min(p4, p7), max(p4, p7)
            p6 = max(p3, p6)
            p4 = max(p1, p4)
            p2 = min(p2, p5)
            p4 = min(p4, p7)
            p4, p2 = min(p4, p2), max(p4, p2)
            p4 = max(p6, p4)
            out[i, j] = min(p4, p2)


# Rows of eight sorted in place by Batcher's odd-even merge network (19 compare-exchanges).
@njit
def exchange(v, a, b):
    x = v[a]
    y = v[b]
    if y < x:
        v[a] = y
        v[b] = x


@njit
def sort_rows8(rows):
    for r in range(rows.shape[0]):
        v = rows[r]
        exchange(v, 0, 1)
        exchange(v, 2, 3)
        exchange(v, 4, 5)
        exchange(v, 6, 7)
        exchange(v, 0, 2)
        exchange(v, 1, 3)
        exchange(v, 4, 6)
        exchange(v, 5, 7)
        exchange(v, 1, 2)
        exchange(v, 5, 6)
        exchange(v, 0, 4)
        exchange(v, 1, 5)
        exchange(v, 2, 6)
        exchange(v, 3, 7)
        exchange(v, 2, 4)
        exchange(v, 3, 5)
        exchange(v, 1, 2)
        exchange(v, 3, 4)
        exchange(v, 5, 6)


# European call price by Monte Carlo: a 64-bit LCG, Box-Muller normals, discounted payoff.
@njit
def monte_carlo_call(paths, spot, strike, rate, vol, years, seed):
    state = seed
    drift = (rate - 0.5 * vol * vol) * years
    spread = vol * math.sqrt(years)
    payoff = 0.0
    for _ in range(paths // 2):
        state = state * 6364136223846793005 + 1442695040888963407
        u1 = ((state >> 11) & 9007199254740991) * 1.1102230246251565e-16 + 1e-300
        state = state * 6364136223846793005 + 1442695040888963407
        u2 = ((state >> 11) & 9007199254740991) * 1.1102230246251565e-16
        radius = math.sqrt(-2.0 * math.log(u1))
        z0 = radius * math.cos(2.0 * math.pi * u2)
        z1 = radius * math.sin(2.0 * math.pi * u2)
        payoff += max(spot * math.exp(drift + spread * z0) - strike, 0.0)
        payoff += max(spot * math.exp(drift + spread * z1) - strike, 0.0)
    return math.exp(-rate * years) * payoff / (paths // 2 * 2)


# Universal-variable Kepler propagation: Stumpff functions c2 and c3, by series near zero.
@njit
def stumpff_c2(psi):
    if psi > 1.0:
        return (1.0 - math.cos(math.sqrt(psi))) / psi
    if psi < -1.0:
        return (math.cosh(math.sqrt(-psi)) - 1.0) / -psi
    term = 0.5
    total = 0.0
    k = 0
    while total + term != total:
        total += term
        k += 1
        term *= -psi / ((2 * k + 1) * (2 * k + 2))
    return total


@njit
def stumpff_c3(psi):
    if psi > 1.0:
        root = math.sqrt(psi)
        return (root - math.sin(root)) / (psi * root)
    if psi < -1.0:
        root = math.sqrt(-psi)
        return (math.sinh(root) - root) / (-psi * root)
    term = 1.0 / 6.0
    total = 0.0
    k = 0
    while total + term != total:
        total += term
        k += 1
        term *= -psi / ((2 * k + 2) * (2 * k + 3))
    return total


@njit
def stumpff_table(psi, c2, c3):
    for i in range(psi.shape[0]):
        c2[i] = stumpff_c2(psi[i])
        c3[i] = stumpff_c3(psi[i])


# Stiff chemistry (Robertson's reactions): the right-hand side and its Jacobian by forward
# differences, at each state of a batch, as an implicit ODE solver's Newton step needs (three
# rows of scratch: the state, the right-hand side there, and with one component moved).
@njit
def robertson_rhs(y, dy):
    dy[0] = -0.04 * y[0] + 1e4 * y[1] * y[2]
    dy[2] = 3e7 * y[1] * y[1]
    dy[1] = -dy[0] - dy[2]


@njit
def jacobians(states, jac, work):
    n = states.shape[1]
    y = work[0]
    base = work[1]
    shifted = work[2]
    for s in range(states.shape[0]):
        for k in range(n):
            y[k] = states[s, k]
        robertson_rhs(y, base)
        for k in range(n):
            h = 1.4901161193847656e-08 * max(abs(y[k]), 1.0)
            saved = y[k]
            y[k] = saved + h
            robertson_rhs(y, shifted)
            y[k] = saved
            for r in range(n):
                jac[s, r, k] = (shifted[r] - base[r]) / h


# Time-series features as MiniRocket computes them: for each series, dilation and kernel, the
# proportion of positions where a 9-tap convolution (weights -1 and, at three taps, 2) exceeds
# a bias; one series per parallel iteration.
@njit(parallel=True)
def ppv_features(series, kernels, dilations, biases, out):
    length = series.shape[1]
    n_kernels = kernels.shape[0]
    for s in prange(series.shape[0]):
        x = series[s]
        feature = 0
        for d in range(dilations.shape[0]):
            dilation = dilations[d]
            for k in range(n_kernels):
                positive = 0
                for t in range(length):
                    c = 0.0
                    for tap in range(9):
                        at = t + (tap - 4) * dilation
                        if at >= 0 and at < length:
                            c += kernels[k, tap] * x[at]
                    if c > biases[feature]:
                        positive += 1
                out[s, feature] = positive / length
                feature += 1


# k-means assignment step: nearest centroid per point, then the new centroid sums.
@njit
def kmeans_assign(points, centroids, labels, sums, counts):
    n, d = points.shape
    k = centroids.shape[0]
    inertia = 0.0
    for c in range(k):
        counts[c] = 0
        for f in range(d):
            sums[c, f] = 0.0
    for i in range(n):
        best = 0
        best_distance = np.inf
        for c in range(k):
            distance = 0.0
            for f in range(d):
                diff = points[i, f] - centroids[c, f]
                distance += diff * diff
            if distance < best_distance:
                best_distance = distance
                best = c
        labels[i] = best
        counts[best] += 1
        inertia += best_distance
        for f in range(d):
            sums[best, f] += points[i, f]
    return inertia


# Finite-difference wave equation in 1-d, leapfrog in time (three time levels rotated).
@njit
def wave_1d(u, previous, scratch, courant, steps):
    n = u.shape[0]
    c2 = courant * courant
    for _ in range(steps):
        for i in range(1, n - 1):
            scratch[i] = 2.0 * u[i] - previous[i] + c2 * (u[i + 1] - 2.0 * u[i] + u[i - 1])
        for i in range(n):
            previous[i] = u[i]
            u[i] = scratch[i]


# A parallel loop over a few items, as a solver calls one per step: the cost of starting the
# loop's parts on the pool, not of the work.
@njit(parallel=True)
def small_prange(values, scale):
    total = 0.0
    for i in prange(values.shape[0]):
        values[i] *= scale
        total += values[i]
    return total


# The cost of a call itself: a scalar in and out, and an array in with a scalar out (what a
# caller pays per call beyond the work; Numba's dispatcher takes 100-300 ns).
@njit
def scalar_call(x):
    return x + 1.0


@njit
def array_call(values):
    return values[0]

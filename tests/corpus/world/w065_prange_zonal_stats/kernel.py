"""Zonal statistics of a raster: CPU path with parallel loops, GPU path with atomics.

Raster libraries keep both: the GPU kernel accumulates per-zone sums with
atomics, and the CPU fallback uses @njit(parallel=True) with prange.  The
scalar summary (mean over valid cells, and the count of NODATA cells) comes
from a parallel reduction.
"""
import numpy as np
import numba
from numba import cuda, njit, prange

NODATA = -9999.0


@njit(parallel=True)
def valid_mean(raster):
    total = 0.0
    count = 0
    missing = 0
    rows, cols = raster.shape
    for r in prange(rows):
        for c in range(cols):
            v = raster[r, c]
            if v == NODATA:
                missing += 1
            else:
                total += v
                count += 1
    return total / count if count > 0 else np.nan, missing


@njit(parallel=True)
def zone_sums_cpu(raster, zones, n_zones):
    out = np.zeros(n_zones)
    for z in prange(n_zones):
        s = 0.0
        for r in range(raster.shape[0]):
            for c in range(raster.shape[1]):
                if zones[r, c] == z and raster[r, c] != NODATA:
                    s += raster[r, c]
        out[z] = s
    return out


@cuda.jit
def zone_sums_gpu(raster, zones, sums, counts):
    r, c = cuda.grid(2)
    if r < raster.shape[0] and c < raster.shape[1]:
        v = raster[r, c]
        if v != NODATA:
            z = zones[r, c]
            cuda.atomic.add(sums, z, v)
            cuda.atomic.add(counts, z, 1)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    ras = rng.uniform(0, 100, (50, 60))
    ras[rng.random(ras.shape) < 0.05] = NODATA
    zon = rng.integers(0, 4, ras.shape)
    print(valid_mean(ras), zone_sums_cpu(ras, zon, 4), numba.get_num_threads())

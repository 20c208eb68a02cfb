"""Fleet health summary from per-minute status words.

Every device reports a small bit field each minute (one bit per fault). A device's status for
the hour is the OR of its words; the fleet's is the OR of everything. The fault bits are
merged by a ufunc with identity 0, so NumPy-style reductions over several axes are allowed;
the worst temperature uses a ufunc without identity, reduced one axis at a time.
"""
import numpy as np
from numba import njit, vectorize

OVERHEAT = 1
LOW_BATTERY = 2
LINK_LOST = 4


@vectorize(identity=0)
def merge_flags(a, b):
    return a | b


@vectorize
def hotter(a, b):
    return a if a > b else b


@njit
def count_devices_with(flags, bit):
    n = 0
    for f in flags:
        if f & bit:
            n += 1
    return n


@njit
def fleet_summary(status, temperature):
    # status: (sites, devices, minutes) int64; temperature: (devices, minutes) float32
    per_device = merge_flags.reduce(status, axis=2)
    per_site = merge_flags.reduce(status, axis=(1, 2))
    fleet = merge_flags.reduce(status, axis=None)
    hottest = hotter.reduce(temperature, axis=1)
    peak = hotter.reduce(hottest)
    overheated = count_devices_with(per_device.ravel(), OVERHEAT)
    return per_device, per_site, fleet, hottest, peak, overheated


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    words = np.where(rng.random((2, 5, 60)) < 0.02, rng.integers(1, 8, (2, 5, 60)), 0)
    print(fleet_summary(words, rng.normal(40, 5, (5, 60)).astype(np.float32)))

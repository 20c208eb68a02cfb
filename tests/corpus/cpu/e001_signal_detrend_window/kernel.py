"""Signal conditioning before a spectrum: remove the linear trend, taper with a Hann window,
first difference, a soft threshold and the frame's energy, all as whole-array expressions."""
import numpy as np
from numba import njit


@njit
def linear_trend(x):
    n = x.shape[0]
    t = np.arange(n) * 1.0
    t_mean = np.mean(t)
    x_mean = np.mean(x)
    dt = t - t_mean
    slope = np.sum(dt * (x - x_mean)) / np.sum(dt * dt)
    return x_mean + slope * dt


@njit
def condition(x, threshold):
    n = x.shape[0]
    detrended = x - linear_trend(x)
    k = np.arange(n)
    window = 0.5 - 0.5 * np.cos(2.0 * np.pi * k / (n - 1))
    tapered = detrended * window
    # first difference into a preallocated array: the slices overlap the source
    diff = np.zeros_like(tapered)
    diff[1:] = tapered[1:] - tapered[:-1]
    # soft threshold: shrink towards zero, keep the sign
    shrunk = np.sign(tapered) * np.maximum(np.abs(tapered) - threshold, 0.0)
    loud = np.abs(tapered) > threshold
    energy = np.sum(tapered ** 2) / n
    peak = np.max(np.abs(diff))
    clipped = np.clip(tapered, -threshold, threshold)
    centred = np.where(loud, shrunk, 0.0)
    centred -= np.mean(centred)
    return tapered, diff, shrunk, np.sum(loud), energy, peak, clipped, centred

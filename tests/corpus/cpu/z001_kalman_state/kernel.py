"""A one-dimensional Kalman filter over a noisy sensor trace. The filter keeps its estimate and
its variance in 0-d arrays, which the predict and correct steps change in place, as a small
tracking module passes mutable state between helpers."""
import numpy as np
from numba import njit

PROCESS_NOISE = 1e-3
MEASUREMENT_NOISE = 0.25


@njit
def new_state(first):
    estimate = np.array(first)
    variance = np.ones(())
    return estimate, variance


@njit
def predict(variance):
    variance += PROCESS_NOISE


@njit
def correct(estimate, variance, measured):
    gain = variance / (variance + MEASUREMENT_NOISE)  # a number: ufuncs of 0-d arrays give one
    estimate[()] = estimate[()] + gain * (measured - estimate[()])
    variance[...] = (1.0 - gain) * variance
    return gain


@njit
def track(trace):
    estimate, variance = new_state(trace[0])
    smoothed = np.empty_like(trace)
    total_gain = np.zeros(())
    for i in range(trace.shape[0]):
        predict(variance)
        total_gain += correct(estimate, variance, trace[i])
        smoothed[i] = estimate.item()
    mean_gain = total_gain[()] / trace.shape[0]
    return smoothed, estimate, variance, mean_gain, np.sum(estimate), variance.ndim

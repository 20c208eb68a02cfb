"""Noise figures of a complex baseband capture with dropped samples. Dropouts are marked NaN;
the spread is taken with the NaN-aware statistics, and the swing of each block with np.ptp
(NumPy's complex order: the largest and smallest by real part, then imaginary part)."""
import numpy as np
from numba import njit

BLOCK = 16
DROP_BELOW = 0.08


@njit
def capture(i_part, q_part, quality):
    iq = i_part + 1j * q_part
    for k in range(iq.shape[0]):
        if quality[k] < DROP_BELOW:
            iq[k] = np.nan
    return iq


@njit
def block_swings(iq):
    blocks = iq.shape[0] // BLOCK
    swings = np.empty(blocks, dtype=np.complex128)
    for b in range(blocks):
        clean = iq[b * BLOCK:(b + 1) * BLOCK]
        swings[b] = np.ptp(clean[~np.isnan(clean)])
    return swings


@njit
def noise_report(i_part, q_part, quality):
    iq = capture(i_part, q_part, quality)
    spread = np.nanstd(iq)
    unbiased = np.nanvar(iq, ddof=1)
    narrow = np.nanvar(iq.astype(np.complex64))
    return spread, unbiased, narrow, block_swings(iq), np.ptp(iq)

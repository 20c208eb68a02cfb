"""Converting raw detector channels to energies through a calibration table.

Channels past the end of the table are not an error: the lookup's IndexError (the functions
check their indices) sends them to a linear extrapolation from the table's last two entries.
"""
import numpy as np
from numba import njit

GAIN_FALLBACK = 1.0


@njit(boundscheck=True)
def calibrated(table, channel):
    return 0.5 * (table[channel] + table[channel + 1])


@njit(boundscheck=True)
def extrapolated(table, channel):
    n = table.shape[0]
    slope = table[n - 1] - table[n - 2]
    if slope <= 0.0:
        slope = GAIN_FALLBACK
    return table[n - 1] + slope * (channel - (n - 1) + 0.5)


@njit(boundscheck=True)
def to_energy(table, channels):
    energies = np.empty(channels.shape[0])
    outside = 0
    for k in range(channels.shape[0]):
        ch = channels[k]
        try:
            energies[k] = calibrated(table, ch)
        except Exception:
            outside += 1
            energies[k] = extrapolated(table, ch)
    return energies, outside, energies.max()

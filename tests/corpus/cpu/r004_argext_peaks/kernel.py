"""Peak picking in a spectrum: the strongest bins by repeated argmax over windows."""
import numpy as np
from numba import njit


@njit
def strongest_peaks(spectrum, window, count):
    n = spectrum.shape[0]
    found = 0
    first = -1
    last = -1
    energy = 0.0
    for start in range(0, n - window + 1, window):
        seg = spectrum[start:start + window]
        k = np.argmax(seg)
        lo = seg.argmin()
        peak = seg[k]
        floor = np.amin(seg)
        if peak - floor > 1.5 * np.median(seg) - floor and found < count:
            if first < 0:
                first = start + k
            last = start + lo
            found += 1
            energy += peak * peak
    # the strongest and weakest bins of every other sample, a stepped view
    every_other = spectrum[::2]
    return found, first, last, energy, np.argmax(every_other), np.argmin(every_other), np.median(spectrum)

"""Ordering the lines of a complex spectrum. Lines come from measured in-phase and quadrature
parts; dropped ones are NaN. They are ranked as NumPy orders complex numbers (by real part,
then imaginary part, NaNs last), both by sorting and by the permutation that sorts them."""
import numpy as np
from numba import njit

DROPOUT = 3.5


@njit
def assemble(re, im):
    lines = re + 1j * im
    for k in range(lines.shape[0]):
        if re[k] > DROPOUT:
            lines[k] = np.nan
    return lines


@njit
def strongest(lines, count):
    order = np.argsort(np.abs(lines), kind='mergesort')
    picked = np.empty(count, dtype=np.complex128)
    for j in range(count):
        picked[j] = lines[order[lines.shape[0] - 1 - j]]
    return picked


@njit
def order_lines(re, im, count):
    lines = assemble(re, im)
    ordered = np.sort(lines)
    quick = np.argsort(lines)
    stable = lines.argsort(kind='mergesort')
    top = np.sort(strongest(lines, count))
    in_place = lines.copy()
    in_place.sort()
    return ordered, quick, stable, top, in_place

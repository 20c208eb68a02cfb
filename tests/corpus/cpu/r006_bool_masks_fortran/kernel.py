"""Quality flags (boolean masks) and a Fortran-ordered field: all/any/sum of booleans."""
import numpy as np
from numba import njit


@njit
def flag_report(flags, field):
    n_rows = flags.shape[0]
    good_rows = 0
    any_bad = 0
    for i in range(n_rows):
        row = flags[i]
        if np.all(row):
            good_rows += 1
        if not row.all() and row.any():
            any_bad += 1
    set_count = np.sum(flags)            # bool -> int64
    set_mean = flags.mean()
    # the field arrives transposed (F order): sums run in its memory order, as Numba's
    total = field.sum()
    m = np.mean(field)
    s = field.std()
    hi = np.argmax(field)                # a C-order flat index all the same
    lo = np.argmin(field)
    return good_rows, any_bad, set_count, set_mean, total, m, s, hi, lo, np.any(flags), flags.all(), np.count_nonzero(flags), np.prod(flags)

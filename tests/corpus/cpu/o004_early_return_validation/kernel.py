"""Input validation for a batch of measurements: checks that return early with None when the
batch is fine and an error code or a reading otherwise, as a data-cleaning pipeline writes them."""
import numpy as np
from numba import njit

MAX_READING = 50.0
MISSING = -999.0


@njit
def first_problem(row, limit=None):
    if row.shape[0] == 0:
        return 1
    if limit is None:
        limit = MAX_READING
    for v in row:
        if v == MISSING:
            return 2
        if v > limit:
            return 3
    return None


@njit
def worst_reading(row, limit):
    worst = None
    for v in row:
        if v > limit:
            if worst is None or v > worst:
                worst = v
    return worst


@njit
def check_row(row, limit=None):
    # an early return of None when there is nothing to report
    problem = first_problem(row, limit)
    if problem is None:
        return None
    return problem * 10


@njit
def validate_batch(batch, limit):
    rows = batch.shape[0]
    codes = np.zeros(rows, dtype=np.int64)
    worst = np.full(rows, np.nan)
    clean = 0
    for r in range(rows):
        code = check_row(batch[r])
        strict = check_row(batch[r], limit)
        if code is None and strict is None:
            clean += 1
        elif code is not None:
            codes[r] = code
        else:
            codes[r] = strict + 1
        w = worst_reading(batch[r], limit)
        if w is not None:
            worst[r] = w
    empty = check_row(batch[0, :0])
    empty_code = 0 if empty is None else empty * 1
    return codes, worst, clean, empty_code

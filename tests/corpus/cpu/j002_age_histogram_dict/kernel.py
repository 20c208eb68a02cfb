"""A weighted age histogram accumulated batch by batch into one typed Dict keyed by decade
label ('20s', '30s', ..., '90+'), as a survey pipeline fills it from several files."""
import numpy as np
from numba import njit

DECADE = 10
OLDEST = 90
MISSING = -1.0


@njit
def decade_label(age):
    if age >= OLDEST:
        return str(OLDEST) + "+"
    return str(int(age // DECADE) * DECADE) + "s"


@njit
def add_batch(ages, weights, histogram):
    """Add this batch's weights to `histogram`; return the weight added and the rows skipped."""
    added = 0.0
    skipped = 0
    for k in range(ages.shape[0]):
        if ages[k] == MISSING or weights[k] <= 0.0:
            skipped += 1
            continue
        label = decade_label(ages[k])
        histogram[label] = histogram.get(label, 0.0) + weights[k]
        added += weights[k]
    # labels the previous batches left at zero weight are dropped
    empty = [label for label, w in histogram.items() if w == 0.0]
    for label in empty:
        del histogram[label]
    return added, skipped, len(histogram)

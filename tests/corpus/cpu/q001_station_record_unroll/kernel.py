"""Per-station summaries of a weather feed whose record holds fields of different kinds."""
import numpy as np
from numba import njit, literal_unroll

MISSING = -999.0


@njit
def field_score(x):
    # every field counts as a float, whatever its kind
    return x * 1.0


@njit
def summarise_record(record):
    numeric_total = 0.0
    fields = 0
    negative = 0
    for field in literal_unroll(record):
        fields += 1
        value = field_score(field)
        numeric_total += value
        if value < 0:
            negative += 1
    return numeric_total, fields, negative


@njit
def station_report(temps, pressures, station_id):
    valid = temps[temps != MISSING]
    record = (station_id, valid.mean(), valid.size > 10, np.int32(valid.size), valid.min())
    total, fields, negative = summarise_record(record)
    spread = 0.0
    samples = 0
    for part in literal_unroll((valid, pressures.reshape(3, 4))):
        spread += part.max() - part.min()
        samples += part.size
    return total, fields, negative, spread, samples

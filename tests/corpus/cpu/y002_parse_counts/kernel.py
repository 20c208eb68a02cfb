"""Reading a log of comma-separated counts from raw bytes, as an ingestion job does.

Each line holds integer fields; a field that is empty, too long or not a number is a bad
record: parse_field raises ValueError for it, and the reader counts it and goes on.
"""
import numpy as np
from numba import njit

COMMA = 44
NEWLINE = 10
ZERO = 48
MAX_DIGITS = 6


@njit
def parse_field(buf, start, stop):
    if stop == start:
        raise ValueError("empty field")
    if stop - start > MAX_DIGITS:
        raise ValueError("field too long")
    negative = buf[start] == 45  # '-'
    value = 0
    for k in range(start + 1 if negative else start, stop):
        digit = int(buf[k]) - ZERO
        if digit < 0 or digit > 9:
            raise ValueError("not a digit")
        value = value * 10 + digit
    return -value if negative else value


@njit
def read_log(buf):
    totals = np.zeros(4, dtype=np.int64)  # per column: the sum of the good fields
    good = 0
    bad = 0
    lines = 0
    column = 0
    start = 0
    for i in range(buf.shape[0]):
        c = buf[i]
        if c != COMMA and c != NEWLINE:
            continue
        try:
            v = parse_field(buf, start, i)
        except Exception:
            bad += 1
        else:
            good += 1
            if column < totals.shape[0]:
                totals[column] += v
        start = i + 1
        column += 1
        if c == NEWLINE:
            lines += 1
            column = 0
    return totals, good, bad, lines

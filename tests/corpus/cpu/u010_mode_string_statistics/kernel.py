"""Robust column statistics selected by a mode string, as a reporting module writes them.

`column_stat` dispatches on its mode; the report asks for several modes per column. An
unknown mode is reported as NaN rather than raising, so a typo shows up in the output.
"""
import numpy as np
from numba import njit

TRIM = 0.1


@njit
def trimmed_mean(values, fraction):
    ordered = np.sort(values)
    cut = int(values.shape[0] * fraction)
    return ordered[cut:values.shape[0] - cut].mean()


@njit
def column_stat(values, mode):
    if mode == "mean":
        return values.mean()
    elif mode == "median":
        return np.median(values)
    elif mode == "trimmed":
        return trimmed_mean(values, TRIM)
    elif mode == "mad":
        centre = np.median(values)
        return np.median(np.abs(values - centre))
    return np.nan


@njit
def describe(column, robust):
    if robust:
        return column_stat(column, "median"), column_stat(column, "mad")
    return column_stat(column, "mean"), column.std()


@njit
def report(data):
    cols = data.shape[1]
    table = np.empty((cols, 4))
    for j in range(cols):
        column = data[:, j]
        table[j, 0] = column_stat(column, "mean")
        table[j, 1] = column_stat(column, "median")
        table[j, 2] = column_stat(column, "trimmed")
        table[j, 3] = column_stat(column, "mad")
    unknown = column_stat(data[:, 0], "mode")
    centre, scale = describe(data[:, 1], True)
    plain_centre, plain_scale = describe(data[:, 1], False)
    return table, unknown, centre, scale, plain_centre, plain_scale


if __name__ == "__main__":
    print(report(np.random.default_rng(2).standard_cauchy(size=(50, 3))))

# Quality control of sensor readings: each row is one reading (timestamp, three channels,
# status code). Rows whose status is good are selected together with just the channel columns
# by readings[good, 1:4]; rows flagged by a threshold are clipped in place through the mask and
# a column slice; the worst channel of the flagged rows is read with readings[flagged, 2]; and
# a per-station cube is summarised on chosen stations and hours with two index arrays.
import numpy as np
from numba import njit

GOOD = 0
LIMIT = 1.5


@njit
def good_rows(status):
    return status == GOOD


@njit
def flagged_rows(readings, limit):
    n = readings.shape[0]
    flags = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        for j in range(1, 4):
            if abs(readings[i, j]) > limit:
                flags[i] = True
    return flags


@njit
def quality_control(readings, status, cube, stations, hours):
    good = good_rows(status)
    channels = readings[good, 1:4]
    flagged = flagged_rows(readings, LIMIT)
    worst = readings[flagged, 2]
    cleaned = readings.copy()
    cleaned[flagged, 1:4] = LIMIT
    cleaned[good, ::-1][:, 0] = 0.0
    reversed_channels = readings[good, 3:0:-1]
    per_station = cube[stations, 1, hours]
    station_hours = cube[stations, :, hours]
    cube[1, stations[1:3], hours[1:3]] += 1000.0
    return channels, worst, cleaned, reversed_channels, per_station, station_hours, cube

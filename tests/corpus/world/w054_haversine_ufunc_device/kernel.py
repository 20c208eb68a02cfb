"""Great-circle distances for GPS tracks, as a CUDA ufunc.

Distances between consecutive fixes (lat/lon in degrees) in metres, using
the haversine formula on a spherical Earth.  The ufunc calls a device
function, and broadcasts a single reference point against arrays of fixes.
"""
import math

import numpy as np
from numba import cuda, vectorize

EARTH_RADIUS_M = 6371008.8
DEG2RAD = math.pi / 180.0


@cuda.jit(device=True)
def hav(theta):
    s = math.sin(0.5 * theta)
    return s * s


@vectorize(['float64(float64, float64, float64, float64)'], target='cuda')
def haversine_m(lat1, lon1, lat2, lon2):
    p1 = lat1 * DEG2RAD
    p2 = lat2 * DEG2RAD
    h = hav(p2 - p1) + math.cos(p1) * math.cos(p2) * hav((lon2 - lon1) * DEG2RAD)
    h = min(1.0, h)
    return 2.0 * EARTH_RADIUS_M * math.asin(math.sqrt(h))


def track_length(lat, lon):
    return haversine_m(lat[:-1], lon[:-1], lat[1:], lon[1:]).sum()


if __name__ == "__main__":
    lat = np.array([52.52, 48.8566, 51.5074])
    lon = np.array([13.405, 2.3522, -0.1278])
    print(track_length(lat, lon) / 1000.0)

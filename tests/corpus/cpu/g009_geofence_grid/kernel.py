"""GPS fixes against a city geofence: haversine distances, ray-casting point-in-polygon,
counts on a lat/lon grid, and the nearest depot for every fix."""
import math

import numpy as np
from numba import njit, prange

EARTH_RADIUS_KM = 6371.0088
# a city-shaped polygon (lon, lat), closed by wrapping around
FENCE = np.array([[13.30, 52.48], [13.38, 52.46], [13.47, 52.47], [13.52, 52.51],
                  [13.46, 52.56], [13.37, 52.55], [13.31, 52.53]])
DEPOTS = np.array([[13.40, 52.52], [13.34, 52.49], [13.49, 52.50]])
CELL_DEG = 0.02
BOX_LO = np.array([13.28, 52.44])
BOX_HI = np.array([13.54, 52.58])


@njit(fastmath=True)
def haversine(lon1, lat1, lon2, lat2):
    lon1, lat1 = math.radians(lon1), math.radians(lat1)
    lon2, lat2 = math.radians(lon2), math.radians(lat2)
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))


@njit
def point_in_polygon(x, y, poly):
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y):
            x_cross = (xj - xi) * (y - yi) / (yj - yi) + xi
            if x < x_cross:
                inside = not inside
        j = i
    return inside


@njit(parallel=True)
def fence_mask(points, poly):
    out = np.zeros(points.shape[0], dtype=np.bool_)
    for k in prange(points.shape[0]):
        out[k] = point_in_polygon(points[k, 0], points[k, 1], poly)
    return out


@njit
def nearest_depot(points, depots):
    n = points.shape[0]
    which = np.empty(n, dtype=np.int64)
    dist = np.empty(n)
    for k in range(n):
        best = np.inf
        for d in range(depots.shape[0]):
            km = haversine(points[k, 0], points[k, 1], depots[d, 0], depots[d, 1])
            if km < best:
                best = km
                which[k] = d
        dist[k] = best
    return which, dist


@njit
def grid_counts(points, cell):
    lon0, lat0 = points[:, 0].min(), points[:, 1].min()
    nx = int(math.floor((points[:, 0].max() - lon0) / cell)) + 1
    ny = int(math.floor((points[:, 1].max() - lat0) / cell)) + 1
    grid = np.zeros((ny, nx), dtype=np.int32)
    for lon, lat in points:
        ix = int((lon - lon0) // cell)
        iy = int((lat - lat0) // cell)
        grid[iy, ix] += 1
    return grid


@njit
def path_length(track):
    total = 0.0
    for k in range(1, track.shape[0]):
        total += haversine(track[k - 1, 0], track[k - 1, 1], track[k, 0], track[k, 1])
    return total


@njit
def geofence_report(unit):
    # fixes drawn uniformly over the bounding box
    points = BOX_LO + unit * (BOX_HI - BOX_LO)
    inside = fence_mask(points, FENCE)
    which, dist = nearest_depot(points, DEPOTS)
    grid = grid_counts(points, CELL_DEG)
    per_depot = np.zeros(DEPOTS.shape[0], dtype=np.int64)
    for d in which[inside]:
        per_depot[d] += 1
    flat = np.argmax(grid)
    busiest = (flat // grid.shape[1], flat % grid.shape[1])
    track = points[inside][:25]
    return inside, which, dist, grid, per_depot, np.array(busiest), path_length(track), path_length(FENCE)

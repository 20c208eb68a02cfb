# A 3-d volume (slices, rows, columns) reoriented as imaging code does it: the slice axis moved
# last with np.transpose and axes, a.transpose(*axes), np.swapaxes and np.moveaxis (views of the
# same volume, checked by writing through one), then reduced along the new axes into
# projections, and a per-plane profile from a copy in the new order.
import numpy as np
from numba import njit

AXIAL = (1, 2, 0)


@njit
def projections(volume):
    ras = np.transpose(volume, AXIAL)
    coronal = volume.transpose(2, 0, 1)
    swapped = np.swapaxes(volume, 0, 2)
    moved = np.moveaxis(volume, 0, -1)
    both = np.moveaxis(volume, (0, 1), (2, 0))
    return ras.sum(axis=2), coronal.sum(axis=0), swapped.sum(axis=1), moved.shape, both.shape, both[1, 2, 0]


@njit
def reorient(volume, scale):
    rows_first = volume.transpose((1, 0, 2))
    rows_first[0, 0, 0] = -1.0  # a view: the volume changes too
    planes = np.ascontiguousarray(np.swapaxes(volume, -1, 0))
    profile = np.empty(planes.shape[0])
    for k in range(planes.shape[0]):
        profile[k] = planes[k].mean() * scale
    p, c, s, moved_shape, both_shape, corner = projections(volume)
    back = np.transpose(np.transpose(volume, (2, 0, 1)), (1, 2, 0))
    return volume[0, 0, 0], profile, p, c, s, moved_shape[2], both_shape[0], corner, np.abs(back - volume).max(), np.swapaxes(volume[0], 0, 1)

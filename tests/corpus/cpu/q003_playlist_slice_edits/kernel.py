"""Editing a playlist of track ids with slice assignments, as a small queue manager does."""
import numpy as np
from numba import njit


@njit
def splice(queue, at, tracks):
    queue[at:at] = tracks


@njit
def drop_every_other(queue, start):
    keep = queue[start::2]
    queue[start:] = keep


@njit
def manage(track_ids, insert_at):
    queue = [int(t) for t in track_ids]
    splice(queue, insert_at, [900, 901, 902])
    queue[:2] = queue[:2][::-1]
    drop_every_other(queue, 3)
    queue[-3:] = [7]
    queue[::3] = [0] * len(queue[::3])
    head = queue[:4]
    return len(queue), sum(queue), head[0], head[1], head[2], head[3], queue[-1]

"""Cell classification for a lattice simulation.

Cell kinds and boundary codes are enum classes, as simulation codes write them:
IntEnum members act as integers (stored in arrays, compared with ints, used in
arithmetic); plain Enum (and IntFlag) members are compared with == and `is`
and read through .value, as Numba types them.
"""
import enum
from enum import Enum, IntEnum

import numpy as np
from numba import cuda, int16, int32


class Cell(IntEnum):
    FLUID = 0
    WALL = 1
    INLET = 2
    OUTLET = 3


class Code(IntEnum):
    OK = 200
    MISSING = 404
    FAILED = 500


class Phase(Enum):
    LIQUID = 1
    GAS = 2
    SOLID = 3


class Flags(enum.IntFlag):
    NONE = 0
    MOVING = enum.auto()
    HEATED = enum.auto()
    POROUS = enum.auto()


@cuda.jit(device=True)
def phase_of(t):
    if t < 0.0:
        return Phase.SOLID.value
    elif t < 100.0:
        return Phase.LIQUID.value
    return Phase.GAS.value


@cuda.jit
def classify(kind, temp, out, codes):
    i = cuda.grid(1)
    if i >= kind.shape[0]:
        return
    k = kind[i]
    if k == Cell.WALL:
        out[i, 0] = Cell.WALL
    elif k == Cell["INLET"] or k == Cell.OUTLET:
        out[i, 0] = k + Cell.OUTLET * 10
    else:
        out[i, 0] = Cell.FLUID
    p = Phase.LIQUID
    if temp[i] >= 100.0:
        p = Phase.GAS
    out[i, 1] = 1 if p == Phase.GAS else 0
    out[i, 2] = 1 if p is Phase.LIQUID else 0
    out[i, 3] = phase_of(temp[i])
    out[i, 4] = Flags.MOVING.value | Flags.POROUS.value
    f = Flags.NONE
    if k > Cell.WALL:
        f = Flags.POROUS
    out[i, 5] = f.value if f == Flags.POROUS else Flags.HEATED.value
    if temp[i] > Code.FAILED:
        codes[i] = temp[i] - Code.MISSING
    elif temp[i] > int16(Code.MISSING):
        codes[i] = temp[i] - int32(Code.OK)
    else:
        codes[i] = temp[i] + Code.OK
    same = Phase["GAS"] == Phase["SOLID"]
    other = Phase.GAS != Phase.SOLID
    out[i, 1] += 10 * same + 100 * other

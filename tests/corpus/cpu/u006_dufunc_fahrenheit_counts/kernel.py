"""Thermostat log conversion: integer Fahrenheit readings to Celsius with a sensor offset.

The ufunc has no signatures: the first call with an int64 log and a float offset compiles
the loop for exactly those types (Numba's DUFunc), and later calls reuse it.
"""
import numpy as np
from numba import vectorize

FREEZING_F = 32


@vectorize(cache=True)
def to_celsius(fahrenheit, offset):
    return (fahrenheit - FREEZING_F) * 5 / 9 + offset


if __name__ == "__main__":
    log = np.array([[68, 70, 71], [59, 60, 64]])
    print(to_celsius(log, -0.25))

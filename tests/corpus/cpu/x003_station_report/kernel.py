"""A daily report of weather stations printed line by line, as a monitoring script prints it."""
import numpy as np
from numba import njit

LABELS = ("cold", "mild", "warm")
HEADER = "station report"


@njit
def band(temperature):
    if temperature < 5.0:
        return LABELS[0]
    elif temperature < 20.0:
        return LABELS[1]
    return LABELS[2]


@njit
def report(temperatures, rain_mm):
    print(HEADER.upper())
    print("-" * len(HEADER))
    n = temperatures.shape[0]
    wet = 0
    for i in range(n):
        name = "st" + str(i + 1)
        label = band(temperatures[i])
        line = f"{name}: {label}, rain {rain_mm[i]} mm"
        if rain_mm[i] > 10:
            line = line + " (wet)"
            wet += 1
        print(line)
    print("wet stations:", wet, "of", n)
    print("mean temperature", temperatures.mean(), "max", temperatures.max())
    print("all dry" if wet == 0 else "some wet", wet == 0)

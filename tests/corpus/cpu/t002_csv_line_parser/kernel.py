"""Parses CSV lines of sensor readings, as a small ingestion script does before analysis."""
import numpy as np
from numba import njit

CSV = """station,temp,humidity,status
north, 21.5,0.40,ok
south,-3.25,0.91,OK
east,10,0.55,fault
west,  18,0.35,ok
"""
SEPARATOR = ","


@njit
def parse_decimal(field):
    """A signed decimal number with an optional fraction (Numba's float() takes literals only)."""
    text = field.strip()
    sign = 1.0
    if text.startswith("-"):
        sign = -1.0
        text = text[1:]
    whole, _, fraction = text.partition(".")
    if not whole.isdigit() or (len(fraction) > 0 and not fraction.isdigit()):
        raise ValueError("bad number: " + field)
    value = 0.0
    for ch in whole:
        value = value * 10.0 + (ord(ch) - ord("0"))
    scale = 1.0
    for ch in fraction:
        scale /= 10.0
        value += (ord(ch) - ord("0")) * scale
    return sign * value


@njit
def parse_row(line):
    fields = line.split(SEPARATOR)
    name = fields[0].strip()
    temp = parse_decimal(fields[1])
    humidity = parse_decimal(fields[2])
    ok = fields[3].strip().lower() == "ok"
    return name, temp, humidity, ok


@njit
def parse_csv(max_rows):
    lines = CSV.strip().splitlines()
    header = lines[0].split(SEPARATOR)
    n = min(len(lines) - 1, max_rows)
    temps = np.empty(n)
    humid = np.empty(n)
    good = 0
    names = []
    for i in range(n):
        name, t, h, ok = parse_row(lines[i + 1])
        temps[i] = t
        humid[i] = h
        names.append(name)
        if ok:
            good += 1
    print("columns:", len(header), "|".join(header))
    key, _, value = "mode=strict".partition("=")
    print(key, value, names)
    return temps, humid, good

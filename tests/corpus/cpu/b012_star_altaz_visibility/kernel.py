"""Which catalogue stars are observable tonight from one site.

For each time step the Greenwich mean sidereal time (IAU 1982 polynomial in Julian
centuries), then each star's hour angle, altitude and azimuth; a star counts as visible when
it is above the altitude limit and the Sun is below astronomical twilight. Refraction near
the horizon follows Bennett's formula.
"""
import math

import numpy as np
from numba import njit

J2000 = 2451545.0
DAYS_PER_CENTURY = 36525.0
SECONDS_PER_DAY = 86400.0
DEG = math.pi / 180.0
MIN_ALTITUDE = 20.0 * DEG
TWILIGHT = -18.0 * DEG
GMST_COEFFS = (24110.54841, 8640184.812866, 0.093104, -6.2e-6)


@njit
def gmst(jd):
    t = (jd - J2000) / DAYS_PER_CENTURY
    seconds = GMST_COEFFS[0] + t * (GMST_COEFFS[1] + t * (GMST_COEFFS[2] + t * GMST_COEFFS[3]))
    fraction = (jd + 0.5) % 1.0
    seconds += fraction * SECONDS_PER_DAY * 1.00273790935
    return (seconds % SECONDS_PER_DAY) / SECONDS_PER_DAY * 2 * math.pi


@njit
def altaz(ha, dec, lat):
    sin_alt = np.sin(dec) * np.sin(lat) + np.cos(dec) * np.cos(lat) * np.cos(ha)
    alt = np.arcsin(np.clip(sin_alt, -1.0, 1.0))
    az = np.arctan2(-np.cos(dec) * np.sin(ha),
                    np.sin(dec) * np.cos(lat) - np.cos(dec) * np.sin(lat) * np.cos(ha))
    return alt, np.mod(az, 2 * np.pi)


@njit
def refraction(alt):
    # Bennett (1982), in arcminutes for an apparent altitude in degrees
    h = np.degrees(alt)
    r = 1.0 / np.tan(np.radians(h + 7.31 / (h + 4.4)))
    return np.where(alt > -1.0 * DEG, np.radians(r / 60.0), 0.0)


@njit
def sun_radec(jd):
    n = jd - J2000
    mean_long = (280.460 + 0.9856474 * n) % 360.0
    anomaly = math.radians((357.528 + 0.9856003 * n) % 360.0)
    ecl_long = math.radians(mean_long + 1.915 * math.sin(anomaly) + 0.020 * math.sin(2 * anomaly))
    obliquity = math.radians(23.439 - 4e-7 * n)
    ra = math.atan2(math.cos(obliquity) * math.sin(ecl_long), math.cos(ecl_long))
    dec = math.asin(math.sin(obliquity) * math.sin(ecl_long))
    return ra, dec


@njit(cache=True)
def visibility(ra, dec, jd_start, hours, lat_deg, lon_deg):
    if not -90.0 <= lat_deg <= 90.0:
        raise ValueError("latitude out of range")
    lat, lon = np.radians(lat_deg), np.radians(lon_deg)
    steps = np.arange(0.0, hours, 0.25)
    visible_steps = np.zeros(ra.shape[0], dtype=np.int32)
    best_alt = np.full(ra.shape[0], -np.inf)
    dark_steps = 0
    for jd in jd_start + steps / 24.0:
        lst = gmst(jd) + lon
        sun_ra, sun_dec = sun_radec(jd)
        sun_alt, _ = altaz(np.array([lst - sun_ra]), np.array([sun_dec]), lat)
        if sun_alt[0] > TWILIGHT:
            continue
        dark_steps += 1
        alt, az = altaz(lst - ra, dec, lat)
        alt = alt + refraction(alt)
        up = alt > MIN_ALTITUDE
        visible_steps[up] += 1
        best_alt = np.maximum(best_alt, alt)
    hours_visible = visible_steps * 0.25
    order = np.argsort(hours_visible)[::-1]
    return hours_visible, np.degrees(best_alt), order[:5], dark_steps

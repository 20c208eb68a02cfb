"""European option prices and deltas over a grid of strikes, Black-Scholes with a polynomial
normal CDF (Abramowitz and Stegun 26.2.17), as whole-array expressions."""
import numpy as np
from numba import njit


@njit
def normal_cdf(x):
    a1 = 0.319381530
    a2 = -0.356563782
    a3 = 1.781477937
    a4 = -1.821255978
    a5 = 1.330274429
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.2316419 * z)
    poly = t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5))))
    tail = np.exp(-0.5 * z * z) / np.sqrt(2.0 * np.pi) * poly
    return np.where(x >= 0.0, 1.0 - tail, tail)


@njit
def price_grid(spot, strikes, years, rate, vols):
    root_t = np.sqrt(years)
    out_call = np.empty((vols.shape[0], strikes.shape[0]))
    out_put = np.empty_like(out_call)
    deltas = np.empty_like(out_call)
    discount = np.exp(-rate * years)
    for i in range(vols.shape[0]):
        sigma = vols[i]
        d1 = (np.log(spot / strikes) + (rate + 0.5 * sigma * sigma) * years) / (sigma * root_t)
        d2 = d1 - sigma * root_t
        nd1 = normal_cdf(d1)
        nd2 = normal_cdf(d2)
        out_call[i, :] = spot * nd1 - strikes * discount * nd2
        out_put[i] = out_call[i] - spot + strikes * discount
        deltas[i, :] = nd1
    parity = np.max(np.abs(out_call - out_put - (spot - strikes * discount)))
    in_the_money = np.sum(strikes < spot)
    intrinsic = np.maximum(spot - strikes, 0.0)
    time_value = out_call - intrinsic
    return out_call, out_put, deltas, parity, in_the_money, time_value.min()

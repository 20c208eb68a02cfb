"""European option prices by Black-Scholes, one option per thread.

The cumulative normal uses the Abramowitz-Stegun polynomial, written as a
device function with an explicit signature so that it is compiled eagerly.
A NumPy version of the same formula is kept for the host.
"""
import math

import numpy as np
from numba import cuda, float64

RISKFREE = 0.02
VOLATILITY = 0.30

A1 = 0.31938153
A2 = -0.356563782
A3 = 1.781477937
A4 = -1.821255978
A5 = 1.330274429
RSQRT2PI = 0.39894228040143267793994605993438
THREADS = 128


def cnd_numpy(d):
    K = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    ret_val = (RSQRT2PI * np.exp(-0.5 * d * d) *
               (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))))))
    return np.where(d > 0, 1.0 - ret_val, ret_val)


@cuda.jit(float64(float64), device=True, inline=True)
def cnd(d):
    K = 1.0 / (1.0 + 0.2316419 * math.fabs(d))
    ret_val = (RSQRT2PI * math.exp(-0.5 * d * d) *
               (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))))))
    if d > 0:
        ret_val = 1.0 - ret_val
    return ret_val


@cuda.jit(device=True)
def d1_d2(S, X, T, R, V):
    sqrtT = math.sqrt(T)
    d1 = (math.log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT)
    return d1, d1 - V * sqrtT


@cuda.jit
def black_scholes(call_result, put_result, stock_price, option_strike,
                  option_years, Riskfree, Volatility):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, stock_price.shape[0], stride):
        S = stock_price[i]
        X = option_strike[i]
        T = option_years[i]
        d1, d2 = d1_d2(S, X, T, Riskfree, Volatility)
        cndd1 = cnd(d1)
        cndd2 = cnd(d2)

        expRT = math.exp((-1. * Riskfree) * T)
        call_result[i] = (S * cndd1 - X * expRT * cndd2)
        put_result[i] = (X * expRT * (1.0 - cndd2) - S * (1.0 - cndd1))


def price_options(stock, strike, years):
    call = np.zeros_like(stock)
    put = np.zeros_like(stock)
    blocks = (stock.size + THREADS - 1) // THREADS
    black_scholes[blocks, THREADS](call, put, stock, strike, years,
                                   RISKFREE, VOLATILITY)
    return call, put


if __name__ == "__main__":
    n = 1000
    rng = np.random.default_rng(2)
    stock = rng.uniform(5.0, 30.0, n)
    strike = rng.uniform(1.0, 100.0, n)
    years = rng.uniform(0.25, 10.0, n)
    c, p = price_options(stock, strike, years)
    print(c[:4], p[:4])

"""AR(1) and GARCH(1,1) simulation and fitting, as a volatility notebook's helper module."""
import math

import numpy as np
import numba as nb

BURN_IN = 200
# (omega, alpha, beta) of the GARCH(1, 1) recursion
GARCH_PARAMS = (0.05, 0.08, 0.9)


@nb.njit
def check_stationary(alpha, beta):
    if alpha < 0 or beta < 0:
        raise ValueError("GARCH coefficients must be non-negative")
    if alpha + beta >= 1.0:
        raise ValueError("alpha + beta must be below 1 for a stationary variance")
    return True


@nb.njit
def simulate_ar1(phi, sigma, n, seed):
    np.random.seed(seed)
    x = np.zeros(n + BURN_IN)
    for t in range(1, n + BURN_IN):
        x[t] = phi * x[t - 1] + sigma * np.random.standard_normal()
    return x[BURN_IN:]


@nb.njit
def simulate_garch(n, seed, params=GARCH_PARAMS):
    omega, alpha, beta = params
    check_stationary(alpha, beta)
    np.random.seed(seed)
    total = n + BURN_IN
    r = np.empty(total)
    h = np.empty(total)
    h[0] = omega / (1.0 - alpha - beta)
    r[0] = math.sqrt(h[0]) * np.random.normal()
    for t in range(1, total):
        h[t] = omega + alpha * r[t - 1] ** 2 + beta * h[t - 1]
        r[t] = math.sqrt(h[t]) * np.random.normal(0.0, 1.0)
    return r[BURN_IN:], h[BURN_IN:]


@nb.njit
def fit_ar1(x):
    # least squares of x[t] on x[t-1], no constant
    lagged = x[:-1]
    current = x[1:]
    phi = np.dot(lagged, current) / np.dot(lagged, lagged)
    resid = current - phi * lagged
    sigma = np.sqrt(np.mean(resid ** 2))
    return phi, sigma


@nb.njit
def autocorrelation(x, max_lag):
    xc = x - x.mean()
    denom = (xc * xc).sum()
    acf = np.ones(max_lag + 1)
    for k in range(1, max_lag + 1):
        acf[k] = (xc[k:] * xc[:-k]).sum() / denom
    return acf


@nb.njit
def garch_log_likelihood(r, omega, alpha, beta):
    n = r.shape[0]
    h = np.var(r)
    ll = 0.0
    for t in range(n):
        if t > 0:
            h = omega + alpha * r[t - 1] * r[t - 1] + beta * h
        ll += -0.5 * (math.log(2.0 * math.pi) + math.log(h) + r[t] * r[t] / h)
    return ll


@nb.njit
def volatility_study(phi, sigma, n, seed):
    x = simulate_ar1(phi, sigma, n, seed)
    phi_hat, sigma_hat = fit_ar1(x)
    acf = autocorrelation(x, 5)
    r, h = simulate_garch(n, seed + 1)
    omega, alpha, beta = GARCH_PARAMS
    ll_true = garch_log_likelihood(r, omega, alpha, beta)
    ll_off = garch_log_likelihood(r, omega, alpha / 2, beta)
    # squared returns are autocorrelated under GARCH, raw returns hardly
    sq_acf = autocorrelation(r ** 2, 3)
    annualised = np.sqrt(252.0 * h.mean())
    return x[:50], phi_hat, sigma_hat, acf, r[:50], ll_true > ll_off, sq_acf, annualised

"""OLS with heteroskedasticity- and autocorrelation-robust (Newey-West) standard errors,
and a pairs bootstrap of the slope, written for a returns-predictability exercise."""
import numpy as np
from numba import njit, prange

N_BOOT = 200


@njit
def add_constant(x):
    n = x.shape[0]
    X = np.ones((n, x.shape[1] + 1))
    X[:, 1:] = x
    return X


@njit
def ols(X, y):
    XtX = X.T @ X
    beta = np.linalg.solve(XtX, X.T @ y)
    resid = y - X @ beta
    return beta, resid, np.linalg.inv(XtX)


@njit
def bartlett_lags(n):
    # the usual rule of thumb floor(4 (n / 100) ^ (2 / 9))
    return int(np.floor(4.0 * (n / 100.0) ** (2.0 / 9.0)))


@njit
def newey_west_cov(X, resid, lags):
    n, k = X.shape
    u = X * resid.reshape(-1, 1)
    S = u.T @ u
    for lag in range(1, lags + 1):
        w = 1.0 - lag / (lags + 1.0)
        gamma = u[lag:].T @ u[:-lag]
        S += w * (gamma + gamma.T)
    return S / n


@njit
def robust_standard_errors(X, resid, XtX_inv, lags):
    n = X.shape[0]
    S = newey_west_cov(X, resid, lags)
    V = n * XtX_inv @ S @ XtX_inv
    return np.sqrt(np.diag(V))


@njit
def classical_standard_errors(X, resid, XtX_inv):
    n, k = X.shape
    s2 = resid @ resid / (n - k)
    return np.sqrt(s2 * np.diag(XtX_inv))


@njit
def bootstrap_slopes(X, y, seed):
    np.random.seed(seed)
    n = X.shape[0]
    slopes = np.empty(N_BOOT)
    for b in range(N_BOOT):
        idx = np.empty(n, dtype=np.int64)
        for i in range(n):
            idx[i] = np.random.randint(0, n)
        beta, _, _ = ols(X[idx], y[idx])
        slopes[b] = beta[1]
    return slopes


@njit
def r_squared(y, resid):
    centred = y - y.mean()
    return 1.0 - (resid ** 2).sum() / (centred ** 2).sum()


@njit
def regression_report(x, noise, seed):
    n = x.shape[0]
    # y depends on the first regressor, with AR(1) errors
    e = np.empty(n)
    e[0] = noise[0]
    for t in range(1, n):
        e[t] = 0.6 * e[t - 1] + noise[t]
    y = 0.5 + 1.5 * x[:, 0] - 0.25 * x[:, 1] + e
    X = add_constant(x)
    beta, resid, XtX_inv = ols(X, y)
    lags = bartlett_lags(n)
    se_nw = robust_standard_errors(X, resid, XtX_inv, lags)
    se_ols = classical_standard_errors(X, resid, XtX_inv)
    t_stats = beta / se_nw
    slopes = bootstrap_slopes(X, y, seed)
    lo, hi = np.percentile(slopes, 2.5), np.percentile(slopes, 97.5)
    return beta, se_nw, se_ols, t_stats, lags, r_squared(y, resid), np.array([lo, hi]), slopes.std()

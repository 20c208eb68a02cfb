# A regression design matrix as time-series code builds one: lagged copies of a series as
# columns (np.column_stack), an intercept column joined in front (np.hstack), rows of the
# matrix standardised with loops, weights from a nested list literal and a tuple, a
# float32 copy for a model that wants one (astype with a string and with a type), the
# design flattened for a caller that wants one vector (ravel of a C array, flatten of its
# transpose), and a reshape with an inferred extent.
import numpy as np
from numba import njit


@njit
def lagged(series, lag):
    n = series.shape[0] - lag
    out = np.empty(n)
    for i in range(n):
        out[i] = series[i + lag]
    return out


@njit
def design(series, lags):
    n = series.shape[0] - lags
    # Each lag a column: x[t - 1], x[t - 2], ... aligned on the last n samples.
    one = lagged(series, lags - 1)[:n]
    two = lagged(series, lags - 2)[:n]
    three = lagged(series, lags - 3)[:n]
    features = np.column_stack((one, two, three))
    intercept = np.ones((n, 1))
    x = np.hstack((intercept, features))
    # Standardise the feature columns (not the intercept) with loops.
    for j in range(1, x.shape[1]):
        mean = 0.0
        for i in range(n):
            mean += x[i, j]
        mean /= n
        spread = 0.0
        for i in range(n):
            spread += (x[i, j] - mean) ** 2
        spread = np.sqrt(spread / n)
        for i in range(n):
            x[i, j] = (x[i, j] - mean) / spread
    weights = np.array([[0.5, -0.25, 0.125], [1.0, 2.0, 3.0]])
    bias = np.asarray((0.1, 0.2))
    target = lagged(series, lags)
    prediction = np.zeros((2, n))
    for m in range(2):
        for i in range(n):
            acc = bias[m]
            for j in range(3):
                acc += weights[m, j] * x[i, j + 1]
            prediction[m, i] = acc
    residual = np.empty(n)
    for i in range(n):
        residual[i] = target[i] - prediction[0, i]
    single = x.astype("float32")
    counts = x.astype(np.int16)
    flat = x.ravel()
    by_column = x.T.flatten()
    blocks = flat.reshape(-1, 2)
    return x, prediction, residual, single, counts, flat, by_column, blocks

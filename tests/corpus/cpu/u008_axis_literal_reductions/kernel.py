"""Column and row summaries of a sales table through one reduction helper taking the axis.

The helper branches on its axis argument; callers pass 0 or 1 as literals, the way NumPy's
own reductions are called. A tuple of mixed statistics is read back by position with an
index the caller passes, and a clipping helper takes its flag as a literal too.
"""
import numpy as np
from numba import njit

ROWS_AXIS = 0


@njit
def totals(table, axis):
    if axis == 0:
        out = np.zeros(table.shape[1])
        for i in range(table.shape[0]):
            out += table[i]
    else:
        out = np.zeros(table.shape[0])
        for i in range(table.shape[0]):
            out[i] = table[i].sum()
    return out


@njit
def means(table, axis):
    # the axis goes straight on to NumPy, and picks the length to divide by
    return table.sum(axis=axis) / table.shape[axis]


@njit
def clipped(values, limit, inclusive):
    count = 0
    for v in values:
        if inclusive:
            if v >= limit:
                count += 1
        elif v > limit:
            count += 1
    # both arms are typed: this returns a float64 for True and False alike
    if inclusive:
        return count
    return count * 1.0


@njit
def pick(stats, k):
    return stats[k]


@njit
def sales_summary(table, limit):
    by_product = totals(table, ROWS_AXIS)
    by_store = totals(table, 1)
    product_means = means(table, 0)
    stats = (by_product.argmax(), by_store.max(), table.shape[0] > 3)
    best_product = pick(stats, 0)
    best_store_total = pick(stats, 1)
    many_stores = pick(stats, 2)
    above = clipped(by_store, limit, True)
    strictly = clipped(by_store, limit, False)
    return by_product, by_store, product_means, best_product, best_store_total, many_stores, above, strictly


if __name__ == "__main__":
    table = np.arange(20.0).reshape(5, 4)
    print(sales_summary(table, 30.0))

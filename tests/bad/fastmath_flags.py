from numba import njit


@njit(fastmath={'nnan', 'fastest'})
def unknown_flag(x):
    return x * 2.0


@njit(fastmath={'nsz': 1})
def not_a_boolean(x):
    return x + 1.0


@njit(fastmath='fast')
def not_a_set(x):
    return x - 1.0


@njit(fastmath={3})
def not_a_name(x):
    return x

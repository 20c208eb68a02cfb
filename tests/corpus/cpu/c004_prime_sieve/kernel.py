# The sieve of Eratosthenes as number-theory code writes it: a bool array from np.ones, the
# primes gathered into an int64 array sized by a first count, and gaps between them.
import numpy as np
from numba import njit


@njit
def sieve(n):
    is_prime = np.ones(n + 1, dtype=np.bool_)
    is_prime[0] = False
    is_prime[1] = False
    i = 2
    while i * i <= n:
        if is_prime[i]:
            for j in range(i * i, n + 1, i):
                is_prime[j] = False
        i += 1
    return is_prime


@njit
def primes_up_to(n):
    flags = sieve(n)
    count = 0
    for k in range(n + 1):
        if flags[k]:
            count += 1
    primes = np.empty(count, dtype=np.int64)
    at = 0
    for k in range(n + 1):
        if flags[k]:
            primes[at] = k
            at += 1
    gaps = np.zeros(count - 1, np.int32)
    for k in range(count - 1):
        gaps[k] = primes[k + 1] - primes[k]
    return primes, gaps, count

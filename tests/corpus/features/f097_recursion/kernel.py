"""Recursive device functions in the shapes they take in sorting and number-theory kernels:
an in-place quicksort per row, a binary search, Euclid's gcd, exponentiation by squaring,
Fibonacci with an explicit signature, and two functions that call each other. numba-cuda types
a recursive call from the function's other return paths (its base cases)."""
import numpy as np
from numba import cuda


@cuda.jit(device=True)
def partition(row, lo, hi):
    pivot = row[hi]
    i = lo
    for j in range(lo, hi):
        if row[j] < pivot:
            row[i], row[j] = row[j], row[i]
            i += 1
    row[i], row[hi] = row[hi], row[i]
    return i


@cuda.jit(device=True)
def quicksort(row, lo, hi):
    if lo < hi:
        p = partition(row, lo, hi)
        quicksort(row, lo, p - 1)
        quicksort(row, p + 1, hi)


@cuda.jit(device=True)
def bsearch(row, value, lo, hi):
    if lo > hi:
        return -1
    mid = (lo + hi) // 2
    if row[mid] == value:
        return mid
    if row[mid] < value:
        return bsearch(row, value, mid + 1, hi)
    return bsearch(row, value, lo, mid - 1)


@cuda.jit(device=True)
def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


@cuda.jit(device=True)
def power(base, exponent):
    if exponent == 0:
        return 1.0
    half = power(base, exponent // 2)
    if exponent % 2 == 0:
        return half * half
    return half * half * base


@cuda.jit("i8(i8)", device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit(device=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@cuda.jit(device=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@cuda.jit
def recursive_kernels(data, pairs, counts, powers):
    i = cuda.grid(1)
    if i < data.shape[0]:
        row = data[i]
        n = row.shape[0]
        quicksort(row, 0, n - 1)
        target = row[i % n]
        counts[i, 0] = bsearch(row, target, 0, n - 1)
        counts[i, 1] = bsearch(row, 2.0, 0, n - 1)
        a = pairs[i, 0]
        b = pairs[i, 1]
        counts[i, 2] = gcd(a, b)
        counts[i, 3] = fib(a % 15)
        counts[i, 4] = is_even(b % 24)
        powers[i] = power(1.25, b % 9) + power(np.float64(i), 2)

"""Ways to pay an amount with coins, with a memo dict filled bottom-up instead of by recursion."""
import numpy as np
from numba import njit


@njit
def ways_to_pay(amount, coins):
    memo = {}
    for c in range(coins.shape[0] + 1):
        memo[(0, c)] = 1
    for a in range(1, amount + 1):
        memo[(a, 0)] = 0
        for c in range(1, coins.shape[0] + 1):
            coin = coins[c - 1]
            total = memo[(a, c - 1)]
            if a >= coin:
                total += memo[(a - coin, c)]
            memo[(a, c)] = total
    return memo[(amount, coins.shape[0])], len(memo)


@njit
def collatz_lengths(limit):
    cache = {1: 1}
    out = np.zeros(limit, dtype=np.int64)
    for start in range(1, limit + 1):
        path = []
        n = start
        while n not in cache:
            path.append(n)
            n = n // 2 if n % 2 == 0 else 3 * n + 1
        length = cache[n]
        for k in range(len(path) - 1, -1, -1):
            length += 1
            cache[path[k]] = length
        out[start - 1] = cache[start]
    longest = 0
    for v in cache.values():
        longest = max(longest, v)
    return out, longest, len(cache)


@njit
def memo_report(amount, coins, limit):
    ways, entries = ways_to_pay(amount, coins)
    lengths, longest, cached = collatz_lengths(limit)
    return ways, entries, lengths, longest, cached

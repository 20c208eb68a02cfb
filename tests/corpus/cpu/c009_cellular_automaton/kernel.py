# An elementary cellular automaton as teaching code writes it: the history in a uint8 2-d
# array, the rule's table from its number, each generation read from the row before through
# row views, and the live counts per generation.
import numpy as np
from numba import njit


@njit
def rule_table(rule):
    table = np.zeros(8, dtype=np.uint8)
    for k in range(8):
        table[k] = (rule >> k) & 1
    return table


@njit
def next_row(previous, out, table):
    width = previous.shape[0]
    for i in range(width):
        left = previous[(i - 1) % width]
        right = previous[(i + 1) % width]
        out[i] = table[4 * left + 2 * previous[i] + right]


@njit
def run(rule, width, steps):
    table = rule_table(rule)
    history = np.zeros((steps, width), dtype=np.uint8)
    history[0, width // 2] = 1
    for t in range(1, steps):
        next_row(history[t - 1], history[t], table)
    live = np.zeros(steps, dtype=np.int64)
    for t in range(steps):
        row = history[t]
        for i in range(width):
            live[t] += row[i]
    return history, live

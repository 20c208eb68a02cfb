"""Check bracket nesting with a list as a stack; an unmatched closing bracket pops an empty
stack, which is Python's IndexError in Numba too."""
import numpy as np
from numba import njit

OPEN, CLOSE = 1, -1


@njit
def max_depth(tokens):
    stack = []
    depth = 0
    for i in range(tokens.shape[0]):
        if tokens[i] == OPEN:
            stack.append(i)
            depth = max(depth, len(stack))
        elif tokens[i] == CLOSE:
            stack.pop()          # raises once the closers outnumber the openers
    return depth, len(stack)

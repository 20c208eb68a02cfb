# A statement 260 columns deep: tree-sitter-python saves indentation in one byte.
from numba import cuda
# pykern: --sig k=void(float64[:])

@cuda.jit
def k(a):
    x = 1
    if x:
        if x:
            if x:
                if x:
                    if x:
                        if x:
                            if x:
                                if x:
                                    if x:
                                        if x:
                                            if x:
                                                if x:
                                                    if x:
                                                        if x:
                                                            if x:
                                                                if x:
                                                                    if x:
                                                                        if x:
                                                                            if x:
                                                                                if x:
                                                                                    if x:
                                                                                        if x:
                                                                                            if x:
                                                                                                if x:
                                                                                                    if x:
                                                                                                        if x:
                                                                                                            if x:
                                                                                                                if x:
                                                                                                                    if x:
                                                                                                                        if x:
                                                                                                                            if x:
                                                                                                                                if x:
                                                                                                                                    if x:
                                                                                                                                        if x:
                                                                                                                                            if x:
                                                                                                                                                if x:
                                                                                                                                                    if x:
                                                                                                                                                        if x:
                                                                                                                                                            if x:
                                                                                                                                                                if x:
                                                                                                                                                                    if x:
                                                                                                                                                                        if x:
                                                                                                                                                                            if x:
                                                                                                                                                                                if x:
                                                                                                                                                                                    if x:
                                                                                                                                                                                        if x:
                                                                                                                                                                                            if x:
                                                                                                                                                                                                if x:
                                                                                                                                                                                                    if x:
                                                                                                                                                                                                        if x:
                                                                                                                                                                                                            if x:
                                                                                                                                                                                                                if x:
                                                                                                                                                                                                                    if x:
                                                                                                                                                                                                                        if x:
                                                                                                                                                                                                                            if x:
                                                                                                                                                                                                                                if x:
                                                                                                                                                                                                                                    if x:
                                                                                                                                                                                                                                        if x:
                                                                                                                                                                                                                                            if x:
                                                                                                                                                                                                                                                if x:
                                                                                                                                                                                                                                                    if x:
                                                                                                                                                                                                                                                        if x:
                                                                                                                                                                                                                                                            if x:
                                                                                                                                                                                                                                                                if x:
                                                                                                                                                                                                                                                                    x = 2
    a[0] = x

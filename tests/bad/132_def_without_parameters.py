@cuda.jit
def k:
    pass

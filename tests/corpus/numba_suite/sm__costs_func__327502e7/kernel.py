# Recorded from numba.cuda.tests.cudapy.test_sm (TestSharedMemoryIssue.test_issue_2393) by tests/numba_suite/harness.py
from numba import cuda
from numba import float64

examples_per_block = 4
num_weights = 2


@cuda.jit
def costs_func(d_block_costs):
    s_features = cuda.shared.array(
        (examples_per_block, num_weights), float64
    )
    s_initialcost = cuda.shared.array(7, float64)  # Bug

    threadIdx = cuda.threadIdx.x

    prediction = 0
    for j in range(num_weights):
        prediction += s_features[threadIdx, j]

    d_block_costs[0] = s_initialcost[0] + prediction

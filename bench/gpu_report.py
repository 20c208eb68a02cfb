"""Puts bench_gpu's and numba_gpu_bench.py's JSON side by side as the Markdown tables of
BENCHMARKS.md:  python3 bench/gpu_report.py pykern.json numba.json > gpu_report.md"""
import json
import sys


def main(pykern_path, numba_path):
    p = json.load(open(pykern_path))
    n = json.load(open(numba_path))
    cases = json.load(open(__file__.rsplit("/", 1)[0] + "/gpu_cases.json"))["cases"]
    print("Device: %s. numba %s%s. Copy bandwidth (device to device, read + write): pykern %.0f GB/s, numba %.0f GB/s.\n"
          % (p["device"], n.get("numba_version", "?"),
             ", numba-cuda " + n["numba_cuda_version"] if "numba_cuda_version" in n else "",
             p["copy_bandwidth_gbs"], n["copy_bandwidth_gbs"]))
    print("| case | cold: pykern ms | cold: numba ms | ratio | kernel: pykern ms | kernel: numba ms | ratio | pykern rate |")
    print("|---|---|---|---|---|---|---|---|")
    for c in cases:
        name = c["case"]
        pk, nb = p["kernel_ms"][name], n["kernel_ms"][name]
        if "flops" in c:
            rate = "%.0f GFLOP/s" % (c["flops"] / (pk * 1e-3) / 1e9)
        else:
            gbs = c["traffic"] / (pk * 1e-3) / 1e9
            rate = "%.0f GB/s (%.0f %% of copy)" % (gbs, 100 * gbs / p["copy_bandwidth_gbs"])
        print("| %s | %.0f | %.0f | %.2f× | %.3f | %.3f | %.2f× | %s |" % (
            name, p["cold_ms"][name], n["cold_ms"][name], p["cold_ms"][name] / n["cold_ms"][name], pk, nb, pk / nb, rate))
    lo, nlo = p["launch_overhead"], n["launch_overhead"]
    print("\nLaunch overhead, %d launches of a kernel with 3 device arrays (µs per launch):\n" % lo["launches"])
    print("| bare cuLaunchKernel | pykern | pykern, arguments as a vector built once | numba-cuda | CuPy RawKernel |")
    print("|---|---|---|---|---|")
    print("| %.2f | %.2f (%.2f× bare) | %.2f (%.2f× bare) | %.2f | %s |" % (
        lo["bare_us"], lo["pykern_us"], lo["pykern_us"] / lo["bare_us"], lo["pykern_vector_us"],
        lo["pykern_vector_us"] / lo["bare_us"], nlo["numba_us"],
        "%.2f" % nlo["cupy_raw_us"] if "cupy_raw_us" in nlo else nlo.get("cupy_raw_error", "?")))
    print("\nWarm start, new process, cache populated (ms; median of 10):\n")
    print("| case | pykern load→launch | numba load→launch | pykern process | numba process |")
    print("|---|---|---|---|---|")
    for name, w in p["warm_start"].items():
        nw = n["warm_start"][name]
        print("| %s | %.1f | %.1f | %.1f | %.1f |" % (name, w["load_to_launch_ms"], nw["load_to_launch_ms"],
                                                    w["process_ms"], nw["process_ms"]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

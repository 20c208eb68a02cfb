#!/usr/bin/env python3
# `pykern run` on the CPU simulator against Numba's simulator, whole process against whole
# process, on one corpus case (issue 32): the two are run in pairs, one after the other, so a
# busy machine slows both alike. pykern runs with a warm kernel cache (one run first, not
# counted); each pair is REPEATS pykern runs (their median) beside one Numba process, which
# takes seconds. Prints each process's wall time and CPU time (user + system, from wait4)
# and the ratios, median over the pairs.
#
#   bench/run_process_ratio.py [--case tests/corpus/seeds/s003_matmul_shared] [--pairs 5]
#       [--repeats 20] [--pykern build/pykern] [--python /work/venv-numba/bin/python]
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def timed(argv, env):
    """Wall seconds and CPU seconds (user + system) of one process, which must succeed."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode()
    process.stderr.close()
    if process.returncode != 0:
        sys.exit(f"{argv[0]} failed ({process.returncode}):\n{error}")
    return wall, usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", default=os.path.join(root, "tests/corpus/seeds/s003_matmul_shared"))
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--pykern", default=os.path.join(root, "build/pykern"))
    default_python = "/work/venv-numba/bin/python" if os.path.exists("/work/venv-numba/bin/python") else sys.executable
    parser.add_argument("--python", default=default_python)
    a = parser.parse_args()

    case = os.path.abspath(a.case)
    spec = json.load(open(os.path.join(case, "case.json")))
    launch = spec["launch"]
    inputs = [os.path.join(case, "inputs", x["name"] + ".npy") for x in spec["args"] if "scalar" not in x]
    scalars = [str(x["scalar"]) for x in spec["args"] if "scalar" in x]
    if scalars or "forall" in launch:
        sys.exit("this bench passes arrays and a grid only")
    work = tempfile.mkdtemp(prefix="pykern-ratio-")
    env = dict(os.environ, PYKERN_CACHE_DIR=os.path.join(work, "cache"))
    os.makedirs(os.path.join(work, "pk"))
    os.makedirs(os.path.join(work, "nb"))
    pykern = [a.pykern, "run", os.path.join(case, "kernel.py"), spec["function"],
              "--grid", ",".join(map(str, launch["grid"])), "--block", ",".join(map(str, launch["block"])),
              *inputs, "--out", os.path.join(work, "pk")]
    numba = [a.python, os.path.join(here, "numba_sim_process.py"), case, os.path.join(work, "nb")]
    timed(pykern, env)  # fills the kernel cache
    rows = []
    for pair in range(a.pairs):
        pk = [timed(pykern, env) for _ in range(a.repeats)]
        nb = timed(numba, env)
        pk_wall = statistics.median(w for w, _ in pk)
        pk_cpu = statistics.median(c for _, c in pk)
        rows.append((pk_wall, pk_cpu, nb[0], nb[1]))
        print(f"pair {pair + 1}: pykern {pk_wall * 1e3:.2f} ms wall, {pk_cpu * 1e3:.2f} ms CPU; "
              f"Numba {nb[0]:.2f} s wall, {nb[1]:.2f} s CPU; wall 1/{nb[0] / pk_wall:.0f}, CPU 1/{nb[1] / pk_cpu:.0f}",
              flush=True)
    check = ("import numpy as np, os, sys\n"
             "for n in os.listdir(sys.argv[1]):\n"
             "    assert np.allclose(np.load(os.path.join(sys.argv[1], n)), np.load(os.path.join(sys.argv[2], n)),"
             " rtol=1e-5, atol=1e-3), n\n")
    if subprocess.run([a.python, "-c", check, os.path.join(work, "pk"), os.path.join(work, "nb")]).returncode != 0:
        sys.exit("pykern's and Numba's results differ")
    shutil.rmtree(work)
    med = [statistics.median(r[i] for r in rows) for i in range(4)]
    print(f"{os.path.basename(case)}: pykern run {med[0] * 1e3:.2f} ms wall ({med[1] * 1e3:.2f} ms CPU), "
          f"Numba simulator process {med[2]:.2f} s wall ({med[3]:.2f} s CPU)")
    print(f"ratio, median of {a.pairs} pairs: wall 1/{med[2] / med[0]:.0f}, CPU 1/{med[3] / med[1]:.0f} (goal 1/1500)")


if __name__ == "__main__":
    main()

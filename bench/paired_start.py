#!/usr/bin/env python3
"""A command's cost against an empty process, measured in the same run (BENCHMARKS.md, issue 32).

Runs /bin/true and the command in turn, N pairs after 5 untimed ones, each with stdout and stderr
to /dev/null; a run's CPU time is the child's user + system time (wait4), its wall time from
spawn to reaped. Prints the medians and the median of the pairs' ratios, which a busy machine
moves less than either figure.

    PYKERN_CACHE_DIR=/tmp/warm python3 bench/paired_start.py 300 build/pykern compile samples/kernels.py --arch sm_90
"""
import os
import statistics
import sys
import time


def run(argv):
    quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=quiet)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed")
    return (usage.ru_utime + usage.ru_stime) * 1e3, wall * 1e3


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pairs, command = int(sys.argv[1]), sys.argv[2:]
    empty = ["/bin/true"]
    for _ in range(5):
        run(empty), run(command)
    measured = [(run(empty), run(command)) for _ in range(pairs)]
    median = statistics.median
    for name, index in (("cpu", 0), ("wall", 1)):
        base = median(b[index] for b, _ in measured)
        mine = median(m[index] for _, m in measured)
        ratio = median(m[index] / b[index] for b, m in measured if b[index] > 0)
        print(f"{name}: /bin/true {base:.3f} ms, command {mine:.3f} ms; median of the pairs' ratios {ratio:.2f}x")


if __name__ == "__main__":
    main()

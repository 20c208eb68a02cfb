"""Builds a fixed-width text report of order totals, as a small accounting script prints it."""
import numpy as np
from numba import njit

WIDTH = 36
PRODUCTS = ("apples", "pears", "kiwis", "plums")


@njit
def money(cents):
    sign = ""
    if cents < 0:
        sign = "-"
    cents = abs(cents)
    return sign + str(cents // 100) + "." + str(cents % 100).zfill(2)


@njit
def row(label, cents):
    return label.ljust(16, ".") + money(cents).rjust(WIDTH - 16)


@njit
def build_report(quantities, prices):
    lines = ["".ljust(WIDTH, "-")]
    total = 0
    for i in range(quantities.shape[0]):
        cents = quantities[i] * prices[i]
        total += cents
        lines.append(row(PRODUCTS[i % len(PRODUCTS)] + " x" + str(quantities[i]), cents))
    lines.append("".rjust(WIDTH, "="))
    lines.append(row("total", total))
    lines.append(row("refund", -total // 10))
    lines.append("id\t" + str(quantities.shape[0]).zfill(4) + "\tend")
    report = "\n".join(lines)
    return report, total


@njit
def print_report(quantities, prices):
    report, total = build_report(quantities, prices)
    print(" ORDER SUMMARY ".center(WIDTH, "="))
    print("odd".center(8, "*") + "|" + "even".center(9) + "|")
    for line in report.splitlines():
        print(line.expandtabs(8) + "|")
    print(report.count("\n"), report.count("."), len(report), report.replace(".", "").count("x"))
    return total

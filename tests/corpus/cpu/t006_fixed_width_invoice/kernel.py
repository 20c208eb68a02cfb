"""Prints a fixed-width invoice from item codes and amounts, as a billing batch job writes it."""
import numpy as np
from numba import njit

WIDTH = 44
CODES = "  sku-104|  sku-27 |hdw-3   |  sku-1999|svc-8  "
NAMES = ("bolt pack", "hinge", "drill bit set", "spirit level", "fitting service")


@njit
def cents_text(cents):
    whole = str(abs(cents) // 100)
    part = str(abs(cents) % 100).zfill(2)
    text = whole + "." + part
    if cents < 0:
        text = "-" + text
    return text


@njit
def code_column(raw):
    code = raw.strip()
    prefix, _, number = code.partition("-")
    return prefix.upper() + "-" + number.zfill(5)


@njit
def line_text(number, code, name, quantity, cents):
    left = str(number).rjust(3) + ". " + code.ljust(10) + name.ljust(16, ".")
    return left + ("x" + str(quantity)).center(6) + cents_text(cents).rjust(WIDTH - len(left) - 6)


@njit
def invoice(quantities, prices):
    codes = CODES.split("|")
    print("INVOICE".center(WIDTH, "="))
    print("no".rjust(3), "code".ljust(10), "item".ljust(16), "qty".center(4), "amount".rjust(6))
    total = 0
    for i in range(min(len(codes), quantities.shape[0])):
        cents = quantities[i] * prices[i]
        total += cents
        print(line_text(i + 1, code_column(codes[i]), NAMES[i % len(NAMES)], quantities[i], cents))
    discount = -(total // 20)
    print("".ljust(WIDTH, "-"))
    print("subtotal".ljust(WIDTH - 12) + cents_text(total).rjust(12))
    print("discount 5%".ljust(WIDTH - 12, " ") + cents_text(discount).rjust(12))
    print("TOTAL".ljust(WIDTH - 12, ".") + cents_text(total + discount).rjust(12, "*"))
    print("ref " + str(total % 9973).zfill(6) + " | " + "   paid: no   ".lstrip() + "|" + "   due: 30d   ".rstrip() + "|")
    return total + discount

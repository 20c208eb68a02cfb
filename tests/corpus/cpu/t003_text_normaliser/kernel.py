"""Normalises names with accents and mixed case for matching, as a data-cleaning script does."""
from numba import njit

NAMES = "  ÉMILE zola|straße  BERLIN|ΟΔΥΣΣΕΥΣ|josé   álvarez|İstanbul|ǆemal"
SEPARATOR = "|"


@njit
def squeeze_spaces(text):
    return " ".join(text.split())


@njit
def normalise(name):
    return squeeze_spaces(name).casefold()


@njit
def initials(name):
    out = ""
    for part in squeeze_spaces(name).split(" "):
        if len(part) > 0:
            out += part[0].upper()
    return out


@njit
def code_point_sum(text):
    total = 0
    for ch in text:
        total += ord(ch)
    return total


@njit
def normalise_all(limit):
    names = NAMES.split(SEPARATOR)
    total = 0
    for k in range(min(limit, len(names))):
        raw = names[k]
        clean = normalise(raw)
        title = squeeze_spaces(raw).title()
        print(clean, "|", title, "|", raw.strip().lower(), "|", squeeze_spaces(raw).upper(), "|", initials(raw),
              len(clean), clean.isalpha(), title.istitle(), raw.strip().swapcase())
        total += code_point_sum(clean)
    print(chr(0x1F600), chr(233) + "t" + chr(233), ord("ß"))
    return total

"""Word frequencies of a short text, as a text-statistics script counts them."""
from numba import njit
from numba.typed import Dict
from numba import types

TEXT = """The quick brown fox jumps over the lazy dog.
The dog sleeps; the fox runs, and the fox hides!
A lazy afternoon: the dog and the fox rest."""
STOP_WORDS = ("a", "and", "the", "over")
PUNCTUATION = ".,;:!?"


@njit
def clean(word):
    out = word.lower()
    while len(out) > 0 and out[-1] in PUNCTUATION:
        out = out[:-1]
    return out


@njit
def count_words(text):
    counts = Dict.empty(types.unicode_type, types.int64)
    for line in text.splitlines():
        for raw in line.split():
            word = clean(raw)
            if word == "" or word in STOP_WORDS:
                continue
            counts[word] = counts.get(word, 0) + 1
    return counts


@njit
def top_words(counts, n):
    words = []
    for w in counts:
        words.append(w)
    ranked = []
    for w in sorted(words):
        ranked.append((-counts[w], w))
    ranked.sort()
    out = []
    for i in range(min(n, len(ranked))):
        out.append(ranked[i][1])
    return out


@njit
def word_report(n):
    counts = count_words(TEXT)
    total = 0
    for c in counts.values():
        total += c
    print("distinct", len(counts), "total", total)
    for w in top_words(counts, n):
        print(w.ljust(10), counts[w], "#" * counts[w])
    print(", ".join(top_words(counts, 3)))
    return len(counts)

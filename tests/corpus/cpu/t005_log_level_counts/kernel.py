"""Parses service log lines into per-level counts and slow-request totals, as an ops script does."""
from numba import njit

LOG = """2024-05-01 12:00:01 INFO  [api] GET /users took=12ms
2024-05-01 12:00:02 WARN  [api] GET /orders took=250ms retry=1
2024-05-01 12:00:02 INFO  [db] query users took=3ms
2024-05-01 12:00:03 ERROR [api] POST /orders status=500 took=1200ms
2024-05-01 12:00:04 INFO  [cache] hit key=user:42
2024-05-01 12:00:05 DEBUG [db] pool size=8
2024-05-01 12:00:06 WARN  [db] slow query orders took=480ms
2024-05-01 12:00:07 ERROR [worker] job=17 failed: timeout took=30000ms
garbage line without a level
2024-05-01 12:00:08 INFO  [api] GET /health took=1ms"""
LEVELS = ("DEBUG", "INFO", "WARN", "ERROR")
SLOW_MS = 200


@njit
def level_of(line):
    # the level is the third field: after the date and the time
    for level in LEVELS:
        at = line.find(level, 20, 26)
        if at >= 0:
            return level
    return ""


@njit
def component_of(line):
    start = line.find("[")
    end = line.find("]", start)
    if start < 0 or end < 0:
        return "?"
    return line[start + 1:end]


@njit
def parse_digits(text):
    value = 0
    for ch in text:
        if not ch.isdigit():
            break
        value = value * 10 + ord(ch) - ord("0")
    return value


@njit
def millis(line):
    head, sep, tail = line.rpartition("took=")
    if sep == "":
        return -1
    return parse_digits(tail[:tail.index("ms")])


@njit
def summarise(limit):
    counts = {"DEBUG": 0}
    slow = {"api": 0}
    skipped = 0
    lines = LOG.splitlines()
    for k in range(min(limit, len(lines))):
        line = lines[k]
        level = level_of(line)
        if level == "":
            skipped += 1
            continue
        counts[level] = counts.get(level, 0) + 1
        ms = millis(line)
        if ms >= SLOW_MS:
            name = component_of(line)
            slow[name] = slow.get(name, 0) + ms
        date, _, rest = line.partition(" ")
        if line.count("=") > 1:
            print(date[5:], rest[:8], "extra fields:", line.count("=", line.rfind("]")))
    print(counts)
    print(slow)
    worst = ""
    for name in slow:
        if worst == "" or slow[name] > slow[worst]:
            worst = name
    print("skipped", skipped, "worst", worst, "first error at", LOG.index("ERROR"), LOG.rindex("ERROR"))
    return len(counts) * 1000 + skipped

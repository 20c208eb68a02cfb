"""Normalises configuration keys from mixed sources into one naming scheme, as a settings loader does."""
from numba import njit

ENTRIES = """APP_Database__Host = db.internal
app.database.port=5432
--app-cache-size = 256MB
export APP_LOG_LEVEL=debug
app.feature.flag.beta = true
  APP__Cache__TTL_SECONDS=  600
sys.path = /usr/bin
app.retry.max_attempts = 5 # tuned
x-legacy-mode=on
app.workers.count = 8"""
PREFIXES = ("app.", "app_", "--app-", "export app_")
SECRET_SUFFIXES = ("password", "token", "_secret")
NUMERIC_SUFFIXES = ("port", "size", "seconds", "count", "attempts")


@njit
def canonical(key):
    key = key.strip().lower()
    if key.startswith(("export ", "--")):
        key = key.replace("export ", "", 1).lstrip("-")
    key = key.replace("__", ".").replace("_", ".", 1).replace("-", ".", 2)
    return key.strip(".")


@njit
def value_of(raw):
    value = raw.strip()
    comment = value.find("#")
    if comment >= 0:
        value = value[:comment].rstrip()
    if value.endswith(("MB", "KB"), 1):
        value = value[:-2]
    return value


@njit
def load(limit):
    settings = {"app.version": "1"}
    sources = {"dotted": 0}
    ignored = 0
    lines = ENTRIES.splitlines()
    for k in range(min(limit, len(lines))):
        line = lines[k]
        cut = line.find("=")
        raw_key = line[:cut]
        key = canonical(raw_key)
        if not raw_key.strip().lower().startswith(PREFIXES):
            ignored += 1
            print("ignored", repr_key(key), key.startswith("sys", 0, 3), key.endswith("mode", 0, len(key)))
            continue
        style = "dotted"
        if raw_key.strip().startswith(("--", "export"), 0):
            style = "flag"
        elif raw_key.find("_") >= 0:
            style = "env"
        sources[style] = sources.get(style, 0) + 1
        settings[key] = value_of(line[cut + 1:])
        if key.endswith(NUMERIC_SUFFIXES) and not key.endswith(SECRET_SUFFIXES):
            print(key.ljust(28), "=", settings[key].rjust(6), "digits" if settings[key].isdigit() else "text")
    print("ignored", ignored, "keys", len(settings), ENTRIES.count("app", 0, 200), ENTRIES.replace("app", "", 3).count("app"))
    print(sources)
    print(settings)
    return ignored


@njit
def repr_key(key):
    return "<" + key.replace(".", "/", -1) + ">"

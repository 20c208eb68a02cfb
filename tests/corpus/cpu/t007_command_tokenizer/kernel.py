"""Tokenizes a small command script (verb, target, key=value options) as a config-driven tool does."""
from numba import njit

SCRIPT = """  move   robot-1   x=10;y=-4 ;speed=2.5 ;;
# comment line, skipped
rotate robot-2 angle=90  ; unit=deg
 say robot-1 "hello,  world"  twice
move robot-3 path=a/b/c ; x=7
   stop   all
copy src=/data/in.csv ; dst=/data/out.csv ; mode=fast ; retries=3"""
QUOTES = "\"'"
SEPARATORS = " ;"


@njit
def clean_value(value):
    return value.strip(QUOTES + SEPARATORS)


@njit
def options_of(rest):
    names = []
    values = []
    for field in rest.split(";"):
        field = field.strip()
        if field == "" or field.find("=") < 0:
            continue
        pieces = field.split("=", 1)
        names.append(pieces[0].strip())
        values.append(clean_value(pieces[1]))
    return names, values


@njit
def tokenize(limit):
    lines = SCRIPT.splitlines()
    verbs = 0
    options = 0
    for k in range(min(limit, len(lines))):
        line = lines[k].strip()
        if line.startswith("#") or len(line) == 0:
            continue
        verbs += 1
        parts = " ".join(line.split()).split(" ", 2)
        verb = parts[0]
        target = parts[1] if len(parts) > 1 else ""
        rest = parts[2] if len(parts) > 2 else ""
        if rest.startswith('"'):
            said = rest[1:rest.rfind('"')]
            print(verb, "|", target, "| text:", said.split(), "| tail:", rest.rsplit(None, 1)[-1])
            continue
        names, values = options_of(rest)
        options += len(names)
        print(verb.ljust(7), target.rstrip("0123456789-").ljust(6), "->", ",".join(names), "=", values)
        if target.find("-") >= 0:
            unit = target.rsplit("-", 1)
            print("   unit", unit[0], unit[1], target.lstrip("abcdefghijklmnopqrstuvwxyz"))
        for value in values:
            if value.count("/") >= 2:
                head, _, leaf = value.rpartition("/")
                print("   path", head, leaf, value.split("/", 1), value.rsplit("/", maxsplit=1))
    return verbs * 100 + options

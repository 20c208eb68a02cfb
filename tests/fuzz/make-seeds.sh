#!/bin/sh
# Writes the fuzzer's seed inputs into DIR: every golden and bad program, as the target reads
# them (first line: a signature for kernel k; then the file, its signed function renamed k).
set -e
out="$1"
mkdir -p "$out"
root="$(dirname "$0")/../.."
for f in "$root"/tests/golden/*.py "$root"/tests/bad/*.py; do
  line=$(grep -m1 '# pykern: --sig' "$f" || true)
  sig=$(printf '%s' "$line" | sed 's/.*--sig [^=]*=//')
  name=$(printf '%s' "$line" | sed 's/.*--sig \([^=]*\)=.*/\1/')
  { echo "${sig:-void(float64[:])}"; sed "s/\b${name:-no_such_name}\b/k/g" "$f"; } > "$out/$(basename "$f")"
done

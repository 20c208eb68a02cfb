#!/usr/bin/env python3
# Writes the .npy fixtures of tests/unit/test_npy.cpp with NumPy's own writer (np.save), so that
# the reader is tested against what NumPy writes: field names NumPy must quote and escape in
# format 1.0 (Latin-1), a name past U+00FF in format 3.0 (UTF-8), a header longer than 65535
# bytes in format 2.0, and bool bytes other than 0 and 1. Run it from this folder; the files
# are committed (CI need not have NumPy).
import numpy as np

hostile = np.dtype([("x'y", "<f8"), ('a"b', "<i4"), ("q'\"", "u1"), ("back\\slash", "<i2"), ("\xe9", "<f4"),
                    ("\x85nel", "u1"), ("\x00nul", "u1"), ("tab\t", "u1"), ("y', '<f8'), ('z", "<f8")], align=True)
a = np.zeros(2, hostile)
for i, name in enumerate(hostile.names):
    a[name] = [i + 1, i + 2]
np.save("names.npy", a)

unicode = np.dtype([("\u4e2d", "<f8"), ("\U0001f600", "<i4"), ("\ud800", "u1"), ("\u2028", "u1"), ("e\u0301", "u1")],
                   align=True)
b = np.zeros(1, unicode)
for i, name in enumerate(unicode.names):
    b[name] = i + 1
np.save("unicode.npy", b)

np.save("long.npy", np.array([(7,)], np.dtype([("a" * 70000, "u1")])))

np.save("bools.npy", np.frombuffer(b"\x00\x01\x02\xff", dtype=bool))
flags = np.dtype([("flag", "?"), ("flags", "?", (3,))])
np.save("bool_record.npy", np.frombuffer(b"\x02\x00\xff\x01", dtype=flags))

# Every kind of file pykern reads, for the byte-for-byte comparison of its writer with NumPy's
# (and as seeds of the .npy fuzzer): Fortran order, a 0-d array, half floats, a nested aligned
# record with a subarray field and padding, a zero-size field.
np.save("fortran.npy", np.asfortranarray(np.arange(6, dtype="<f8").reshape(2, 3)))
np.save("zero_d.npy", np.array(1 + 2j, dtype="<c16"))
np.save("half.npy", np.arange(5, dtype="<f2"))
nested = np.dtype([("a", "f8"), ("b", "i4"), ("d", "u1", (5,)), ("x", [("y", "i2"), ("z", "f8")])], align=True)
np.save("nested.npy", np.zeros((2, 2), nested))
np.save("zero_field.npy", np.zeros(3, np.dtype([("a", "<f8", (0,)), ("b", "u1")])))

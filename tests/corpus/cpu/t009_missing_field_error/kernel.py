"""Reads key:value records where every record must carry an id; a record without one is an error."""
from numba import njit

RECORDS = "id:7,name:ada,score:91|id:8,name:bob,score:78|name:eve,score:88|id:10,name:joe,score:65"


@njit
def field(record, name):
    start = record.index(name + ":") + len(name) + 1
    end = record.find(",", start)
    if end < 0:
        end = len(record)
    return record[start:end]


@njit
def ids(limit):
    records = RECORDS.split("|")
    total = 0
    for k in range(min(limit, len(records))):
        label = field(records[k], "name").capitalize() + field(records[k], "score").rjust(4)
        total += len(label) + len(field(records[k], "id"))
    return total

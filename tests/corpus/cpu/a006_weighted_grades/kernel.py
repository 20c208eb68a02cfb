"""Course grading: students by assignments (a Fortran-ordered score table), weighted averages
with np.average(weights=), per-assignment statistics along axis 0, pass counts from
np.count_nonzero along an axis, and the grade boundaries from np.quantile of the averages."""
import numpy as np
from numba import njit


@njit
def weighted_grades(scores, weights, pass_mark):
    students, tasks = scores.shape
    finals = np.empty(students)
    for s in range(students):
        finals[s] = np.average(scores[s], weights=weights)
    overall = np.average(scores, weights=weights)      # 1-D weights along the last axis
    unweighted = np.average(finals)
    task_totals = np.sum(scores, axis=0)
    hardest = np.argmin(task_totals)
    best_student_per_task = np.argmax(scores, axis=0)
    passed = np.empty((students, tasks), dtype=np.bool_)
    for s in range(students):
        for t in range(tasks):
            passed[s, t] = scores[s, t] >= pass_mark
    passes_per_task = np.count_nonzero(passed, axis=0)
    passes_per_student = np.count_nonzero(passed, 1)
    all_passed = 0
    for s in range(students):
        if passes_per_student[s] == tasks:
            all_passed += 1
    quartiles = np.empty(3)
    quartiles[0] = np.quantile(finals, 0.25)
    quartiles[1] = np.quantile(finals, 0.5)
    quartiles[2] = np.quantile(finals, 0.75)
    letters = np.zeros(students, dtype=np.int64)
    for s in range(students):
        grade = 0
        for b in range(3):
            if finals[s] >= quartiles[b]:
                grade = b + 1
        letters[s] = grade
    spread = np.ptp(finals)
    ranks = np.cumsum(np.sum(passed, axis=1))
    return (finals, overall, unweighted, task_totals, hardest, best_student_per_task,
            passes_per_task, all_passed, quartiles, letters, spread, ranks)

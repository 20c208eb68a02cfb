# A small simulation that keeps its results as simulation code does: a damped oscillator
# integrated on a np.linspace time grid, each state a row stacked with np.vstack and
# np.stack, the event times collected in a list and turned into an array, a growing log kept
# with np.append, per-step labels from np.repeat, and the trajectory given an axis in front
# (np.expand_dims, np.atleast_2d) for a caller that batches runs.
import numpy as np
from numba import njit


@njit
def step(position, velocity, dt, damping):
    acceleration = -position - damping * velocity
    return position + dt * velocity, velocity + dt * acceleration


@njit
def simulate(x0, v0, t_end, steps, damping):
    times = np.linspace(0.0, t_end, steps + 1)
    dt = times[1] - times[0]
    positions = np.empty(steps + 1)
    velocities = np.empty(steps + 1)
    positions[0] = x0
    velocities[0] = v0
    crossings = []
    for k in range(steps):
        positions[k + 1], velocities[k + 1] = step(positions[k], velocities[k], dt, damping)
        if positions[k] > 0.0 and positions[k + 1] <= 0.0:
            crossings.append(times[k + 1])
    states = np.vstack((times, positions, velocities))
    pairs = np.stack((positions, velocities), axis=1)
    events = np.array(crossings)
    log = np.zeros(0)
    for k in range(0, steps + 1, 4):
        log = np.append(log, positions[k])
    labels = np.repeat(np.arange(3), 2)
    energy = np.empty(steps + 1)
    for k in range(steps + 1):
        energy[k] = 0.5 * (positions[k] ** 2 + velocities[k] ** 2)
    batch = np.expand_dims(energy, 0)
    as_rows = np.atleast_2d(positions)
    mixed = np.concatenate((labels, energy[:4]))
    summary = np.hstack((np.array([times[-1], positions[-1]]), log[:2]))
    return states, pairs, events, log, labels, batch, as_rows, mixed, summary

"""A fixed-step Runge-Kutta integrator that takes the right-hand side as a jitted function.

The same integrator runs a damped oscillator (an array state), logistic growth (a float
state) and a forced pendulum whose right-hand side reads extra parameters, as a small
simulation module would arrange it.
"""
import numpy as np
from numba import njit


@njit
def damped_oscillator(t, y, params):
    omega, zeta = params
    out = np.empty(2)
    out[0] = y[1]
    out[1] = -2.0 * zeta * omega * y[1] - omega * omega * y[0]
    return out


@njit
def logistic(t, y, params):
    rate, capacity = params
    return rate * y * (1.0 - y / capacity)


@njit
def forced_pendulum(t, y, params):
    length, drive = params
    out = np.empty(2)
    out[0] = y[1]
    out[1] = -9.81 / length * np.sin(y[0]) + drive * np.cos(t)
    return out


@njit
def rk4_step(rhs, t, y, h, params):
    k1 = rhs(t, y, params)
    k2 = rhs(t + 0.5 * h, y + 0.5 * h * k1, params)
    k3 = rhs(t + 0.5 * h, y + 0.5 * h * k2, params)
    k4 = rhs(t + h, y + h * k3, params)
    return y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


@njit
def integrate(rhs, y0, t0, t1, steps, params):
    h = (t1 - t0) / steps
    y = y0
    t = t0
    for _ in range(steps):
        y = rk4_step(rhs, t, y, h, params)
        t += h
    return y


@njit
def trajectory(rhs, y0, t0, t1, steps, params):
    h = (t1 - t0) / steps
    path = np.empty((steps + 1, y0.shape[0]))
    path[0] = y0
    for k in range(steps):
        path[k + 1] = rk4_step(rhs, t0 + k * h, path[k], h, params)
    return path


@njit
def simulate(initial, steps):
    oscillator = integrate(damped_oscillator, initial, 0.0, 10.0, steps, (2.0, 0.1))
    population = integrate(logistic, 5.0, 0.0, 8.0, steps, (0.9, 100.0))
    swing = trajectory(forced_pendulum, initial, 0.0, 5.0, steps, (1.5, 0.3))
    return oscillator, population, swing


if __name__ == "__main__":
    print(simulate(np.array([1.0, 0.0]), 200)[:2])

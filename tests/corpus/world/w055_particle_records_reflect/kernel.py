"""Ballistic particles in a box with reflecting walls, stored as records.

The host keeps particles in a NumPy structured array (position, velocity,
charge, bounce counter), as simulation codes that also write them to HDF5
do.  A kernel advances each particle by one step of a uniform field and
reflects it off the walls.
"""
import numpy as np
from numba import cuda, from_dtype

particle_dtype = np.dtype([("x", np.float64), ("y", np.float64),
                           ("vx", np.float64), ("vy", np.float64),
                           ("q", np.float32), ("bounces", np.int32)])
particle_t = from_dtype(particle_dtype)

BOX = 1.0
E_FIELD = (0.0, -2.0)


@cuda.jit(device=True)
def reflect(pos, vel):
    """Fold pos back into [0, BOX]; return new (pos, vel, hit)."""
    hit = 0
    if pos < 0.0:
        pos = -pos
        vel = -vel
        hit = 1
    elif pos > BOX:
        pos = 2.0 * BOX - pos
        vel = -vel
        hit = 1
    return pos, vel, hit


@cuda.jit
def push(particles, dt, kinetic):
    i = cuda.grid(1)
    if i >= particles.shape[0]:
        return
    p = particles[i]
    p.vx += p.q * E_FIELD[0] * dt
    p.vy += p.q * E_FIELD[1] * dt
    x, vx, hx = reflect(p.x + p.vx * dt, p.vx)
    y, vy, hy = reflect(p.y + p.vy * dt, p.vy)
    p.x = x
    p.y = y
    p.vx = vx
    p.vy = vy
    p.bounces += hx + hy
    kinetic[i] = 0.5 * (vx * vx + vy * vy)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    parts = np.zeros(100, dtype=particle_dtype)
    parts["x"], parts["y"] = rng.random(100), rng.random(100)
    parts["vx"], parts["vy"] = rng.normal(0, 1, 100), rng.normal(0, 1, 100)
    parts["q"] = rng.choice([-1.0, 1.0], 100)
    ke = np.zeros(100)
    for _ in range(50):
        push[1, 128](parts, 0.01, ke)
    print(parts["bounces"].sum(), ke.mean())

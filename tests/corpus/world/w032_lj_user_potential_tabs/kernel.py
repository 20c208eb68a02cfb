# Non-bonded forces with a user-defined pair potential, in the style of
# GPU molecular-dynamics packages that take a device function from the user
# script and build the force kernel around it.  Tab-indented, as such
# scripts often are.
import numpy as np
from numba import cuda
import numba as nb


# user-defined potential form: fills fp[0] = force/r, fp[1] = energy
@cuda.jit(device=True)
def lj(rsq, param, fp):
	epsilon = param[0]
	sigma = param[1]
	alpha = param[2]
	rcut = param[3]
	if rsq<rcut*rcut:
		sigma2 = sigma*sigma
		r2inv = sigma2/rsq;
		r6inv = r2inv * r2inv * r2inv;
		f = nb.float32(4.0) * epsilon * r2inv * r6inv * (nb.float32(12.0) * r6inv - nb.float32(6.0) * alpha)/sigma2
		p = nb.float32(4.0) * epsilon * r6inv * ( r6inv - nb.float32(1.0))
		fp[0]=f
		fp[1]=p
	else:
		fp[0]=nb.float32(0.0)
		fp[1]=nb.float32(0.0)


@cuda.jit(device=True)
def minimum_image(d, box):
	return d - box * round(d / box)


def make_force_kernel(pair_func):
	@cuda.jit
	def forces(pos, box, param, force, energy):
		i = cuda.grid(1)
		if i >= pos.shape[0]: return
		fp = cuda.local.array(2, nb.float32)
		fx = nb.float32(0.0); fy = nb.float32(0.0); fz = nb.float32(0.0)
		e = nb.float32(0.0)
		for j in range(pos.shape[0]):
			if j == i:
				continue
			dx = minimum_image(pos[i, 0] - pos[j, 0], box[0])
			dy = minimum_image(pos[i, 1] - pos[j, 1], box[1])
			dz = minimum_image(pos[i, 2] - pos[j, 2], box[2])
			rsq = dx*dx + dy*dy + dz*dz
			pair_func(rsq, param, fp)
			fx += fp[0]*dx; fy += fp[0]*dy; fz += fp[0]*dz
			e += nb.float32(0.5)*fp[1]
		force[i, 0] = fx
		force[i, 1] = fy
		force[i, 2] = fz
		energy[i] = e
	return forces


lj_forces = make_force_kernel(lj)


if __name__ == "__main__":
	n = 4 ** 3
	g = (np.indices((4, 4, 4)).reshape(3, -1).T * 1.2).astype(np.float32)
	box = np.full(3, 4.8, dtype=np.float32)
	param = np.array([1.0, 1.0, 1.0, 2.5], dtype=np.float32)
	f = np.zeros((n, 3), np.float32); en = np.zeros(n, np.float32)
	lj_forces[1, 64](g, box, param, f, en)
	print(en.sum(), np.abs(f.sum(axis=0)).max())

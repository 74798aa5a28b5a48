"""Quaternion kinematics for the tests of bodies oriented by quaternions (independent of
src/model/loader/body_quaternion.cpp): products, the rotation of q / |q|, body rates, and the
quaternion of ZXZ Euler angles."""
import math

import numpy as np


def q_mul(a, b):
    """The quaternion product a (x) b, scalar part first."""
    return np.concatenate([[a[0] * b[0] - a[1:] @ b[1:]],
                           a[0] * b[1:] + b[0] * a[1:] + np.cross(a[1:], b[1:])])


def rotation(q):
    """R of q / |q|: the matrix of v -> u v u*, u = q / |q|."""
    u = q / np.linalg.norm(q)
    return np.array([q_mul(q_mul(u, np.concatenate([[0.0], e])), u * [1, -1, -1, -1])[1:]
                     for e in np.eye(3)]).T


def body_rates(q, dq):
    """w in body axes from q and q': the vector part of 2 conj(q) (x) q' / |q|^2."""
    return 2.0 * q_mul(q * [1, -1, -1, -1], dq)[1:] / (q @ q)


def q_rate(q, w_body):
    """q' = 1/2 q (x) (0, w)."""
    return 0.5 * q_mul(q, np.concatenate([[0.0], w_body]))


def q_zxz(phi, theta, psi):
    """The unit quaternion of R = Rz(phi) Rx(theta) Rz(psi)."""
    def z(a):
        return np.array([math.cos(a / 2), 0.0, 0.0, math.sin(a / 2)])
    x = np.array([math.cos(theta / 2), math.sin(theta / 2), 0.0, 0.0])
    return q_mul(q_mul(z(phi), x), z(psi))


def body_state(row, which=None):
    """Centre, velocity, quaternion and its rate of a free body with coordinates x, y, z,
    q0..q3 from a trajectory.csv row, or an events.csv row's `which` side ("before", "after")."""
    key = (lambda n: n) if which is None else (lambda n: n + "_" + which)
    c = np.array([float(row[key(n)]) for n in "xyz"])
    v = np.array([float(row[key(n + "'")]) for n in "xyz"])
    q = np.array([float(row[key("q%d" % i)]) for i in range(4)])
    dq = np.array([float(row[key("q%d'" % i)]) for i in range(4)])
    return c, v, q, dq

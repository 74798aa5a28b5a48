"""Independent computation of the simplest walking model's gait (Garcia, Chatterjee, Ruina and
Coleman 1998) with SciPy, for tests/apps/cli_passive_walker_test.py: the step map from just after
one heel strike to just after the next on (theta, theta') (phi = 2 theta and phi' follow from the
transition), its fixed point, Floquet multipliers and the slope where a multiplier crosses -1.

Nothing here uses saltus: solve_ivp (DOP853, rtol = atol = 1e-13) integrates the walker with its
variational equations, terminal events stop a step where the stance leg passes the normal and
then at the heel strike (phi - 2 theta rising), the variations are carried onto the strike
surface and through the paper's transition, Newton finds the fixed point and
scipy.optimize.brentq the slope where det(J + I) = 0.
"""
import math

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

RTOL = ATOL = 1e-13


def field(x, gamma):
    th, ph, w, v = x[:4]
    s = math.sin(th - gamma)
    return np.array([w, v, s, math.sin(ph) * (w * w - math.cos(th - gamma)) + s])


def field_jacobian(x, gamma):
    th, ph, w, v = x[:4]
    s, c = math.sin(th - gamma), math.cos(th - gamma)
    return np.array([[0, 0, 1, 0], [0, 0, 0, 1], [c, 0, 0, 0],
                     [math.sin(ph) * s + c, math.cos(ph) * (w * w - c), 2 * w * math.sin(ph),
                      0]])


def transition(x):
    th, w = x[0], x[2]
    c = math.cos(2 * th)
    return np.array([-th, -2 * th, c * w, c * (1 - c) * w])


def transition_jacobian(x):
    th, w = x[0], x[2]
    c, dc = math.cos(2 * th), -2 * math.sin(2 * th)
    return np.array([[-1, 0, 0, 0], [-2, 0, 0, 0], [dc * w, 0, c, 0],
                     [(1 - 2 * c) * dc * w, 0, c * (1 - c), 0]])


def step(th, w, gamma):
    """One step from the state just after a heel strike, (th, 2 th, w, (1 - cos 2th) w), to the
    state just after the next: (th+, w+), the step time, and d(th+, w+)/d(th, w)."""
    c = math.cos(2 * th)
    x0 = np.array([th, 2 * th, w, (1 - c) * w])
    dx0 = np.array([[1, 0], [2, 0], [0, 1], [2 * math.sin(2 * th) * w, 1 - c]])

    def rhs(t, y):
        dy = field(y, gamma)
        phi = y[4:].reshape(4, 4)
        return np.concatenate([dy, (field_jacobian(y, gamma) @ phi).ravel()])

    def upright(t, y):  # the stance leg passes the slope's normal
        return y[0]
    upright.terminal, upright.direction = True, -1

    def strike(t, y):  # then the swing foot reaches the slope ahead: phi - 2 th rising
        return y[1] - 2 * y[0]
    strike.terminal, strike.direction = True, 1

    y = np.concatenate([x0, np.eye(4).ravel()])
    t = 0.0
    for event in (upright, strike):
        sol = solve_ivp(rhs, (t, t + 50), y, method="DOP853", rtol=RTOL, atol=ATOL,
                        events=event)
        if sol.status != 1:
            raise RuntimeError(f"no {event.__name__} event at gamma = {gamma}")
        t, y = sol.t_events[0][0], sol.y_events[0][0]
    xm, phi = y[:4], y[4:].reshape(4, 4)
    fm = field(xm, gamma)
    xp = transition(xm)
    # The step ends at the strike, not at a fixed time: the variations are carried to the
    # surface phi - 2 th = 0 along the flow (the step time moves), then through the transition.
    grad = np.array([-2.0, 1.0, 0.0, 0.0])
    to_surface = np.eye(4) - np.outer(fm, grad) / (grad @ fm)
    jac = (transition_jacobian(xm) @ to_surface @ phi @ dx0)[[0, 2], :]
    return np.array([xp[0], xp[2]]), t, jac


def fixed_point(gamma, guess=(0.2, -0.2)):
    """(th, w) just after heel strike on the period-one gait, the step time and the map's
    Jacobian there."""
    z = np.array(guess, dtype=float)
    for _ in range(30):
        zn, t, jac = step(z[0], z[1], gamma)
        r = zn - z
        if np.max(np.abs(r)) < 1e-14:
            return z, t, jac
        z = z - np.linalg.solve(jac - np.eye(2), r)
    raise RuntimeError(f"Newton did not converge at gamma = {gamma}: residual {r}")


def multipliers(gamma, guess=(0.2, -0.2)):
    return np.linalg.eigvals(fixed_point(gamma, guess)[2])


def gait(gamma, start=0.009, guess=(0.2, -0.2), steps=40):
    """The period-one gait at gamma, followed from the one at `start` (Newton from the previous
    slope's gait: from a far guess Newton may land on the short-period gait or fail)."""
    z = np.array(guess, dtype=float)
    for g in np.linspace(start, gamma, steps + 1):
        z, t, jac = fixed_point(g, z)
    return z, t, jac


def doubling_slope(lo, hi):
    """The slope in [lo, hi] where det(J + I) = 0: a multiplier of the gait crosses -1."""
    z_lo = gait(lo)[0]

    def test(gamma):
        return np.linalg.det(fixed_point(gamma, z_lo)[2] + np.eye(2))
    return brentq(test, lo, hi, xtol=1e-15, rtol=1e-15)


def mid_stance(z, gamma):
    """The state (theta, phi, theta', phi') where the gait's stance leg passes the normal
    (theta = 0, falling), from its state just after the heel strike z = (theta, theta')."""
    th, w = z
    x0 = np.array([th, 2 * th, w, (1 - math.cos(2 * th)) * w])

    def upright(t, y):
        return y[0]
    upright.terminal, upright.direction = True, -1
    sol = solve_ivp(lambda t, y: field(y, gamma), (0, 50), x0, method="DOP853", rtol=RTOL,
                    atol=ATOL, events=upright)
    return sol.y_events[0][0]

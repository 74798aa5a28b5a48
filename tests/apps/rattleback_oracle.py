"""Independent computation of a rattleback rolling without slipping, with NumPy and SciPy, for
tests/apps/cli_rattleback_test.py. Nothing here uses saltus.

The body. Its bottom is an ellipsoid with semi-axes E = diag(a1, a2, a3) along the body axes,
centred at the body point p = (0, 0, a3 - h) from the centre of mass (so the centre of mass lies
h above the lowest point when upright). Its inertia about the centre of mass in body axes is
I = [[A, -D, 0], [-D, B, 0], [0, 0, C]] (D the product of inertia). A is the rotation taking body
axes to world axes, q its unit quaternion (scalar first), w the angular velocity in world axes.

The contact. The floor z = 0 touches the ellipsoid at its lowest point. With n = A^T z the floor's
normal in body axes, the ellipsoid's point whose outward normal is -n is p - E^2 n / s,
s = sqrt(n . E^2 n), so the lever arm from the centre of mass to the contact point is
r = A (p - E^2 n / s) and the centre's height is -r . z. Its rate is r' = w x r + A J n' with
J = d(-E^2 n / s)/dn = -E^2 / s + (E^2 n)(E^2 n)^T / s^3 and n' = -(A^T w) x n (the floor is
fixed in the world, so in body axes it turns against the body).

Rolling without slipping: the body's material point at the contact is at rest, v = -w x r, so
v' = -w' x r - w x r'. Newton for the contact force F and Euler about the centre of mass
(derived here by hand):

    m v' = F - m g z,    I_w w' + w x I_w w = r x F,    I_w = A I A^T.

Eliminating F = m (v' + g z):

    (I_w + m (|r|^2 1 - r r^T)) w' = -w x I_w w + m r x (g z - w x r'),

a 3 x 3 solve for w'; q' = 1/2 (0, w) (x) q and the centre's horizontal position follows v.
The state is y = (q, w, x, y), 9 numbers, integrated by solve_ivp's DOP853. Energy
1/2 m |v|^2 + 1/2 w . I_w w + m g c_z is kept (rolling does no work): a check on this code.
"""
import numpy as np
from scipy.integrate import solve_ivp

from quaternion_kinematics import rotation

Z = np.array([0.0, 0.0, 1.0])


def inertia(p):
    return np.array([[p["A"], -p["D"], 0.0], [-p["D"], p["B"], 0.0], [0.0, 0.0, p["C"]]])


def lever(p, A, w):
    """The lever arm r from the centre of mass to the contact point, and its rate r'."""
    E2 = np.diag([p["a1"] ** 2, p["a2"] ** 2, p["a3"] ** 2])
    n = A.T @ Z
    e2n = E2 @ n
    s = np.sqrt(n @ e2n)
    arm = np.array([0.0, 0.0, p["a3"] - p["h"]]) - e2n / s
    J = -E2 / s + np.outer(e2n, e2n) / s ** 3
    r = A @ arm
    return r, np.cross(w, r) + A @ (J @ -np.cross(A.T @ w, n))


def rhs(p):
    m, g, I = p["m"], p["g"], inertia(p)

    def f(_, y):
        q, w = y[:4], y[4:7]
        A = rotation(q)
        r, dr = lever(p, A, w)
        Iw = A @ I @ A.T
        lhs = Iw + m * (r @ r * np.eye(3) - np.outer(r, r))
        dw = np.linalg.solve(lhs, -np.cross(w, Iw @ w) + m * np.cross(r, g * Z - np.cross(w, dr)))
        dq = 0.5 * np.concatenate([[-w @ q[1:]], q[0] * w + np.cross(w, q[1:])])
        v = -np.cross(w, r)
        return np.concatenate([dq, dw, v[:2]])
    return f


def start(p, q, w):
    """The centre c and velocity v that put the ellipsoid on the floor rolling with w."""
    r, _ = lever(p, rotation(q), w)
    return np.array([0.0, 0.0, -r[2]]), -np.cross(w, r)


def solve(p, q, w, xy, t_end, times):
    """Integrates from (q, w) with the centre over xy: the states at `times` and every zero of
    the world spin w . z (solve_ivp's located events), at rtol 1e-12, atol 1e-14."""
    def spin(_, y):
        return y[6]
    y0 = np.concatenate([q / np.linalg.norm(q), w, xy])
    sol = solve_ivp(rhs(p), (0.0, t_end), y0, method="DOP853", rtol=1e-12, atol=1e-14,
                    t_eval=times, events=spin)
    if sol.status != 0:
        raise RuntimeError("rattleback_oracle: solve_ivp failed: " + sol.message)
    return sol.y.T, sol.t_events[0]


def centre(p, y):
    """The centre of mass and its velocity in a state y."""
    A, w = rotation(y[:4]), y[4:7]
    r, _ = lever(p, A, w)
    return np.array([y[7], y[8], -r[2]]), -np.cross(w, r)


def energy(p, c, v, A, w):
    return 0.5 * p["m"] * v @ v + 0.5 * w @ (A @ inertia(p) @ A.T) @ w + p["m"] * p["g"] * c[2]

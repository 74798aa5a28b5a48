"""Independent computation of the sliding tippe top with NumPy and SciPy, for
tests/apps/cli_tippe_top_test.py: a rigid body whose surface is a sphere of radius R, its centre
of mass c at distance a = alpha R from the sphere's geometric centre O along the symmetry axis,
sliding on the floor z = 0 with Coulomb friction mu (the eccentric-sphere model of Cohen 1977,
Or 1994, Bou-Rabee, Marsden and Romero 2004, Rauch-Wojciechowski and Rutstam 2014). Nothing here
uses saltus.

Frames and state. e1, e2, e3 are the body's principal axes, e3 the symmetry axis pointing to the
stem, A the rotation taking body axes to world axes (the columns of A are e1, e2, e3 in world
axes), I = diag(I1, I1, I3) the inertia about c in body axes. The geometric centre is the body
point a e3 from c (the centre of mass lies BELOW O when the stem points up): O = c + a e3. The
state is

    y = (c, v = c', q, W),   13 numbers,

with q the unit quaternion of A (scalar part first, A = rotation of q, q' = 1/2 q (x) (0, W)) and
W the angular velocity in body axes; w = A W in world axes. The tilt is theta = arccos(e3 . z),
so theta = 0 is the top on its sphere, stem up, and theta = pi/2 the symmetry axis horizontal
(the inversion time is when theta reaches pi/2).

Contact. The floor touches the sphere at its lowest point P = O - R z, so
r = P - c = a e3 - R z. The contact's gap is O . z - R = c_z + a e3_z - R, held at 0 (the top
slides, it does not jump). The velocity of the body's material point at P is

    v_P = v + w x r,

its vertical part d(c_z + a e3_z)/dt = 0 on the constraint, so the slip velocity is
u = v_P - (v_P . z) z. The floor's force at P is N z + F, with Coulomb's sliding law
F = -mu N u / |u| (valid while |u| > 0; the reference checks that it stays well above zero).

Newton-Euler (derived here by hand):

    m c''  = N z - mu N d - m g z,                       d = u / |u|,
    I W' + W x I W = A^T (r x (N z - mu N d)),            (torque about c, in body axes)
    q'     = 1/2 q (x) (0, W).

Every force term is linear in N: the torque is N tau with tau = A^T (r x (z - mu d)), so
W' = N I^-1 tau - I^-1 (W x I W) and, in world axes, w' = A W' (A' W = A [W]x W = 0). The normal
force follows from the constraint's second derivative, c_z'' + a e3_z'' = 0, with
e3' = w x e3 and e3'' = w' x e3 + w x (w x e3):

    (N - m g) / m + a z . ((N A I^-1 tau - A I^-1 (W x I W)) x e3 + w x (w x e3)) = 0,

a linear equation in N:

    N (1/m + a z . ((A I^-1 tau) x e3)) = g + a z . ((A I^-1 (W x I W)) x e3)
                                            - a z . (w x (w x e3)).

It is solved at every evaluation of the field; N > 0 is checked along the reference (the top
stays on the floor).

Invariants checked by the test. The energy E = 1/2 m |v|^2 + 1/2 W . I W + m g c_z falls at the
rate F . u = -mu N |u| (the normal force does no work: v_P . z = 0). Jellett's integral

    J = L . (c - P) = L . (R z - a e3),    L = A I W (angular momentum about c, world axes),

is conserved exactly by this sliding model (and by any force acting at P): dL/dt = r x (N z + F)
is orthogonal to r = P - c, and d(R z - a e3)/dt = -a w x e3 with L . (w x e3) = 0 for a body
symmetric about e3 (L = I1 w + (I3 - I1)(w . e3) e3). Hence dJ/dt = 0.

Integration: scipy.integrate.solve_ivp, DOP853, rtol = 1e-12, atol = 1e-14 (as the model file),
with an event at e3 . z = 0 (theta = pi/2, falling) for the inversion time. A tippe top inverts
completely (theta from near 0 to near pi) when 1 - alpha < I1 / I3 < 1 and it is spun fast
enough (Rauch-Wojciechowski and Rutstam 2014; Bou-Rabee et al. 2004); it rises to an
intermediate tilt when 1 < I1 / I3 < 1 + alpha and stays near theta = 0 when
I1 / I3 < 1 - alpha.
"""
import math

import numpy as np
from scipy.integrate import solve_ivp

RTOL = 1e-12
ATOL = 1e-14
Z = np.array([0.0, 0.0, 1.0])


def default_params():
    """The top of models/tippe_top.toml (see its header for the source of the values)."""
    return dict(m=0.015, g=9.81, R=0.02, alpha=0.3, k1=0.131, k3=0.145, mu=0.3, theta0=0.1,
                spin=180.0)


def moments(p):
    """(I1, I1, I3) about the centre of mass: k1 m R^2 and k3 m R^2."""
    mr2 = p["m"] * p["R"] ** 2
    return np.array([p["k1"] * mr2, p["k1"] * mr2, p["k3"] * mr2])


def q_mul(a, b):
    return np.array([a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                     a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                     a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                     a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]])


def rot(q):
    """The rotation matrix of q / |q| (body axes to world axes)."""
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def initial_state(p):
    """The top tilted by theta0 about the world x axis, touching the floor (c_z = R - a cos
    theta0), its centre of mass at rest, spinning at `spin` about its symmetry axis (W = spin
    e3 in body axes): y0 = (c, v, q, W)."""
    th, a = p["theta0"], p["alpha"] * p["R"]
    q = np.array([math.cos(th / 2), math.sin(th / 2), 0.0, 0.0])
    return np.concatenate([[0.0, 0.0, p["R"] - a * math.cos(th)], np.zeros(3), q,
                           [0.0, 0.0, p["spin"]]])


def contact(y, p):
    """(A, w, r, u, N): rotation, world angular velocity, r = P - c, the slip velocity and the
    normal force at the state y."""
    I = moments(p)
    a, R, m, mu = p["alpha"] * p["R"], p["R"], p["m"], p["mu"]
    v, q, W = y[3:6], y[6:10], y[10:13]
    A = rot(q)
    e3 = A[:, 2]
    w = A @ W
    r = a * e3 - R * Z
    vp = v + np.cross(w, r)
    u = vp - vp[2] * Z
    d = u / np.linalg.norm(u)
    tau = A.T @ np.cross(r, Z - mu * d)        # torque per unit N, body axes
    gyro = np.cross(W, I * W)                  # W x I W
    lhs = 1.0 / m + a * np.cross(A @ (tau / I), e3)[2]
    rhs = (p["g"] + a * np.cross(A @ (gyro / I), e3)[2]
           - a * np.cross(w, np.cross(w, e3))[2])
    return A, w, r, u, rhs / lhs, tau, gyro


def field(t, y, p):
    I = moments(p)
    A, w, r, u, N, tau, gyro = contact(y, p)
    d = u / np.linalg.norm(u)
    acc = N * (Z - p["mu"] * d) / p["m"] - p["g"] * Z
    dW = (N * tau - gyro) / I
    dq = 0.5 * q_mul(y[6:10], np.concatenate([[0.0], y[10:13]]))
    return np.concatenate([y[3:6], acc, dq, dW])


def axis_height(t, y, p):
    """e3 . z: cos theta, zero at the inversion (theta = pi/2)."""
    return rot(y[6:10])[2, 2]


axis_height.direction = -1.0


def solve(p, times):
    """solve_ivp from initial_state(p) over [0, times[-1]], sampled at `times`, with the event
    theta = pi/2. Returns a dict of arrays over the samples: t, c, v, q, W (body), w (world),
    axis (R e3), theta, N, slip (|u|), energy, jellett; and t_invert (the first crossing of
    theta = pi/2, None if none)."""
    times = np.asarray(times, dtype=float)
    sol = solve_ivp(field, (0.0, times[-1]), initial_state(p), method="DOP853", t_eval=times,
                    events=axis_height, rtol=RTOL, atol=ATOL, args=(p,))
    if sol.status != 0:
        raise RuntimeError("solve_ivp: " + sol.message)
    I = moments(p)
    out = {k: [] for k in ("c", "v", "q", "W", "w", "axis", "theta", "N", "slip", "energy",
                           "jellett")}
    for y in sol.y.T:
        A, w, r, u, N, _, _ = contact(y, p)
        c, v, W = y[0:3], y[3:6], y[10:13]
        out["c"].append(c)
        out["v"].append(v)
        out["q"].append(y[6:10])
        out["W"].append(W)
        out["w"].append(w)
        out["axis"].append(p["R"] * A[:, 2])
        out["theta"].append(math.acos(max(-1.0, min(1.0, A[2, 2]))))
        out["N"].append(N)
        out["slip"].append(np.linalg.norm(u))
        out["energy"].append(energy(c, v, W, p))
        out["jellett"].append(jellett(A, W, p))
    res = {k: np.array(x) for k, x in out.items()}
    res["t"] = sol.t
    res["t_invert"] = float(sol.t_events[0][0]) if len(sol.t_events[0]) else None
    return res


def energy(c, v, W, p):
    """1/2 m |v|^2 + 1/2 W . I W + m g c_z."""
    I = moments(p)
    return 0.5 * p["m"] * v @ v + 0.5 * W @ (I * W) + p["m"] * p["g"] * c[2]


def jellett(A, W, p):
    """J = L . (R z - a e3), L = A I W: conserved while the top slides (module docstring)."""
    I = moments(p)
    L = A @ (I * W)
    return L @ (p["R"] * Z - p["alpha"] * p["R"] * A[:, 2])


def inversion_time(p, t_end):
    """The first time theta reaches pi/2 (e3 . z = 0 falling), None if not before t_end."""
    return solve(p, [0.0, t_end])["t_invert"]


if __name__ == "__main__":
    import time
    p = default_params()
    t0 = time.time()
    ts = np.linspace(0.0, 4.0, 401)
    ref = solve(p, ts)
    print("t_invert", ref["t_invert"], "solve", time.time() - t0, "s")
    for k in range(0, len(ts), 20):
        print("%6.3f theta %.4f N/mg %.4f slip %.4e E %.6e J %.12e" % (
            ts[k], ref["theta"][k], ref["N"][k] / (p["m"] * p["g"]), ref["slip"][k],
            ref["energy"][k], ref["jellett"][k]))

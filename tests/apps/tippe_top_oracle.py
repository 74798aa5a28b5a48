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
F = -mu N u / |u| (valid while |u| > 0: see the terminal events below).

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

It is solved at every evaluation of the field; the test checks N > 0 along the reference (the
top stays on the floor).

Invariants checked by the test. The energy E = 1/2 m |v|^2 + 1/2 W . I W + m g c_z falls at the
rate F . u = -mu N |u| (the normal force does no work: v_P . z = 0). Jellett's integral

    J = L . (c - P) = L . (R z - a e3),    L = A I W (angular momentum about c, world axes),

is conserved exactly by this sliding model (and by any force acting at P): dL/dt = r x (N z + F)
is orthogonal to r = P - c, and d(R z - a e3)/dt = -a w x e3 with L . (w x e3) = 0 for a body
symmetric about e3 (L = I1 w + (I3 - I1)(w . e3) e3). Hence dJ/dt = 0.

Start (initial_state): the axis tilted by theta0 about x, the sphere on the floor, the centre of
mass at rest, the top spinning at `spin` about the vertical (w = spin z). The contact point then
slips at a spin sin(theta0) (w x r = a spin z x e3).

Integration: scipy.integrate.solve_ivp, DOP853, rtol = 1e-12, atol = 1e-14 (as the model file),
dense output, with an event at e3 . z = 0 (theta = pi/2, falling) for the inversion time, and
terminal events where the model stops holding or the comparison should stop: the slip speed
falling to a given value (Coulomb's sliding force does not vanish with the slip, so the slip
reaches zero in finite time and the top then rolls: the sliding equations end there), the normal
force falling to a given fraction of m g (at N = 0 the top would leave the floor), the tilt
reaching a given angle. The literature's classification of the tops (of their final states, for
friction laws that vanish with the slip; Rauch-Wojciechowski and Rutstam 2014, Bou-Rabee et al.
2004): complete inversion (theta from near 0 to near pi) when 1 - alpha < I1 / I3 < 1 and spun
fast enough, an intermediate tilt when 1 < I1 / I3 < 1 + alpha, no inversion when
I1 / I3 < 1 - alpha. With Coulomb's law and the start above, tops with I1 / I3 in [0.9, 0.98]
turn over while sliding (for the tested draws), and tops with I1 / I3 < 1 - alpha
fall back towards upright and their slip vanishes within about 0.05 s.
"""
import math

import numpy as np
from scipy.integrate import solve_ivp

RTOL = 1e-12
ATOL = 1e-14


def default_params():
    """The top of models/tippe_top.toml (its header gives the source of the values)."""
    return dict(m=0.015, g=9.81, R=0.02, alpha=0.3, k1=0.131, k3=0.145, mu=0.3, theta0=0.1,
                spin=180.0)


def moments(p):
    """(I1, I1, I3) about the centre of mass: k1 m R^2 and k3 m R^2."""
    mr2 = p["m"] * p["R"] ** 2
    return np.array([p["k1"] * mr2, p["k1"] * mr2, p["k3"] * mr2])


def rotation(q):
    """The matrix of q / |q| (scalar part first): body axes to world axes."""
    w, x, y, z = q
    s = 1.0 / (w * w + x * x + y * y + z * z)
    return s * np.array([[w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]])


def initial_state(p):
    """The top tilted by theta0 about the world x axis (e3 = (0, -sin theta0, cos theta0)),
    touching the floor (c_z = R - a cos theta0), its centre of mass at rest, spinning at `spin`
    about the vertical (w = spin z, so W = A^T w = spin (0, sin theta0, cos theta0) in body
    axes): y0 = (c, v, q, W)."""
    th, a, n = p["theta0"], p["alpha"] * p["R"], p["spin"]
    return np.array([0.0, 0.0, p["R"] - a * math.cos(th), 0.0, 0.0, 0.0,
                     math.cos(th / 2), math.sin(th / 2), 0.0, 0.0,
                     0.0, n * math.sin(th), n * math.cos(th)])


def _terms(y, P):
    """Scalar evaluation at the state y for the constants P = (m, g, R, a, mu, I1, I3):
    (N, slip speed |u|, d_x, d_y, A (9 entries, row by row), w (world), body torque per unit N,
    gyroscopic term W x I W)."""
    m, g, R, a, mu, i1, i3 = P
    vx, vy = y[3], y[4]
    q0, q1, q2, q3 = y[6], y[7], y[8], y[9]
    W1, W2, W3 = y[10], y[11], y[12]
    s = 1.0 / (q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3)
    a11 = (q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3) * s
    a12 = 2 * (q1 * q2 - q0 * q3) * s
    a13 = 2 * (q1 * q3 + q0 * q2) * s
    a21 = 2 * (q1 * q2 + q0 * q3) * s
    a22 = (q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3) * s
    a23 = 2 * (q2 * q3 - q0 * q1) * s
    a31 = 2 * (q1 * q3 - q0 * q2) * s
    a32 = 2 * (q2 * q3 + q0 * q1) * s
    a33 = (q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3) * s
    ex, ey, ez = a13, a23, a33                     # e3 in world axes
    wx = a11 * W1 + a12 * W2 + a13 * W3            # w = A W
    wy = a21 * W1 + a22 * W2 + a23 * W3
    wz = a31 * W1 + a32 * W2 + a33 * W3
    rx, ry, rz = a * ex, a * ey, a * ez - R        # r = P - c = a e3 - R z
    ux = vx + wy * rz - wz * ry                    # horizontal part of v + w x r
    uy = vy + wz * rx - wx * rz
    slip = math.hypot(ux, uy)
    dx, dy = ux / slip, uy / slip
    fx, fy = -mu * dx, -mu * dy                    # contact force per unit N: z - mu d
    tx = ry - rz * fy                              # r x f, f = (fx, fy, 1)
    ty = rz * fx - rx
    tz = rx * fy - ry * fx
    b1 = a11 * tx + a21 * ty + a31 * tz            # body torque per unit N: A^T (r x f)
    b2 = a12 * tx + a22 * ty + a32 * tz
    b3 = a13 * tx + a23 * ty + a33 * tz
    g1 = W2 * i3 * W3 - W3 * i1 * W2               # W x I W (I1 = I2: no third component)
    g2 = W3 * i1 * W1 - W1 * i3 * W3
    # world angular acceleration = N K - H, K = A I^-1 tau, H = A I^-1 (W x I W)
    k1, k2, k3 = b1 / i1, b2 / i1, b3 / i3
    Kx = a11 * k1 + a12 * k2 + a13 * k3
    Ky = a21 * k1 + a22 * k2 + a23 * k3
    h1, h2 = g1 / i1, g2 / i1
    Hx = a11 * h1 + a12 * h2
    Hy = a21 * h1 + a22 * h2
    # (w x (w x e3))_z = (w . e3) w_z - |w|^2 e3_z
    wwz = (wx * ex + wy * ey + wz * ez) * wz - (wx * wx + wy * wy + wz * wz) * ez
    N = ((g + a * (Hx * ey - Hy * ex) - a * wwz) /
         (1.0 / m + a * (Kx * ey - Ky * ex)))
    return N, slip, dx, dy, (b1, b2, b3), (g1, g2)


def constants(p):
    I = moments(p)
    return (p["m"], p["g"], p["R"], p["alpha"] * p["R"], p["mu"], I[0], I[2])


def field(t, y, P):
    """y' for y = (c, v, q, W) and the constants P = constants(p) (module docstring)."""
    m, g, mu, i1, i3 = P[0], P[1], P[4], P[5], P[6]
    N, _, dx, dy, (b1, b2, b3), (g1, g2) = _terms(y, P)
    q0, q1, q2, q3 = y[6], y[7], y[8], y[9]
    W1, W2, W3 = y[10], y[11], y[12]
    f = N / m
    return [y[3], y[4], y[5],
            -mu * dx * f, -mu * dy * f, f - g,
            0.5 * (-q1 * W1 - q2 * W2 - q3 * W3),  # q' = 1/2 q (x) (0, W)
            0.5 * (q0 * W1 + q2 * W3 - q3 * W2),
            0.5 * (q0 * W2 + q3 * W1 - q1 * W3),
            0.5 * (q0 * W3 + q1 * W2 - q2 * W1),
            (N * b1 - g1) / i1, (N * b2 - g2) / i1, N * b3 / i3]


def solve(p, t_end, theta_stop=math.pi, slip_stop=0.0, normal_stop=0.0):
    """solve_ivp (DOP853, RTOL, ATOL, dense output) from initial_state(p) to t_end, or to the
    first of: the tilt reaching theta_stop, the slip speed falling to slip_stop (the sliding
    model stops holding where the slip vanishes), the normal force falling to normal_stop m g
    (the top would leave the floor at N = 0): terminal events. Returns dict(sol (the dense
    output), t_end (where it stopped), stopped_by (None, "theta", "slip" or "normal"),
    t_invert (the first time theta reaches pi/2, None if not before t_end), nfev)."""
    P = constants(p)

    def invert(t, y, P):  # e3 . z = cos theta
        return rotation(y[6:10])[2, 2]

    def tilt(t, y, P):
        return rotation(y[6:10])[2, 2] - math.cos(theta_stop)

    def slipping(t, y, P):
        return _terms(y, P)[1] - slip_stop

    def normal(t, y, P):
        return _terms(y, P)[0] - normal_stop * p["m"] * p["g"]
    invert.direction = -1.0
    for e in (tilt, slipping, normal):
        e.terminal, e.direction = True, -1.0
    sol = solve_ivp(field, (0.0, t_end), initial_state(p), method="DOP853", rtol=RTOL,
                    atol=ATOL, dense_output=True, events=[invert, tilt, slipping, normal],
                    args=(P,))
    if sol.status < 0:
        raise RuntimeError("solve_ivp: " + sol.message)
    stopped = None
    if sol.status == 1:
        stopped = [n for n, e in zip(("theta", "slip", "normal"), sol.t_events[1:]) if len(e)][0]
    t_inv = sol.t_events[0]
    return dict(sol=sol.sol, t_end=float(sol.t[-1]), stopped_by=stopped,
                t_invert=float(t_inv[0]) if len(t_inv) else None, nfev=sol.nfev)


def samples(ref, times, p):
    """The reference at `times` (within [0, ref["t_end"]]): a dict of arrays c, v, q, W (body),
    w (world), axis (R e3), theta, N, slip (|u|), energy, jellett."""
    P = constants(p)
    out = {k: [] for k in ("c", "v", "q", "W", "w", "axis", "theta", "N", "slip", "energy",
                           "jellett")}
    for t in times:
        y = ref["sol"](t)
        A = rotation(y[6:10])
        N, slip, _, _, _, _ = _terms(y, P)
        c, v, W = y[0:3], y[3:6], y[10:13]
        out["c"].append(c)
        out["v"].append(v)
        out["q"].append(y[6:10])
        out["W"].append(W)
        out["w"].append(A @ W)
        out["axis"].append(p["R"] * A[:, 2])
        out["theta"].append(math.acos(max(-1.0, min(1.0, A[2, 2]))))
        out["N"].append(N)
        out["slip"].append(slip)
        out["energy"].append(energy(c, v, W, p))
        out["jellett"].append(jellett(A, W, p))
    return {k: np.array(x) for k, x in out.items()}


def energy(c, v, W, p):
    """1/2 m |v|^2 + 1/2 W . I W + m g c_z."""
    I = moments(p)
    return 0.5 * p["m"] * v @ v + 0.5 * W @ (I * W) + p["m"] * p["g"] * c[2]


def jellett(A, W, p):
    """J = L . (R z - a e3), L = A I W: conserved while the top slides (module docstring)."""
    L = A @ (moments(p) * W)
    return L[2] * p["R"] - p["alpha"] * p["R"] * (L @ A[:, 2])


def inversion_time(p, t_end):
    """The first time theta reaches pi/2 (e3 . z = 0 falling), None if not before t_end."""
    return solve(p, t_end)["t_invert"]


if __name__ == "__main__":
    import time
    p = default_params()
    t0 = time.time()
    ref = solve(p, 0.42)
    print("t_invert %.15g  nfev %d  %.2f s" % (ref["t_invert"], ref["nfev"], time.time() - t0))
    s = samples(ref, np.linspace(0.0, 0.42, 22), p)
    for k in range(22):
        print("%6.3f theta %.4f N/mg %.4f slip %.4e E %.9e J %.15e" % (
            0.02 * k, s["theta"][k], s["N"][k] / (p["m"] * p["g"]), s["slip"][k],
            s["energy"][k], s["jellett"][k]))

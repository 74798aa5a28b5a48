"""Independent computation of the heavy symmetric top on a frictionless fixed point (the Lagrange
top) with NumPy and SciPy: its equations of motion, the closed form of its nutation (the cubic in
u = cos theta, its roots, the nutation period, and the precession and spin advanced over one
nutation period, as complete elliptic integrals and as quadratures), the times and angles at which
theta' = 0 recurs, and test cases (a default top and seeded random ones).

Conventions. ZXZ Euler angles: phi is the precession about the space z axis (vertical, up), theta
the nutation (the angle between the symmetry axis and z), psi the spin about the symmetry axis.
I1 = I2 and I3 are the principal moments of inertia about the fixed point, m the mass, l the
distance from the fixed point to the centre of mass along the symmetry axis (the centre of mass is
above the fixed point at theta = 0), gravity g along -z. The state is
y = (phi, theta, psi, phi', theta', psi') and

    T = 1/2 I1 (theta'^2 + phi'^2 sin^2 theta) + 1/2 I3 (psi' + phi' cos theta)^2,
    V = m g l cos theta,
    E = T + V,  p_phi = I1 phi' sin^2 theta + I3 cos theta w3,  p_psi = I3 w3,

with w3 = psi' + phi' cos theta the spin (the body rate about the symmetry axis). The
Euler-Lagrange equations (derived by hand and checked with SymPy offline):

    theta'' = phi'^2 sin theta cos theta - (I3 / I1) w3 phi' sin theta + (m g l / I1) sin theta,
    phi''   = (I3 w3 theta' - 2 I1 phi' theta' cos theta) / (I1 sin theta),
    psi''   = -phi'' cos theta + phi' theta' sin theta            (w3' = 0).

Closed form. With u = cos theta, a = p_psi / I1, b = p_phi / I1, beta = 2 m g l / I1 and
alpha = (2 E - p_psi^2 / I3) / I1 = theta'^2 + phi'^2 sin^2 theta + beta u (the second form, at the
state, avoids the cancellation of the spin energy):

    u'^2 = f(u) = (1 - u^2)(alpha - beta u) - (b - a u)^2
         = beta u^3 - (alpha + a^2) u^2 + (2 a b - beta) u + (alpha - b^2),
    phi' = (b - a u) / (1 - u^2),   psi' = w3 - phi' u,   w3 = a I1 / I3.

f(+-1) = -(b -+ a)^2 <= 0 and f >= 0 at the state, so f has roots u1 <= u0 <= u2 in [-1, 1] and
u3 > 1, f = beta (u - u1)(u2 - u)(u3 - u); u oscillates between u1 (theta_max = arccos u1) and u2
(theta_min = arccos u2). With u = u1 + (u2 - u1) sin^2 s (s in [0, pi/2],
du / sqrt((u - u1)(u2 - u)) = 2 ds, which removes the endpoint singularities),
m_k = (u2 - u1) / (u3 - u1) and c = 2 / sqrt(beta (u3 - u1)):

    T_nut   = 2 int_{u1}^{u2} du / sqrt(f)                          = 2 c K(m_k),
    D_phi   = 2 int_{u1}^{u2} (b - a u) / (1 - u^2) du / sqrt(f)
            = c [(b - a) / (1 - u1) Pi(n+, m_k) + (b + a) / (1 + u1) Pi(n-, m_k)],
    D_psi   = w3 T_nut - 2 int_{u1}^{u2} u (b - a u) / (1 - u^2) du / sqrt(f)
            = (w3 - a) T_nut
              - c [(b - a) / (1 - u1) Pi(n+, m_k) - (b + a) / (1 + u1) Pi(n-, m_k)],

n+ = (u2 - u1) / (1 - u1), n- = -(u2 - u1) / (1 + u1), K and Pi the complete elliptic integrals of
the first and third kinds (parameter convention, Pi(n, m) = RF(0, 1 - m, 1) + n/3 RJ(0, 1 - m, 1,
1 - n) in Carlson's forms). D_phi and D_psi are the precession and spin over one nutation period;
D_phi / T_nut is the mean precession rate. The quadratures are also evaluated with
scipy.integrate.quad in s (epsabs = epsrel = 1e-14) as a check.

Turning-point convention. nutation_events starts from a state with theta' = 0: a turning point.
At theta_min (u0 = u2, f'(u0) < 0, theta'' > 0) theta' = 0 recurs rising (theta' from - to +) at
t = k T_nut with phi = phi0 + k D_phi, psi = psi0 + k D_psi, theta = theta0; and falling at
theta_max (theta = arccos u1) at t = (k - 1/2) T_nut with phi = phi0 + (k - 1/2) D_phi (the motion
is symmetric in time about each turning point). From theta_max (u0 = u1) the roles swap.

Nothing here uses saltus: solve_ivp (DOP853, rtol = atol = 1e-13) integrates the Euler-Lagrange
equations with events at theta' = 0 (ode_events), compared in __main__ with the closed form.
"""
import math
import time
import warnings

import numpy as np
from scipy.integrate import IntegrationWarning, quad, solve_ivp
from scipy.special import ellipk, elliprf, elliprj

RTOL = ATOL = 1e-13
G = 9.81


def spin(y):
    """w3 = psi' + phi' cos theta."""
    return y[5] + y[3] * math.cos(y[1])


def invariants(y, p):
    """(E, p_phi, p_psi) at the state y = (phi, theta, psi, phi', theta', psi') for the
    parameters p = dict(m, g, l, I1, I3)."""
    th, dph, dth = y[1], y[3], y[4]
    s, c = math.sin(th), math.cos(th)
    w3 = spin(y)
    e = (0.5 * p["I1"] * (dth * dth + dph * dph * s * s) + 0.5 * p["I3"] * w3 * w3
         + p["m"] * p["g"] * p["l"] * c)
    return e, p["I1"] * dph * s * s + p["I3"] * c * w3, p["I3"] * w3


def state_derivative(t, y, p):
    """y' for y = (phi, theta, psi, phi', theta', psi') (singular where sin theta = 0)."""
    th, dph, dth = y[1], y[3], y[4]
    s, c = math.sin(th), math.cos(th)
    i1, i3 = p["I1"], p["I3"]
    w3 = y[5] + dph * c
    ddth = dph * dph * s * c - (i3 / i1) * w3 * dph * s + (p["m"] * p["g"] * p["l"] / i1) * s
    ddph = (i3 * w3 * dth - 2.0 * i1 * dph * dth * c) / (i1 * s)
    ddps = -ddph * c + dph * dth * s
    return np.array([dph, dth, y[5], ddph, ddth, ddps])


def cubic(y, p):
    """a, b, alpha, beta of f(u) = (1 - u^2)(alpha - beta u) - (b - a u)^2 at the state y."""
    th, dph, dth = y[1], y[3], y[4]
    s, c = math.sin(th), math.cos(th)
    beta = 2.0 * p["m"] * p["g"] * p["l"] / p["I1"]
    a = p["I3"] * spin(y) / p["I1"]
    b = dph * s * s + a * c  # p_phi / I1
    alpha = dth * dth + dph * dph * s * s + beta * c
    return a, b, alpha, beta


def f_of_u(u, a, b, alpha, beta):
    return (1.0 - u * u) * (alpha - beta * u) - (b - a * u) ** 2


def df_of_u(u, a, b, alpha, beta):
    return -2.0 * u * (alpha - beta * u) - beta * (1.0 - u * u) + 2.0 * a * (b - a * u)


def roots(y, p):
    """u1 <= u2 (in [-1, 1]) < u3 of f, polished by Newton; where theta' = 0 the state's
    u0 = cos theta is a root exactly and replaces the nearest one."""
    a, b, alpha, beta = cubic(y, p)
    r = np.roots([beta, -(alpha + a * a), 2.0 * a * b - beta, alpha - b * b])
    if np.max(np.abs(r.imag)) > 1e-9 * max(1.0, np.max(np.abs(r.real))):
        raise ValueError(f"f has complex roots {r} (steady precession?)")
    r = np.sort(r.real)
    for i in range(3):
        for _ in range(4):
            d = df_of_u(r[i], a, b, alpha, beta)
            if d == 0.0:
                break
            step = f_of_u(r[i], a, b, alpha, beta) / d
            if abs(step) > 1e-6 * (1.0 + abs(r[i])):
                break  # Newton is only a polish here
            r[i] -= step
    if y[4] == 0.0:
        u0 = math.cos(y[1])
        r[int(np.argmin(np.abs(r - u0)))] = u0
    u1, u2, u3 = np.sort(r)
    if not (-1.0 <= u1 <= u2 <= 1.0 < u3):
        raise ValueError(f"roots {u1}, {u2}, {u3} not ordered as -1 <= u1 <= u2 <= 1 < u3")
    return u1, u2, u3


def _legendre_pi(n, m):
    """Complete elliptic integral of the third kind Pi(n, m) = int_0^{pi/2} ds /
    ((1 - n sin^2 s) sqrt(1 - m sin^2 s)), n < 1, m < 1 (Carlson's forms)."""
    return elliprf(0.0, 1.0 - m, 1.0) + n / 3.0 * elliprj(0.0, 1.0 - m, 1.0, 1.0 - n)


def closed_form(y, p):
    """The nutation of the top from the state y, by complete elliptic integrals: a dict with a,
    b, alpha, beta, u1, u2, u3, w3, T_nut, D_phi, D_psi (per nutation period), the mean
    precession rate D_phi / T_nut, theta_min = arccos u2 and theta_max = arccos u1."""
    a, b, alpha, beta = cubic(y, p)
    u1, u2, u3 = roots(y, p)
    mk = (u2 - u1) / (u3 - u1)
    c = 2.0 / math.sqrt(beta * (u3 - u1))
    t_nut = 2.0 * c * ellipk(mk)
    pi_p = _legendre_pi((u2 - u1) / (1.0 - u1), mk)
    pi_m = _legendre_pi(-(u2 - u1) / (1.0 + u1), mk)
    jp, jm = (b - a) / (1.0 - u1) * pi_p, (b + a) / (1.0 + u1) * pi_m
    w3 = spin(y)
    d_phi = c * (jp + jm)
    d_psi = w3 * t_nut - a * t_nut - c * (jp - jm)
    return {"a": a, "b": b, "alpha": alpha, "beta": beta, "u1": u1, "u2": u2, "u3": u3,
            "w3": w3, "T_nut": t_nut, "D_phi": d_phi, "D_psi": d_psi,
            "precession_rate": d_phi / t_nut, "theta_min": math.acos(u2),
            "theta_max": math.acos(u1)}


def quadratures(y, p):
    """T_nut, D_phi and D_psi as 2 int_{u1}^{u2} g(u) du / sqrt(f) with u = u1 + (u2 - u1)
    sin^2 s, by scipy.integrate.quad (epsabs = epsrel = 1e-14): a check on closed_form."""
    a, b, alpha, beta = cubic(y, p)
    u1, u2, u3 = roots(y, p)
    w3 = spin(y)

    def u_of(s):
        return u1 + (u2 - u1) * math.sin(s) ** 2

    def weight(u):  # du / sqrt(f) = 2 ds / sqrt(beta (u3 - u))
        return 2.0 / math.sqrt(beta * (u3 - u))

    def integral(g):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", IntegrationWarning)
            val, _ = quad(lambda s: g(u_of(s)) * weight(u_of(s)), 0.0, math.pi / 2,
                          epsabs=1e-14, epsrel=1e-14, limit=200)
        return 2.0 * val

    t_nut = integral(lambda u: 1.0)
    d_phi = integral(lambda u: (b - a * u) / (1.0 - u * u))
    d_psi = w3 * t_nut - integral(lambda u: u * (b - a * u) / (1.0 - u * u))
    return t_nut, d_phi, d_psi


def turning_kind(y, p):
    """+1 where the state (theta' = 0) is at theta_min (u0 = u2, theta'' > 0), -1 at theta_max."""
    if y[4] != 0.0:
        raise ValueError("the state is not a turning point: theta' != 0")
    ddth = state_derivative(0.0, y, p)[4]
    if ddth == 0.0:
        raise ValueError("theta'' = 0 at the turning point (steady precession)")
    return 1 if ddth > 0 else -1


def nutation_events(y0, periods, p=None):
    """From the state y0 at a turning point (theta' = 0, see turning_kind; the default and random
    cases start at theta_min), the first `periods` returns to the same turning point (k = 1 ..
    periods) and the opposite turning points between them (k - 1/2), by the closed form:

      same:     t = k T_nut,         phi = phi0 + k D_phi,         psi = psi0 + k D_psi,
      opposite: t = (k - 1/2) T_nut, phi = phi0 + (k - 1/2) D_phi, psi = psi0 + (k - 1/2) D_psi.

    The guard theta' = 0 crosses rising at theta_min, falling at theta_max: from theta_min the
    'same' events are the rising ones. Returns a dict with arrays t, phi, psi, theta (same
    turning point), t_half, phi_half, psi_half, theta_half (opposite one), the direction of the
    'same' crossings (+1 rising / -1 falling) and the closed form's dict. p defaults to the
    default case's parameters."""
    if p is None:
        p = default_case()["params"]
    y0 = np.asarray(y0, dtype=float)
    kind = turning_kind(y0, p)
    cf = closed_form(y0, p)
    k = np.arange(1, periods + 1, dtype=float)
    kh = k - 0.5
    th_same, th_opp = ((cf["theta_min"], cf["theta_max"]) if kind > 0
                       else (cf["theta_max"], cf["theta_min"]))
    return {"t": k * cf["T_nut"], "phi": y0[0] + k * cf["D_phi"], "psi": y0[2] + k * cf["D_psi"],
            "theta": np.full(periods, th_same),
            "t_half": kh * cf["T_nut"], "phi_half": y0[0] + kh * cf["D_phi"],
            "psi_half": y0[2] + kh * cf["D_psi"], "theta_half": np.full(periods, th_opp),
            "direction": kind, "closed_form": cf}


def ode_events(y0, p, t_end):
    """Integrates the Euler-Lagrange equations from y0 over [0, t_end] (DOP853, rtol = atol =
    1e-13) with events at theta' = 0: (times, states) of the rising crossings (theta_min) and of
    the falling ones (theta_max), dropping a crossing at t = 0, and the final state."""
    def rising(t, y, p_):
        return y[4]
    rising.direction = 1

    def falling(t, y, p_):
        return y[4]
    falling.direction = -1
    sol = solve_ivp(state_derivative, (0.0, t_end), np.asarray(y0, dtype=float),
                    method="DOP853", rtol=RTOL, atol=ATOL, events=(rising, falling), args=(p,))
    if sol.status != 0:
        raise RuntimeError(sol.message)
    out = []
    for te, ye in zip(sol.t_events, sol.y_events):
        keep = te > 1e-9 * t_end
        out.append((te[keep], ye[keep]))
    return out[0], out[1], sol.y[:, -1]


def make_case(m, l, i1, i3, theta0, dphi0, dpsi0, g=G, phi0=0.0, psi0=0.0):
    return {"params": {"m": m, "g": g, "l": l, "I1": i1, "I3": i3},
            "state": np.array([phi0, theta0, psi0, dphi0, 0.0, dpsi0])}


def default_case():
    """m = 1 kg, g = 9.81 m/s^2, l = 0.1 m, I1 = 0.02 kg m^2 (0.01 about the centre of mass),
    I3 = 0.008 kg m^2; at t = 0: phi = psi = 0, theta = 0.5 rad, theta' = 0 (theta_min: theta''
    > 0), phi' = 2 rad/s, psi' = 50 rad/s (the values of models/lagrange_top.toml)."""
    return make_case(1.0, 0.1, 0.02, 0.008, 0.5, 2.0, 50.0)


def random_cases(n=8, seed=20240611):
    """n seeded random tops, each starting at rest in theta at theta_min: m in [0.5, 2] kg, l in
    [0.05, 0.2] m, I3 in [0.002, 0.02] kg m^2, I1 = I1cm + m l^2 with I1cm in [I3/2, 2 I3] (a
    physical body: I3 <= 2 I1cm, so I1 > I3/2), theta0 in [0.2, 1.2] rad, psi0' = +-[30, 80]
    rad/s, phi0' in [-3, 3] rad/s, phi0 and psi0 in [-pi, pi]. Draws are rejected unless theta''
    > 0 at the start (theta_min), theta_max < 2.5 rad (away from the pole of the Euler angles),
    u2 - u1 > 1e-3 (a visible nutation) and T_nut < 1 s."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        m, l = rng.uniform(0.5, 2.0), rng.uniform(0.05, 0.2)
        i3 = rng.uniform(0.002, 0.02)
        i1 = rng.uniform(0.5, 2.0) * i3 + m * l * l
        theta0 = rng.uniform(0.2, 1.2)
        dpsi0 = rng.choice([-1.0, 1.0]) * rng.uniform(30.0, 80.0)
        dphi0 = rng.uniform(-3.0, 3.0)
        phi0, psi0 = rng.uniform(-math.pi, math.pi, 2)
        case = make_case(m, l, i1, i3, theta0, dphi0, dpsi0, phi0=phi0, psi0=psi0)
        try:
            if turning_kind(case["state"], case["params"]) < 0:
                continue
            cf = closed_form(case["state"], case["params"])
        except ValueError:
            continue
        if cf["theta_max"] < 2.5 and cf["u2"] - cf["u1"] > 1e-3 and cf["T_nut"] < 1.0:
            out.append(case)
    return out


def compare(case, periods=100):
    """Closed form vs quadratures vs the ODE's events over `periods` nutation periods: a dict of
    the largest relative differences and the invariants' drift."""
    y0, p = case["state"], case["params"]
    ev = nutation_events(y0, periods, p)
    cf = ev["closed_form"]
    tq, dphq, dpsq = quadratures(y0, p)
    (t_r, y_r), (t_f, y_f), y_end = ode_events(y0, p, (periods + 0.25) * cf["T_nut"])
    same, opp = (t_r, y_r), (t_f, y_f)
    if ev["direction"] < 0:
        same, opp = opp, same
    if len(same[0]) != periods or len(opp[0]) != periods:
        raise RuntimeError(f"{len(same[0])} / {len(opp[0])} ODE events, expected {periods}")
    scale_phi = max(abs(periods * cf["D_phi"]), 1e-300)
    scale_psi = max(abs(periods * cf["D_psi"]), 1e-300)
    inv0 = np.array(invariants(y0, p))
    inv = np.array([invariants(yy, p) for yy in np.vstack([same[1], opp[1], y_end])])
    return {
        "T_nut quad vs elliptic": abs(tq - cf["T_nut"]) / cf["T_nut"],
        "D_phi quad vs elliptic": abs(dphq - cf["D_phi"]) / max(abs(cf["D_phi"]), 1e-300),
        "D_psi quad vs elliptic": abs(dpsq - cf["D_psi"]) / abs(cf["D_psi"]),
        "event t vs k T_nut (rel. to k T_nut)": np.max(np.abs(same[0] - ev["t"]) / ev["t"]),
        "event t vs k T_nut (/ T_nut)": np.max(np.abs(same[0] - ev["t"])) / cf["T_nut"],
        "half event t vs (k-1/2) T_nut (rel.)": np.max(np.abs(opp[0] - ev["t_half"])
                                                       / ev["t_half"]),
        "event phi vs phi0 + k D_phi (/ N D_phi)": np.max(np.abs(same[1][:, 0] - ev["phi"]))
        / scale_phi,
        "half event phi (/ N D_phi)": np.max(np.abs(opp[1][:, 0] - ev["phi_half"])) / scale_phi,
        "event psi vs psi0 + k D_psi (/ N D_psi)": np.max(np.abs(same[1][:, 2] - ev["psi"]))
        / scale_psi,
        "event theta vs theta turning": max(np.max(np.abs(same[1][:, 1] - ev["theta"])),
                                            np.max(np.abs(opp[1][:, 1] - ev["theta_half"]))),
        "E drift (rel.)": np.max(np.abs(inv[:, 0] - inv0[0])) / abs(inv0[0]),
        "p_phi drift (rel. to p_psi)": np.max(np.abs(inv[:, 1] - inv0[1])) / abs(inv0[2]),
        "p_psi drift (rel.)": np.max(np.abs(inv[:, 2] - inv0[2])) / abs(inv0[2]),
    }


def _print_case(name, case):
    y0, p = case["state"], case["params"]
    cf = closed_form(y0, p)
    print(f"{name}: m = {p['m']:.15g}, l = {p['l']:.15g}, g = {p['g']:.15g}, "
          f"I1 = {p['I1']:.15g}, I3 = {p['I3']:.15g}")
    print("  state0 (phi, theta, psi, phi', theta', psi'):", ", ".join(f"{v:.15g}" for v in y0))
    e, pph, pps = invariants(y0, p)
    print(f"  E = {e:.15g} J, p_phi = {pph:.15g}, p_psi = {pps:.15g} kg m^2/s, "
          f"w3 = {cf['w3']:.15g} rad/s")
    print(f"  a = {cf['a']:.15g}, b = {cf['b']:.15g}, alpha = {cf['alpha']:.15g}, "
          f"beta = {cf['beta']:.15g}")
    print(f"  u1 = {cf['u1']:.15g}, u2 = {cf['u2']:.15g}, u3 = {cf['u3']:.15g}")
    print(f"  theta_min = {cf['theta_min']:.15g}, theta_max = {cf['theta_max']:.15g} rad")
    print(f"  T_nut = {cf['T_nut']:.15g} s, D_phi = {cf['D_phi']:.15g} rad, "
          f"D_psi = {cf['D_psi']:.15g} rad per nutation period")
    print(f"  mean precession rate = {cf['precession_rate']:.15g} rad/s")
    return cf


if __name__ == "__main__":
    t0 = time.time()
    cases = [("default", default_case())] + [(f"random {i}", c)
                                             for i, c in enumerate(random_cases())]
    worst = {}
    for name, case in cases:
        _print_case(name, case)
        res = compare(case)
        for key, val in res.items():
            print(f"    {key}: {val:.3g}")
            worst[key] = max(worst.get(key, 0.0), val)
    print("worst over all cases (100 nutation periods each):")
    for key, val in worst.items():
        print(f"  {key}: {val:.3g}")
    print(f"run time: {time.time() - t0:.1f} s")

"""Independent computation of the compass-gait biped's passive gait (A. Goswami, B. Thuilot and
B. Espiau, "A study of the passive gait of a compass-like biped robot: symmetry and chaos", IJRR
17(12), 1998) with SciPy: the step map from just after one heel strike to just after the next, its
fixed point (the period-one gait), Floquet multipliers, the pivot force along the gait and the
slope where a multiplier crosses -1 (the first period doubling).

Model (the paper's nominal biped): two identical straight legs of length l = a + b, a = b = 0.5 m,
each with a point mass m = 5 kg at distance b from the hip (a from the foot), a hip point mass
mh = 10 kg, g = 9.81 m/s^2, point feet, no rotational inertia, on a slope of angle gamma.

Conventions. Slope frame: x along the slope, downhill (the walking direction); y along the slope's
outward normal; gravity is g (sin gamma, -cos gamma). A leg's angle theta is measured from the
slope's normal, positive toward +x: its foot is at hip + l (sin theta, -cos theta) and its mass at
hip + b (sin theta, -cos theta) (the angle from the vertical is theta - gamma). The state is
x = (theta_st, theta_sw, theta_st', theta_sw'): stance leg first. During a step the stance foot is a
pivot fixed on the slope (no slip, no lift-off), so the hip is at stance foot + l (-sin theta_st,
cos theta_st); the swing foot's height is l cos theta_st - l cos theta_sw. Its scuffing near
mid-stance is ignored. A step stops where the stance leg passes the normal (theta_st = 0, falling)
and then at the heel strike: theta_st + theta_sw = 0 falling, i.e. the swing foot reaches the slope
ahead of the stance foot (theta_sw = -theta_st > 0). The impact is plastic, without slip at the
new stance foot, with no impulse at the old one: the biped's angular momentum about the impact
point and the trailing leg's about the hip are conserved (the paper's Q+(alpha) q'+ = Q-(alpha)
q'-), and the legs swap labels: the old swing leg is the new stance leg. Just after a strike the
state is (theta, -theta, theta_st', theta_sw') with theta > 0, so the step map acts on
z = (theta_st, theta_st', theta_sw') just after the strike.

Nothing here uses saltus: the equations of motion M(q) q'' + h(q, q') = 0 are written out (derived
by hand from the Lagrangian and checked with SymPy offline), solve_ivp (DOP853, rtol = atol =
1e-13) integrates them with their variational equations (the field's Jacobian differentiates the
mass-matrix form analytically), terminal events stop the step, the variations are carried onto the
strike surface (saltation) and through the transition, Newton finds the fixed point and
scipy.optimize.brentq the slope where det(J + I) = 0. transition_check() compares the transition
with the impact computed in extended coordinates (hip x, y, theta_1, theta_2).
"""
import math
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, minimize_scalar

RTOL = ATOL = 1e-13
A = B = 0.5
L = A + B
M_LEG, M_HIP, G = 5.0, 10.0, 9.81
M11 = M_HIP * L * L + M_LEG * A * A + M_LEG * L * L  # the mass matrix's constant entries
M22 = M_LEG * B * B
MLB = M_LEG * L * B
GK = G * (M_HIP * L + M_LEG * A + M_LEG * L)  # g times the stance-leg gravity moment arm sum
GMB = G * M_LEG * B


def mass_matrix(th1, th2):
    c = math.cos(th1 - th2)
    return np.array([[M11, -MLB * c], [-MLB * c, M22]])


def bias(x, gamma):
    """h(q, q') = C(q, q') q' + G(q): the equations of motion are M(q) q'' + h = 0."""
    th1, th2, w1, w2 = x[:4]
    s = math.sin(th1 - th2)
    return np.array([-MLB * s * w2 * w2 - GK * math.sin(th1 - gamma),
                     MLB * s * w1 * w1 + GMB * math.sin(th2 - gamma)])


def acceleration(x, gamma):
    th1, th2 = x[:2]
    m = mass_matrix(th1, th2)
    h = bias(x, gamma)
    det = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    return np.array([-(m[1, 1] * h[0] - m[0, 1] * h[1]) / det,
                     -(m[0, 0] * h[1] - m[1, 0] * h[0]) / det])


def field(x, gamma):
    acc = acceleration(x, gamma)
    return np.array([x[2], x[3], acc[0], acc[1]])


def field_jacobian(x, gamma):
    """d field / d x: with q'' = -M^-1 h, dq''/dq_k = -M^-1 (dM/dq_k q'' + dh/dq_k) and
    dq''/dq'_k = -M^-1 dh/dq'_k."""
    th1, th2, w1, w2 = x[:4]
    s, c = math.sin(th1 - th2), math.cos(th1 - th2)
    m = mass_matrix(th1, th2)
    acc = acceleration(x, gamma)
    dm1 = np.array([[0.0, MLB * s], [MLB * s, 0.0]])  # dM/dth1; dM/dth2 = -dM/dth1
    dh_dq = np.array([[-MLB * c * w2 * w2 - GK * math.cos(th1 - gamma), MLB * c * w2 * w2],
                      [MLB * c * w1 * w1, -MLB * c * w1 * w1 + GMB * math.cos(th2 - gamma)]])
    dh_dw = np.array([[0.0, -2 * MLB * s * w2], [2 * MLB * s * w1, 0.0]])
    rhs_q = np.column_stack([dm1 @ acc, -dm1 @ acc]) + dh_dq
    jac = np.zeros((4, 4))
    jac[0, 2] = jac[1, 3] = 1.0
    jac[2:, :2] = -np.linalg.solve(m, rhs_q)
    jac[2:, 2:] = -np.linalg.solve(m, dh_dw)
    return jac


def impact_matrices(delta):
    """Q-(delta), Q+(delta) and their derivatives in delta = theta_st- - theta_sw- (the angle
    from the new stance leg to the old one at the strike, -2 alpha in the paper's terms).
    Rows: the biped's angular momentum about the new stance foot, the trailing (old stance) leg's
    about the hip. Q- multiplies (theta_st-', theta_sw-') (old labels), Q+ multiplies
    (theta_st+', theta_sw+') (new labels: the new stance leg is the old swing leg)."""
    c, s = math.cos(delta), math.sin(delta)
    mab = M_LEG * A * B
    k = M_HIP * L * L + 2 * M_LEG * A * L
    qm = np.array([[k * c - mab, -mab], [-mab, 0.0]])
    qp = np.array([[M11 - MLB * c, M_LEG * B * (B - L * c)], [-MLB * c, M22]])
    dqm = np.array([[-k * s, 0.0], [0.0, 0.0]])
    dqp = np.array([[MLB * s, M_LEG * B * L * s], [MLB * s, 0.0]])
    return qm, qp, dqm, dqp


def transition(x):
    """The state just after the strike from the state x just before: the angles swap (the old
    swing leg becomes the stance leg), the rates solve Q+ q'+ = Q- q'-."""
    qm, qp, _, _ = impact_matrices(x[0] - x[1])
    wp = np.linalg.solve(qp, qm @ x[2:4])
    return np.array([x[1], x[0], wp[0], wp[1]])


def transition_jacobian(x):
    qm, qp, dqm, dqp = impact_matrices(x[0] - x[1])
    wm = x[2:4]
    wp = np.linalg.solve(qp, qm @ wm)
    dwp = np.linalg.solve(qp, dqm @ wm - dqp @ wp)  # d q'+ / d delta
    jac = np.zeros((4, 4))
    jac[0, 1] = jac[1, 0] = 1.0
    jac[2:, 0], jac[2:, 1] = dwp, -dwp
    jac[2:, 2:] = np.linalg.solve(qp, qm)
    return jac


def _events():
    def upright(t, y):  # the stance leg passes the slope's normal
        return y[0]
    upright.terminal, upright.direction = True, -1

    def strike(t, y):  # then the swing foot reaches the slope ahead: th_st + th_sw falling
        return y[0] + y[1]
    strike.terminal, strike.direction = True, -1
    return upright, strike


def start_state(z):
    return np.array([z[0], -z[0], z[1], z[2]])


def step(z, gamma):
    """One step from z = (theta_st, theta_st', theta_sw') just after a heel strike (theta_sw =
    -theta_st) to the same just after the next: z+, the step time, d z+ / d z, and the states
    just before and after the strike."""
    x0 = start_state(z)
    dx0 = np.array([[1.0, 0, 0], [-1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]])

    def rhs(t, y):
        phi = y[4:].reshape(4, 4)
        return np.concatenate([field(y, gamma), (field_jacobian(y, gamma) @ phi).ravel()])

    y = np.concatenate([x0, np.eye(4).ravel()])
    t = 0.0
    for event in _events():
        sol = solve_ivp(rhs, (t, t + 20), y, method="DOP853", rtol=RTOL, atol=ATOL,
                        events=event)
        if sol.status != 1:
            raise RuntimeError(f"no {event.__name__} event at gamma = {gamma}")
        t, y = sol.t_events[0][0], sol.y_events[0][0]
    xm, phi = y[:4], y[4:].reshape(4, 4)
    fm = field(xm, gamma)
    xp = transition(xm)
    # The step ends at the strike, not at a fixed time: the variations are carried to the
    # surface th_st + th_sw = 0 along the flow (the step time moves), then through the transition.
    grad = np.array([1.0, 1.0, 0.0, 0.0])
    to_surface = np.eye(4) - np.outer(fm, grad) / (grad @ fm)
    jac = (transition_jacobian(xm) @ to_surface @ phi @ dx0)[[0, 2, 3], :]
    return xp[[0, 2, 3]], t, jac, xm, xp


def fixed_point(gamma, guess):
    """z = (theta_st, theta_st', theta_sw') just after the strike on the period-one gait, by
    Newton on the step map; returns z, the step time and the map's Jacobian there."""
    z = np.array(guess, dtype=float)
    best = math.inf
    for _ in range(30):
        zn, t, jac, _, _ = step(z, gamma)
        r = zn - z
        err = np.max(np.abs(r))
        if err < 1e-14 or (err < 1e-11 and err >= best):
            return z, t, jac
        best = min(best, err)
        z = z - np.linalg.solve(jac - np.eye(3), r)
    raise RuntimeError(f"Newton did not converge at gamma = {gamma}: residual {r}")


# The period-one gait just after the strike at gamma = 3 degrees (a start for Newton; found by
# iterating the step map from (0.2, -1, 0.5), 60 steps: the gait is stable there).
GUESS_3DEG = (0.271, -1.092, -0.377)


def pivot_force(x, gamma):
    """The force of the slope on the stance foot (tangential, normal), from the full dynamics:
    the sum of mass times acceleration minus the weight."""
    th1, th2, w1, w2 = x[:4]
    a1, a2 = acceleration(x, gamma)
    s1, c1, s2, c2 = math.sin(th1), math.cos(th1), math.sin(th2), math.cos(th2)
    hip = L * np.array([-c1 * a1 + s1 * w1 * w1, -s1 * a1 - c1 * w1 * w1])
    leg1 = (A / L) * hip
    leg2 = hip + B * np.array([c2 * a2 - s2 * w2 * w2, s2 * a2 + c2 * w2 * w2])
    weight = (M_HIP + 2 * M_LEG) * G * np.array([math.sin(gamma), -math.cos(gamma)])
    return M_HIP * hip + M_LEG * leg1 + M_LEG * leg2 - weight


def force_extremes(z, gamma, samples=2000):
    """The minimum normal force and the maximum |F_t| / F_n on the stance foot over the step from
    z (dense output sampled, then refined by a bounded scalar search around the sample's
    extremum)."""
    y = start_state(z)
    t, pieces = 0.0, []
    for event in _events():
        sol = solve_ivp(lambda t_, y_: field(y_, gamma), (t, t + 20), y, method="DOP853",
                        rtol=RTOL, atol=ATOL, events=event, dense_output=True)
        pieces.append((t, sol.t_events[0][0], sol.sol))
        t, y = sol.t_events[0][0], sol.y_events[0][0]

    def state(tt):
        for t0, t1, s in pieces:
            if tt <= t1:
                return s(min(max(tt, t0), t1))
        return pieces[-1][2](pieces[-1][1])

    def normal(tt):
        return pivot_force(state(tt), gamma)[1]

    def ratio(tt):
        f = pivot_force(state(tt), gamma)
        return abs(f[0]) / f[1]

    ts = np.linspace(0.0, t, samples + 1)
    out = []
    for fun, sign in ((normal, 1.0), (ratio, -1.0)):
        vals = np.array([sign * fun(tt) for tt in ts])
        i = int(np.argmin(vals))
        lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, samples)]
        best = vals[i]
        if 0 < i < samples:
            res = minimize_scalar(lambda tt: sign * fun(tt), bounds=(lo, hi), method="bounded",
                                  options={"xatol": 1e-12})
            best = min(best, res.fun)
        out.append((sign * best, ts[i]))
    return out[0][0], out[0][1], out[1][0], out[1][1]


def old_foot_normal_velocity(xp):
    """The normal velocity of the old stance foot (now the swing foot) just after the strike, from
    the state xp just after it: d/dt [l cos th_st - l cos th_sw]."""
    return L * (math.sin(xp[1]) * xp[3] - math.sin(xp[0]) * xp[2])


def gait(gamma, guess=GUESS_3DEG, start=math.pi / 60, steps=None):
    """The period-one gait at gamma (followed in the slope from the one at `start`, Newton from
    the previous slope's gait) and its properties."""
    z = np.array(guess, dtype=float)
    if steps is None:
        steps = int(math.ceil(abs(gamma - start) / 0.002))
    for g in np.linspace(start, gamma, steps + 1)[1:] if steps else [gamma]:
        z, t, jac = fixed_point(g, z)
    _, _, _, xm, xp = step(z, gamma)
    fmin, t_fmin, ratio, t_ratio = force_extremes(z, gamma)
    return {
        "gamma": gamma,
        "state_after_strike": start_state(z),  # (th_st, th_sw, th_st', th_sw')
        "state_before_strike": xm,
        "step_time": t,
        "jacobian": jac,
        "multipliers": np.linalg.eigvals(jac),
        "step_length": 2 * L * math.sin(z[0]),
        "min_normal_force": fmin,
        "min_normal_force_time": t_fmin,
        "max_friction_ratio": ratio,
        "max_friction_ratio_time": t_ratio,
        "old_foot_normal_velocity": old_foot_normal_velocity(xp),
    }


def period_doubling_slope(gamma_lo=math.pi / 60, gamma_hi=0.09, z_lo=GUESS_3DEG, dgamma=0.002):
    """The first slope above gamma_lo (at most gamma_hi) where det(J + I) = 0 on the period-one
    gait: a multiplier crosses -1. The gait is followed from gamma_lo in steps of dgamma until
    det(J + I) changes sign, then brentq (xtol 1e-15) locates the root, each Newton started from
    the gait at the bracket's lower end."""
    z, _, jac = fixed_point(gamma_lo, z_lo)
    g0, d0 = gamma_lo, np.linalg.det(jac + np.eye(3))
    while g0 < gamma_hi:
        g1 = min(g0 + dgamma, gamma_hi)
        z1, _, jac = fixed_point(g1, z)
        d1 = np.linalg.det(jac + np.eye(3))
        if d0 * d1 <= 0:
            break
        g0, d0, z = g1, d1, z1
    else:
        raise RuntimeError(f"no period doubling in [{gamma_lo}, {gamma_hi}]")
    start = z

    def test(gamma):
        return np.linalg.det(fixed_point(gamma, start)[2] + np.eye(3))
    return brentq(test, g0, g1, xtol=1e-15, rtol=1e-15)


def extended_impact(x):
    """The impact in extended coordinates q_e = (x_hip, y_hip, th_1, th_2) from the state x just
    before the strike (leg 1 = old stance leg, its foot at the origin): solves
    [M_e W^T; W 0] [q_e'+; P] = [M_e q_e'-; 0], W the Jacobian of foot 2's position. Returns the
    post-impact state in the new labels (as transition), the ground's impulse on foot 2
    (tangential, normal) and foot 1's normal velocity just after."""
    th1, th2, w1, w2 = x[:4]
    s1, c1, s2, c2 = math.sin(th1), math.cos(th1), math.sin(th2), math.cos(th2)
    j_hip = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]])
    j_leg1 = np.array([[1.0, 0, B * c1, 0], [0, 1.0, B * s1, 0]])
    j_leg2 = np.array([[1.0, 0, 0, B * c2], [0, 1.0, 0, B * s2]])
    m_e = M_HIP * j_hip.T @ j_hip + M_LEG * (j_leg1.T @ j_leg1 + j_leg2.T @ j_leg2)
    w = np.array([[1.0, 0, 0, L * c2], [0, 1.0, 0, L * s2]])
    qd = np.array([-L * c1 * w1, -L * s1 * w1, w1, w2])  # foot 1 pinned before the impact
    kkt = np.block([[m_e, w.T], [w, np.zeros((2, 2))]])
    sol = np.linalg.solve(kkt, np.concatenate([m_e @ qd, np.zeros(2)]))
    qp, p = sol[:4], sol[4:]
    foot1_vn = qp[1] + L * s1 * qp[2]
    return np.array([th2, th1, qp[3], qp[2]]), -p, foot1_vn


def transition_check(x=None):
    """The largest difference between the angular-momentum transition and the extended-coordinate
    impact (post-impact angles and rates, and the old stance foot's normal velocity), at the
    pre-impact state x (default: near the gait's state just before the strike at 3 degrees, and
    four random states on the strike surface around it)."""
    if x is None:
        base = np.array([-0.271, 0.271, -1.09, -0.378])
        rng = np.random.default_rng(1)
        xs = [base] + [base + rng.normal(0, 0.1, 4) * [1, 0, 1, 1] for _ in range(4)]
        xs = [np.array([x_[0], -x_[0], x_[2], x_[3]]) for x_ in xs]
    else:
        xs = [np.asarray(x, dtype=float)]
    diff = 0.0
    for x_ in xs:
        xp = transition(x_)
        xe, impulse, vn = extended_impact(x_)
        diff = max(diff, np.max(np.abs(xp - xe)), abs(vn - old_foot_normal_velocity(xp)))
    return diff


if __name__ == "__main__":
    np.set_printoptions(precision=15, linewidth=120)
    t0 = time.time()
    gamma = math.pi / 60
    res = gait(gamma)
    print(f"gamma = {gamma:.15g} rad (3 degrees)")
    print("state just after the strike (th_st, th_sw, th_st', th_sw'):",
          ", ".join(f"{v:.15g}" for v in res["state_after_strike"]))
    print("state just before the strike (th_st, th_sw, th_st', th_sw'):",
          ", ".join(f"{v:.15g}" for v in res["state_before_strike"]))
    x_v = res["state_after_strike"] - [gamma, gamma, 0, 0]
    print("the same with angles from the vertical (th_st - gamma, th_sw - gamma, rates):",
          ", ".join(f"{v:.15g}" for v in x_v))
    print("fixed point z = (th_st, th_st', th_sw'):",
          ", ".join(f"{v:.15g}" for v in res["state_after_strike"][[0, 2, 3]]))
    print(f"step time: {res['step_time']:.15g} s")
    print("multipliers:", ", ".join(f"{complex(v):.15g}" for v in res["multipliers"]),
          "  |.|:", ", ".join(f"{abs(v):.15g}" for v in res["multipliers"]))
    print(f"step length 2 l sin th_st+: {res['step_length']:.15g} m")
    print(f"old stance foot's normal velocity just after the strike: "
          f"{res['old_foot_normal_velocity']:.15g} m/s")
    print(f"min normal force: {res['min_normal_force']:.15g} N "
          f"(t = {res['min_normal_force_time']:.6g} s)")
    print(f"max |F_t|/F_n: {res['max_friction_ratio']:.15g} "
          f"(t = {res['max_friction_ratio_time']:.6g} s)")
    _, impulse, _ = extended_impact(res["state_before_strike"])
    print("strike impulse on the new stance foot (tangential, normal):",
          ", ".join(f"{v:.15g}" for v in impulse), " N s")
    print(f"transition vs extended-coordinate impact, max difference: {transition_check():.3g}")
    print(f"  (run time so far {time.time() - t0:.1f} s)")
    pd = period_doubling_slope()
    print(f"first period doubling at gamma = {pd:.15g} rad = {math.degrees(pd):.15g} degrees")
    print(f"run time: {time.time() - t0:.1f} s")

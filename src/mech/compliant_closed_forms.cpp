#include "saltus/mech/compliant_closed_forms.hpp"

#include <array>
#include <cmath>

namespace saltus::mech {

namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

// log1p(x) - x without cancellation (series for |x| < 0.1).
double log1p_minus_x(double x) {
  if (std::abs(x) >= 0.1) return std::log1p(x) - x;
  double term = x * x, sum = 0.0;  // -x^2/2 + x^3/3 - x^4/4 + ...
  for (int j = 2; j < 40; ++j) {
    const double add = (j % 2 == 0 ? -term : term) / j;
    sum += add;
    if (std::abs(add) <= 1e-18 * std::abs(sum)) break;
    term *= x;
  }
  return sum;
}

// F(a) - F(b) with F(v) = v/chi - ln(1 + chi v)/chi^2 (FORMULAS.md 3.3), accurate for b near a
// when a - b is given exactly (recomputing it from a and b loses it to round-off of a).
double F_difference(double a_minus_b, double b, double chi) {
  if (chi == 0.0) return a_minus_b * (b + 0.5 * a_minus_b);
  const double u = chi * a_minus_b / (1.0 + chi * b);
  return (u * chi * b - log1p_minus_x(u)) / (chi * chi);
}

// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_N; computed once).
constexpr int kGaussN = 48;
struct GaussLegendre {
  std::array<double, kGaussN> x{}, w{};
  GaussLegendre() {
    for (int i = 0; i < kGaussN; ++i) {
      double z = std::cos(kPi * (i + 0.75) / (kGaussN + 0.5)), dp = 0.0;
      for (int it = 0; it < 100; ++it) {
        double p0 = 1.0, p1 = z;
        for (int j = 2; j <= kGaussN; ++j) {
          const double p2 = ((2.0 * j - 1.0) * z * p1 - (j - 1.0) * p0) / j;
          p0 = p1;
          p1 = p2;
        }
        dp = kGaussN * (z * p1 - p0) / (z * z - 1.0);
        const double dz = p1 / dp;
        z -= dz;
        if (std::abs(dz) < 1e-16) break;
      }
      x[i] = z;
      w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
  }
};

template <class F>
double gauss_composite(const F& f, double a, double b, int panels) {
  static const GaussLegendre gl;
  double sum = 0.0;
  const double h = (b - a) / panels;
  for (int p = 0; p < panels; ++p) {
    const double lo = a + p * h, mid = lo + 0.5 * h;
    for (int i = 0; i < kGaussN; ++i) sum += gl.w[i] * f(mid + 0.5 * h * gl.x[i]);
  }
  return 0.5 * h * sum;
}

}  // namespace

LinearSpringImpact linear_spring_impact(double m, double k, double v0) {
  const double omega_n = std::sqrt(k / m);
  return {omega_n, v0 / omega_n, kPi / omega_n, std::sqrt(m * k) * v0, 2.0 * m * v0, v0};
}

double kelvin_voigt_restitution(double zeta) {
  if (zeta >= 1.0) return 0.0;
  return std::exp(-kPi * zeta / std::sqrt(1.0 - zeta * zeta));  // (5.11)
}

KelvinVoigtImpact kelvin_voigt_impact(double m, double k, double c, double v0, bool force_release) {
  KelvinVoigtImpact r;
  const double omega_n = std::sqrt(k / m);
  r.zeta = c / (2.0 * std::sqrt(m * k));
  const double z = r.zeta;
  if (z >= 1.0) {
    if (!force_release) {
      r.e = 0.0;
      r.contact_duration = kInfinity;
      r.exit_velocity = 0.0;
    }
    return r;  // force release with zeta >= 1: not covered by the closed form
  }
  const double sq = std::sqrt(1.0 - z * z), omega_d = omega_n * sq;
  r.t_max_penetration = std::acos(z) / omega_d;
  r.delta_max = (v0 / omega_n) * std::exp(-z * std::acos(z) / sq);
  if (!force_release) {
    r.e = kelvin_voigt_restitution(z);
    r.contact_duration = kPi / omega_d;
    r.delta_at_release = 0.0;
  } else {
    const double phase = kPi - 2.0 * std::asin(z);
    r.e = std::exp(-z * phase / sq);
    r.contact_duration = phase / omega_d;
    r.delta_at_release = 2.0 * z * r.e * v0 / omega_n;
  }
  r.exit_velocity = r.e * v0;
  // m xddot = -k x - c xdot with x = -delta_r, xdot = exit velocity.
  r.force_per_mass_at_release = (k * r.delta_at_release - c * r.exit_velocity) / m;
  return r;
}

double hunt_crossley_restitution(double d) {
  if (!(d > 0.0)) return d == 0.0 ? 1.0 : kNaN;
  // h(e) = [log1p(d) - d] - [log1p(-e d) + e d] is convex, h(0) < 0 and h > 0 at the upper end.
  auto h = [d](double e) { return log1p_minus_x(d) - log1p_minus_x(-e * d); };
  double lo = 0.0, hi = std::min(1.0, 1.0 / d);
  for (int it = 0; it < 200 && hi - lo > 1e-17; ++it) {
    const double mid = 0.5 * (lo + hi);
    const double v = mid * d >= 1.0 ? kInfinity : h(mid);
    (v < 0.0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double hunt_crossley_d_for_restitution(double e) {
  if (!(e > 0.0) || e > 1.0) return kNaN;
  if (e == 1.0) return 0.0;
  // G(d) = [log1p(d) - d] - [log1p(-e d) + e d] < 0 near 0, -> +inf as d -> 1/e.
  auto G = [e](double d) { return log1p_minus_x(d) - log1p_minus_x(-e * d); };
  double lo = 0.0, hi = 1.0 / e;
  for (int it = 0; it < 400 && hi - lo > 1e-16 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    const double v = mid * e >= 1.0 ? kInfinity : G(mid);
    (v < 0.0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double hunt_crossley_max_penetration(double m, double k, double c, double n, double v0) {
  const double chi = c / k, d = c * v0 / k;
  const double work = chi == 0.0 ? 0.5 * v0 * v0 : -log1p_minus_x(d) / (chi * chi);
  return std::pow((n + 1.0) * (m / k) * work, 1.0 / (n + 1.0));
}

double hunt_crossley_contact_duration(double m, double k, double c, double n, double v0) {
  const double chi = c / k;
  const double e = hunt_crossley_restitution(c * v0 / k);
  const double p = n + 1.0;
  // integrand in v, given D = F(v0) - F(v) >= 0
  auto g = [&](double v, double D) {
    const double delta_n = std::pow(p * (m / k) * D, n / p);
    return 1.0 / (delta_n * (1.0 + chi * v));
  };
  // [0, v0]: v = v0 - s^p, s in [0, v0^(1/p)]
  auto compression = [&](double s) {
    const double x = std::pow(s, p), v = v0 - x;
    return g(v, F_difference(x, v, chi)) * p * std::pow(s, p - 1.0);
  };
  // [-e v0, 0]: v = -e v0 + s^p; F(v0) = F(-e v0) by the definition of e
  auto restitution = [&](double s) {
    const double x = std::pow(s, p), v = -e * v0 + x;
    return g(v, F_difference(-x, v, chi)) * p * std::pow(s, p - 1.0);
  };
  const double I1 = gauss_composite(compression, 0.0, std::pow(v0, 1.0 / p), 8);
  const double I2 = e > 0.0 ? gauss_composite(restitution, 0.0, std::pow(e * v0, 1.0 / p), 8) : 0.0;
  return (m / k) * (I1 + I2);
}

double compliant_contact_time_scale(double m, double k, double n, double v0) {
  const double delta_max = std::pow((n + 1.0) * m * v0 * v0 / (2.0 * k), 1.0 / (n + 1.0));
  return kPi * delta_max / v0;
}

double hunt_crossley_1975_restitution(double d) {
  return 1.0 - 2.0 * d / 3.0;
}
double lankarani_nikravesh_restitution(double d) {
  const double s = 1.0 - 4.0 * d / 3.0;
  return s < 0.0 ? kNaN : std::sqrt(s);
}
double flores_restitution(double d) {
  return 8.0 / (8.0 + 5.0 * d);
}
double gonthier_restitution(double d) {
  return 0.5 * (-d + std::sqrt(d * d + 4.0));
}

double hunt_crossley_1975_damping(double k, double e, double v0) {
  return 3.0 * k * (1.0 - e) / (2.0 * v0);
}
double lankarani_nikravesh_damping(double k, double e, double v0) {
  return 3.0 * k * (1.0 - e * e) / (4.0 * v0);
}
double flores_damping(double k, double e, double v0) {
  return 8.0 * k * (1.0 - e) / (5.0 * e * v0);
}
double gonthier_damping(double k, double e, double v0) {
  return k * (1.0 - e * e) / (e * v0);
}
double hunt_crossley_exact_damping(double k, double e, double v0) {
  return hunt_crossley_d_for_restitution(e) * k / v0;
}

}  // namespace saltus::mech

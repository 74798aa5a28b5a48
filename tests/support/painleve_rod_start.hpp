// The classical Painleve rod of models/painleve_rounded_rod.toml with a = 0 (m = l = 1, J = 1/3,
// g = 9.81) on the floor at rest normally, its tip sliding at v_t (< 0: in -x, s = -1): FORMULAS.md
// 11.2 gives gddot_N = B lambda_N + b with B = 1 + 3 cos^2 th - 3 mu sin th cos th and
// b = thdot^2 sin th - g. Shared by the Painleve start and compliant-branch tests.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "support/model_files.hpp"

namespace saltus::testing {

inline constexpr double kRodG = 9.81;

struct PainleveRodStart {
  double th, thdot, v_t, mu;
  double B() const {
    const double c = std::cos(th), s = std::sin(th);
    return 1.0 + 3.0 * c * c - 3.0 * mu * s * c;
  }
  double b() const { return thdot * thdot * std::sin(th) - kRodG; }
  // The model file's overrides for this start (the tip at rest normally, sliding at v_t).
  std::vector<std::string> sets() const {
    return {"a=0",
            "mu=" + num(mu),
            "theta0=" + num(th),
            "theta'=" + num(thdot),
            "y'=" + num(std::cos(th) * thdot),
            "x'=" + num(v_t - std::sin(th) * thdot)};
  }
};

}  // namespace saltus::testing

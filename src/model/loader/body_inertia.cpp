// A [[bodies]] body's inertia tensor about its centre of mass, in body axes (issue 48).
//
//   inertia = ["I1", "I2", "I3"]                        # principal moments: body axes principal
//   inertia = [["Ixx", "Ixy", "Ixz"],
//              ["Ixy", "Iyy", "Iyz"],
//              ["Ixz", "Iyz", "Izz"]]                   # the whole tensor, body axes not principal
//
// The second form is how a body is written when its axes are fixed by its shape rather than by
// its mass, as a rattleback's are (the curvature axes of its bottom, the inertia's turned by an
// angle about the vertical). The tensor is the integral of (|r|^2 1 - r r^T) dm, so its
// off-diagonal entries are the negated products of inertia. It must be a rigid body's:
// symmetric, with positive eigenvalues each at most the sum of the other two, checked at the
// parameters' values when loaded.
#include <Eigen/Eigenvalues>
#include <cmath>

#include "model_reader.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model::loader {

std::optional<ModelReader::Inertia> ModelReader::body_inertia(const toml::table& t,
                                                              const std::string& where) {
  const toml::node* n = t.get("inertia");
  if (n == nullptr) {
    add(t, where + " has no inertia; expected inertia = [I1, I2, I3], the principal moments " +
               "about the centre of mass, or the tensor [[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], " +
               "[Ixz, Iyz, Izz]] in body axes");
    return std::nullopt;
  }
  lang::ExpressionGraph& g = *graph_;
  Inertia I{};
  const toml::array* rows = n->as_array();
  const bool tensor = rows != nullptr && rows->size() == 3 && (*rows)[0].is_array();
  if (!tensor) {
    const auto moments = body_vector(t, "inertia", where);
    if (!moments) return std::nullopt;
    for (size_t i = 0; i < 3; ++i) {
      for (size_t j = 0; j < 3; ++j) I[i][j] = i == j ? (*moments)[i] : g.constant(0.0);
    }
  } else {
    for (size_t i = 0; i < 3; ++i) {
      const toml::array* row = (*rows)[i].as_array();
      if (row == nullptr || row->size() != 3) {
        add((*rows)[i], where + " inertia row " + std::to_string(i + 1) + " is " +
                            type_name((*rows)[i]) + "; expected three entries [Ix, Iy, Iz]");
        return std::nullopt;
      }
      for (size_t j = 0; j < 3; ++j) {
        const toml::node& e = *row->get(j);
        if (auto x = e.value<double>()) {
          I[i][j] = g.constant(*x);
          continue;
        }
        const auto node = expression(e, where + " inertia", symbols({}));
        if (!node) return std::nullopt;
        if (const std::string culprit = forbidden_input(*node, false); !culprit.empty()) {
          add(e, where + " inertia depends on " + culprit + "; expected the parameters only");
          return std::nullopt;
        }
        I[i][j] = *node;
      }
    }
  }
  std::vector<lang::TapeOutput> outputs;
  for (size_t i = 0; i < 3; ++i) {
    for (size_t j = 0; j < 3; ++j) outputs.push_back({I[i][j], static_cast<int>(3 * i + j)});
  }
  Eigen::Matrix3d value;
  const Vector x0 = model_.initial_state(), none(0);
  lang::run(lang::compile_tape(g, outputs), model_.t_start, x0, x0, none,
            [&value](int k, double v) { value(k / 3, k % 3) = v; });
  const double size = value.cwiseAbs().maxCoeff();
  if (!((value - value.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * size)) {
    add(*n, where + " inertia is not symmetric (Ixy " + short_number(value(0, 1)) + " but Iyx " +
                short_number(value(1, 0)) + ", or another pair); expected a symmetric tensor");
    return std::nullopt;
  }
  const Eigen::Vector3d e = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(value).eigenvalues();
  const bool positive = e.minCoeff() > 0.0;
  const bool triangle = 2.0 * e.maxCoeff() <= e.sum() * (1.0 + 1e-12);
  if (!positive || !triangle) {
    add(*n, where + " inertia, with principal moments (" + short_number(e[0]) + ", " +
                short_number(e[1]) + ", " + short_number(e[2]) +
                "), is not a rigid body's: expected positive principal moments with each at " +
                "most the sum of the other two");
    return std::nullopt;
  }
  return I;
}

}  // namespace saltus::model::loader

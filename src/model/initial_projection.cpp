#include "initial_projection.hpp"

#include <cmath>
#include <memory>
#include <sstream>
#include <string>

#include "saltus/model/mechanical_system.hpp"

namespace saltus::model {
namespace {

std::string number_text(double v) {
  std::ostringstream out;
  out.precision(6);
  out << v;
  return out.str();
}

// The rigid contacts penetrated at x (beyond the band the run would take for touching): noted in
// p; those penetrated or touching go to `onto`.
void penetrated_contacts(const Model& model, const mech::LagrangianModel& lm, const Vector& x,
                         InitialProjection& p, std::vector<int>& onto) {
  const int n = lm.dof();
  const Vector q0 = x.head(n);
  for (int i = 0; i < lm.contact_count(); ++i) {
    if (model.mechanics->contacts[static_cast<size_t>(i)].compliant) continue;
    const double band = initial_gap_band(lm, i, q0, model.options.events.guard_tolerance);
    const double gap = lm.gap(i, q0);
    if (gap > band) continue;
    onto.push_back(i);
    if (gap < -band) {
      p.violated.push_back("contact '" + model.mechanics->contacts[static_cast<size_t>(i)].name +
                           "'");
      p.violation.push_back(-gap);
    }
  }
}

}  // namespace

std::vector<Diagnostic> project_initial_state(Model& model) {
  std::vector<Diagnostic> out;
  InitialProjection& p = model.initial_projection;
  if (!model.mechanics || !(p.tolerance > 0.0)) return out;
  const std::string who = "model '" + (model.name.empty() ? model.file : model.name) + "'";
  const std::string asked = "[initial] project = " + number_text(p.tolerance);
  auto refuse = [&](const std::string& what) { out.push_back({model.file, 0, 0, what}); };
  const auto snapshot = std::make_shared<const Model>(model);
  const int n = model.mechanics->dof;
  const Vector written = model.initial_state();
  Vector x = written;
  p.violated.clear();
  p.violation.clear();
  if (!model.mechanics->constraint_rows.empty()) {
    const mech::NonholonomicModel nm = nonholonomic_model(snapshot);
    const Vector values = nm.constraint_values(x.head(n), x.tail(n));
    for (int a = 0; a < nm.constraint_count(); ++a) {
      // The admission test of the start (NonholonomicModel::check_state): round-off is no
      // violation.
      if (nm.velocity_admissible(a, x.head(n), x.tail(n))) continue;
      p.violated.push_back("constraint '" + model.mechanics->constraint_names[a] + "'");
      p.violation.push_back(std::abs(values[a]));
    }
    if (!p.violated.empty()) x.tail(n) = nm.project_velocity(x.head(n), x.tail(n));
  } else {
    const mech::LagrangianModel lm = lagrangian_model(snapshot, false);
    std::vector<int> onto;
    penetrated_contacts(model, lm, x, p, onto);
    const std::string failure = p.violated.empty() ? "" : lm.project_onto_contacts(onto, x);
    if (!failure.empty()) {
      refuse(who + ": " + asked + ": " + failure + "; expected a start nearer to the contacts");
      return out;
    }
    InitialProjection after;
    std::vector<int> still;
    penetrated_contacts(model, lm, x, after, still);
    if (!after.violated.empty()) {
      refuse(who + ": " + asked + ": the projected initial state still penetrates " +
             after.violated.front() + " by " + number_text(after.violation.front()) +
             "; expected a start nearer to the contacts");
      return out;
    }
  }
  for (size_t k = 0; k < p.violated.size(); ++k) {
    if (p.violation[k] > p.tolerance) {
      refuse(who + ": the initial state violates " + p.violated[k] + " by " +
             number_text(p.violation[k]) +
             (p.violated[k].rfind("contact", 0) == 0
                  ? " (g_N = " + number_text(-p.violation[k]) + ")"
                  : " (|eta qdot|)") +
             ", more than " + asked + "; expected a start within the tolerance of it");
    }
  }
  if (!out.empty()) return out;
  p.change = x - written;
  if (p.size() > 0.0 && !model.runtime_parameters.empty()) {
    refuse(who + ": " + asked + " moved the initial state when the file was loaded, which would " +
           "not follow a new value of a run-time parameter; expected a consistent start or no " +
           "run-time parameters");
    return out;
  }
  for (size_t i = 0; i < model.states.size(); ++i) {
    model.states[i].value = x[static_cast<Eigen::Index>(i)];
  }
  return out;
}

}  // namespace saltus::model

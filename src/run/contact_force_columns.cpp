// Contact forces at the trajectory samples (contact_force_columns.hpp).
#include "saltus/run/contact_force_columns.hpp"

#include <algorithm>
#include <exception>

#include "saltus/mech/lagrangian_model.hpp"
#include "saltus/model/mechanical_system.hpp"

namespace saltus::run {

ContactForceColumns contact_force_columns(const model::ModelRun& run) {
  ContactForceColumns out;
  const model::Model& model = *run.model;
  if (!model.mechanics || model.mechanics->contacts.empty() ||
      !model.mechanics->constraint_rows.empty()) {
    return out;
  }
  // Compiled the way build_mechanical_system compiled the run's system: the same mode ids.
  const mech::LagrangianModel lm = model::lagrangian_model(run.model);
  const mech::LagrangianModel::Compiled compiled = lm.compile();
  const int n = lm.dof(), k = lm.contact_count();
  std::vector<int> normal_column(static_cast<size_t>(k)),
      tangent_column(static_cast<size_t>(k), -1);
  for (int c = 0; c < k; ++c) {
    normal_column[static_cast<size_t>(c)] = static_cast<int>(out.names.size());
    out.names.push_back("lambda_N:" + lm.contact(c).name);
    if (lm.contact(c).frictional() || lm.contact(c).compliant_frictional()) {
      tangent_column[static_cast<size_t>(c)] = static_cast<int>(out.names.size());
      out.names.push_back("lambda_T:" + lm.contact(c).name);
    }
  }
  const std::vector<int>& compliant = lm.compliant_contacts();
  const Trajectory& tr = run.result.trajectory;
  out.values = Matrix::Zero(tr.size(), static_cast<Eigen::Index>(out.names.size()));
  for (long i = 0; i < tr.size(); ++i) {
    const ModeId id = tr.mode(i);
    if (id < 0 || static_cast<size_t>(id) >= compiled.modes.size()) {
      out.values.row(i).setConstant(kNaN);  // a mode the table does not know: no value
      continue;
    }
    const mech::LagrangianMode& mode = compiled.modes[static_cast<size_t>(id)];
    const auto q = tr.x(i).head(n), qdot = tr.x(i).segment(n, n);
    mech::ContactDynamics d;
    try {
      d = lm.dynamics(mode, tr.t(i), q, qdot);
    } catch (const std::exception&) {
      out.values.row(i).setConstant(kNaN);  // e.g. M(q) not SPD there: the run says why
      continue;
    }
    for (int c = 0; c < k; ++c) {
      double normal = 0.0, tangential = 0.0;
      const auto slot = std::find(compliant.begin(), compliant.end(), c);
      if (slot != compliant.end()) {
        if ((mode.compliant_mask >> (slot - compliant.begin())) & 1u) {
          normal = lm.compliant_force(c, q, qdot);
          if (lm.contact(c).compliant_frictional()) tangential = d.lambda_T_each[c];
        }
      } else if (mode.kind == mech::ClosedKind::IndexSets) {
        normal = d.lambda_N_each[c];
        tangential = d.lambda_T_each[c];
      } else if (mode.closed_contact == c && mode.kind != mech::ClosedKind::PostZeno) {
        normal = d.lambda_N;
        tangential = d.lambda_T;
      }
      out.values(i, normal_column[static_cast<size_t>(c)]) = normal;
      if (tangent_column[static_cast<size_t>(c)] >= 0) {
        out.values(i, tangent_column[static_cast<size_t>(c)]) = tangential;
      }
    }
  }
  return out;
}

}  // namespace saltus::run

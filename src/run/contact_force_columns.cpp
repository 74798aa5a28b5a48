// Contact forces at the trajectory samples (contact_force_columns.hpp).
#include "saltus/run/contact_force_columns.hpp"

#include <exception>
#include <vector>

#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::run {
namespace {

// The column names; per contact its normal column and its tangential one (-1: none). A contact
// in space has two tangential columns, lambda_T1 and lambda_T2 (the second at tangent + 1).
std::vector<std::string> column_names(const mech::LagrangianModel& lm,
                                      std::vector<int>& normal_column,
                                      std::vector<int>& tangent_column) {
  const int k = lm.contact_count();
  std::vector<std::string> names;
  normal_column.assign(static_cast<size_t>(k), -1);
  tangent_column.assign(static_cast<size_t>(k), -1);
  for (int c = 0; c < k; ++c) {
    const mech::LagrangianContact& contact = lm.contact(c);
    normal_column[static_cast<size_t>(c)] = static_cast<int>(names.size());
    names.push_back("lambda_N:" + contact.name);
    if (contact.frictional() || contact.compliant_frictional()) {
      tangent_column[static_cast<size_t>(c)] = static_cast<int>(names.size());
      names.push_back("lambda_T:" + contact.name);
    } else if (contact.spatial_frictional()) {
      tangent_column[static_cast<size_t>(c)] = static_cast<int>(names.size());
      names.push_back("lambda_T1:" + contact.name);
      names.push_back("lambda_T2:" + contact.name);
      // Drilling friction: the drilling row's force, the torque about the normal over l.
      if (contact.slip_rows() == 3) names.push_back("lambda_T3:" + contact.name);
      // Rolling resistance: the rolling rows' forces, the rolling torque about t_k over mu_r.
      if (contact.has_rolling_resistance()) {
        names.push_back("lambda_R1:" + contact.name);
        names.push_back("lambda_R2:" + contact.name);
      }
    }
  }
  return names;
}

}  // namespace

std::optional<mech::ContactForces> contact_forces_at(const model::ModelRun& run, ModeId mode,
                                                     double t, ConstVectorRef x) {
  if (!run.lagrangian) return std::nullopt;
  const mech::LagrangianModel::Compiled& compiled = *run.lagrangian;
  const mech::LagrangianModel& lm = compiled.model();
  const int n = lm.dof();
  if (mode < 0 || static_cast<size_t>(mode) >= compiled.modes.size() || x.size() < 2 * n) {
    return std::nullopt;
  }
  try {
    return lm.contact_forces(compiled.modes[static_cast<size_t>(mode)], t, x.head(n),
                             x.segment(n, n));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<std::string> contact_force_names(const model::ModelRun& run) {
  std::vector<int> normal_column, tangent_column;
  return run.lagrangian ? column_names(run.lagrangian->model(), normal_column, tangent_column)
                        : std::vector<std::string>{};
}

ContactForceColumns contact_force_columns(const model::ModelRun& run) {
  ContactForceColumns out;
  // The run's own compiled model (its mode ids); none without rigid or compliant contacts.
  if (!run.lagrangian || run.lagrangian->model().contact_count() == 0) return out;
  const mech::LagrangianModel& lm = run.lagrangian->model();
  const int k = lm.contact_count();
  std::vector<int> normal_column, tangent_column;
  out.names = column_names(lm, normal_column, tangent_column);
  const Trajectory& tr = run.result.trajectory;
  out.values = Matrix::Zero(tr.size(), static_cast<Eigen::Index>(out.names.size()));
  for (long i = 0; i < tr.size(); ++i) {
    const std::optional<mech::ContactForces> f =
        contact_forces_at(run, tr.mode(i), tr.t(i), tr.x(i));
    if (!f) {
      out.values.row(i).setConstant(kNaN);  // a mode the table does not know, M(q) not SPD
      continue;
    }
    for (int c = 0; c < k; ++c) {
      out.values(i, normal_column[static_cast<size_t>(c)]) = f->normal[c];
      const int tangent = tangent_column[static_cast<size_t>(c)];
      if (tangent >= 0) out.values(i, tangent) = f->tangential[c];
      if (tangent >= 0 && lm.contact(c).spatial_frictional()) {
        out.values(i, tangent + 1) = f->tangential_2[c];
        const int rows = lm.contact(c).slip_rows();
        if (rows == 3) out.values(i, tangent + 2) = f->drilling[c];
        if (lm.contact(c).has_rolling_resistance()) {
          out.values(i, tangent + rows) = f->rolling_1[c];
          out.values(i, tangent + rows + 1) = f->rolling_2[c];
        }
      }
    }
  }
  return out;
}

}  // namespace saltus::run

// LagrangianModel::Compiled::initial_mode (lagrangian_model.hpp): the mode an initial state
// starts in: the compliant contacts it penetrates and pushes, each rigid contact touching at rest
// that would stay closed, and the contact-force LCP when several would.
#include <string>
#include <vector>

#include "compiled_lagrangian.hpp"
#include "contact_dynamics.hpp"
#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_state.hpp"
#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::mech {

using detail::load;

namespace {

// The compliant contacts x penetrates and pushes (bit j: compliant contact j).
unsigned active_compliant(const LagrangianModel& m, const DofVector<double>& q,
                          const DofVector<double>& qd) {
  unsigned mask = 0;
  const std::vector<int>& compliant = m.compliant_contacts();
  for (size_t j = 0; j < compliant.size(); ++j) {
    const LagrangianContact& c = m.contact(compliant[j]);
    const bool penetrating = c.gap(q) < 0.0;
    const bool pushing =
        !c.compliant.releases_on_force() || detail::compliant_force(c, q, qd) > 0.0;
    if (penetrating && pushing) mask |= 1u << j;
  }
  return mask;
}

void check_size(const LagrangianModel& m, ConstVectorRef x, int n) {
  if (x.size() != 2 * n) {
    saltus::detail::throw_error("model '", m.name(), "': initial state has ", x.size(),
                                " entries, expected ", 2 * n, " (q, qdot)");
  }
}

// The mode of x at t with every rigid contact open, and the active compliant contacts' mask.
LagrangianMode open_mode_of(const LagrangianModel& m, int n, double t, ConstVectorRef x,
                            unsigned& mask) {
  check_size(m, x, n);
  mask = active_compliant(m, load<double>(x, 0, n), load<double>(x, n, n));
  return detail::choose_compliant_frictions(m, {-1, ClosedKind::None, mask}, t, x.head(n),
                                            x.tail(n));
}

}  // namespace

ModeId LagrangianModel::Compiled::open_mode(double t, ConstVectorRef x) const {
  unsigned mask = 0;
  return find(open_mode_of(context->model, context->n, t, x, mask));
}

ModeId LagrangianModel::Compiled::initial_mode(double t, ConstVectorRef x) const {
  const LagrangianModel& m = context->model;
  const int n = context->n;
  unsigned mask = 0;
  const LagrangianMode open = open_mode_of(m, n, t, x, mask);
  ModeId first = find(open);
  const DofVector<double> q = load<double>(x, 0, n), qd = load<double>(x, n, n);
  std::vector<int> closing;  // rigid contacts that would each stay closed
  for (int i = 0; i < m.contact_count(); ++i) {
    const LagrangianContact& c = m.contact(i);
    if (!c.rigid() || !c.may_be_hit(t, q, qd)) continue;
    const SecondOrderJet g = detail::along(c.gap, q, qd);
    // Touching (mech::touches: the round-off of the gap's terms) and at rest to kEventRestRate
    // of its rate's terms sum_k |w_k qdot_k| (issue 34, 44).
    DofVector<double> w;
    detail::gradient(c.gap, q, w);
    if (std::abs(g.v) > touching_band(w, q, g.v) ||
        std::abs(g.d1) > detail::kEventRestRate * w.cwiseAbs().dot(qd.cwiseAbs())) {
      continue;
    }
    const LagrangianMode mode = m.close_contact(i, t, q, qd, mask);
    if (mode.kind == ClosedKind::None) continue;
    if (closing.empty()) first = find(mode);
    closing.push_back(i);
  }
  if (!closing.empty() && detail::has_compliant_friction(m, open)) {
    saltus::detail::throw_error(
        m.describe_contact(closing[0]),
        ": the initial state holds it closed while compliant "
        "contact '",
        detail::first_frictional_compliant(m, open),
        "' is active with Coulomb "
        "friction; closed rigid contacts together with friction on compliant contacts are not "
        "supported (initial state)");
  }
  if (closing.size() > 1 && m.has_spatial_friction()) {  // friction in space: the flow decides
    unsigned closed = 0;
    for (int i : closing) closed |= 1u << i;
    LagrangianMode next;
    std::string failure;
    DofVector<double> qd_start = qd;
    if (!detail::choose_spatial_sets(m, t, q, qd_start, {closed, 0, 0, 0}, mask, nullptr, nullptr,
                                     next, failure)) {
      saltus::detail::throw_error(failure, " (initial state)");
    }
    return find(next);
  }
  if (closing.size() > 1) {  // the contact-force LCP over all of them decides
    unsigned closed = 0, stick = 0, negative = 0;
    for (int i : closing) closed |= 1u << i;
    detail::sets_from_velocities(m, closed, q, qd, nullptr, stick, negative,
                                 detail::kEventRestRate);  // the initial state: its own scales
    LagrangianMode next;
    std::string failure;
    if (!detail::choose_index_sets(m, t, q, qd, closed, stick, negative, mask, next, failure)) {
      saltus::detail::throw_error(failure, " (initial state)");
    }
    return find(next);
  }
  return first;
}

}  // namespace saltus::mech

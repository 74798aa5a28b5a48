// The motions a state's rigid contact forces allow; see mech/contact_alternatives.hpp.
#include "saltus/mech/contact_alternatives.hpp"

#include <cmath>
#include <sstream>

#include "contact_tolerances.hpp"
#include "index_set_choice.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_state.hpp"

namespace saltus::mech {
namespace {

// |value| <= rest * sum_k |w_k v_k|: zero to the round-off of its own terms.
bool negligible(double value, const Vector& w, ConstVectorRef v, double rest) {
  return std::abs(value) <= rest * w.cwiseAbs().dot(v.cwiseAbs());
}

const char* force_mode_name(const ContactMode& mode) {
  if (mode.normal != NormalState::Closed) return "lift-off";
  switch (mode.tangential) {
    case TangentialState::Stick:
      return "stick";
    case TangentialState::SlidePositive:
      return "slip+";
    case TangentialState::SlideNegative:
      return "slip-";
  }
  return "closed";
}

const char* stepped_name(SteppedContact s) {
  return s == SteppedContact::Open ? "lift-off" : to_string(s);
}

// Whether a stepped contact state is the force solution's mode of that contact.
bool same_mode(SteppedContact s, const ContactMode& mode, bool frictional) {
  if (mode.normal != NormalState::Closed) return s == SteppedContact::Open;
  if (!frictional) return s == SteppedContact::Closed;
  switch (mode.tangential) {
    case TangentialState::Stick:
      return s == SteppedContact::Stick;
    case TangentialState::SlidePositive:
      return s == SteppedContact::SlipPositive;
    case TangentialState::SlideNegative:
      return s == SteppedContact::SlipNegative;
  }
  return false;
}

}  // namespace

ContactAlternatives contact_alternatives(const LagrangianModel& model, double t, ConstVectorRef q,
                                         ConstVectorRef qdot, const std::vector<int>& candidates,
                                         double rest) {
  ContactAlternatives out;
  unsigned closed = 0;
  for (int i : candidates) {
    if (!model.contact(i).rigid() || i >= 32) continue;
    const Vector w = model.gap_gradient(i, q);
    if (!negligible(w.dot(qdot), w, qdot, rest)) continue;
    closed |= 1u << i;
  }
  for (int i = 0; i < model.contact_count() && i < 32; ++i) {
    if ((closed >> i) & 1u) out.contacts.push_back(i);
  }
  if (closed == 0) return out;
  unsigned stick = 0, negative = 0;
  detail::sets_from_velocities(model, closed, q, qdot, nullptr, stick, negative,
                               detail::kEventRestRate);
  out.outcome = solve_contact_forces(
      detail::force_problem_of_sets(model, t, q, qdot, closed, stick, negative, 0));
  return out;
}

bool free_motion_consistent(const ContactAlternatives& a) {
  if (a.outcome.verdict != Verdict::Several) return false;
  for (const ContactSolution& s : a.outcome.solutions) {
    bool open = true;
    for (const ContactMode& mode : s.modes) open = open && mode.normal != NormalState::Closed;
    if (open) return true;
  }
  return false;
}

bool painleve_situation(const LagrangianModel& model, double t, ConstVectorRef x, double rest) {
  const int n = model.dof();
  std::vector<int> touching;
  for (int i = 0; i < model.contact_count(); ++i) {
    if (model.contact(i).rigid() && touches(model, i, x.head(n))) touching.push_back(i);
  }
  return contact_alternatives(model, t, x.head(n), x.tail(n), touching, rest).painleve();
}

std::string motions_text(const LagrangianModel& model, const ContactAlternatives& a) {
  const ContactOutcome& o = a.outcome;
  if (o.verdict == Verdict::None) return "no consistent motion";
  std::ostringstream out;
  out.precision(6);
  out << (o.verdict == Verdict::Several ? "several motions:" : "one motion:");
  int named = 0;
  for (const ContactSolution& s : o.solutions) {
    if (s.motion_class != named) continue;  // one solution per motion, in order of appearance
    ++named;
    out << " [";
    for (size_t j = 0; j < a.contacts.size(); ++j) {
      const ContactMode& mode = s.modes[j];
      out << (j ? ", '" : "'") << model.contact(a.contacts[j]).name << "' "
          << force_mode_name(mode);
      if (mode.normal == NormalState::Closed) {
        out << " lambda_N = " << s.lambda_N[static_cast<Eigen::Index>(j)];
      }
    }
    out << "]";
  }
  if (o.motion_continuum) out << " and a continuum between them";
  return out.str();
}

std::string taken_text(const LagrangianModel& model, const ContactAlternatives& a,
                       const std::vector<SteppedContact>& state) {
  if (state.empty()) return "no step";
  std::string out = "[";
  for (size_t j = 0; j < a.contacts.size(); ++j) {
    const int i = a.contacts[j];
    out += (j ? ", '" : "'") + model.contact(i).name + "' " +
           stepped_name(state[static_cast<size_t>(i)]);
  }
  out += "]";
  const ContactOutcome& o = a.outcome;
  int named = 0;
  for (const ContactSolution& s : o.solutions) {
    if (s.motion_class != named) continue;
    ++named;
    bool same = true;
    for (size_t j = 0; j < a.contacts.size(); ++j) {
      const int i = a.contacts[j];
      same = same &&
             same_mode(state[static_cast<size_t>(i)], s.modes[j], model.contact(i).frictional());
    }
    if (same) {
      return saltus::detail::text(out, " (motion ", named, " of ", o.motions, ")");
    }
  }
  return out + " (none of them)";
}

}  // namespace saltus::mech

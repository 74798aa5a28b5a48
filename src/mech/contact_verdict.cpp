// Verdicts of contact problems; see include/saltus/mech/contact_verdict.hpp.
#include "saltus/mech/contact_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "saltus/core/error.hpp"

namespace saltus::mech {
namespace {

void print_set(std::ostream& out, const std::vector<int>& s) {
  out << '{';
  for (std::size_t i = 0; i < s.size(); ++i) out << (i ? "," : "") << s[i];
  out << '}';
}

void print_vector(std::ostream& out, const Vector& v, const std::vector<int>& where) {
  out << '(';
  for (std::size_t i = 0; i < where.size(); ++i) out << (i ? ", " : "") << v(where[i]);
  out << ')';
}

}  // namespace

std::string to_string(const ContactMode& mode, ContactProblemKind kind) {
  if (mode.normal == NormalState::Inactive) return "inactive";
  const char* t = mode.tangential == TangentialState::Stick           ? "stick"
                  : mode.tangential == TangentialState::SlidePositive ? "+"
                                                                      : "-";
  if (kind == ContactProblemKind::Impact) {
    if (mode.normal == NormalState::Open) return "open";
    return mode.tangential == TangentialState::Stick ? std::string("stick")
                                                     : std::string("slip") + t;
  }
  std::string out = mode.normal == NormalState::Closed ? "closed/" : "open/";
  return out + (mode.tangential == TangentialState::Stick ? std::string("stick")
                                                          : std::string("slide") + t);
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::NotRun:
      return "not run";
    case Verdict::Unique:
      return "unique";
    case Verdict::None:
      return "none (inconsistent)";
    case Verdict::Several:
      return "several (indeterminate)";
    case Verdict::Uncertified:
      return "uncertified";
  }
  return "unknown";
}

std::string_view to_string(SelectionPolicy p) {
  switch (p) {
    case SelectionPolicy::Stop:
      return "Stop";
    case SelectionPolicy::FirstFound:
      return "FirstFound";
    case SelectionPolicy::LeastKineticEnergy:
      return "LeastKineticEnergy";
  }
  return "unknown";
}

void validate(const ContactSolveOptions& o) {
  validate(o.enumeration);
  validate(o.lemke);
  const auto positive = [](double v, const char* name) {
    if (!(std::isfinite(v) && v > 0.0)) {
      saltus::detail::throw_error("ContactSolveOptions::", name, " = ", v,
                                  " must be finite and > 0");
    }
  };
  positive(o.rate_tolerance, "rate_tolerance");
  positive(o.motion_tolerance, "motion_tolerance");
  positive(o.force_tolerance, "force_tolerance");
}

namespace detail {

void finalize_outcome(ContactOutcome& out, const std::vector<lcp::LcpFace>& faces, int motion_rows,
                      const KineticScales& scales, const ContactSolveOptions& options) {
  // Group solutions into motions.
  std::vector<int> representative;
  for (std::size_t i = 0; i < out.solutions.size(); ++i) {
    auto& s = out.solutions[i];
    s.motion_class = -1;
    for (std::size_t c = 0; c < representative.size(); ++c) {
      const Vector& r = out.solutions[static_cast<std::size_t>(representative[c])].motion;
      if (scales.norm(s.motion - r) <= options.motion_tolerance * scales.motion_scale) {
        s.motion_class = static_cast<int>(c);
        break;
      }
    }
    if (s.motion_class < 0) {
      s.motion_class = static_cast<int>(representative.size());
      representative.push_back(static_cast<int>(i));
    }
  }
  out.motions = static_cast<int>(representative.size());
  out.forces_indeterminate = out.solutions.size() > representative.size();
  out.motion_continuum = false;
  for (const auto& f : faces) {
    if (f.observable_min.size() == 0) continue;
    for (Eigen::Index r = 0; r < f.observable_min.size(); ++r) {
      const double lo = f.observable_min(r);
      const double hi = f.observable_max(r);
      // The row's range as the motion it spans, against the problem's motion scale.
      const double w = scales.row_weight(r);
      const double tol = (r < motion_rows ? options.motion_tolerance : options.force_tolerance) *
                         (scales.motion_scale + w * std::max(std::abs(lo), std::abs(hi)));
      const bool varies = !std::isfinite(lo) || !std::isfinite(hi) || w * (hi - lo) > tol;
      if (!varies) continue;
      if (r < motion_rows) {
        out.motion_continuum = true;
      } else {
        out.forces_indeterminate = true;
      }
    }
  }

  if (out.verdict != Verdict::Uncertified) {
    if (out.solutions.empty()) {
      out.verdict = Verdict::None;
    } else if (out.motions > 1 || out.motion_continuum) {
      out.verdict = Verdict::Several;
    } else {
      out.verdict = Verdict::Unique;
    }
  }

  // Selection.
  out.selected = -1;
  out.policy_used = SelectionPolicy::Stop;
  if (out.verdict == Verdict::Unique) {
    out.selected = 0;
  } else if (!out.solutions.empty() && options.selection != SelectionPolicy::Stop) {
    out.policy_used = options.selection;
    if (options.selection == SelectionPolicy::FirstFound) {
      out.selected = 0;
    } else {
      out.selected = 0;
      for (std::size_t i = 1; i < out.solutions.size(); ++i) {
        if (out.solutions[i].energy <
            out.solutions[static_cast<std::size_t>(out.selected)].energy) {
          out.selected = static_cast<int>(i);
        }
      }
    }
  }

  // Message.
  std::ostringstream msg;
  msg.precision(10);
  msg << (out.kind == ContactProblemKind::Forces ? "contact forces [LB (2.9)-(2.10)]"
                                                 : "inelastic impact [LB (2.17)-(2.18)]");
  if (std::isfinite(out.time)) msg << " at t = " << out.time;
  msg << ": " << to_string(out.verdict) << "; contacts ";
  print_set(msg, out.contacts);
  msg << ", I_S = ";
  print_set(msg, out.sets.I_S);
  msg << ", I_N = ";
  print_set(msg, out.sets.I_N);
  msg << ", I_H = ";
  print_set(msg, out.sets.I_H);
  msg << "; LCP size " << out.lcp_q.size();
  if (out.lcp_faces > 0) msg << " (" << out.lcp_faces << " complementary faces enumerated)";
  msg << "; " << out.solutions.size() << " solution(s), " << out.motions << " motion(s)";
  if (out.motion_continuum) msg << ", a continuum of motions";
  if (out.forces_indeterminate) msg << ", forces statically indeterminate";
  for (std::size_t i = 0; i < out.solutions.size(); ++i) {
    const auto& s = out.solutions[i];
    msg << "; #" << i << ": lambda_N = ";
    print_vector(msg, s.lambda_N, out.contacts);
    msg << ", lambda_T = ";
    print_vector(msg, s.lambda_T, out.contacts);
    msg << ", modes (";
    for (std::size_t k = 0; k < out.contacts.size(); ++k) {
      msg << (k ? ", " : "")
          << to_string(s.modes[static_cast<std::size_t>(out.contacts[k])], out.kind);
    }
    msg << ")";
  }
  switch (out.verdict) {
    case Verdict::Unique:
      msg << "; continuing with the unique motion";
      break;
    case Verdict::None:
      msg << "; stop: no contact " << (out.kind == ContactProblemKind::Forces ? "force" : "impulse")
          << " is consistent (Painleve inconsistency); hint: "
          << (out.kind == ContactProblemKind::Forces
                  ? "the state needs an impact without collision (Lecornu jump): solve the "
                    "impact problem here, or lower mu"
                  : "check mu and the contact geometry");
      break;
    case Verdict::Several:
    case Verdict::Uncertified:
      if (out.selected >= 0) {
        msg << "; continuing with #" << out.selected
            << " chosen by SelectionPolicy::" << to_string(out.policy_used);
      } else {
        msg << "; stop: "
            << (out.verdict == Verdict::Several
                    ? "the motion is not determined (Painleve indeterminacy)"
                    : "the LCP is larger than LcpEnumerationOptions::max_size, so Lemke's "
                      "answer is not certified")
            << "; hint: opt in to a SelectionPolicy (FirstFound, LeastKineticEnergy) to continue";
      }
      break;
    case Verdict::NotRun:
      break;
  }
  out.message = msg.str();
}

}  // namespace detail
}  // namespace saltus::mech

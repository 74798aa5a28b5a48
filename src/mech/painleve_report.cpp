#include "painleve_report.hpp"

#include "contact_dynamics.hpp"
#include "saltus/core/error.hpp"

namespace saltus::mech::detail {

std::string painleve_message(const LagrangianModel& model, int contact, double t, ConstVectorRef q,
                             ConstVectorRef qdot, double s, double B, const char* what) {
  const LagrangianContact& c = model.contact(contact);
  const double a = model.sliding_coefficient(contact, q, 0.0);  // w_N^T M^-1 w_N
  const double mu_critical = a - B > 0.0 ? c.law.mu * a / (a - B) : kInfinity;
  return saltus::detail::text(
      c.description, ": Painleve situation at t = ", t, " (", what,
      "): sliding with s = ", s > 0.0 ? "+1" : "-1", ", B = w_N^T M^-1 (w_N - mu s w_T) = ", B,
      " <= 0 (the coefficient of lambda_N in gddot_N; mu = ", c.law.mu,
      ", critical mu at this configuration ", mu_critical,
      "): the rigid contact-force problem has no solution or two (FORMULAS.md 11.1), so "
      "the run cannot continue; q = ",
      q_text(q), ", qdot = ", q_text(qdot),
      ". Use a compliant contact (add_compliant_contact) or a smaller mu");
}

void throw_painleve(const LagrangianModel& model, int contact, double t, ConstVectorRef q,
                    ConstVectorRef qdot, double s, double B, const char* what) {
  throw Error(painleve_message(model, contact, t, q, qdot, s, B, what));
}

}  // namespace saltus::mech::detail

#include "painleve_report.hpp"

#include <Eigen/Cholesky>
#include <string>

#include "contact_dynamics.hpp"
#include "saltus/core/error.hpp"
#include "saltus/mech/contact_stop.hpp"

namespace saltus::mech::detail {

std::string painleve_message(const LagrangianModel& model, int contact, double t, ConstVectorRef q,
                             ConstVectorRef qdot, double s, double B, const char* what) {
  const LagrangianContact& c = model.contact(contact);
  const double a = model.sliding_coefficient(contact, q, qdot, 0.0);  // w_N^T M^-1 w_N
  const double mu = c.sliding_mu(std::abs(model.tangent_gradient(contact, q).dot(qdot)));
  const double mu_critical = a - B > 0.0 ? mu * a / (a - B) : kInfinity;
  // b = gddot_N at lambda_N = 0 (FORMULAS.md 11.1): with B < 0, b < 0 leaves no solution, b > 0
  // two (lambda_N = 0 and -b / B).
  const Vector w_N = model.gap_gradient(contact, q);
  const Vector a_free = model.mass_matrix(q).llt().solve(model.forces(t, q, qdot));
  const double b = w_N.dot(a_free) + model.gap_acceleration_offset(contact, q, qdot);
  const std::string kind = B < 0.0 && b < 0.0 ? "inconsistent: no contact force solves it"
                           : B < 0.0 && b > 0.0
                               ? saltus::detail::text("indeterminate: lambda_N = 0 or ", -b / B)
                               : std::string("degenerate (B or b zero)");
  return saltus::detail::text(
      c.description, ": Painleve situation at t = ", t, " (", what,
      "): sliding with s = ", s > 0.0 ? "+1" : "-1", ", B = w_N^T M^-1 (w_N - mu s w_T) = ", B,
      " <= 0 (the coefficient of lambda_N in gddot_N; mu = ", mu,
      ", critical mu at this configuration ", mu_critical, "), b = ", b, " (", kind,
      "): the rigid contact-force problem has no solution or two (FORMULAS.md 11.1), so "
      "the run cannot continue; q = ",
      q_text(q), ", qdot = ", q_text(qdot),
      ". Use a compliant contact (add_compliant_contact) or a smaller mu");
}

void throw_painleve(const LagrangianModel& model, int contact, double t, ConstVectorRef q,
                    ConstVectorRef qdot, double s, double B, const char* what) {
  throw ContactStopError(ContactStop::Painleve,
                         painleve_message(model, contact, t, q, qdot, s, B, what));
}

}  // namespace saltus::mech::detail

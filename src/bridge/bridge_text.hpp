// How the bridge's messages and notes print times and contacts.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "saltus/mech/lagrangian_model.hpp"

namespace saltus::bridge {

// Ten significant digits: enough to tell a stretch's instants apart in a note.
inline std::string text_of(double v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

// "'tip', 'heel'", or "none".
inline std::string contact_names(const mech::LagrangianModel& m, const std::vector<int>& contacts) {
  std::string out;
  for (size_t k = 0; k < contacts.size(); ++k) {
    out += (k ? ", '" : "'") + m.contact(contacts[k]).name + "'";
  }
  return out.empty() ? "none" : out;
}

}  // namespace saltus::bridge

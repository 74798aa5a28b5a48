#include "saltus/model/model.hpp"

namespace saltus::model {

int Model::state_index(const std::string& state) const {
  for (size_t i = 0; i < states.size(); ++i) {
    if (states[i].name == state) return static_cast<int>(i);
  }
  return -1;
}

Vector Model::initial_state() const {
  Vector x0(static_cast<Eigen::Index>(states.size()));
  for (size_t i = 0; i < states.size(); ++i) x0[static_cast<Eigen::Index>(i)] = states[i].value;
  return x0;
}

int Model::mode_index(const std::string& mode) const {
  for (size_t i = 0; i < modes.size(); ++i) {
    if (modes[i].name == mode) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace saltus::model

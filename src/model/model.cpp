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

double Model::parameter_value(int i) const {
  for (size_t k = 0; k < runtime_parameters.size(); ++k) {
    if (runtime_parameters[k] == i) return (*graph->parameter_values())[k];
  }
  return parameters[static_cast<size_t>(i)].value;
}

}  // namespace saltus::model

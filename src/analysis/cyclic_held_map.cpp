#include "saltus/analysis/cyclic_held_map.hpp"

#include <utility>

namespace saltus::analysis {

ReturnMap cyclic_held_map(ReturnMap map, const std::vector<int>& cyclic, const Vector& held) {
  return [map = std::move(map), cyclic, held](const Vector& x) {
    MapValue v = map(x);
    for (const int k : cyclic) {
      if (k < v.x.size()) v.x[k] = held[k];
      if (k < v.jacobian.rows()) v.jacobian.row(k).setZero();
    }
    return v;
  };
}

double cyclic_column_error(const MapValue& value, int k) {
  Vector unit = Vector::Zero(value.jacobian.rows());
  unit[k] = 1.0;
  return (value.jacobian.col(k) - unit).lpNorm<Eigen::Infinity>();
}

}  // namespace saltus::analysis

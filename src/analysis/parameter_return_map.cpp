#include "saltus/analysis/parameter_return_map.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "saltus/core/error.hpp"

namespace saltus::analysis {

ReturnMap parameter_return_map(ReturnMap map, std::function<void(double)> set_parameter) {
  return [map = std::move(map), set = std::move(set_parameter)](const Vector& xa) {
    const Eigen::Index n = xa.size() - 1;
    const double p = xa[n];
    const Vector x = xa.head(n);
    const double h = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, std::abs(p));
    // A value the model refuses (a contact's e beyond 1) leaves the map undefined there.
    const auto at = [&](double value) {
      try {
        set(value);
      } catch (const Error& e) {
        MapValue refused;
        refused.message = e.what();
        return refused;
      }
      return map(x);
    };
    const MapValue up = at(p + h);
    const MapValue down = at(p - h);
    MapValue v = at(p);
    if (!v.ok()) return v;
    if (!up.ok() || !down.ok()) {
      // The map is defined at p but not at p +- h: no derivative in p (e.g. a grazing nearby).
      const MapValue& bad = up.ok() ? down : up;
      std::ostringstream os;
      os.precision(10);
      os << "d P / d p is undefined: the map at p " << (up.ok() ? "- " : "+ ") << h
         << " failed: " << bad.message;
      v.status = bad.status;
      v.message = os.str();
      v.jacobian = Matrix();
      return v;
    }
    Matrix j = Matrix::Zero(n + 1, n + 1);
    j.topLeftCorner(n, n) = v.jacobian;
    j.topRightCorner(n, 1) = (up.x - down.x) / (2.0 * h);
    j(n, n) = 1.0;
    Vector xp(n + 1);
    xp.head(n) = v.x;
    xp[n] = p;
    v.x = std::move(xp);
    v.jacobian = std::move(j);
    return v;
  };
}

}  // namespace saltus::analysis

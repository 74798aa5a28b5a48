// TaylorTape (tape_taylor.hpp): the single-assignment form of a flow tape and the Taylor
// recurrences of its operations. Notation: u = the operation's value, a, b, c its operands, all
// series in tau; u_k their coefficients; a recurrence gives u_k (k >= 1) from lower ones.
#include "saltus/model/tape_taylor.hpp"

#include <cmath>
#include <stdexcept>

namespace saltus::model {
namespace {

// Whether x^p is computed as a product of series (a small integer power: its base may vanish,
// where the power recurrence divides by it).
bool by_products(double p) {
  return p >= 2.0 && p <= 16.0 && p == std::floor(p);
}

// Auxiliary series an operation keeps beside its value.
int aux_series(OpCode op, double exponent) {
  switch (op) {
    case OpCode::Sin:
    case OpCode::Cos:
    case OpCode::Sinh:
    case OpCode::Cosh:
      return 1;  // the companion (cos beside sin, ...)
    case OpCode::Tan:
    case OpCode::Tanh:
      return 1;  // 1 +- u^2
    case OpCode::Atan:
    case OpCode::Atan2:
      return 1;  // 1 + a^2, a^2 + b^2
    case OpCode::Asin:
    case OpCode::Acos:
      return 2;  // 1 - a^2 and its square root
    case OpCode::Pow:
      return 2;  // log a, b log a
    case OpCode::Mul3:
      return 1;  // a b
    case OpCode::PowConst:
      // A small positive integer power by products (its base may vanish: x^3 at x = 0).
      return by_products(exponent) ? static_cast<int>(exponent) - 2 : 0;
    default:
      return 0;
  }
}

// sum_{j=lo}^{hi} a_j b_{k-j}
double conv(const double* a, const double* b, int k, int lo, int hi) {
  double s = 0.0;
  for (int j = lo; j <= hi; ++j) s += a[j] * b[k - j];
  return s;
}

// u_k of w u' = a' (u = log a with w = a, atan a with w = 1 + a^2, asin a with w = sqrt(1 - a^2)):
// sum_{j=0}^{k-1} w_j (k - j) u_{k-j} = k a_k.
double quotient_rule(const double* u, const double* w, const double* a, int k) {
  double s = k * a[k];
  for (int j = 1; j < k; ++j) s -= w[j] * (k - j) * u[k - j];
  return s / (k * w[0]);
}

// u_k of u' = w a' (exp with w = u, tan with w = 1 + u^2, the sin / cos pair with w the
// companion): k u_k = sum_{j=1}^{k} j a_j w_{k-j}.
double chain_rule(const double* w, const double* a, int k) {
  double s = 0.0;
  for (int j = 1; j <= k; ++j) s += j * a[j] * w[k - j];
  return s / k;
}

// Whether the first coefficient where a and b differ (up to k) has a < b; false when equal.
bool series_less(const double* a, const double* b, int k) {
  for (int j = 0; j <= k; ++j) {
    if (a[j] != b[j]) return a[j] < b[j];
  }
  return false;
}

}  // namespace

TaylorTape::TaylorTape(const Tape& flow, int n) : parameter_values_(flow.parameter_values), n_(n) {
  if (!flow.loads_rate.empty() || !flow.loads_z.empty()) {
    throw std::invalid_argument("Taylor expansion: the flow tape reads x' or algebraic states");
  }
  std::vector<int> current(static_cast<size_t>(std::max(flow.registers, 1)), -1);
  auto leaf = [&](int reg) {
    current[static_cast<size_t>(reg)] = values_;
    return values_++;
  };
  if (flow.time_register >= 0) time_value_ = leaf(flow.time_register);
  for (const TapeLoad& l : flow.loads_x) state_values_.emplace_back(leaf(l.reg), l.index);
  for (const TapeLoad& l : flow.loads_p) {
    constant_values_.emplace_back(leaf(l.reg), (*flow.parameter_values)[l.index]);
    parameter_of_.emplace_back(constant_values_.back().first, l.index);
  }
  for (const auto& [reg, value] : flow.constants) constant_values_.emplace_back(leaf(reg), value);
  flow_value_.assign(static_cast<size_t>(n), -1);
  auto store = [&](int slot, int value) {
    if (slot < n) {
      flow_value_[static_cast<size_t>(slot)] = value;
    } else if (flow.positive_from >= 0 && slot >= flow.positive_from) {
      condition_value_.push_back(value);
    }
  };
  for (const TapeLoad& o : flow.leaf_outputs) store(o.index, current[static_cast<size_t>(o.reg)]);
  for (const TapeInstruction& in : flow.code) {
    const auto read = [&](int reg) { return current[static_cast<size_t>(reg)]; };
    if (in.op == OpCode::Store) {
      store(in.out, read(in.a));
      continue;
    }
    const int operands = in.op == OpCode::Mul3 || in.op == OpCode::MulAdd ||
                                 in.op == OpCode::MulSub || in.op == OpCode::SubMul
                             ? 3
                             : arity(in.op);
    Step s{in.op,
           values_,
           read(in.a),
           operands >= 2 ? read(in.b) : -1,
           operands >= 3 ? read(in.c) : -1,
           -1,
           in.exponent};
    const int aux = aux_series(in.op, in.exponent);
    if (aux > 0) {
      s.aux = aux_;
      aux_ += aux;
    }
    steps_.push_back(s);
    current[static_cast<size_t>(in.out)] = values_++;
    if (in.slot >= 0) store(in.slot, s.out);
  }
  for (int i = 0; i < n; ++i) {
    if (flow_value_[static_cast<size_t>(i)] < 0) {
      throw std::invalid_argument("Taylor expansion: the flow tape does not store x'[" +
                                  std::to_string(i) + "]");
    }
  }
}

bool TaylorTape::fail(std::string why) {
  failure_ = std::move(why);
  return false;
}

bool TaylorTape::expand(double t0, const double* x0, int order, double* coefficients) {
  if (order < 1) throw std::invalid_argument("Taylor expansion: order must be at least 1");
  const int width = order + 1;
  if (order != order_) {
    order_ = order;
    c_.assign(static_cast<size_t>(values_) * width, 0.0);
    w_.assign(static_cast<size_t>(aux_) * width, 0.0);
  }
  failure_.clear();
  double* c = c_.data();
  const auto row = [&](int v) { return c + static_cast<size_t>(v) * width; };
  // Leaves: constants and parameters are constant series, t = t0 + tau, x from x0 on.
  for (auto [v, value] : constant_values_) {
    for (int k = 0; k < width; ++k) row(v)[k] = k == 0 ? value : 0.0;
  }
  for (auto [v, index] : parameter_of_) row(v)[0] = (*parameter_values_)[index];
  if (time_value_ >= 0) {
    for (int k = 0; k < width; ++k) row(time_value_)[k] = k == 0 ? t0 : (k == 1 ? 1.0 : 0.0);
  }
  for (int i = 0; i < n_; ++i) coefficients[static_cast<size_t>(i) * width] = x0[i];
  for (auto [v, i] : state_values_) row(v)[0] = x0[i];
  for (int k = 0; k < order; ++k) {
    if (!pass(k)) return false;
    if (k == 0) {
      for (int v : condition_value_) {
        if (!(row(v)[0] > 0.0)) {
          return fail("a condition of the flow (such as a pivot of its elimination) is " +
                      std::to_string(row(v)[0]) + " at t = " + std::to_string(t0) +
                      ", not > 0: the flow does not apply");
        }
      }
    }
    for (int i = 0; i < n_; ++i) {
      const double next = row(flow_value_[static_cast<size_t>(i)])[k] / (k + 1);
      if (!std::isfinite(next)) {
        return fail("coefficient " + std::to_string(k + 1) + " of x[" + std::to_string(i) +
                    "] is not finite at t = " + std::to_string(t0));
      }
      coefficients[static_cast<size_t>(i) * width + k + 1] = next;
    }
    for (auto [v, i] : state_values_) {
      row(v)[k + 1] = coefficients[static_cast<size_t>(i) * width + k + 1];
    }
  }
  return true;
}

// Coefficient k of every operation's value (and its auxiliary series), in program order.
bool TaylorTape::pass(int k) {
  const int width = order_ + 1;
  double* c = c_.data();
  double* w = w_.data();
  const auto row = [&](int v) { return c + static_cast<size_t>(v) * width; };
  const auto aux = [&](int i) { return w + static_cast<size_t>(i) * width; };
  for (const Step& s : steps_) {
    double* u = row(s.out);
    const double* a = row(s.a);
    const double* b = s.b >= 0 ? row(s.b) : nullptr;
    const double* cc = s.c >= 0 ? row(s.c) : nullptr;
    double r = 0.0;
    switch (s.op) {
      case OpCode::Neg:
        r = -a[k];
        break;
      case OpCode::Add:
        r = a[k] + b[k];
        break;
      case OpCode::Sub:
        r = a[k] - b[k];
        break;
      case OpCode::Mul:
        r = conv(a, b, k, 0, k);
        break;
      case OpCode::Square:
        r = conv(a, a, k, 0, k);
        break;
      case OpCode::MulAdd:
        r = conv(a, b, k, 0, k) + cc[k];
        break;
      case OpCode::MulSub:
        r = conv(a, b, k, 0, k) - cc[k];
        break;
      case OpCode::SubMul:
        r = cc[k] - conv(a, b, k, 0, k);
        break;
      case OpCode::Mul3: {
        double* ab = aux(s.aux);
        ab[k] = conv(a, b, k, 0, k);
        r = conv(ab, cc, k, 0, k);
        break;
      }
      case OpCode::Div:  // u b = a
        r = (a[k] - conv(u, b, k, 0, k - 1)) / b[0];
        break;
      case OpCode::Sqrt:  // u u = a
        if (k == 0) {
          if (!(a[0] > 0.0)) return fail("sqrt of " + std::to_string(a[0]) + " is not analytic");
          r = std::sqrt(a[0]);
        } else {
          r = (a[k] - conv(u, u, k, 1, k - 1)) / (2.0 * u[0]);
        }
        break;
      case OpCode::Exp:  // u' = u a'
        r = k == 0 ? std::exp(a[0]) : chain_rule(u, a, k);
        break;
      case OpCode::Log:  // a u' = a'
        if (k == 0) {
          if (!(a[0] > 0.0)) return fail("log of " + std::to_string(a[0]) + " is not analytic");
          r = std::log(a[0]);
        } else {
          r = quotient_rule(u, a, a, k);
        }
        break;
      case OpCode::Sin:
      case OpCode::Cos:
      case OpCode::Sinh:
      case OpCode::Cosh: {  // s' = c a', c' = -s a' (trigonometric) or s a' (hyperbolic)
        double* other = aux(s.aux);
        const bool trig = s.op == OpCode::Sin || s.op == OpCode::Cos;
        const bool odd = s.op == OpCode::Sin || s.op == OpCode::Sinh;
        double* sn = odd ? u : other;
        double* cs = odd ? other : u;
        if (k == 0) {
          sn[0] = trig ? std::sin(a[0]) : std::sinh(a[0]);
          cs[0] = trig ? std::cos(a[0]) : std::cosh(a[0]);
        } else {
          sn[k] = chain_rule(cs, a, k);
          cs[k] = (trig ? -1.0 : 1.0) * chain_rule(sn, a, k);
        }
        continue;
      }
      case OpCode::Tan:
      case OpCode::Tanh: {  // u' = (1 +- u^2) a'
        double* g = aux(s.aux);
        const double sign = s.op == OpCode::Tan ? 1.0 : -1.0;
        u[k] =
            k == 0 ? (s.op == OpCode::Tan ? std::tan(a[0]) : std::tanh(a[0])) : chain_rule(g, a, k);
        g[k] = (k == 0 ? 1.0 : 0.0) + sign * conv(u, u, k, 0, k);
        continue;
      }
      case OpCode::Atan: {  // (1 + a^2) u' = a'
        double* g = aux(s.aux);
        g[k] = (k == 0 ? 1.0 : 0.0) + conv(a, a, k, 0, k);
        r = k == 0 ? std::atan(a[0]) : quotient_rule(u, g, a, k);
        break;
      }
      case OpCode::Asin:
      case OpCode::Acos: {  // sqrt(1 - a^2) u' = +-a'
        double* q = aux(s.aux);
        double* g = aux(s.aux + 1);
        q[k] = (k == 0 ? 1.0 : 0.0) - conv(a, a, k, 0, k);
        if (k == 0) {
          if (!(q[0] > 0.0)) {
            return fail(std::string(to_string(s.op)) + " of " + std::to_string(a[0]) +
                        " is not analytic");
          }
          g[0] = std::sqrt(q[0]);
          r = s.op == OpCode::Asin ? std::asin(a[0]) : std::acos(a[0]);
        } else {
          g[k] = (q[k] - conv(g, g, k, 1, k - 1)) / (2.0 * g[0]);
          // g u' = a' (asin) or -a' (acos = pi/2 - asin)
          const double sign = s.op == OpCode::Asin ? 1.0 : -1.0;
          double sum = sign * k * a[k];
          for (int j = 1; j < k; ++j) sum -= g[j] * (k - j) * u[k - j];
          r = sum / (k * g[0]);
        }
        break;
      }
      case OpCode::Atan2: {  // u = atan2(a, b): (a^2 + b^2) u' = b a' - a b'
        double* g = aux(s.aux);
        g[k] = conv(a, a, k, 0, k) + conv(b, b, k, 0, k);
        if (k == 0) {
          r = std::atan2(a[0], b[0]);
        } else {
          double num = 0.0;  // coefficient k - 1 of b a' - a b' and of (a^2 + b^2) u' but its u_k
          for (int j = 0; j < k; ++j) num += (k - j) * (b[j] * a[k - j] - a[j] * b[k - j]);
          for (int j = 1; j < k; ++j) num -= g[j] * (k - j) * u[k - j];
          r = num / (k * g[0]);
        }
        break;
      }
      case OpCode::PowConst: {
        const double p = s.exponent;
        if (by_products(p)) {  // a^2 .. a^(p-1) kept as auxiliary series
          const int m = static_cast<int>(p);
          const double* prev = a;
          for (int e = 2; e < m; ++e) {
            double* pe = aux(s.aux + e - 2);
            pe[k] = conv(prev, a, k, 0, k);
            prev = pe;
          }
          r = conv(prev, a, k, 0, k);
        } else if (k == 0) {
          if (p == 0.0) {
            r = 1.0;
          } else if (p == 1.0) {
            r = a[0];
          } else {
            if (a[0] == 0.0 || (a[0] < 0.0 && p != std::floor(p))) {
              return fail("pow(" + std::to_string(a[0]) + ", " + std::to_string(p) +
                          ") is not analytic");
            }
            r = std::pow(a[0], p);
          }
        } else if (p == 0.0) {
          r = 0.0;
        } else if (p == 1.0) {
          r = a[k];
        } else {  // a u' = p u a': k a_0 u_k = sum_{j=0}^{k-1} (p (k - j) - j) a_{k-j} u_j
          double sum = 0.0;
          for (int j = 0; j < k; ++j) sum += (p * (k - j) - j) * a[k - j] * u[j];
          r = sum / (k * a[0]);
        }
        break;
      }
      case OpCode::Pow: {  // u = exp(b log a)
        double* la = aux(s.aux);
        double* e = aux(s.aux + 1);
        if (k == 0) {
          if (!(a[0] > 0.0)) {
            return fail("pow with a variable exponent of " + std::to_string(a[0]) +
                        " is not analytic");
          }
          la[0] = std::log(a[0]);
        } else {
          la[k] = quotient_rule(la, a, a, k);
        }
        e[k] = conv(b, la, k, 0, k);
        r = k == 0 ? std::exp(e[0]) : chain_rule(u, e, k);
        break;
      }
      case OpCode::Abs: {  // +-a by the sign of a's first non-zero coefficient
        int j = 0;
        while (j < k && a[j] == 0.0) ++j;
        r = a[j] < 0.0 ? -a[k] : a[k];
        break;
      }
      case OpCode::Min:
        r = series_less(b, a, k) ? b[k] : a[k];
        break;
      case OpCode::Max:
        r = series_less(a, b, k) ? b[k] : a[k];
        break;
      case OpCode::If:
        r = a[0] != 0.0 ? b[k] : cc[k];
        break;
      case OpCode::Sign:
        r = k == 0 ? (a[0] > 0.0 ? 1.0 : (a[0] < 0.0 ? -1.0 : 0.0)) : 0.0;
        break;
      case OpCode::Less:
        r = k == 0 ? static_cast<double>(a[0] < b[0]) : 0.0;
        break;
      case OpCode::LessEqual:
        r = k == 0 ? static_cast<double>(a[0] <= b[0]) : 0.0;
        break;
      case OpCode::Greater:
        r = k == 0 ? static_cast<double>(a[0] > b[0]) : 0.0;
        break;
      case OpCode::GreaterEqual:
        r = k == 0 ? static_cast<double>(a[0] >= b[0]) : 0.0;
        break;
      case OpCode::Equal:
        r = k == 0 ? static_cast<double>(a[0] == b[0]) : 0.0;
        break;
      case OpCode::NotEqual:
        r = k == 0 ? static_cast<double>(a[0] != b[0]) : 0.0;
        break;
      default:
        return fail(std::string("operation ") + to_string(s.op) + " has no Taylor rule");
    }
    u[k] = r;
  }
  return true;
}

}  // namespace saltus::model

#include "saltus/lang/operations.hpp"

namespace saltus::lang {

int arity(OpCode op) {
  switch (op) {
    case OpCode::Const:
    case OpCode::Time:
    case OpCode::State:
    case OpCode::StateRate:
    case OpCode::Algebraic:
    case OpCode::Parameter:
      return 0;
    case OpCode::Neg:
    case OpCode::PowConst:
    case OpCode::Square:
    case OpCode::Sqrt:
    case OpCode::Exp:
    case OpCode::Log:
    case OpCode::Sin:
    case OpCode::Cos:
    case OpCode::Tan:
    case OpCode::Asin:
    case OpCode::Acos:
    case OpCode::Atan:
    case OpCode::Sinh:
    case OpCode::Cosh:
    case OpCode::Tanh:
    case OpCode::Abs:
    case OpCode::Sign:
      return 1;
    case OpCode::If:
      return 3;
    case OpCode::Store:
      return 1;
    case OpCode::Mul3:
    case OpCode::MulAdd:
    case OpCode::MulSub:
    case OpCode::SubMul:
      return 3;
    default:
      return 2;
  }
}

bool is_comparison(OpCode op) {
  switch (op) {
    case OpCode::Less:
    case OpCode::LessEqual:
    case OpCode::Greater:
    case OpCode::GreaterEqual:
    case OpCode::Equal:
    case OpCode::NotEqual:
      return true;
    default:
      return false;
  }
}

bool is_commutative(OpCode op) {
  return op == OpCode::Add || op == OpCode::Mul || op == OpCode::Equal || op == OpCode::NotEqual;
}

const char* to_string(OpCode op) {
  switch (op) {
    case OpCode::Const:
      return "constant";
    case OpCode::Time:
      return "t";
    case OpCode::State:
      return "state";
    case OpCode::StateRate:
      return "state rate";
    case OpCode::Algebraic:
      return "algebraic state";
    case OpCode::Parameter:
      return "run-time parameter";
    case OpCode::Neg:
      return "-";
    case OpCode::Add:
      return "+";
    case OpCode::Sub:
      return "-";
    case OpCode::Mul:
      return "*";
    case OpCode::Div:
      return "/";
    case OpCode::Pow:
    case OpCode::PowConst:
      return "^";
    case OpCode::Square:
      return "square";
    case OpCode::Sqrt:
      return "sqrt";
    case OpCode::Exp:
      return "exp";
    case OpCode::Log:
      return "log";
    case OpCode::Sin:
      return "sin";
    case OpCode::Cos:
      return "cos";
    case OpCode::Tan:
      return "tan";
    case OpCode::Asin:
      return "asin";
    case OpCode::Acos:
      return "acos";
    case OpCode::Atan:
      return "atan";
    case OpCode::Atan2:
      return "atan2";
    case OpCode::Sinh:
      return "sinh";
    case OpCode::Cosh:
      return "cosh";
    case OpCode::Tanh:
      return "tanh";
    case OpCode::Abs:
      return "abs";
    case OpCode::Sign:
      return "sign";
    case OpCode::Min:
      return "min";
    case OpCode::Max:
      return "max";
    case OpCode::Less:
      return "<";
    case OpCode::LessEqual:
      return "<=";
    case OpCode::Greater:
      return ">";
    case OpCode::GreaterEqual:
      return ">=";
    case OpCode::Equal:
      return "==";
    case OpCode::NotEqual:
      return "!=";
    case OpCode::If:
      return "if";
    case OpCode::Store:
      return "store";
    case OpCode::Mul3:
      return "mul3";
    case OpCode::MulAdd:
      return "muladd";
    case OpCode::MulSub:
      return "mulsub";
    case OpCode::SubMul:
      return "submul";
  }
  return "?";
}

namespace ops {

IntervalJet compare(OpCode op, const IntervalJet& a, const IntervalJet& b) {
  const Interval x = a.v, y = b.v;
  if (x.is_nan() || y.is_nan()) return {Interval::nan(), Interval::nan()};
  switch (op) {
    case OpCode::Less:
      return intervals::truth_where(x.hi < y.lo, x.lo >= y.hi);
    case OpCode::LessEqual:
      return intervals::truth_where(x.hi <= y.lo, x.lo > y.hi);
    case OpCode::Greater:
      return intervals::truth_where(x.lo > y.hi, x.hi <= y.lo);
    case OpCode::GreaterEqual:
      return intervals::truth_where(x.lo >= y.hi, x.hi < y.lo);
    case OpCode::Equal:
      return intervals::truth_where(x.lo == x.hi && y.lo == y.hi && x.lo == y.lo,
                                    x.hi < y.lo || y.hi < x.lo);
    default:
      return intervals::truth_where(x.hi < y.lo || y.hi < x.lo,
                                    x.lo == x.hi && y.lo == y.hi && x.lo == y.lo);
  }
}

double fold(OpCode op, double a, double b, double c) {
  switch (op) {
    case OpCode::Neg:
      return -a;
    case OpCode::Add:
      return a + b;
    case OpCode::Sub:
      return a - b;
    case OpCode::Mul:
      return a * b;
    case OpCode::Div:
      return a / b;
    case OpCode::Pow:
      return std::pow(a, b);
    case OpCode::PowConst:
      return std::pow(a, c);
    case OpCode::Square:
      return a * a;
    case OpCode::Sqrt:
      return std::sqrt(a);
    case OpCode::Exp:
      return std::exp(a);
    case OpCode::Log:
      return std::log(a);
    case OpCode::Sin:
      return std::sin(a);
    case OpCode::Cos:
      return std::cos(a);
    case OpCode::Tan:
      return std::tan(a);
    case OpCode::Asin:
      return std::asin(a);
    case OpCode::Acos:
      return std::acos(a);
    case OpCode::Atan:
      return std::atan(a);
    case OpCode::Atan2:
      return std::atan2(a, b);
    case OpCode::Sinh:
      return std::sinh(a);
    case OpCode::Cosh:
      return std::cosh(a);
    case OpCode::Tanh:
      return std::tanh(a);
    case OpCode::Abs:
      return std::abs(a);
    case OpCode::Sign:
      return sign(a);
    case OpCode::Min:
      return min(a, b);
    case OpCode::Max:
      return max(a, b);
    case OpCode::Less:
      return truth<double>(a < b);
    case OpCode::LessEqual:
      return truth<double>(a <= b);
    case OpCode::Greater:
      return truth<double>(a > b);
    case OpCode::GreaterEqual:
      return truth<double>(a >= b);
    case OpCode::Equal:
      return truth<double>(a == b);
    case OpCode::NotEqual:
      return truth<double>(a != b);
    case OpCode::If:
      return choose(a, b, c);
    default:
      return a;
  }
}

}  // namespace ops
}  // namespace saltus::lang

// A compiled model-file expression: a flat stack program evaluated without allocation, in double
// or in saltus::Dual (forward-mode AD), so one compiled flow gives values, Jacobians and guard
// gradients (DESIGN.md layer 7; docs/MODEL_FORMAT.md "Expressions").
//
// The compiler (expression_compiler.hpp) folds parameters and constant subexpressions into
// literals, turns x^2 into a multiplication and x^c into pow(x, c), and records the deepest stack
// the program needs (at most kMaxStackDepth). Evaluation walks the instructions once; loads read
// t, x[i], x'[i] (implicit residuals) and z[i] from the caller's vectors.
#pragma once

#include <ceres/jet.h>

#include <cmath>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace saltus::model {

// Deepest operand stack an expression may need (about that many nested parentheses on the right).
inline constexpr int kMaxStackDepth = 48;

enum class OpCode : std::uint8_t {
  Const,      // push constants[arg]
  Time,       // push t
  State,      // push x[arg]
  StateRate,  // push x'[arg] (implicit residuals only)
  Algebraic,  // push z[arg]
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Pow,       // a^b, both variable
  PowConst,  // a^constants[arg]
  Square,    // a*a
  Sqrt,
  Exp,
  Log,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Abs,
  Sign,
  Min,
  Max,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  Equal,
  NotEqual,
  If,  // if(c, a, b): a when c != 0, else b (both evaluated; the derivative is the chosen one's)
};

struct Instruction {
  OpCode op = OpCode::Const;
  std::int32_t arg = 0;
};

struct Program {
  std::vector<Instruction> code;
  std::vector<double> constants;
  int stack_depth = 0;  // deepest stack the code reaches
  std::string text;     // the source text, for messages

  bool empty() const { return code.empty(); }
  // True when the program reads no input (its value is constants[0] after folding).
  bool is_constant() const { return code.size() == 1 && code[0].op == OpCode::Const; }
  // True when the program reads x'.
  bool reads_state_rate() const {
    for (const Instruction& i : code) {
      if (i.op == OpCode::StateRate) return true;
    }
    return false;
  }
};

namespace detail {

inline double value_part(double a) {
  return a;
}
template <class T, int N>
double value_part(const ceres::Jet<T, N>& a) {
  return a.a;
}

// Stack storage that does not default-construct its entries (a Jet constructor zeroes its
// derivative part: doing that for every slot on each call would cost more than the program).
template <class S>
class OperandStack {
 public:
  S& operator[](int i) { return *std::launder(reinterpret_cast<S*>(bytes_ + i * sizeof(S))); }
  void put(int i, const S& v) { new (bytes_ + i * sizeof(S)) S(v); }

 private:
  static_assert(std::is_trivially_destructible_v<S>);
  alignas(S) unsigned char bytes_[kMaxStackDepth * sizeof(S)];
};

}  // namespace detail

// Value of `p` at (t, x, x', z). S is double or a ceres::Jet (saltus::Dual); the vectors may hold
// S or double (read through S(v[i])). Sizes are checked when the program is compiled.
template <class S, class X, class XRate, class Z>
S evaluate(const Program& p, const S& t, const X& x, const XRate& xrate, const Z& z) {
  using ceres::abs, ceres::acos, ceres::asin, ceres::atan, ceres::atan2, ceres::cos, ceres::cosh,
      ceres::exp, ceres::log, ceres::pow, ceres::sin, ceres::sinh, ceres::sqrt, ceres::tan,
      ceres::tanh;
  using detail::value_part;
  using std::abs, std::acos, std::asin, std::atan, std::atan2, std::cos, std::cosh, std::exp,
      std::log, std::pow, std::sin, std::sinh, std::sqrt, std::tan, std::tanh;
  const Instruction* code = p.code.data();
  const Instruction* const end = code + p.code.size();
  const double* k = p.constants.data();
  // Fast paths: a bare constant or a bare state (x' = v) is most of a mechanical model.
  if (p.code.size() == 1) {
    switch (code->op) {
      case OpCode::Const:
        return S(k[code->arg]);
      case OpCode::State:
        return S(x[code->arg]);
      default:
        break;
    }
  }
  detail::OperandStack<S> st;
  int n = 0;  // entries on the stack
  for (; code != end; ++code) {
    const int a = code->arg;
    switch (code->op) {
      case OpCode::Const:
        st.put(n++, S(k[a]));
        break;
      case OpCode::Time:
        st.put(n++, t);
        break;
      case OpCode::State:
        st.put(n++, S(x[a]));
        break;
      case OpCode::StateRate:
        st.put(n++, S(xrate[a]));
        break;
      case OpCode::Algebraic:
        st.put(n++, S(z[a]));
        break;
      case OpCode::Neg:
        st[n - 1] = -st[n - 1];
        break;
      case OpCode::Add:
        --n, st[n - 1] = st[n - 1] + st[n];
        break;
      case OpCode::Sub:
        --n, st[n - 1] = st[n - 1] - st[n];
        break;
      case OpCode::Mul:
        --n, st[n - 1] = st[n - 1] * st[n];
        break;
      case OpCode::Div:
        --n, st[n - 1] = st[n - 1] / st[n];
        break;
      case OpCode::Pow:
        --n, st[n - 1] = S(pow(st[n - 1], st[n]));
        break;
      case OpCode::PowConst:
        st[n - 1] = S(pow(st[n - 1], k[a]));
        break;
      case OpCode::Square:
        st[n - 1] = st[n - 1] * st[n - 1];
        break;
      case OpCode::Sqrt:
        st[n - 1] = S(sqrt(st[n - 1]));
        break;
      case OpCode::Exp:
        st[n - 1] = S(exp(st[n - 1]));
        break;
      case OpCode::Log:
        st[n - 1] = S(log(st[n - 1]));
        break;
      case OpCode::Sin:
        st[n - 1] = S(sin(st[n - 1]));
        break;
      case OpCode::Cos:
        st[n - 1] = S(cos(st[n - 1]));
        break;
      case OpCode::Tan:
        st[n - 1] = S(tan(st[n - 1]));
        break;
      case OpCode::Asin:
        st[n - 1] = S(asin(st[n - 1]));
        break;
      case OpCode::Acos:
        st[n - 1] = S(acos(st[n - 1]));
        break;
      case OpCode::Atan:
        st[n - 1] = S(atan(st[n - 1]));
        break;
      case OpCode::Atan2:
        --n, st[n - 1] = S(atan2(st[n - 1], st[n]));
        break;
      case OpCode::Sinh:
        st[n - 1] = S(sinh(st[n - 1]));
        break;
      case OpCode::Cosh:
        st[n - 1] = S(cosh(st[n - 1]));
        break;
      case OpCode::Tanh:
        st[n - 1] = S(tanh(st[n - 1]));
        break;
      case OpCode::Abs:
        st[n - 1] = S(abs(st[n - 1]));
        break;
      case OpCode::Sign: {
        const double v = value_part(st[n - 1]);
        st[n - 1] = S(v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : (v == 0.0 ? 0.0 : v)));
        break;
      }
      case OpCode::Min:
        --n;
        if (value_part(st[n]) < value_part(st[n - 1])) st[n - 1] = st[n];
        break;
      case OpCode::Max:
        --n;
        if (value_part(st[n]) > value_part(st[n - 1])) st[n - 1] = st[n];
        break;
      case OpCode::Less:
        --n, st[n - 1] = S(value_part(st[n - 1]) < value_part(st[n]) ? 1.0 : 0.0);
        break;
      case OpCode::LessEqual:
        --n, st[n - 1] = S(value_part(st[n - 1]) <= value_part(st[n]) ? 1.0 : 0.0);
        break;
      case OpCode::Greater:
        --n, st[n - 1] = S(value_part(st[n - 1]) > value_part(st[n]) ? 1.0 : 0.0);
        break;
      case OpCode::GreaterEqual:
        --n, st[n - 1] = S(value_part(st[n - 1]) >= value_part(st[n]) ? 1.0 : 0.0);
        break;
      case OpCode::Equal:
        --n, st[n - 1] = S(value_part(st[n - 1]) == value_part(st[n]) ? 1.0 : 0.0);
        break;
      case OpCode::NotEqual:
        --n, st[n - 1] = S(value_part(st[n - 1]) != value_part(st[n]) ? 1.0 : 0.0);
        break;
      case OpCode::If:
        n -= 2;
        if (value_part(st[n - 1]) != 0.0) {
          st[n - 1] = st[n];
        } else {
          st[n - 1] = st[n + 1];
        }
        break;
    }
  }
  return st[0];
}

// The same for a program without x' or z (guards and flows of plain ODEs may still read z).
template <class S, class X, class Z>
S evaluate(const Program& p, const S& t, const X& x, const Z& z) {
  return evaluate(p, t, x, x, z);
}

}  // namespace saltus::model

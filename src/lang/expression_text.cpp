// ExpressionText's printer (include/saltus/lang/expression_text.hpp). Strings are joined with
// append: GCC 12 reports a bound it cannot prove for "literal" + std::string&& where it inlines
// the recursion (-Wstringop-overflow, a false positive).
#include "saltus/lang/expression_text.hpp"

#include <sstream>

#include "saltus/lang/operations.hpp"

namespace saltus::lang {

std::string ExpressionText::text(NodeId id, int outer) const {
  const ExpressionNode& n = g_.node(id);
  const auto wrap = [outer](int p, std::string s) {
    return p < outer ? std::string("(").append(s).append(")") : s;
  };
  switch (n.op) {
    case OpCode::Const: {
      std::ostringstream s;
      s.precision(12);
      s << n.value;
      return wrap(n.value < 0 ? 3 : 5, s.str());
    }
    case OpCode::Time:
      return "t";
    case OpCode::State:
      return states_.at(static_cast<size_t>(n.index));
    case OpCode::Parameter:
      return parameters_.at(static_cast<size_t>(n.index));
    case OpCode::Neg:
      return wrap(3, std::string("-").append(text(n.a, 3)));
    case OpCode::Add:
      return wrap(1, text(n.a, 1) + " + " + text(n.b, 2));
    case OpCode::Sub:
      return wrap(1, text(n.a, 1) + " - " + text(n.b, 2));
    case OpCode::Mul:
      return wrap(2, text(n.a, 2) + "*" + text(n.b, 3));
    case OpCode::Div:
      return wrap(2, text(n.a, 2) + "/" + text(n.b, 3));
    case OpCode::Square:
      return wrap(4, text(n.a, 5) + "^2");
    case OpCode::PowConst: {
      std::ostringstream s;
      s << n.value;
      return wrap(4, text(n.a, 5) + "^" + s.str());
    }
    case OpCode::Pow:
      return wrap(4, text(n.a, 5) + "^" + text(n.b, 5));
    default: {
      std::string out = std::string(to_string(n.op)) + "(";
      int k = 0;
      for (NodeId a : {n.a, n.b, n.c}) {
        if (a == kNoNode) continue;
        out += (k++ ? ", " : "") + text(a, 0);
      }
      return out + ")";
    }
  }
}

}  // namespace saltus::lang

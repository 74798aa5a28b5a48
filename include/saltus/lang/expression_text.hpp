// An expression of the graph as text ("v - 0.2"), with the states' and run-time parameters'
// names (folded parameters are numbers): switching surfaces' names in modes and guards
// (model/loader/switching_modes.cpp).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/operations.hpp"

namespace saltus::lang {

class ExpressionText {
 public:
  ExpressionText(const ExpressionGraph& g, const std::vector<std::string>& states,
                 const std::vector<std::string>& parameters)
      : g_(g), states_(states), parameters_(parameters) {}

  std::string operator()(NodeId id) const { return text(id, 0); }

 private:
  // Precedence: 1 + -, 2 * /, 3 unary minus, 4 ^, 5 atoms and calls.
  std::string text(NodeId id, int outer) const {
    const ExpressionNode& n = g_.node(id);
    const auto wrap = [outer](int p, std::string s) { return p < outer ? "(" + s + ")" : s; };
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
        return wrap(3, "-" + text(n.a, 3));
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
  const ExpressionGraph& g_;
  const std::vector<std::string>& states_;
  const std::vector<std::string>& parameters_;
};

}  // namespace saltus::lang

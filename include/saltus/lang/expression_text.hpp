// An expression of the graph as text ("v - 0.2"), with the states' and run-time parameters'
// names (folded parameters are numbers): switching surfaces' names in modes and guards
// (model/loader/switching_modes.cpp).
#pragma once

#include <string>
#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::lang {

class ExpressionText {
 public:
  ExpressionText(const ExpressionGraph& g, const std::vector<std::string>& states,
                 const std::vector<std::string>& parameters)
      : g_(g), states_(states), parameters_(parameters) {}

  std::string operator()(NodeId id) const { return text(id, 0); }

 private:
  // Precedence: 1 + -, 2 * /, 3 unary minus, 4 ^, 5 atoms and calls (src/lang/expression_text.cpp).
  std::string text(NodeId id, int outer) const;
  const ExpressionGraph& g_;
  const std::vector<std::string>& states_;
  const std::vector<std::string>& parameters_;
};

}  // namespace saltus::lang

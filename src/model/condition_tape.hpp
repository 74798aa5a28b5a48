// A condition of a model file (a guard's or a contact's `when`, a set) as a tape and its value
// (model_system.cpp): private to src/model.
#pragma once

#include "saltus/core/types.hpp"
#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::model::detail {

// Slot 0: the condition (1 or 0); then the operands of its comparisons, to tell NaN apart.
lang::Tape condition_tape(const lang::ExpressionGraph& g, lang::NodeId when);
// c(t, x, z) from condition_tape's tape: 1 or 0, NaN when an operand of its comparisons is NaN.
double evaluate_condition(const lang::Tape& tape, double t, const ConstVectorRef& x,
                          const ConstVectorRef& z);

}  // namespace saltus::model::detail

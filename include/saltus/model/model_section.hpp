// Poincare sections and continuation parameters of a model file given on the command line
// (until model files have [[sections]]): `saltus orbit` and `saltus bifurcation`.
//
// A section is "EXPR" or "LHS = RHS" (the residual LHS - RHS), optionally followed by ",+"
// (crossed rising, the default), ",-" (falling): compiled with the model's expression compiler
// (names: t, the parameters, the states; symbolic derivatives, so the Poincare map's saltation is
// exact). A continuation parameter must be a state whose rate is 0 in every mode and which no
// reset changes (parameters are folded into the expressions when a model is loaded).
#pragma once

#include <string>
#include <string_view>

#include "saltus/core/guard.hpp"
#include "saltus/model/model.hpp"

namespace saltus::model {

// An observer guard for `spec`, or for the model's [[sections]] entry named `spec` (a Poincare
// section; a stroboscopic one is refused: use a period); throws saltus::Error naming the text,
// offset and problem.
Guard section_guard(const Model& model, std::string_view spec);

// An observer guard of one of the model's expressions (a section's value, a sliding mode's
// surface): value, gradient (automatic differentiation of the tape) and enclosure.
Guard expression_observer(const Model& model, lang::NodeId node, std::string name,
                          Direction direction = Direction::Either);

// The index of state `name`; throws saltus::Error (a parameter of that name: says to make it a
// state with rate 0; unknown: lists the states).
int parameter_state_index(const Model& model, const std::string& name);

}  // namespace saltus::model

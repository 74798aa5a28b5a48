// Parses model-file expressions into an ExpressionGraph (expression_graph.hpp), where a model's
// expressions share their subexpressions and get symbolic derivatives; tapes (tape.hpp) then
// compute chosen nodes. compile_expression does both for one expression on its own.
//
// Grammar (docs/MODEL_FORMAT.md "Expressions"), loosest binding first:
//   comparison  a < b, a <= b, a > b, a >= b, a == b, a != b   (value 1 or 0, no derivative)
//   sum         a + b, a - b
//   product     a * b, a / b
//   unary       -a, +a
//   power       a ^ b  (also a ** b; right-associative, binds tighter than unary minus: -x^2)
//   primary     number, name, name' (a state's rate, implicit residuals only), f(args), (a)
// Names: t, parameters (folded to constants, or run-time parameter leaves), pi, the differential
// states x, the algebraic states z of the mode and named subexpressions (definitions). Functions:
// min, max (2 or more arguments), abs, sign, pow, sqrt, exp, log, sin, cos, tan, asin, acos, atan,
// atan2, sinh, cosh, tanh, if(c, a, b). Functions of a name (SymbolTable::name_functions: a
// mechanical model's contact quantities in [outputs], normal_force(floor)) take one bare name.
//
// Every problem found is reported (unknown names, wrong arity, syntax), each with its offset in
// the text; the caller maps offsets to file, line and column.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "saltus/lang/expression_graph.hpp"
#include "saltus/lang/tape.hpp"

namespace saltus::lang {

// A function whose one argument is a bare name (a mechanical model's contact quantities in
// [outputs]: normal_force(floor), model/contact_quantities.hpp): the call f(a) is the node
// values[a]. Any other name is refused naming f and a: with refused[a] as the reason when it is
// there, else as an unknown `what` with the keys of `values` listed, or with `none` as the
// reason when `values` and `refused` are both empty.
struct NameFunction {
  std::map<std::string, NodeId, std::less<>> values;
  std::map<std::string, std::string, std::less<>> refused;
  std::string what = "name";  // what the arguments are: "contact"
  std::string none;           // why no name is taken: "the model has no [[contacts]]"
};

struct SymbolTable {
  std::map<std::string, double, std::less<>> constants;  // parameters, folded at compile time
  // Run-time parameters (Parameter leaves, in order) and their values (shared with the tapes
  // of compile_expression; parse_expression uses the graph's own).
  std::vector<std::string> parameters;
  std::shared_ptr<std::vector<double>> parameter_values;
  // Named subexpressions ([let] in model files): nodes of `definitions_graph`, seen only by
  // parse_expression into that graph (compile_expression's own graph does not hold them).
  std::map<std::string, NodeId, std::less<>> definitions;
  const ExpressionGraph* definitions_graph = nullptr;
  std::vector<std::string> states;     // x, in order
  std::vector<std::string> algebraic;  // z of the mode, in order
  bool allow_time = true;
  bool allow_state_rate = false;  // x' may appear (implicit residuals)
  // Mechanical models: q' names a state of its own, the velocity of coordinate q. velocity_of[i]
  // is that state's index for state i (-1: none); such a q' is allowed in every expression.
  std::vector<int> velocity_of;
  bool allow_algebraic = true;
  // Functions of a name, by function name (nodes of the graph parsed into); a call of one of
  // these names is never a built-in function.
  std::map<std::string, NameFunction, std::less<>> name_functions;
};

struct ExpressionIssue {
  int offset = 0;  // 0-based character offset into the text
  std::string message;
};

struct ParsedExpression {
  NodeId node = kNoNode;  // the expression's node in the graph (kNoNode when there are issues)
  std::vector<ExpressionIssue> issues;
  bool ok() const { return issues.empty(); }
};

// Parses `text` (the whole of it must be one expression) into `graph`.
ParsedExpression parse_expression(std::string_view text, const SymbolTable& symbols,
                                  ExpressionGraph& graph);

// Parses the equation `lhs = rhs` in `text` as the residual lhs - rhs; `equals` is the offset of
// the '=' (from find_equals).
ParsedExpression parse_residual(std::string_view text, int equals, const SymbolTable& symbols,
                                ExpressionGraph& graph);

// One expression parsed into a graph of its own and compiled into a one-output tape.
struct CompiledExpression {
  Tape program;
  std::vector<ExpressionIssue> issues;
  bool is_constant = false;  // reads nothing: its value is constant_value
  double constant_value = 0.0;
  bool is_condition = false;  // its last operation is a comparison
  bool ok() const { return issues.empty(); }
};
CompiledExpression compile_expression(std::string_view text, const SymbolTable& symbols);
CompiledExpression compile_residual(std::string_view text, int equals, const SymbolTable& symbols);

// Offset of the single top-level '=' of an equation (not part of ==, <=, >=, !=); -1 if there is
// none, -2 if there are several.
int find_equals(std::string_view text);

// True for a valid name: a letter or '_' followed by letters, digits or '_'.
bool is_identifier(std::string_view name);

// True when `name` is reserved (t, pi or a function name) and cannot name a parameter or state.
bool is_reserved_name(std::string_view name);

}  // namespace saltus::lang

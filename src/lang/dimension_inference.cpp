// Dimensions of expression-graph nodes (dimension_inference.hpp).
#include "saltus/lang/dimension_inference.hpp"

#include <algorithm>
#include <sstream>

namespace saltus::lang {

std::string NodeDimension::str() const {
  switch (kind) {
    case Kind::Known:
      return dimension.str();
    case Kind::Number:
      return "a number";
    default:
      return "unknown";
  }
}

DimensionInference::DimensionInference(const ExpressionGraph& graph, LeafDimension leaf,
                                       ParameterValue value, LeafName name)
    : graph_(graph), leaf_(std::move(leaf)), value_(std::move(value)), name_(std::move(name)) {}

std::optional<NodeDimension> DimensionInference::common(const NodeDimension& a,
                                                        const NodeDimension& b) {
  using K = NodeDimension::Kind;
  if (a.kind == K::Known && b.kind == K::Known) {
    if (a.dimension == b.dimension) return a;
    return std::nullopt;
  }
  if (a.kind == K::Known) return a;
  if (b.kind == K::Known) return b;
  if (a.kind == K::Unknown || b.kind == K::Unknown) return NodeDimension::unknown();
  return NodeDimension::number();
}

NodeDimension DimensionInference::infer(NodeId node, std::vector<DimensionConflict>* conflicts) {
  if (dims_.size() < static_cast<size_t>(graph_.size())) {
    dims_.resize(static_cast<size_t>(graph_.size()));
  }
  // The nodes below `node` not inferred yet; operands have smaller ids, so increasing id order
  // infers each after its operands (no recursion: long expressions are safe).
  std::vector<NodeId> open{node}, todo;
  std::vector<char> seen(static_cast<size_t>(node) + 1, 0);
  while (!open.empty()) {
    const NodeId id = open.back();
    open.pop_back();
    if (seen[static_cast<size_t>(id)] || dims_[static_cast<size_t>(id)]) continue;
    seen[static_cast<size_t>(id)] = 1;
    todo.push_back(id);
    const ExpressionNode& n = graph_.node(id);
    for (NodeId o : {n.a, n.b, n.c}) {
      if (o != kNoNode) open.push_back(o);
    }
  }
  std::sort(todo.begin(), todo.end());
  for (NodeId id : todo) {
    std::string conflict;
    dims_[static_cast<size_t>(id)] = rule(id, conflict);
    if (!conflict.empty()) {
      dims_[static_cast<size_t>(id)] = NodeDimension::unknown();  // reported once
      if (conflicts != nullptr) conflicts->push_back({id, conflict});
    }
  }
  return *dims_[static_cast<size_t>(node)];
}

std::string DimensionInference::operand(NodeId id) const {
  const ExpressionNode& n = graph_.node(id);
  const NodeDimension& d = *dims_[static_cast<size_t>(id)];
  if (arity(n.op) == 0 && n.op != OpCode::Const && name_) {
    return name_({n.op, n.index}) + " (" + d.str() + ")";
  }
  return d.str();
}

std::optional<double> DimensionInference::constant_value(NodeId id) {
  if (values_.size() < static_cast<size_t>(graph_.size())) {
    values_.resize(static_cast<size_t>(graph_.size()));
    value_done_.resize(static_cast<size_t>(graph_.size()), 0);
  }
  if (value_done_[static_cast<size_t>(id)]) return values_[static_cast<size_t>(id)];
  const ExpressionNode& n = graph_.node(id);
  std::optional<double> v;
  if (n.op == OpCode::Const) {
    v = n.value;
  } else if (n.op == OpCode::Parameter) {
    if (value_) v = value_(n.index);
  } else if (arity(n.op) > 0) {
    // Operands have smaller ids: the recursion depth is that of a parameter expression.
    const auto a = constant_value(n.a);
    const auto b = n.b != kNoNode ? constant_value(n.b) : std::optional<double>(0.0);
    const auto c = n.op == OpCode::PowConst ? std::optional<double>(n.value)
                   : n.c != kNoNode         ? constant_value(n.c)
                                            : std::optional<double>(0.0);
    if (a && b && c) v = ops::fold(n.op, *a, *b, *c);
  }
  value_done_[static_cast<size_t>(id)] = 1;
  values_[static_cast<size_t>(id)] = v;
  return v;
}

namespace {

// a^e for a power with a constant exponent; a conflict when a has a dimension and e is not a
// small rational.
NodeDimension power(const NodeDimension& a, double e, std::string& conflict,
                    const std::string& base) {
  if (!a.is_known() || a.dimension.dimensionless()) return a;
  if (const auto r = Rational::from_double(e)) return NodeDimension::known(a.dimension.pow(*r));
  std::ostringstream s;
  s << "a power of " << base << " to " << e << "; expected a dimensionless base or a rational "
    << "exponent (2, 1/2, 3/2)";
  conflict = s.str();
  return NodeDimension::unknown();
}

const char* sum_name(OpCode op) {
  switch (op) {
    case OpCode::Add:
      return "a sum";
    case OpCode::Sub:
      return "a difference";
    case OpCode::Min:
      return "min";
    case OpCode::Max:
      return "max";
    case OpCode::Atan2:
      return "atan2";
    case OpCode::If:
      return "if() with branches";
    default:
      return "a comparison";
  }
}

}  // namespace

NodeDimension DimensionInference::rule(NodeId id, std::string& conflict) {
  const ExpressionNode& n = graph_.node(id);
  const auto dim = [this](NodeId o) { return *dims_[static_cast<size_t>(o)]; };
  const NodeDimension none = NodeDimension::known({});
  switch (n.op) {
    case OpCode::Const:
      return NodeDimension::number();
    case OpCode::Time:
    case OpCode::State:
    case OpCode::StateRate:
    case OpCode::Algebraic:
    case OpCode::Parameter:
      return leaf_ ? leaf_({n.op, n.index}) : NodeDimension::unknown();
    case OpCode::Neg:
    case OpCode::Abs:
      return dim(n.a);
    case OpCode::Add:
    case OpCode::Sub:
    case OpCode::Min:
    case OpCode::Max:
    case OpCode::Atan2:
    case OpCode::If:
    case OpCode::Less:
    case OpCode::LessEqual:
    case OpCode::Greater:
    case OpCode::GreaterEqual:
    case OpCode::Equal:
    case OpCode::NotEqual: {
      const NodeId l = n.op == OpCode::If ? n.b : n.a, r = n.op == OpCode::If ? n.c : n.b;
      const auto c = common(dim(l), dim(r));
      if (!c) {
        conflict = std::string(sum_name(n.op)) + " of " + operand(l) + " and " + operand(r);
        return NodeDimension::unknown();
      }
      if (n.op == OpCode::Atan2 || is_comparison(n.op)) return none;
      return *c;
    }
    case OpCode::Mul:
    case OpCode::Div: {
      const NodeDimension a = dim(n.a), b = dim(n.b);
      using K = NodeDimension::Kind;
      if (a.kind == K::Unknown || b.kind == K::Unknown) return NodeDimension::unknown();
      if (a.kind == K::Number && b.kind == K::Number) return NodeDimension::number();
      const Dimension da = a.is_known() ? a.dimension : Dimension{};
      const Dimension db = b.is_known() ? b.dimension : Dimension{};
      return NodeDimension::known(n.op == OpCode::Mul ? da * db : da / db);
    }
    case OpCode::Square:
      return power(dim(n.a), 2.0, conflict, operand(n.a));
    case OpCode::Sqrt:
      return power(dim(n.a), 0.5, conflict, operand(n.a));
    case OpCode::PowConst:
      return power(dim(n.a), n.value, conflict, operand(n.a));
    case OpCode::Pow: {
      const NodeDimension e = dim(n.b);
      if (e.is_known() && !e.dimension.dimensionless()) {
        conflict =
            "a power with exponent of " + operand(n.b) + "; expected a dimensionless " + "exponent";
        return NodeDimension::unknown();
      }
      if (const auto v = constant_value(n.b)) return power(dim(n.a), *v, conflict, operand(n.a));
      const NodeDimension a = dim(n.a);
      if (a.is_known() && !a.dimension.dimensionless()) {
        conflict = "a power of " + operand(n.a) + " to a variable exponent; expected a " +
                   "dimensionless base";
        return NodeDimension::unknown();
      }
      return a.kind == NodeDimension::Kind::Unknown ? a : none;
    }
    case OpCode::Sign:
      return none;
    default: {
      // exp, log, the trigonometric and hyperbolic functions and their inverses.
      const NodeDimension a = dim(n.a);
      if (a.is_known() && !a.dimension.dimensionless()) {
        conflict = std::string(to_string(n.op)) + " of " + operand(n.a) +
                   "; expected a dimensionless argument (rad and deg are dimensionless)";
        return NodeDimension::unknown();
      }
      return none;
    }
  }
}

}  // namespace saltus::lang

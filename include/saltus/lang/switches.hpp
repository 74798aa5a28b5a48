// The switches of a right-hand side (issue 45): the nodes where an expression stops being smooth
// (sign, abs, min, max, if, a comparison used as a value), each with its switching function h and
// the smooth branch it takes on either side of h = 0. A run that locates every zero of h and uses
// one branch per side integrates smooth flows only (model/switching_modes: Filippov's modes).
#pragma once

#include <unordered_map>
#include <vector>

#include "saltus/lang/expression_graph.hpp"

namespace saltus::lang {

struct Switch {
  NodeId node = kNoNode;  // the switch (sign(e), abs(e), min(a, b), max(a, b), if(c, a, b), a < b)
  NodeId h = kNoNode;     // its switching function: the node equals `plus` where h > 0 ...
  NodeId plus = kNoNode;  // ... and `minus` where h < 0
  NodeId minus = kNoNode;
};

// Every switch reachable from `roots`, in node order:
//   sign(e)      h = e      plus 1        minus -1
//   abs(e)       h = e      plus e        minus -e
//   min(a, b)    h = a - b  plus b        minus a
//   max(a, b)    h = a - b  plus a        minus b
//   a > b, a >= b           h = a - b     plus 1, minus 0 (a < b, a <= b: plus 0, minus 1)
//   if(a > b, u, v)         h = a - b     plus u, minus v (a < b: plus v, minus u)
// The condition of an if() is part of its switch, not a switch of its own. Throws saltus::Error
// naming what cannot be a switch: an if() whose condition is not an ordering comparison (<, <=,
// >, >=), and == or != used as a value (they hold on a set without sides).
std::vector<Switch> find_switches(ExpressionGraph& graph, const std::vector<NodeId>& roots);

// `root` with every node in `replace` replaced by its value (itself rewritten: a branch may hold
// further switches), rebuilt through ExpressionGraph::make (simplified and shared).
NodeId substitute(ExpressionGraph& graph, NodeId root,
                  const std::unordered_map<NodeId, NodeId>& replace);

}  // namespace saltus::lang

// The jumps of the flows a model integrates as written (issue 45 item 5): a [states] model with
// `[solver] switching = "smooth"`, and the forces of a mechanical model (sign() of a slip speed, a
// comparison), which are not split into modes. Each sign(), comparison and if() becomes a
// ModelDiscontinuity whose switching function the run watches: an integrator grinding across a
// sliding surface there stops as chattering, naming the expression, instead of taking millions of
// steps in silence. abs(), min() and max() are continuous where they switch: an integrator steps
// across their kinks without chattering, so they are not watched.
#include <set>

#include "model_reader.hpp"
#include "saltus/core/error.hpp"
#include "saltus/lang/expression_text.hpp"
#include "saltus/lang/switches.hpp"

namespace saltus::model::loader {

namespace {

bool jumps(const lang::ExpressionGraph& g, const lang::Switch& s) {
  const lang::OpCode op = g.node(s.node).op;
  return op != lang::OpCode::Abs && op != lang::OpCode::Min && op != lang::OpCode::Max;
}

}  // namespace

void ModelReader::note_discontinuities() {
  lang::ExpressionGraph& g = *graph_;
  const lang::ExpressionText text(g, state_names_, runtime_read_);
  const auto of = [&](const std::vector<lang::NodeId>& roots) {
    std::vector<ModelDiscontinuity> out;
    std::set<lang::NodeId> seen;
    try {
      for (const lang::Switch& s : lang::find_switches(g, roots)) {
        if (jumps(g, s) && seen.insert(s.node).second) out.push_back({text(s.node), s.h});
      }
    } catch (const Error&) {
      // A switch that cannot be one (== as a value, an if() on no ordering): integrated as
      // written, as before; there is no surface to watch.
    }
    return out;
  };
  if (model_.mechanics) {
    model_.mechanics->discontinuities = of(model_.mechanics->forces);
    return;
  }
  for (ModelMode& mode : model_.modes) mode.discontinuities = of(mode.flow);
}

}  // namespace saltus::model::loader

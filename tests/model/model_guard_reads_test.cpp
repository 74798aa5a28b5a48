// Guards of model files declare the states they read (Guard::reads_states, from the states their
// tapes load): the declaration equals the state leaves the guard's expression reaches in the
// model's graph, and a run with it is the run without it, bit for bit (event location
// interpolates only the declared components, by the same arithmetic).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_system.hpp"
#include "saltus/sim/simulator.hpp"
#include "support/model_files.hpp"
#include "support/without_declarations.hpp"

namespace saltus::model {
namespace {

using saltus::testing::without_declarations;

TEST(ModelGuardReads, DeclaredReadsAreTheGuardsStatesAndChangeNoRun) {
  int declared = 0;
  for (const std::string file :
       {"bouncing_ball.toml", "bouncing_ball_drag.toml", "jumping_ball.toml",
        "impact_oscillator.toml", "filippov_crossing.toml", "forced_damped_oscillator.toml",
        "steady_zeno.toml", "impact_oscillator_dae.toml"}) {
    SCOPED_TRACE(file);
    const auto model =
        std::make_shared<const Model>(load_model_file(saltus::testing::models_dir() / file));
    const HybridSystem sys = build_hybrid_system(model);
    ASSERT_EQ(sys.mode_count(), static_cast<int>(model->modes.size()));
    for (size_t m = 0; m < model->modes.size(); ++m) {
      const ModelMode& mode = model->modes[m];
      for (size_t k = 0; k < mode.guards.size(); ++k) {
        const Guard& g = sys.mode(static_cast<ModeId>(m)).guards[k];
        std::vector<int> states;
        bool algebraic = false;
        for (const lang::Variable& v : model->graph->inputs(mode.guards[k].value)) {
          if (v.kind == lang::OpCode::State) states.push_back(v.index);
          if (v.kind == lang::OpCode::Algebraic) algebraic = true;
        }
        std::vector<int> reads = g.reads_states;
        std::sort(reads.begin(), reads.end());
        std::sort(states.begin(), states.end());
        EXPECT_EQ(reads, algebraic ? std::vector<int>{} : states) << "guard " << g.name;
        if (!reads.empty()) ++declared;
      }
    }
    const SimulationResult a = simulate(sys, model->initial_mode, model->t_start,
                                        model->initial_state(), model->t_end, model->options);
    const SimulationResult b =
        simulate(without_declarations(sys), model->initial_mode, model->t_start,
                 model->initial_state(), model->t_end, model->options);
    ASSERT_EQ(a.termination(), b.termination()) << a.summary.message;
    ASSERT_EQ(a.events.size(), b.events.size());
    for (long i = 0; i < a.events.size(); ++i) {
      EXPECT_EQ(a.events[i].t, b.events[i].t) << "event " << i;
      EXPECT_EQ(a.events.x_after(i), b.events.x_after(i)) << "event " << i;
    }
    EXPECT_EQ(a.x_final, b.x_final);
  }
  EXPECT_GE(declared, 8);
}

}  // namespace
}  // namespace saltus::model

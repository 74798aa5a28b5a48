// Evaluates a model's [drawing] (drawing.hpp) along a run: the files that `saltus animate`
// draws (scripts/animate_run.py; docs/MODEL_FORMAT.md "Drawing").
//   drawing.csv   t, j, mode, then every shape's world coordinates at every trajectory sample:
//                 <shape>.x0, <shape>.y0, ... (and <shape>.r for a circle)
//   drawing.json  the shapes (name, kind, number of points, colour, width, fill), the view box,
//                 and every event with the world position of each point shape at its instant
#pragma once

#include <string>

#include "saltus/model/model_run.hpp"

namespace saltus::run {

// Both empty when the run's model has no [drawing].
std::string drawing_csv(const model::ModelRun& run);
std::string drawing_json(const model::ModelRun& run);

}  // namespace saltus::run

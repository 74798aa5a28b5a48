// The frames of a model's [[bodies]] along a run: the files that `saltus animate` draws in 3-D
// (scripts/animate_bodies.py; docs/MODEL_FORMAT.md "Spatial rigid bodies").
//   bodies.csv   t, j, mode, then per body its centre of mass and rotation (body axes to world)
//                at every trajectory sample: <body>.x, <body>.y, <body>.z, <body>.r11 ...
//                <body>.r33 (row by row)
//   bodies.json  the bodies with the shapes of their contacts on body points (point, sphere,
//                disk, torus: point, radius, rim and axis in body axes), the contacts' planes,
//                and every event of such a contact with the world position of its contact
//                point (the lowest point of its sphere, disk or torus) before it
#pragma once

#include <string>

#include "saltus/model/model_run.hpp"

namespace saltus::run {

// Both empty when the run's model has no [[bodies]].
std::string bodies_csv(const model::ModelRun& run);
std::string bodies_json(const model::ModelRun& run);

}  // namespace saltus::run

// The [drawing] section (docs/MODEL_FORMAT.md "Drawing"): its problems reported with file, line
// and column, and the shapes evaluated along a run (drawing.csv, drawing.json) against the
// coordinates computed here from the state by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "saltus/model/model_loader.hpp"
#include "saltus/model/model_run.hpp"
#include "saltus/run/drawing_table.hpp"
#include "support/model_files.hpp"

namespace saltus::model {
namespace {

using saltus::testing::models_dir;

// drawing.csv as rows of named numbers (the mode column is skipped).
std::vector<std::map<std::string, double>> parse_csv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) names.push_back(cell);
  std::vector<std::map<std::string, double>> rows;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::map<std::string, double> r;
    size_t k = 0;
    for (std::string cell; std::getline(row, cell, ','); ++k) {
      if (names[k] != "mode") r[names[k]] = std::stod(cell);
    }
    rows.push_back(r);
  }
  return rows;
}

ModelRun run_file(const std::string& file) {
  return run_model(std::make_shared<const Model>(load_model_file(models_dir() / file)));
}

TEST(Drawing, UnknownSymbolIsReportedWithFileLineAndColumn) {
  const auto file =
      std::filesystem::path(__FILE__).parent_path() / "data" / "drawing_unknown_symbol.toml";
  const auto problems = check_model_file(file);
  ASSERT_EQ(problems.size(), 1u) << format_diagnostics(problems);
  EXPECT_EQ(problems[0].file, file.string());
  EXPECT_EQ(problems[0].line, 20);
  EXPECT_EQ(problems[0].column, 35);  // the 'a' of angle inside "x + ell*cos(angle)"
  EXPECT_NE(problems[0].message.find("unknown symbol 'angle'"), std::string::npos);
  EXPECT_NE(problems[0].message.find("shape 'bar' point 1 x"), std::string::npos);
  EXPECT_THROW(load_model_file(file), ModelError);
}

TEST(Drawing, EveryMalformedShapeIsReportedAtItsLine) {
  const std::string text = R"([states]
x = { initial = 0.0 }
[modes.m]
algebraic = { z = { guess = 0.0 } }
flow = ["x' = 1"]
constraints = ["z = x"]
[solver]
t_end = 1.0
[drawing]
view = [1, 0, 0, 1]
[[drawing.shapes]]
name = "a"
kind = "square"
points = [[0, 0]]
[[drawing.shapes]]
name = "b"
kind = "circle"
points = [["x", 0]]
[[drawing.shapes]]
name = "c"
kind = "polygon"
points = [[0, 0], [1, 1]]
[[drawing.shapes]]
name = "d"
kind = "segment"
points = [["z", 0], [1, 1]]
colour = "red"
[[drawing.shapes]]
name = "d"
kind = "point"
points = [[0, 0]]
radius = 1
)";
  const auto problems = check_model_text(text, "bad.toml");
  const std::vector<std::pair<int, std::string>> expected = {
      {10, "'view' in [drawing] is not a valid box"},
      {13, "kind 'square' is not a shape"},
      {15, "shape 'b' (circle) has no 'radius'"},
      {22, "shape 'c' (polygon) has 2 point(s); expected at least 3"},
      {26, "unknown symbol 'z'"},  // algebraic states are not drawable (mode-dependent)
      {27, "unknown key 'colour' in shape 'd'"},
      {32, "'radius' is for circles only"},
      {28, "shape name 'd' is used twice"},
  };
  ASSERT_EQ(problems.size(), expected.size()) << format_diagnostics(problems);
  for (const Diagnostic& d : problems) {
    EXPECT_EQ(d.file, "bad.toml");
    EXPECT_GT(d.column, 0) << d.format();
    EXPECT_NE(d.message.find("expected"), std::string::npos) << d.format();
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    bool found = false;
    for (const Diagnostic& d : problems) {
      found |=
          d.line == expected[i].first && d.message.find(expected[i].second) != std::string::npos;
    }
    EXPECT_TRUE(found) << "line " << expected[i].first << ": " << expected[i].second << "\n"
                       << format_diagnostics(problems);
  }
}

// models/bouncing_rod.toml: q = (x, y, theta) of the contact end; the rod in body coordinates
// (0, 0)-(2 ell, 0) placed by the pose (x, y, theta), its centre a circle at (ell, 0), the tip a
// point at (x, y).
TEST(Drawing, RodShapesFollowTheStateAtEverySampleAndEvent) {
  const ModelRun r = run_file("bouncing_rod.toml");
  ASSERT_TRUE(r.succeeded()) << r.message();
  const double ell = 0.5;
  const auto rows = parse_csv(run::drawing_csv(r));
  const Trajectory& tr = r.result.trajectory;
  ASSERT_EQ(static_cast<long>(rows.size()), tr.size());
  ASSERT_GT(tr.size(), 100);
  const double tol = 1e-11;  // drawing.csv has 12 significant digits
  for (long i = 0; i < tr.size(); ++i) {
    const auto& row = rows[static_cast<size_t>(i)];
    const double x = tr.x(i)[0], y = tr.x(i)[1], th = tr.x(i)[2];
    EXPECT_NEAR(row.at("t"), tr.t(i), tol);
    EXPECT_EQ(row.at("j"), static_cast<double>(tr.j(i)));
    EXPECT_NEAR(row.at("rod.x0"), x, tol);
    EXPECT_NEAR(row.at("rod.y0"), y, tol);
    EXPECT_NEAR(row.at("rod.x1"), x + 2 * ell * std::cos(th), tol) << "t = " << tr.t(i);
    EXPECT_NEAR(row.at("rod.y1"), y + 2 * ell * std::sin(th), tol) << "t = " << tr.t(i);
    EXPECT_NEAR(row.at("centre.x0"), x + ell * std::cos(th), tol);
    EXPECT_NEAR(row.at("centre.y0"), y + ell * std::sin(th), tol);
    EXPECT_EQ(row.at("centre.r"), 0.025);
    EXPECT_NEAR(row.at("tip.x0"), x, tol);
    EXPECT_EQ(row.at("table.y1"), 0.0);
  }
  const auto json = nlohmann::json::parse(run::drawing_json(r));
  ASSERT_EQ(json["shapes"].size(), 4u);
  EXPECT_EQ(json["shapes"][2]["kind"], "circle");
  ASSERT_EQ(static_cast<long>(json["events"].size()), r.result.events.size());
  ASSERT_GE(r.result.events.size(), 3);
  for (long e = 0; e < r.result.events.size(); ++e) {
    const auto& ev = json["events"][static_cast<size_t>(e)];
    EXPECT_EQ(ev["guard"], "impact:tip");
    EXPECT_EQ(ev["t"].get<double>(), r.result.events[e].t);
    EXPECT_EQ(ev["points"]["tip"][0].get<double>(), r.result.events.x_before(e)[0]);
    EXPECT_NEAR(ev["points"]["tip"][1].get<double>(), 0.0, 1e-9);  // on the table
  }
}

// A square in body coordinates turning with the angle t about a centre moving with x = 2 t:
// vertex (1, 0) is at (2 t + cos t, sin t); a polygon's and a circle's radius may read t.
TEST(Drawing, PoseRotatesBodyCoordinatesAndExpressionsReadTime) {
  const std::string text = R"([parameters]
a = 1.0
[states]
x = { initial = 0.0 }
[modes.m]
flow = ["x' = 2"]
[solver]
t_end = 3.0
[output]
samples = 31
[drawing]
[[drawing.shapes]]
name = "box"
kind = "polygon"
pose = ["x", 0, "t"]
points = [["a", 0], [0, "a"], ["-a", 0], [0, "-a"]]
fill = true
[[drawing.shapes]]
name = "ball"
kind = "circle"
points = [["x", 1]]
radius = "0.1 + t"
)";
  const ModelRun r = run_model(std::make_shared<const Model>(load_model_text(text, "pose.toml")));
  ASSERT_TRUE(r.succeeded()) << r.message();
  const auto rows = parse_csv(run::drawing_csv(r));
  ASSERT_EQ(rows.size(), 31u);
  for (const auto& row : rows) {
    const double t = row.at("t");
    EXPECT_NEAR(row.at("box.x0"), 2 * t + std::cos(t), 1e-11) << t;
    EXPECT_NEAR(row.at("box.y0"), std::sin(t), 1e-11) << t;
    EXPECT_NEAR(row.at("box.x1"), 2 * t - std::sin(t), 1e-11) << t;
    EXPECT_NEAR(row.at("box.y1"), std::cos(t), 1e-11) << t;
    EXPECT_NEAR(row.at("ball.r"), 0.1 + t, 1e-11) << t;
  }
  EXPECT_NEAR(rows.back().at("t"), 3.0, 1e-12);
}

// Seeded random bodies: a polygon of 3 to 7 random body points and a pose moving and turning
// at random rates. A pose is a rigid motion, so at every sample every distance between two
// vertices equals its body distance and the first vertex is (x, y) + R(theta) p0 with the
// state read from the trajectory.
TEST(Drawing, RandomPosesAreRigidMotions) {
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int trial = 0; trial < 25; ++trial) {
    const int n = 3 + trial % 5;
    std::vector<std::array<double, 2>> body;
    std::string points;
    for (int i = 0; i < n; ++i) {
      body.push_back({u(rng), u(rng)});
      points += (i ? ", [" : "[") + saltus::testing::num(body.back()[0]) + ", " +
                saltus::testing::num(body.back()[1]) + "]";
    }
    const std::string text = "[states]\nx = { initial = " + saltus::testing::num(u(rng)) +
                             " }\ny = { initial = " + saltus::testing::num(u(rng)) +
                             " }\nth = { initial = " + saltus::testing::num(u(rng)) +
                             " }\n[modes.m]\nflow = [\"x' = " + saltus::testing::num(u(rng)) +
                             "\", \"y' = " + saltus::testing::num(u(rng)) +
                             "\", \"th' = " + saltus::testing::num(4 * u(rng)) +
                             "\"]\n[solver]\nt_end = 2.0\n[output]\nsamples = 21\n"
                             "[drawing]\n[[drawing.shapes]]\nname = \"body\"\nkind = "
                             "\"polygon\"\npose = [\"x\", \"y\", \"th\"]\npoints = [" +
                             points + "]\n";
    const ModelRun r =
        run_model(std::make_shared<const Model>(load_model_text(text, "random.toml")));
    ASSERT_TRUE(r.succeeded()) << r.message() << "\n" << text;
    const auto rows = parse_csv(run::drawing_csv(r));
    ASSERT_EQ(rows.size(), 21u);
    for (size_t k = 0; k < rows.size(); ++k) {
      const auto& row = rows[k];
      const auto at = [&row](int i) {
        return std::array<double, 2>{row.at("body.x" + std::to_string(i)),
                                     row.at("body.y" + std::to_string(i))};
      };
      for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
          const double world = std::hypot(at(i)[0] - at(j)[0], at(i)[1] - at(j)[1]);
          const double local = std::hypot(body[i][0] - body[j][0], body[i][1] - body[j][1]);
          EXPECT_NEAR(world, local, 1e-10) << "trial " << trial << " sample " << k;
        }
      }
      const auto s = r.result.trajectory.x(static_cast<long>(k));
      const double c = std::cos(s[2]), sn = std::sin(s[2]);
      EXPECT_NEAR(at(0)[0], s[0] + c * body[0][0] - sn * body[0][1], 1e-10);
      EXPECT_NEAR(at(0)[1], s[1] + sn * body[0][0] + c * body[0][1], 1e-10);
    }
  }
}

TEST(Drawing, ModelWithoutDrawingWritesNoDrawingFiles) {
  const ModelRun r = run_file("bouncing_ball.toml");
  EXPECT_FALSE(r.model->drawing.has_value());
  EXPECT_EQ(run::drawing_csv(r), "");
  EXPECT_EQ(run::drawing_json(r), "");
}

}  // namespace
}  // namespace saltus::model

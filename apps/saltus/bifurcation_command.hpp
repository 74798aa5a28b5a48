// `saltus bifurcation`: a brute-force bifurcation diagram (analysis/bifurcation_diagram.hpp):
// for N values of a parameter (a parameter of the model file, kept at run time, or a state of
// rate 0), run the model, discard K section crossings, record M. Writes bifurcation.csv and
// bifurcation.png.
//   0  every value gave M points; 1  bad model or options; 2  some values gave fewer (their
//   reason is printed and in bifurcation.csv's status column); 3  output error
#pragma once

#include <string>
#include <vector>

namespace saltus::cli {

struct BifurcationArguments {
  std::string model;
  std::string out_dir = "bifurcation";
  std::vector<std::string> set;
  std::string vary;     // NAME=A:B:N
  double period = 0.0;  // stroboscopic section when > 0
  std::string section;  // otherwise
  long discard = 100, keep = 50;
  double horizon = 0.0;  // per value; default (discard + keep + 10) periods or the model's span
  bool restart =
      false;         // every value from the model's initial state (else the attractor is followed)
  std::string show;  // state plotted against the parameter (default: the first not varied)
  bool plot = true;
};

int bifurcation_command(const BifurcationArguments& args);

}  // namespace saltus::cli

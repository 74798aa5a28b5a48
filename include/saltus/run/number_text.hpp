// How the outputs write a number: printf's %g at a given precision, or the shortest of %.15g and
// %.17g that reads back as the same double. One helper, so that every table and message of the
// run layer and the command writes a given double the same way at the same precision.
#pragma once

#include <string>

namespace saltus::run {

// v as "%.<significant_digits>g" (what an ostream writes at that precision); 17 digits read back
// as v exactly.
std::string number_text(double v, int significant_digits);

// The shortest of %.15g and %.17g that reads back as v (the density outputs' numbers).
std::string shortest_number(double v);

}  // namespace saltus::run

// number_text (run/number_text.hpp) writes what an ostream at that precision writes, so the
// tables and messages that used a stream keep their bytes; shortest_number reads back exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>

#include "saltus/run/number_text.hpp"

namespace saltus::run {
namespace {

std::string streamed(double v, int precision) {
  std::ostringstream s;
  s.precision(precision);
  s << v;
  return s.str();
}

TEST(NumberText, WritesWhatAStreamWritesAtThatPrecision) {
  const double values[] = {0.0,
                           -0.0,
                           1.0,
                           0.1,
                           -2.5e-310,
                           1e300,
                           1.0 / 3,
                           123456789012345.0,
                           6.02214076e23,
                           std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::max(),
                           std::nextafter(1.0, 2.0)};
  for (const double v : values) {
    for (const int precision : {3, 6, 12, 15, 17}) {
      EXPECT_EQ(number_text(v, precision), streamed(v, precision)) << v << " at " << precision;
    }
  }
}

TEST(NumberText, ShortestNumberReadsBackExactly) {
  EXPECT_EQ(shortest_number(0.1), "0.1");
  EXPECT_EQ(shortest_number(1.0 / 3), "0.33333333333333331");
  for (const double v : {0.1, 1.0 / 3, std::nextafter(1.0, 2.0), -2.5e-310, 1e300}) {
    EXPECT_EQ(std::strtod(shortest_number(v).c_str(), nullptr), v) << shortest_number(v);
  }
}

}  // namespace
}  // namespace saltus::run

#include "saltus/run/number_text.hpp"

#include <cstdio>
#include <cstdlib>

namespace saltus::run {

std::string number_text(double v, int significant_digits) {
  char text[40];  // "%.17g" needs at most 24 characters
  std::snprintf(text, sizeof text, "%.*g", significant_digits, v);
  return text;
}

std::string shortest_number(double v) {
  const std::string text = number_text(v, 15);
  return std::strtod(text.c_str(), nullptr) == v ? text : number_text(v, 17);
}

}  // namespace saltus::run

// NumPy .npy files (format 1.0, little-endian, C order, two dimensions): what `saltus density`
// and `saltus sweep` write beside their CSV tables, for numpy.load.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace saltus::run {

// `values` row by row (rows * cols of them) as '<f8' or '<i8'. Throws saltus::Error when the
// count does not match the shape.
std::string npy_float64(const std::vector<double>& values, long rows, long cols);
std::string npy_int64(const std::vector<std::int64_t>& values, long rows, long cols);

}  // namespace saltus::run

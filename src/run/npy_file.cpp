// .npy writer (npy_file.hpp): the magic string, the version, a header dictionary padded with
// spaces to a multiple of 64 bytes (ending in a newline), then the raw little-endian values.
#include "saltus/run/npy_file.hpp"

#include <cstring>

#include "saltus/core/error.hpp"

namespace saltus::run {
namespace {

template <class T>
std::string npy(const char* descr, const std::vector<T>& values, long rows, long cols) {
  static_assert(sizeof(T) == 8);
  if (rows < 0 || cols < 0 || static_cast<long>(values.size()) != rows * cols) {
    saltus::detail::throw_error("npy: ", values.size(), " values for shape (", rows, ", ", cols,
                                ")");
  }
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                       std::to_string(cols) + "), }";
  const size_t unpadded = 10 + header.size() + 1;  // magic + version + length, header, newline
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  const size_t start = out.size();
  out.resize(start + 8 * values.size());
  std::memcpy(out.data() + start, values.data(), 8 * values.size());  // x86-64, aarch64: LE
  return out;
}

}  // namespace

std::string npy_float64(const std::vector<double>& values, long rows, long cols) {
  return npy("<f8", values, rows, cols);
}

std::string npy_int64(const std::vector<std::int64_t>& values, long rows, long cols) {
  return npy("<i8", values, rows, cols);
}

}  // namespace saltus::run

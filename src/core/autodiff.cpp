// Where the chunked Jacobian passes of core/flow.hpp pay. bench/jacobian_chunk_bench.cpp
// (2026-11-26, 2-core development machine, load 3-4): chunked against column by column, ns per
// Jacobian: ball 33 / 60 (n = 2), small polynomial flows 45 / 77 (n = 3) and 51 / 81 (n = 4), a
// point mass free 442 / 710 and sliding 1420 / 1176 (n = 4: the contact kinematics' fixed-capacity
// second-order jets of ChunkDual cost more to set up than the four Dual passes), the rod free 550
// / 1550 and on its tip 1252 / 2192 (n = 6), the rolling ball 6797 / 13940 (n = 10). So chunks
// from two columns on; a single column is one Dual pass.
#include "saltus/core/flow.hpp"

namespace saltus::detail {

bool chunked_jacobian_pays(Eigen::Index columns) {
  return columns >= 2;
}

}  // namespace saltus::detail

// Basic vocabulary shared by every layer: vectors, matrices, references, indices.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>

namespace saltus {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
// Non-template APIs take Eigen::Ref so fixed-size and dynamic vectors both bind without copies
// (a strided expression bound to a const Ref is copied: pass plain vectors on hot paths).
using VectorRef = Eigen::Ref<Eigen::VectorXd>;
using ConstVectorRef = Eigen::Ref<const Eigen::VectorXd>;
using MatrixRef = Eigen::Ref<Eigen::MatrixXd>;
using ConstMatrixRef = Eigen::Ref<const Eigen::MatrixXd>;

// Index of a mode in a HybridSystem (its declaration order).
using ModeId = int;
// Index of a guard within its mode (its declaration order).
using GuardId = int;
inline constexpr ModeId kNoMode = -1;

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace saltus

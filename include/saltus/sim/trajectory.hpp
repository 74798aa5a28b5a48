// The continuous part of a hybrid trajectory, sampled at requested times or at every step.
//
// At an event time two samples may share t: the left limit (before the reset) and the right
// limit (after it), distinguished by j. States are stored flat with the largest mode's sizes;
// a sample of a smaller mode uses the first nx entries.
#pragma once

#include <vector>

#include "saltus/core/types.hpp"

namespace saltus {

class Trajectory {
 public:
  void clear() {
    t_.clear();
    j_.clear();
    mode_.clear();
    x_.clear();
    z_.clear();
  }
  void set_strides(int max_nx, int max_nz) {
    stride_x_ = max_nx;
    stride_z_ = max_nz;
  }
  void reserve(long samples) {
    t_.reserve(samples);
    j_.reserve(samples);
    mode_.reserve(samples);
    x_.reserve(samples * stride_x_);
    z_.reserve(samples * stride_z_);
  }
  void add(double t, long j, ModeId mode, ConstVectorRef x, ConstVectorRef z) {
    t_.push_back(t);
    j_.push_back(j);
    mode_.push_back(mode);
    const size_t xo = x_.size(), zo = z_.size();
    x_.resize(xo + stride_x_, kNaN);
    z_.resize(zo + stride_z_, kNaN);
    for (Eigen::Index i = 0; i < x.size(); ++i) x_[xo + i] = x[i];
    for (Eigen::Index i = 0; i < z.size(); ++i) z_[zo + i] = z[i];
  }

  long size() const { return static_cast<long>(t_.size()); }
  double t(long i) const { return t_[i]; }
  long j(long i) const { return j_[i]; }
  ModeId mode(long i) const { return mode_[i]; }
  // All stride entries of sample i (entries beyond the sample's mode size are NaN).
  Eigen::Map<const Vector> x(long i) const {
    return Eigen::Map<const Vector>(x_.data() + i * stride_x_, stride_x_);
  }
  Eigen::Map<const Vector> z(long i) const {
    return Eigen::Map<const Vector>(z_.data() + i * stride_z_, stride_z_);
  }
  const std::vector<double>& times() const { return t_; }

 private:
  int stride_x_ = 0, stride_z_ = 0;
  std::vector<double> t_;
  std::vector<long> j_;
  std::vector<ModeId> mode_;
  std::vector<double> x_, z_;
};

}  // namespace saltus

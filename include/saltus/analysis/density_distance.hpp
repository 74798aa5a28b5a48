// How far apart two histograms of analysis::invariant_density are, and how far apart sampling
// alone would put them: the measure of a density's convergence with the number of maps (seed 003,
// section 8: a picture of 10^6 maps says nothing without it).
//
// Both work on the distribution over the grid's boxes plus one "outside" category, each box's
// fraction of all maps (DensityHistogram::fraction).
#pragma once

#include "saltus/analysis/invariant_density.hpp"

namespace saltus::analysis {

// sum over boxes and "outside" of |p_a - p_b|: 0 for equal distributions, 2 for disjoint ones.
// Throws saltus::Error for different grids or a histogram without maps.
double l1_distance(const DensityHistogram& a, const DensityHistogram& b);

// The mean L1 distance between `reference` and the histogram of `maps` independent draws from it:
// sum over categories of E|X/n - p| for X ~ Binomial(n, p), exactly (de Moivre's mean absolute
// deviation 2 m C(n, m) p^m (1 - p)^(n - m + 1) / n, m = floor(n p) + 1, in logarithms). The maps
// of a trajectory are correlated, so their histogram is further off than this; a distance that
// falls like maps^(-1/2) at a fixed multiple of it shows convergence at the sampling rate.
double independent_sampling_l1(const DensityHistogram& reference, long maps);

}  // namespace saltus::analysis

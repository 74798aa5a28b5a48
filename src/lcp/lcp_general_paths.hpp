// The run-time-size code of Lemke and of the equilibration, callable for any n, so that tests
// can compare the compile-time-size code that n <= 8 takes in solve_lemke and equilibrate_lcp
// (unrolled loops, the unconditional pivot of n <= 4, the balanced shortcut in registers)
// against it (tests/lcp/lemke_sized_paths_test.cpp). The same implementation, only the
// dispatch on n is bypassed. Private to src/mech and its tests.
#pragma once

#include "saltus/lcp/lcp_scaling.hpp"
#include "saltus/lcp/lemke.hpp"

namespace saltus::lcp {

// solve_lemke through LemkeRun<0> and equilibrate_lcp_general_path, whatever n.
const LcpSolution& solve_lemke_general_path(ConstMatrixRef matrix, ConstVectorRef q,
                                            LemkeWorkspace& ws, const LemkeOptions& options = {});

// solve_lemke with its compile-time-size code, but every problem equilibrated through
// equilibrate_lcp before Lemke runs (solve_lemke, for n <= 8, equilibrates a problem that
// needs no Ruiz sweep inside Lemke's tableau set-up instead): the reference for that fusion
// (tests/lcp/lemke_fused_equilibration_test.cpp).
const LcpSolution& solve_lemke_unfused_path(ConstMatrixRef matrix, ConstVectorRef q,
                                            LemkeWorkspace& ws, const LemkeOptions& options = {});

// equilibrate_lcp through its run-time-size code, whatever n.
void equilibrate_lcp_general_path(const ConstMatrixRef& matrix, const ConstVectorRef& q,
                                  LcpScaling& scaling, Matrix& scaled_matrix, Vector& scaled_q);

}  // namespace saltus::lcp

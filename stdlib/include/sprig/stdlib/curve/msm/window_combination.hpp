// MSM stage (e): the windows' sums combined by Horner's rule, from the most significant
// window down: result = (...(S_(W-1) 2^c + S_(W-2)) 2^c + ...) + S_0, c doublings and one
// full addition per window, in one invocation per MSM on the device (W c doublings: 240 for
// BN254 at c = 16), writing results[msm] in XYZZ coordinates. Over a table of window
// multiples there is one sum, the result. It is a program of the XYZZ sums kernel
// (xyzz_sums.hpp). A chain that long takes about 1.7 ms on a large GPU whatever else runs,
// so the MSMs of a batch share one launch, after the last MSM's last batch.
#pragma once

#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/xyzz_sums.hpp"

namespace sprig::curve::detail {

template <ShortWeierstrass C>
void record_window_combination(Sequence& sequence, const MsmPlan& plan, const XyzzSumBuffers<C>& buffers) {
  record_xyzz_sums<C>(sequence, buffers, XyzzSums::Horner, plan.msms, 0, plan.summed_windows(), plan.window_bits);
}

}  // namespace sprig::curve::detail

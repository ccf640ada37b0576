// MSM stage (e): the windows' sums combined by Horner's rule, from the most significant
// window down: result = (...(S_(W-1) 2^c + S_(W-2)) 2^c + ...) + S_0, c doublings and one
// full addition per window, in one invocation on the device (W c doublings: 260 for BN254
// at c = 13), writing results[msm] in XYZZ coordinates. Each step is one call of the
// addition, a doubling being sum + sum (the addition's doubling branch), so the kernel
// holds one copy of the addition's code (drivers inline every call site).
#pragma once

#include <string>

#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/point_steps.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

template <ShortWeierstrass C>
const auto& window_combination_kernel() {
  using X = Xyzz<C>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_window_combination",
        [](ReadBuffer<X> window_sums, Buffer<X> results, UInt msm, UInt windows, UInt c) {
          if_(global_id().x() == 0u, [&] {
            Var<X> sum = window_sums[windows - 1u];
            // Window windows - 1 - k takes steps (k - 1)(c + 1) .. k (c + 1) - 1: c doublings,
            // then its sum.
            for_(0u, (windows - 1u) * (c + 1u), [&](UInt step) {
              UInt window = windows - 2u - step / (c + 1u);
              Bool doubling = step % (c + 1u) != c;
              Expr<X> s = sum.load();
              sum = add_points<C>(s, select_point<C>(doubling, s, window_sums[window].load()));
            });
            results[msm] = sum.load();
          });
        },
        workgroup(msm_workgroup_size).names("window_sums", "results", "msm", "windows", "c"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_window_combination"), trace);
}

}  // namespace sprig::curve::detail

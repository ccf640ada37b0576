// MSM stage (e): the windows' sums combined by Horner's rule, from the most significant
// window down: result = (...(S_(W-1) 2^c + S_(W-2)) 2^c + ...) + S_0, c doublings and one
// full addition per window (W c doublings: 240 for BN254 at c = 16), writing results[msm]
// in XYZZ coordinates. Over a table of window multiples there is one sum, the result.
//
// The chain cannot be split (the top sum needs its W c doublings one after another), so its
// time is its length times a doubling's latency: one workgroup per MSM, a team whose lanes
// share each step's products (team_point_steps.hpp). In one invocation the chain took about
// 1.7 ms on a large GPU whatever else ran; the MSMs of a batch share one launch, after the
// last MSM's last batch.
#pragma once

#include <string>

#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/team_point_steps.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::curve::detail {

template <ShortWeierstrass C>
const auto& horner_kernel() {
  using X = Xyzz<C>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_horner",
        [](ReadBuffer<X> window_sums, WriteBuffer<X> results, UInt msms, UInt windows, UInt c) {
          UInt msm = sprig::detail::linear_workgroup_id();
          // Uniform across the workgroup: its barriers stay in uniform control flow.
          if_(msm < msms, [&] {
            TeamProducts<C> products(1, msm.node()->loc);
            UInt top = msm * windows + windows - 1u;
            Var<X> result = window_sums[top].load();
            for_(1u, windows, [&](UInt w) {
              for_(0u, c, [&](UInt) { result = team_double(products, result.load()); });
              result = team_add(products, result.load(), window_sums[top - w].load());
            });
            if_(local_index() == 0u, [&] { results[msm] = result.load(); });
          });
        },
        workgroup(msm_team_lanes).names("window_sums", "results", "msms", "windows", "c"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_horner"), trace);
}

template <ShortWeierstrass C>
void record_window_combination(Sequence& sequence, const MsmPlan& plan, const DeviceBuffer<Xyzz<C>>& window_sums,
                               const DeviceBuffer<Xyzz<C>>& results) {
  sequence.run(horner_kernel<C>(), sprig::detail::tile_grid(plan.msms, sprig::detail::TileShape{msm_team_lanes, 1}),
               window_sums, results, std::uint32_t(plan.msms), std::uint32_t(plan.summed_windows()),
               std::uint32_t(plan.window_bits));
}

}  // namespace sprig::curve::detail

// The top of the bucket reduction's tree (bucket_reduction.hpp) over teams of lanes: a
// level of few pairs is a few chains of three additions and a doubling, whose time is
// their latency, not the GPU's throughput. A workgroup of msm_tree_teams teams
// (team_point_steps.hpp) takes a block of up to msm_tree_block_groups groups of one window
// into shared memory, one pair a team, and combines them level by level (five levels for a
// full block) with a barrier between levels; the block's group goes back to partial_sums,
// or, where the block is the whole window, to window_sums.
//
// Group g of level L keeps its A at partial_sums[2 (window segments + (g << L))] and its S
// after it, as the one-pair-an-invocation levels (CombineSegments) leave them.
#pragma once

#include <algorithm>
#include <bit>
#include <string>

#include "sprig/stdlib/curve/msm/team_point_steps.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::curve::detail {

inline constexpr std::uint32_t msm_tree_teams = 16;
inline constexpr std::uint32_t msm_tree_block_groups = 2 * msm_tree_teams;

template <ShortWeierstrass C>
const auto& bucket_tree_teams_kernel() {
  using X = Xyzz<C>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_bucket_tree_teams",
        [](Buffer<X> partial_sums, WriteBuffer<X> window_sums, UInt windows, UInt segments, UInt level,
           UInt first_sum) {
          UInt groups = segments >> level;
          UInt blocks = (groups + (msm_tree_block_groups - 1u)) / msm_tree_block_groups;
          UInt block = sprig::detail::linear_workgroup_id();
          // Uniform across the workgroup, as every branch here is: barriers stay in uniform
          // control flow.
          if_(block < windows * blocks, [&] {
            const SourceLoc& loc = block.node()->loc;
            UInt window = block / blocks, first_group = (block % blocks) * msm_tree_block_groups;
            UInt count = min(groups, UInt(msm_tree_block_groups));
            UInt team = local_index() / msm_team_lanes;
            TeamProducts<C> products(msm_tree_teams, loc);
            auto nodes = shared_array<X>(2 * msm_tree_block_groups, "tree_nodes");
            auto place = [&](const UInt& group) { return 2u * (window * segments + (group << level)); };

            UInt k = local_index();
            if_(k < 2u * count, [&] { nodes[k] = partial_sums[place(first_group + k / 2u) + k % 2u].load(); });
            barrier();
            for_(0u, 31u - count_leading_zeros(count), [&](UInt l) {
              // A team past the level's pairs repeats the last pair without storing it.
              UInt pairs = count >> (l + 1u);
              UInt pair = min(team, pairs - 1u);
              UInt lower = 2u * (2u * pair << l), upper = 2u * ((2u * pair + 1u) << l);
              Expr<X> lower_a = nodes[lower].load(), lower_s = nodes[lower + 1u].load();
              Expr<X> upper_a = nodes[upper].load(), upper_s = nodes[upper + 1u].load();
              Expr<X> a = team_add(products, team_add(products, lower_a, upper_a), upper_s);
              Expr<X> s = team_double(products, team_add(products, lower_s, upper_s));
              if_(team < pairs && k % msm_team_lanes == 0u, [&] {
                nodes[lower] = a;
                nodes[lower + 1u] = s;
              });
              barrier();
            });

            Expr<X> top_a = nodes[0u].load(), top_s = nodes[1u].load();
            if_(count == groups, [&] {
              if_(k == 0u, [&] { window_sums[first_sum + window] = top_a; });
            }).else_([&] {
              if_(k == 0u, [&] {
                partial_sums[place(first_group)] = top_a;
                partial_sums[place(first_group) + 1u] = top_s;
              });
            });
          });
        },
        workgroup(msm_team_lanes * msm_tree_teams)
            .names("partial_sums", "window_sums", "windows", "segments", "level", "first_sum"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_bucket_tree_teams"), trace);
}

// Records the launch that combines `windows` windows' groups of `level` in blocks; returns
// the level its groups reach.
template <ShortWeierstrass C>
std::uint32_t record_bucket_tree_teams(Sequence& sequence, const DeviceBuffer<Xyzz<C>>& partial_sums,
                                       const DeviceBuffer<Xyzz<C>>& window_sums, std::uint32_t windows,
                                       std::uint32_t segments, std::uint32_t level, std::uint32_t first_sum) {
  std::uint32_t groups = segments >> level;
  std::uint32_t blocks = (groups + msm_tree_block_groups - 1) / msm_tree_block_groups;
  sequence.run(bucket_tree_teams_kernel<C>(),
               sprig::detail::tile_grid(std::uint64_t(windows) * blocks,
                                        sprig::detail::TileShape{msm_team_lanes * msm_tree_teams, 1}),
               partial_sums, window_sums, windows, segments, level, first_sum);
  return level + std::uint32_t(std::countr_zero(std::min(groups, msm_tree_block_groups)));
}

}  // namespace sprig::curve::detail

#include "sprig/stdlib/pos/find_matches.hpp"

#include "sprig/stdlib/pos/links.hpp"

#include <stdexcept>
#include <string>

namespace sprig::pos::detail {

const FindMatchesKernel& find_matches_kernel(int k, int table, Mode mode, std::uint32_t match_workgroup, bool links) {
  std::string name = "pos_find_matches_t" + std::to_string(table) + (mode == Mode::Subspace ? "_subspace" : "") +
                     (mode == Mode::Abundance && !links ? "_positions" : "");
  const std::uint32_t capacity = bucket_capacity(mode), kept_limit = matches_per_pair(mode);
  // The right bucket's entries grouped by r >> r_bin_shift, one bin per invocation at most,
  // so that compute_fn's search for a match's right entry reads its bin (about one entry)
  // instead of the whole bucket.
  std::uint32_t r_bin_shift = 0;
  while (((param_bc - 1) >> r_bin_shift) >= match_workgroup) ++r_bin_shift;
  const std::uint32_t r_bins = ((param_bc - 1) >> r_bin_shift) + 1;
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> slots, ReadBuffer<std::uint32_t> sizes, ReadBuffer<std::uint32_t> metadata_in,
            ReadBuffer<std::uint32_t> xs, WriteBuffer<std::uint32_t> ys_out, WriteBuffer<std::uint32_t> metadata_out,
            WriteBuffer<std::uint32_t> parents, WriteBuffer<std::uint32_t> pair_sizes,
            Buffer<std::uint32_t> s_bucket_targets, Buffer<std::uint64_t> subspace_targets, UInt pairs) {
          auto left = shared_array<std::uint32_t>(capacity * slot_words, "left_bucket");
          auto right = shared_array<std::uint32_t>(capacity * slot_words, "right_bucket");
          auto rmap = shared_array<std::uint32_t>(rmap_words(mode), "rmap");
          auto matches = shared_array<std::uint32_t>(kept_limit, "matches");
          auto r_bin_sizes = shared_array<std::uint32_t>(r_bins, "r_bin_sizes");
          auto r_bin_starts = shared_array<std::uint32_t>(r_bins, "r_bin_starts");
          auto r_place = shared_array<std::uint32_t>(capacity, "r_place_in_bin");
          auto r_binned = shared_array<std::uint32_t>(capacity, "right_by_r_bin");
          using Sum = decltype(plus<std::uint32_t>());
          sprig::detail::SubgroupScan<std::uint32_t, Sum> lanes(plus<std::uint32_t>(), match_workgroup);
          sprig::detail::SubgroupTotalsScan<std::uint32_t, Sum> totals(lanes, match_workgroup);
          UInt b = sprig::detail::linear_workgroup_id();
          if_(b >= pairs, [] { return_(); });  // uniform: the whole workgroup leaves
          UInt t = local_index();
          UInt left_size = sizes[b], right_size = sizes[b + 1u];
          UInt left_base = b * param_bc, right_base = left_base + param_bc;
          for_(t, UInt(rmap_words(mode)), match_workgroup, [&](UInt i) { rmap[i] = 0u; });
          if_(t < r_bins, [&] { r_bin_sizes[t] = 0u; });
          for_(t, left_size * slot_words, match_workgroup,
               [&](UInt i) { left[i] = slots[b * (capacity * slot_words) + i].load(); });
          for_(t, right_size * slot_words, match_workgroup,
               [&](UInt i) { right[i] = slots[(b + 1u) * (capacity * slot_words) + i].load(); });
          barrier();

          // 1. The r map of the right bucket, and its entries by r bin.
          for_(t, right_size, match_workgroup, [&](UInt j) {
            UInt r = right[j * slot_words + 1u] - right_base;
            r_place[j] = atomic_add(r_bin_sizes[r >> r_bin_shift], 1u, MemoryOrder::Relaxed, Scope::Workgroup);
            if (mode == Mode::Abundance) {
              UInt shift = (r % 16u) * 2u;
              UInt before = atomic_or(rmap[r / 16u], UInt(1u) << shift, MemoryOrder::Relaxed, Scope::Workgroup);
              if_(((before >> shift) & 1u) != 0u,
                  [&] { atomic_or(rmap[r / 16u], UInt(2u) << shift, MemoryOrder::Relaxed, Scope::Workgroup); });
            } else {  // a bucket of 512 entries cannot hold 256 with one r: y is a hash
              atomic_add(rmap[r / 4u], UInt(1u) << ((r % 4u) * 8u), MemoryOrder::Relaxed, Scope::Workgroup);
            }
          });
          barrier();

          UInt ordered = subgroup_id() * subgroup_size() + subgroup_invocation_id();
          {
            Var<std::uint32_t> bin_size = 0u;
            if_(ordered < r_bins, [&] { bin_size = r_bin_sizes[ordered].load(); });
            UInt inclusive = lanes.inclusive(bin_size.load());
            UInt exclusive = lanes.exclusive(bin_size.load(), inclusive);
            totals.scan(lanes.last(inclusive));
            if_(ordered < r_bins, [&] { r_bin_starts[ordered] = totals.exclusive_prefix() + exclusive; });
            barrier();  // the starts are read below, and the totals are rewritten by step 2
            for_(t, right_size, match_workgroup, [&](UInt j) {
              UInt r = right[j * slot_words + 1u] - right_base;
              r_binned[r_bin_starts[r >> r_bin_shift] + r_place[j]] = j;
            });
            barrier();
          }

          // 2. Matches in (left, m, duplicate) order, the first 288 kept. Each invocation
          // counts its left entry's matches over all m, a workgroup scan of the counts (in
          // subgroup order, the order it folds them in) places every entry's run of matches,
          // and the invocation writes its run. One scan per 256 left entries: a scan per
          // (entry, m) chunk is several times slower (docs/benchmarks.md, "Proof-of-space
          // plotting").
          UInt parity = b & 1u;
          // Subspace: right entries with r == target.
          auto right_count = [&](const UInt& target) {
            return (rmap[target / 4u].load() >> ((target % 4u) * 8u)) & 255u;
          };
          Var<std::uint32_t> found = 0u;
          for_(0u, left_size, match_workgroup, [&](UInt chunk) {
            UInt i = chunk + ordered;
            // Which m match (bit m of `has`) and which of those twice (bit m of `twice`), for
            // m = 0..63 in two words each; the loop over m is unrolled at trace time, so the
            // target's m-dependent parts are constants.
            std::array<Var<std::uint32_t>, 2> has{Var<std::uint32_t>(0u), Var<std::uint32_t>(0u)};
            std::array<Var<std::uint32_t>, 2> twice{Var<std::uint32_t>(0u), Var<std::uint32_t>(0u)};
            Var<std::uint32_t> count = 0u;
            if_(i < left_size, [&] {
              UInt r_left = left[i * slot_words + 1u] - left_base;
              UInt q = r_left / param_c, c = r_left % param_c;
              for (std::uint32_t m = 0; m < param_m; ++m) {
                UInt row = q + m;
                row = select(row >= param_b, row - param_b, row);
                UInt col = c + select(parity == 0u, UInt((2 * m) * (2 * m) % param_c),
                                      UInt((2 * m + 1) * (2 * m + 1) % param_c));
                col = select(col >= param_c, col - param_c, col);
                UInt target = row * param_c + col;
                if (mode == Mode::Abundance) {
                  UInt bits = (rmap[target / 16u].load() >> ((target % 16u) * 2u)) & 3u;
                  has[m / 32] = has[m / 32] | ((bits & 1u) << (m % 32));
                  twice[m / 32] = twice[m / 32] | ((bits >> 1u) << (m % 32));
                } else {
                  UInt entries = right_count(target);
                  has[m / 32] = has[m / 32] | (min(entries, 1u) << (m % 32));
                  count = count + entries;
                }
              }
              if (mode == Mode::Abundance)
                count = popcount(has[0]) + popcount(has[1]) + popcount(twice[0]) + popcount(twice[1]);
            });
            UInt inclusive = lanes.inclusive(count.load());
            UInt exclusive = lanes.exclusive(count.load(), inclusive);
            totals.scan(lanes.last(inclusive));
            Var<std::uint32_t> slot = found + totals.exclusive_prefix() + exclusive;
            if_(i < left_size && slot < kept_limit, [&] {
              for (std::uint32_t half = 0; half < 2; ++half) {
                Var<std::uint32_t> rest = has[half].load();
                while_([&] { return rest != 0u; },
                       [&] {
                         UInt bit = count_trailing_zeros(rest.load());
                         UInt m = bit + half * 32u;
                         if (mode == Mode::Abundance) {
                           UInt here = 1u + ((twice[half] >> bit) & 1u);
                           for (std::uint32_t d = 0; d < 2; ++d) {
                             if_(here > d && slot + d < kept_limit,
                                 [&] { matches[slot + d] = (i << 16u) | (m << 8u) | d; });
                           }
                           slot = slot + here;
                         } else {
                           UInt here = right_count(match_target(left[i * slot_words + 1u] - left_base, parity, m));
                           for_(0u, here, [&](UInt d) {
                             if_(slot + d < kept_limit, [&] { matches[slot + d] = (i << 16u) | (m << 8u) | d; });
                           });
                           slot = slot + here;
                         }
                         rest = rest & (rest - 1u);
                       });
              }
            });
            found = found + totals.workgroup_total();
            barrier();  // the totals are rewritten by the next chunk
            if_(found >= kept_limit, [] { break_(); });
          });
          UInt kept = min(found.load(), UInt(kept_limit));
          if_(t == 0u, [&] { pair_sizes[b] = kept; });
          barrier();

          // 3. compute_fn of every kept match.
          for_(t, kept, match_workgroup, [&](UInt s) {
            UInt packed = matches[s];
            UInt i = packed >> 16u, m = (packed >> 8u) & 255u, d = packed & 255u;
            UInt left_position = left[i * slot_words], left_y = left[i * slot_words + 1u];
            UInt target = match_target(left_y - left_base, parity, m);
            // The d-th right entry (in bucket order) whose r is the target: the one with d
            // others of the target's r before it, all in the target's bin.
            UInt first = r_bin_starts[target >> r_bin_shift];
            UInt end = first + r_bin_sizes[target >> r_bin_shift];
            auto has_target = [&](const UInt& j) { return right[j * slot_words + 1u] - right_base == target; };
            Var<std::uint32_t> right_index = 0u;
            for_(first, end, [&](UInt q) {
              UInt j = r_binned[q];
              if_(has_target(j), [&] {
                Var<std::uint32_t> before = 0u;
                for_(first, end, [&](UInt q2) {
                  UInt other = r_binned[q2];
                  if_(other < j && has_target(other), [&] { before = before + 1u; });
                });
                if_(before == d, [&] {
                  right_index = j;
                  break_();
                });
              });
            });
            UInt right_position = right[right_index * slot_words];
            UInt position = b * kept_limit + s;
            if (links) {  // into the buckets below (links.hpp)
              detail::store_link(parents, k, position, b, i, right_index.load());
            } else {  // positions in the table below
              parents[position * 2u] = left_position;
              parents[position * 2u + 1u] = right_position;
            }
            FnResult fn = compute_fn(k, table, left_y, load_metadata(metadata_in, xs, left_position, table, k, mode),
                                     load_metadata(metadata_in, xs, right_position, table, k, mode));
            if (table < 7) {
              ys_out[position] = fn.y;
              for (unsigned w = 0; w < metadata_words(k, table); ++w)
                metadata_out[position * metadata_words(k, table) + w] = fn.metadata[w];
            } else if (mode == Mode::Abundance) {
              UInt s_bucket = fn.y >> std::uint32_t(param_ext);
              if_(s_bucket < num_s_buckets, [&] { atomic_min(s_bucket_targets[s_bucket], position); });
            } else {
              // Per first K bits of y (what a challenge selects), the entry first in (y, left,
              // right) order: the key is y's low 6 bits, left, right (positions < 2^26).
              ULong key = (cast<std::uint64_t>(fn.y & 63u) << 52u) | (cast<std::uint64_t>(left_position) << 26u) |
                          cast<std::uint64_t>(right_position);
              atomic_min(subspace_targets[fn.y >> std::uint32_t(param_ext)], key);
            }
          });
        },
        workgroup(match_workgroup));
  };
  return sprig::detail::cached_kernel<FindMatchesKernel>(
      name + "/k" + std::to_string(k) + "/" + std::to_string(match_workgroup), trace);
}

void check_match_shared_memory(const DeviceInfo& device, int k, Mode mode) {
  const ir::Kernel& matching = *find_matches_kernel(k, 2, mode, match_invocations(device), uses_links(k, mode)).ir();
  std::uint64_t bytes = 0;
  for (const ir::SharedVariable& v : matching.shared) bytes += ir::layout_of(v.type, ir::LayoutRule::Std430).size;
  if (bytes > device.max_shared_memory)
    throw std::invalid_argument(std::string("pos::Plotter: ") + mode_name(mode) + " plotting matches buckets in " +
                                std::to_string(bytes) + " bytes of shared memory per workgroup; " + device.name +
                                " has " + std::to_string(device.max_shared_memory));
}

}  // namespace sprig::pos::detail

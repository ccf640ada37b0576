#include "sprig/stdlib/pos/find_matches.hpp"

#include "sprig/stdlib/pos/links.hpp"

#include <stdexcept>
#include <string>

namespace sprig::pos::detail {

const FindMatchesKernel& find_matches_kernel(int k, int table, Mode mode, std::uint32_t match_workgroup,
                                             ParentLayout parents_layout, MetadataSplit split) {
  if (mode != Mode::Abundance && (split.below != 0 || split.child != 0))
    throw std::logic_error("pos find_matches: only Abundance's packed metadata takes two buffers");
  if ((mode == Mode::Subspace) != (parents_layout == ParentLayout::Positions) || parents_layout == ParentLayout::Auto)
    throw std::logic_error("pos find_matches: Abundance's parents are links or ranks, Subspace's positions");
  const bool links = parents_layout == ParentLayout::Links, ranks = parents_layout == ParentLayout::Ranks;
  const SlotPositions where = ranks ? SlotPositions::Apart : SlotPositions::InSlots;
  std::string name = "pos_find_matches_t" + std::to_string(table) + (mode == Mode::Subspace ? "_subspace" : "") +
                     (ranks ? "_ranks" : "");
  const std::uint32_t capacity = bucket_capacity(mode), kept_limit = matches_per_pair(mode);
  // The right bucket's entries grouped by r >> r_bin_shift, one bin per invocation at most,
  // each as r << 9 | its index, so that compute_fn's search for a match's right entry reads
  // its bin (about one entry) instead of the whole bucket; Subspace also counts the entries
  // with a given r there.
  std::uint32_t r_bin_shift = 0;
  while (((param_bc - 1) >> r_bin_shift) >= match_workgroup) ++r_bin_shift;
  const std::uint32_t r_bins = ((param_bc - 1) >> r_bin_shift) + 1;
  static_assert(max_bucket_capacity <= 512 && param_bc <= (1u << 23), "a bin entry is r << 9 | index");
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> slots, ReadBuffer<std::uint32_t> bucket_positions,
            ReadBuffer<std::uint32_t> sizes, ReadBuffer<std::uint32_t> metadata_in,
            ReadBuffer<std::uint32_t> metadata_in_upper, ReadBuffer<std::uint32_t> xs,
            WriteBuffer<std::uint32_t> ys_out, Buffer<std::uint32_t> metadata_out,
            Buffer<std::uint32_t> metadata_out_upper, Buffer<std::uint32_t> parents, WriteBuffer<std::uint32_t> pair_sizes,
            Buffer<std::uint32_t> s_bucket_targets, Buffer<std::uint64_t> subspace_targets, UInt pairs) {
          // The buckets' r values (a y is its bucket's base plus r); the two positions of a
          // kept match are read from the slots.
          auto left = shared_array<std::uint32_t>(capacity, "left_rs");
          auto right = shared_array<std::uint32_t>(capacity, "right_rs");
          // Shared memory decides the occupancy: the H100's driver (580) gave this kernel 79
          // registers at 14 KiB a workgroup, 126 at 18 KiB and 150 at 25 KiB (one workgroup
          // of 256 a multiprocessor). So the buckets hold only r values, and both rules keep two
          // bits per r (one entry, or more); Subspace, which keeps every entry of an r, counts
          // those with more in the r's bin (a byte per r took 15 KiB).
          auto rmap = shared_array<std::uint32_t>(rmap_words, "rmap");
          auto matches = shared_array<std::uint32_t>(kept_limit, "matches");
          auto r_bin_sizes = shared_array<std::uint32_t>(r_bins, "r_bin_sizes");
          auto r_bin_starts = shared_array<std::uint32_t>(r_bins, "r_bin_starts");
          auto r_binned = shared_array<std::uint32_t>(capacity, "right_by_r_bin");
          // Each right entry's place in its bin, needed only until the bins are filled: in
          // the matches' memory, which step 2 fills after that.
          static_assert(matches_per_pair(Mode::Abundance) >= bucket_capacity(Mode::Abundance) &&
                        matches_per_pair(Mode::Subspace) >= bucket_capacity(Mode::Subspace));
          auto& r_place = matches;
          using Sum = decltype(plus<std::uint32_t>());
          sprig::detail::SubgroupScan<std::uint32_t, Sum> lanes(plus<std::uint32_t>(), match_workgroup);
          sprig::detail::SubgroupTotalsScan<std::uint32_t, Sum> totals(lanes, match_workgroup);
          UInt b = sprig::detail::linear_workgroup_id();
          if_(b >= pairs, [] { return_(); });  // uniform: the whole workgroup leaves
          UInt t = local_index();
          // Abundance's packed metadata and parent ranks: the words entries share start at
          // zero (packed_entries.hpp); the barriers below order these stores before step 3's.
          const auto metadata_bits_out = unsigned(metadata_bits(k, table));
          const bool packed_out = mode == Mode::Abundance && table < 7;
          // Where the child's metadata takes two buffers, pair b's group is in the upper from
          // pair `split_out` on (b is the workgroup's: the branches are uniform).
          const std::uint32_t split_out = packed_out ? split.child : 0;
          auto in_metadata_out = [&](auto&& lower, auto&& upper) {
            if (split_out == 0) lower();
            else if_(b < split_out, lower).else_(upper);
          };
          if (packed_out)
            in_metadata_out([&] { zero_shared_words(metadata_out, metadata_bits_out, b, t, match_workgroup); },
                            [&] { zero_shared_words(metadata_out_upper, metadata_bits_out, b - split_out, t, match_workgroup); });
          if (ranks) zero_shared_words(parents, parent_rank_bits, b, t, match_workgroup);
          UInt left_size = sizes[b], right_size = sizes[b + 1u];
          for_(t, UInt(rmap_words), match_workgroup, [&](UInt i) { rmap[i] = 0u; });
          if_(t < r_bins, [&] { r_bin_sizes[t] = 0u; });
          auto position_at = [&](const UInt& bucket, const UInt& i) {
            return ranks ? apart_slot_position(bucket_positions, k, bucket, i)
                         : slots[slot_position_word(mode, bucket, i)].load();
          };
          for_(t, left_size, match_workgroup, [&](UInt i) { left[i] = slot_r(slots, mode, b, i, where); });
          for_(t, right_size, match_workgroup, [&](UInt i) { right[i] = slot_r(slots, mode, b + 1u, i, where); });
          barrier();

          // 1. The right bucket's entries by r bin, and its r map.
          for_(t, right_size, match_workgroup, [&](UInt j) {
            UInt r = right[j];
            r_place[j] = atomic_add(r_bin_sizes[r >> r_bin_shift], 1u, MemoryOrder::Relaxed, Scope::Workgroup);
            UInt shift = (r % 16u) * 2u;
            UInt before = atomic_or(rmap[r / 16u], UInt(1u) << shift, MemoryOrder::Relaxed, Scope::Workgroup);
            if_(((before >> shift) & 1u) != 0u,
                [&] { atomic_or(rmap[r / 16u], UInt(2u) << shift, MemoryOrder::Relaxed, Scope::Workgroup); });
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
              UInt r = right[j];
              r_binned[r_bin_starts[r >> r_bin_shift] + r_place[j]] = (r << 9u) | j;
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
          // Subspace: right entries with r == target, from the target's bin (where the r map
          // says there are two or more).
          auto right_count = [&](const UInt& target) {
            UInt first = r_bin_starts[target >> r_bin_shift];
            Var<std::uint32_t> n = 0u;
            for_(first, first + r_bin_sizes[target >> r_bin_shift],
                 [&](UInt q) { n = n + select((r_binned[q] >> 9u) == target, 1u, 0u); });
            return n.load();
          };
          // The r that left entry i matches for this m.
          auto target_of = [&](const UInt& i, const UInt& m) { return match_target(left[i], parity, m); };
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
              UInt r_left = left[i];
              UInt q = r_left / param_c, c = r_left % param_c;
              for (std::uint32_t m = 0; m < param_m; ++m) {
                UInt row = q + m;
                row = select(row >= param_b, row - param_b, row);
                UInt col = c + select(parity == 0u, UInt((2 * m) * (2 * m) % param_c),
                                      UInt((2 * m + 1) * (2 * m + 1) % param_c));
                col = select(col >= param_c, col - param_c, col);
                UInt target = row * param_c + col;
                UInt bits = (rmap[target / 16u].load() >> ((target % 16u) * 2u)) & 3u;
                has[m / 32] = has[m / 32] | ((bits & 1u) << (m % 32));
                twice[m / 32] = twice[m / 32] | ((bits >> 1u) << (m % 32));
              }
              // Abundance keeps at most two matches of an (entry, m); Subspace keeps them all.
              count = popcount(has[0]) + popcount(has[1]) + popcount(twice[0]) + popcount(twice[1]);
              if (mode == Mode::Subspace) {
                for (std::uint32_t half = 0; half < 2; ++half) {
                  Var<std::uint32_t> rest = twice[half].load();
                  while_([&] { return rest != 0u; }, [&] {
                    count = count + right_count(target_of(i, count_trailing_zeros(rest.load()) + half * 32u)) - 2u;
                    rest = rest & (rest - 1u);
                  });
                }
              }
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
                           Var<std::uint32_t> here = 1u;
                           if_(((twice[half] >> bit) & 1u) != 0u, [&] { here = right_count(target_of(i, m)); });
                           for_(0u, here.load(), [&](UInt d) {
                             if_(slot + d < kept_limit, [&] { matches[slot + d] = (i << 16u) | (m << 8u) | d; });
                           });
                           slot = slot + here.load();
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
            UInt left_position = position_at(b, i), left_r = left[i];
            UInt target = match_target(left_r, parity, m);
            // The d-th right entry (in bucket order) whose r is the target: the one with d
            // others of the target's r before it, all in the target's bin.
            UInt first = r_bin_starts[target >> r_bin_shift];
            UInt end = first + r_bin_sizes[target >> r_bin_shift];
            Var<std::uint32_t> right_index = 0u;
            for_(first, end, [&](UInt q) {
              UInt entry = r_binned[q];
              UInt j = entry & 511u;
              if_((entry >> 9u) == target, [&] {
                Var<std::uint32_t> before = 0u;
                for_(first, end, [&](UInt q2) {
                  UInt other = r_binned[q2];
                  if_((other >> 9u) == target && (other & 511u) < j, [&] { before = before + 1u; });
                });
                if_(before == d, [&] {
                  right_index = j;
                  break_();
                });
              });
            });
            UInt right_position = position_at(b + 1u, right_index.load());
            UInt position = b * kept_limit + s;
            if (links) {  // into the buckets below (links.hpp)
              store_link(parents, k, position, b, i, right_index.load());
            } else if (ranks) {  // the same, the pair being the position's
              store_ranks(parents, position, i, right_index.load());
            } else if (table < 7) {  // Subspace's table 7 keeps them in its targets' keys
              parents[position * 2u] = left_position;
              parents[position * 2u + 1u] = right_position;
            }
            FnResult fn = compute_fn(
                k, table, y_of_bucket(k, b, left_r),
                load_split_metadata(metadata_in, metadata_in_upper, xs, left_position, table, k, mode, split.below),
                load_split_metadata(metadata_in, metadata_in_upper, xs, right_position, table, k, mode, split.below));
            if (table < 7) {
              store_y(ys_out, position, k, fn.y);
              // Subspace's renumbering computes its dense tables' metadata again from the
              // parents (subspace.hpp): the sparse table keeps none.
              if (packed_out)  // shared words zeroed above
                in_metadata_out([&] { store_packed(metadata_out, metadata_bits_out, position, fn.metadata); }, [&] {
                  store_packed(metadata_out_upper, metadata_bits_out, position - split_out * kept_limit, fn.metadata);
                });
            } else if (mode == Mode::Abundance) {
              UInt s_bucket = y_shifted(fn.y, param_ext);
              if_(s_bucket < num_s_buckets, [&] { atomic_min(s_bucket_targets[s_bucket], position); });
            } else {
              // Per first K bits of y (what a challenge selects), the entry first in (y, left,
              // right) order: the key is y's low 6 bits, left, right (positions < 2^26).
              ULong key = (cast<std::uint64_t>(fn.y.low & 63u) << 52u) | (cast<std::uint64_t>(left_position) << 26u) |
                          cast<std::uint64_t>(right_position);
              atomic_min(subspace_targets[y_shifted(fn.y, param_ext)], key);
            }
          });
        },
        workgroup(match_workgroup));
  };
  const std::string split_key =
      split.below == 0 && split.child == 0
          ? ""
          : "/split" + std::to_string(split.below) + "," + std::to_string(split.child);
  return sprig::detail::cached_kernel<FindMatchesKernel>(
      name + "/k" + std::to_string(k) + "/" + std::to_string(match_workgroup) + split_key, trace);
}

void check_match_shared_memory(const DeviceInfo& device, int k, Mode mode) {
  const ir::Kernel& matching = *find_matches_kernel(k, 2, mode, match_invocations(device), parent_layout(k, mode)).ir();
  std::uint64_t bytes = 0;
  for (const ir::SharedVariable& v : matching.shared) bytes += ir::layout_of(v.type, ir::LayoutRule::Std430).size;
  if (bytes > device.max_shared_memory)
    throw std::invalid_argument(std::string("pos::Plotter: ") + mode_name(mode) + " plotting matches buckets in " +
                                std::to_string(bytes) + " bytes of shared memory per workgroup; " + device.name +
                                " has " + std::to_string(device.max_shared_memory));
}

}  // namespace sprig::pos::detail

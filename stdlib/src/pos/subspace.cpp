#include "sprig/stdlib/pos/subspace.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "sprig/stdlib/pos/compute_fn.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::pos {

namespace detail {

const IotaKernel& iota_kernel(std::uint32_t invocations) {
  std::string name = "pos_iota";
  auto trace = [=] {
    return kernel(
        name,
        [=](WriteBuffer<std::uint32_t> values) {
          UInt i = global_id().x();
          if_(i < values.size(), [&] { values[i] = i; });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<IotaKernel>(name + "/" + std::to_string(invocations), trace);
}

const SubspaceCompactKernel& subspace_compact_kernel(std::uint32_t invocations) {
  std::string name = "pos_subspace_compact";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys, ReadBuffer<std::uint32_t> pair_sizes, ReadBuffer<std::uint32_t> pair_starts,
            WriteBuffer<std::uint32_t> keys, WriteBuffer<std::uint32_t> slots, WriteBuffer<std::uint32_t> entries,
            UInt sparse_slots, UInt slots_per_pair, UInt room, UInt table) {
          UInt p = global_id().x();
          if_(p < sparse_slots, [&] {
            UInt pair = p / slots_per_pair, i = p % slots_per_pair;
            if_(i < pair_sizes[pair], [&] {
              UInt at = pair_starts[pair] + i;
              if_(at < room, [&] {  // past it the table overflowed: entries[table] tells
                keys[at] = ys[p].load();
                slots[at] = p;
              });
            });
            if_(p == 0u, [&] {
              UInt last = sparse_slots / slots_per_pair - 1u;
              entries[table] = pair_starts[last] + pair_sizes[last];
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<SubspaceCompactKernel>(name + "/" + std::to_string(invocations), trace);
}

const SubspaceTiesKernel& subspace_ties_kernel(std::uint32_t invocations) {
  std::string name = "pos_subspace_ties";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keys, Buffer<std::uint32_t> slots, ReadBuffer<std::uint32_t> parents,
            UInt count) {
          UInt j = global_id().x();
          if_(j >= count, [] { return_(); });
          UInt key = keys[j];
          if_(key == ~0u, [] { return_(); });  // holes need no order
          if_(j > 0u, [&] { if_(keys[j - 1u] == key, [] { return_(); }); });  // not the first of its run
          Var<std::uint32_t> end = j + 1u;
          while_([&] { return end < count; }, [&] {
            if_(keys[end] != key, [] { break_(); });
            end = end + 1u;
          });
          // An insertion sort of the run of equal y by (left, right): runs are one entry but
          // for y collisions, and the stable sort left them in left order already.
          auto orders_after = [&](const UInt& a, const UInt& b) {  // slot a after slot b
            UInt left_a = parents[a * 2u], left_b = parents[b * 2u];
            return left_a > left_b || (left_a == left_b && parents[a * 2u + 1u].load() > parents[b * 2u + 1u].load());
          };
          for_(j + 1u, end.load(), [&](UInt i) {
            UInt moving = slots[i];
            Var<std::uint32_t> at = i;
            while_([&] { return at > j; }, [&] {  // never below j: the run before is another's
              UInt earlier = slots[at - 1u];
              if_(!orders_after(earlier, moving), [] { break_(); });
              slots[at] = earlier;
              at = at - 1u;
            });
            slots[at] = moving;
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<SubspaceTiesKernel>(name + "/" + std::to_string(invocations), trace);
}

const SubspaceGatherKernel& subspace_gather_kernel(int k, int table, std::uint32_t invocations) {
  std::string name = "pos_subspace_gather_t" + std::to_string(table);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keys, ReadBuffer<std::uint32_t> slots, ReadBuffer<std::uint32_t> parents,
            ReadBuffer<std::uint32_t> parent_ys, ReadBuffer<std::uint32_t> parent_metadata,
            ReadBuffer<std::uint32_t> xs, WriteBuffer<std::uint32_t> dense_ys,
            WriteBuffer<std::uint32_t> dense_parents, WriteBuffer<std::uint32_t> dense_metadata, UInt room) {
          UInt j = global_id().x();
          if_(j < room, [&] {
            UInt key = keys[j];
            dense_ys[j] = key;  // a y, or all ones past the last entry
            if_(key != ~0u, [&] {
              UInt slot = slots[j];
              UInt left = parents[slot * 2u], right = parents[slot * 2u + 1u];
              dense_parents[j * 2u] = left;
              dense_parents[j * 2u + 1u] = right;
              // What matching computed and did not keep: one hash per entry costs less
              // than a sparse table's metadata, the largest buffer of a record.
              // Subspace's K (at most 25) keeps y in a word.
              FnResult fn = compute_fn(k, table, narrow_y(parent_ys[left]),
                                       detail::load_metadata(parent_metadata, xs, left, table, k, Mode::Subspace),
                                       detail::load_metadata(parent_metadata, xs, right, table, k, Mode::Subspace));
              const std::uint32_t words = metadata_words(k, table);
              for (unsigned w = 0; w < words; ++w) dense_metadata[j * words + w] = fn.metadata[w];
            });
          });
        },
        workgroup(invocations));
  };
  const std::string key = name + "/k" + std::to_string(k) + "/" + std::to_string(invocations);
  return sprig::detail::cached_kernel<SubspaceGatherKernel>(key, trace);
}

}  // namespace detail

namespace {

// The renumbering's temporaries, made by its first step and shared by the others.
struct RenumberScratch {
  std::uint32_t sparse_slots = 0, room = 0;
  DeviceBuffer<std::uint32_t> pair_starts, keys, slots;
};

}  // namespace

std::uint32_t subspace_table_room(int k, int table) {
  if (table < 2 || table > 6) throw std::out_of_range("pos Subspace: room of table " + std::to_string(table));
  // 8 deviations: 8 x 0.14% at K = 20 for table 2 (0.11% measured), doubling by table,
  // halving when K grows by 2.
  const double deviations = 8 * 0.0014 * std::ldexp(1.0, table - 2) * std::pow(2.0, (20 - k) / 2.0);
  const double room = std::ceil(std::ldexp(1.0 + deviations, k) / 64) * 64;
  return std::uint32_t(std::min<double>(room, double(num_pairs(k)) * matches_per_pair(Mode::Subspace)));
}

std::vector<RecordStep> subspace_table1_steps(Device& device, int k, const DeviceBuffer<std::uint32_t>& ys,
                                              const DeviceBuffer<std::uint32_t>& xs) {
  return {
      [&](Sequence& s) { s.run(detail::iota_kernel(elementwise_invocations(device.info())), grid(xs.size()), xs); },
      [&, k](Sequence& s) { radix_sort(device, s, ys, xs, SortOptions{0, std::uint32_t(y_bits(k))}); },
  };
}

std::vector<RecordStep> subspace_renumber_steps(Device& device, int k, int table, SparseTable sparse,
                                                ParentTable below, DenseTable dense,
                                                const DeviceBuffer<std::uint32_t>& entries) {
  const std::uint32_t slots_per_pair = matches_per_pair(Mode::Subspace);
  const std::uint32_t invocations = elementwise_invocations(device.info());
  auto scratch = std::make_shared<RenumberScratch>();
  // The tables may be transients an earlier step of the same record makes: their sizes are
  // read when the steps record, not now.
  return {
      [=, &device, &entries](Sequence& s) {
        scratch->sparse_slots = std::uint32_t(sparse.ys.size());
        scratch->room = std::uint32_t(dense.ys.size());
        if (scratch->sparse_slots % slots_per_pair != 0 ||
            sparse.pair_sizes.size() < scratch->sparse_slots / slots_per_pair)
          throw std::invalid_argument("pos Subspace renumbering: the sparse table has " +
                                      std::to_string(scratch->sparse_slots) + " slots, not " +
                                      std::to_string(slots_per_pair) + " for each of its pairs");
        if (dense.parents.size() < 2 * std::size_t(scratch->room) || entries.size() <= std::size_t(table))
          throw std::invalid_argument(
              "pos Subspace renumbering: the dense table's parents or the entry counts are too small");
        scratch->pair_starts = s.transient<std::uint32_t>(sparse.pair_sizes.size(), "renumbering pair starts");
        scratch->keys = s.transient<std::uint32_t>(scratch->room, "renumbering ys");
        scratch->slots = s.transient<std::uint32_t>(scratch->room, "renumbering slots in order");
        exclusive_scan(device, s, sparse.pair_sizes, scratch->pair_starts, plus<std::uint32_t>());
        s.fill(scratch->keys, ~0u);   // holes, after every entry
        s.fill(scratch->slots, ~0u);  // the sort moves the holes' slots too
        s.run(detail::subspace_compact_kernel(invocations), grid(scratch->sparse_slots), sparse.ys, sparse.pair_sizes,
              scratch->pair_starts, scratch->keys, scratch->slots, entries, scratch->sparse_slots, slots_per_pair,
              scratch->room, std::uint32_t(table));
      },
      [=, &device](Sequence& s) {
        radix_sort(device, s, scratch->keys, scratch->slots, SortOptions{0, std::uint32_t(y_bits(k))});
      },
      [=](Sequence& s) {
        s.run(detail::subspace_ties_kernel(invocations), grid(scratch->room), scratch->keys, scratch->slots,
              sparse.parents, scratch->room);
      },
      [=](Sequence& s) {
        s.run(detail::subspace_gather_kernel(k, table, invocations), grid(scratch->room), scratch->keys,
              scratch->slots, sparse.parents, below.ys, below.metadata, below.xs, dense.ys, dense.parents,
              dense.metadata, scratch->room);
      },
  };
}

}  // namespace sprig::pos

#include "sprig/stdlib/pos/subspace.hpp"

#include <memory>
#include <string>

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

const SubspaceYLeftKeysKernel& subspace_y_left_keys_kernel(std::uint32_t invocations) {
  std::string name = "pos_subspace_y_left_keys";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys, ReadBuffer<std::uint32_t> parents, ReadBuffer<std::uint32_t> pair_sizes,
            WriteBuffer<std::uint64_t> keys, WriteBuffer<std::uint32_t> values, UInt count, UInt slots_per_pair,
            UInt position_bits) {
          UInt p = global_id().x();
          if_(p < count, [&] {
            // A hole's slot is never read: the sparse table's transients hold nothing there.
            Var<std::uint64_t> key = ~std::uint64_t(0);
            if_(p % slots_per_pair < pair_sizes[p / slots_per_pair], [&] {
              key = (cast<std::uint64_t>(ys[p].load()) << cast<std::uint64_t>(position_bits)) |
                    cast<std::uint64_t>(parents[p * 2u].load());
            });
            keys[p] = key.load();
            values[p] = p;
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<SubspaceYLeftKeysKernel>(name + "/" + std::to_string(invocations), trace);
}

const SubspaceRightTiesKernel& subspace_right_ties_kernel(std::uint32_t invocations) {
  std::string name = "pos_subspace_right_ties";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint64_t> keys, Buffer<std::uint32_t> slots, ReadBuffer<std::uint32_t> parents,
            UInt count) {
          UInt j = global_id().x();
          if_(j >= count, [] { return_(); });
          ULong key = keys[j];
          if_(key == ~std::uint64_t(0), [] { return_(); });  // holes need no order
          if_(j > 0u, [&] { if_(keys[j - 1u] == key, [] { return_(); }); });  // not the first of its run
          Var<std::uint32_t> end = j + 1u;
          while_([&] { return end < count; }, [&] {
            if_(keys[end] != key, [] { break_(); });
            end = end + 1u;
          });
          // An insertion sort of the run by right parent: runs are one entry but for y
          // collisions between matches of one left entry.
          for_(j + 1u, end.load(), [&](UInt i) {
            UInt moving = slots[i];
            UInt right = parents[moving * 2u + 1u];
            Var<std::uint32_t> at = i;
            while_([&] { return at > j; }, [&] {  // never below j: the run before is another's
              UInt before = slots[at - 1u];
              if_(parents[before * 2u + 1u] <= right, [] { break_(); });
              slots[at] = before;
              at = at - 1u;
            });
            slots[at] = moving;
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<SubspaceRightTiesKernel>(name + "/" + std::to_string(invocations), trace);
}

const SubspaceGatherKernel& subspace_gather_kernel(int k, int table, std::uint32_t invocations) {
  std::string name = "pos_subspace_gather_t" + std::to_string(table);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint64_t> keys, ReadBuffer<std::uint32_t> slots, ReadBuffer<std::uint32_t> ys,
            ReadBuffer<std::uint32_t> parents, ReadBuffer<std::uint32_t> metadata, WriteBuffer<std::uint32_t> dense_ys,
            WriteBuffer<std::uint32_t> dense_parents, WriteBuffer<std::uint32_t> dense_metadata, UInt count) {
          UInt j = global_id().x();
          if_(j < count, [&] {
            UInt slot = slots[j];
            Bool present = keys[j] != ~std::uint64_t(0);
            if_(present, [&] {
              dense_ys[j] = ys[slot].load();
              dense_parents[j * 2u] = parents[slot * 2u].load();
              dense_parents[j * 2u + 1u] = parents[slot * 2u + 1u].load();
              const std::uint32_t words = metadata_words(k, table);
              for (unsigned w = 0; w < words; ++w) dense_metadata[j * words + w] = metadata[slot * words + w].load();
            }).else_([&] { dense_ys[j] = ~0u; });
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
  DeviceBuffer<std::uint64_t> y_left_keys;
  DeviceBuffer<std::uint32_t> slots_in_order;
};

}  // namespace

std::vector<RecordStep> subspace_table1_steps(Device& device, int k, const DeviceBuffer<std::uint32_t>& ys,
                                              const DeviceBuffer<std::uint32_t>& xs) {
  return {
      [&](Sequence& s) { s.run(detail::iota_kernel(elementwise_invocations(device.info())), grid(xs.size()), xs); },
      [&, k](Sequence& s) { radix_sort(device, s, ys, xs, SortOptions{0, std::uint32_t(y_bits(k))}); },
  };
}

std::vector<RecordStep> subspace_renumber_steps(Device& device, int k, int table, SparseTable sparse, DenseTable dense,
                                                std::uint32_t count) {
  const std::uint32_t slots_per_pair = matches_per_pair(Mode::Subspace);
  // Positions stay below 2^(K + 2) (at most 512 matches for each of 2^(K+6) / 15113 pairs),
  // so a (y, left) key needs K + 6 + K + 2 bits; a hole's all-ones key sorts after them all.
  const auto position_bits = std::uint32_t(k + 2), y_left_bits = std::uint32_t(k + 2 + y_bits(k));
  const std::uint32_t invocations = elementwise_invocations(device.info());
  auto scratch = std::make_shared<RenumberScratch>();
  return {
      [=](Sequence& s) {
        *scratch = {s.transient<std::uint64_t>(count, "renumbering (y, left) keys"),
                    s.transient<std::uint32_t>(count, "renumbering slots in order")};
        s.run(detail::subspace_y_left_keys_kernel(invocations), grid(count), sparse.ys, sparse.parents,
              sparse.pair_sizes, scratch->y_left_keys, scratch->slots_in_order, count, slots_per_pair, position_bits);
      },
      [=, &device](Sequence& s) {
        radix_sort(device, s, scratch->y_left_keys, scratch->slots_in_order, SortOptions{0, y_left_bits});
      },
      [=](Sequence& s) {
        s.run(detail::subspace_right_ties_kernel(invocations), grid(count), scratch->y_left_keys,
              scratch->slots_in_order, sparse.parents, count);
      },
      [=](Sequence& s) {
        s.run(detail::subspace_gather_kernel(k, table, invocations), grid(count), scratch->y_left_keys,
              scratch->slots_in_order, sparse.ys, sparse.parents, sparse.metadata, dense.ys, dense.parents,
              dense.metadata, count);
      },
  };
}

}  // namespace sprig::pos

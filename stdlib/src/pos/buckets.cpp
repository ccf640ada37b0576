#include "sprig/stdlib/pos/buckets.hpp"

#include <bit>
#include <memory>
#include <string>

namespace sprig::pos {

std::uint32_t bucket_key_bits(int k) { return std::uint32_t(std::bit_width(num_buckets(k))); }
std::uint32_t hole_key(int k) { return (1u << bucket_key_bits(k)) - 1u; }

namespace detail {

const BucketKeysKernel& bucket_keys_kernel(std::uint32_t invocations) {
  std::string name = "pos_bucket_keys";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys, ReadBuffer<std::uint32_t> pair_sizes, WriteBuffer<std::uint32_t> keys,
            WriteBuffer<std::uint32_t> values, UInt count, UInt slots_per_pair, UInt hole) {
          UInt p = global_id().x();
          if_(p < count, [&] {
            // A hole's y is never read: a table's transient ys hold nothing there.
            Var<std::uint32_t> present = 1u;
            if_(slots_per_pair != 0u,
                [&] { if_(p % slots_per_pair >= pair_sizes[p / slots_per_pair], [&] { present = 0u; }); });
            Var<std::uint32_t> key = hole;
            if_(present != 0u, [&] { key = min(ys[p] / param_bc, hole); });  // an all-ones y: no entry
            keys[p] = key.load();
            values[p] = p;
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketKeysKernel>(name + "/" + std::to_string(invocations), trace);
}

const BucketRunsKernel& bucket_runs_kernel(std::uint32_t invocations) {
  std::string name = "pos_bucket_runs";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keys, WriteBuffer<std::uint32_t> starts, WriteBuffer<std::uint32_t> ends,
            UInt count, UInt hole) {
          UInt j = global_id().x();
          if_(j < count, [&] {
            UInt key = keys[j];
            if_(key != hole, [&] {
              if_(j == 0u, [&] { starts[key] = j; }).else_([&] { if_(keys[j - 1u] != key, [&] { starts[key] = j; }); });
              if_(j + 1u == count, [&] { ends[key] = j + 1u; }).else_([&] {
                if_(keys[j + 1u] != key, [&] { ends[key] = j + 1u; });
              });
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketRunsKernel>(name + "/" + std::to_string(invocations), trace);
}

const BucketSlotsKernel& bucket_slots_kernel(std::uint32_t invocations) {
  std::string name = "pos_bucket_slots";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keys, ReadBuffer<std::uint32_t> values, ReadBuffer<std::uint32_t> ys,
            ReadBuffer<std::uint32_t> starts, ReadBuffer<std::uint32_t> ends, WriteBuffer<std::uint32_t> slots,
            WriteBuffer<std::uint32_t> sizes, UInt count, UInt hole, UInt capacity) {
          UInt j = global_id().x();
          if_(j < count, [&] {
            UInt key = keys[j];
            if_(key != hole, [&] {
              UInt rank = j - starts[key];
              if_(rank < capacity, [&] {
                UInt position = values[j];
                UInt slot = (key * capacity + rank) * slot_words;
                slots[slot] = position;
                slots[slot + 1u] = ys[position].load();
              });
              if_(rank == 0u, [&] { sizes[key] = min(ends[key] - j, capacity); });
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketSlotsKernel>(name + "/" + std::to_string(invocations), trace);
}

}  // namespace detail

Buckets transient_buckets(Sequence& sequence, int k, Mode mode, const std::string& name) {
  return {sequence.transient<std::uint32_t>(std::size_t(num_buckets(k)) * bucket_capacity(mode) * slot_words,
                                            name + " bucket slots"),
          sequence.transient<std::uint32_t>(num_buckets(k), name + " bucket sizes")};
}

namespace {

// The bucketing's temporaries, made by its first step and shared by the others.
struct BucketScratch {
  DeviceBuffer<std::uint32_t> keys, values, starts, ends;
};

}  // namespace

std::vector<RecordStep> bucketing_steps(Device& device, int k, Mode mode, const DeviceBuffer<std::uint32_t>& ys,
                                        const DeviceBuffer<std::uint32_t>& pair_sizes, std::uint32_t slots_per_pair,
                                        std::uint32_t count, const Buckets& out) {
  const std::uint32_t hole = hole_key(k), capacity = bucket_capacity(mode);
  const std::uint32_t invocations = elementwise_invocations(device.info());
  auto scratch = std::make_shared<BucketScratch>();
  std::vector<RecordStep> steps{
      [&, scratch, k, count, hole, slots_per_pair, invocations](Sequence& s) {
        *scratch = {s.transient<std::uint32_t>(count, "bucketing keys"),
                    s.transient<std::uint32_t>(count, "bucketing positions"),
                    s.transient<std::uint32_t>(num_buckets(k), "bucketing run starts"),
                    s.transient<std::uint32_t>(num_buckets(k), "bucketing run ends")};
        s.run(detail::bucket_keys_kernel(invocations), grid(count), ys, pair_sizes, scratch->keys, scratch->values,
              count, slots_per_pair, hole);
      },
      [&, scratch, count, hole, invocations](Sequence& s) {
        s.fill(scratch->starts, 0);
        s.fill(scratch->ends, 0);
        s.fill(out.sizes, 0);
        s.run(detail::bucket_runs_kernel(invocations), grid(count), scratch->keys, scratch->starts, scratch->ends,
              count, hole);
      },
      [&, scratch, count, hole, capacity, invocations](Sequence& s) {
        s.run(detail::bucket_slots_kernel(invocations), grid(count), scratch->keys, scratch->values, ys,
              scratch->starts, scratch->ends, out.slots, out.sizes, count, hole, capacity);
      },
  };
  if (mode == Mode::Abundance)
    steps.insert(steps.begin() + 1, [&device, scratch, k](Sequence& s) {
      radix_sort(device, s, scratch->keys, scratch->values, SortOptions{0, bucket_key_bits(k)});
    });
  return steps;
}

}  // namespace sprig::pos

// A point set prepared for MSMs whose points stay fixed while the scalars change, as a
// prover's setup points do: for every window w of c bits, the multiples 2^(c w) P_i, in
// affine coordinates. An MSM over the table (msm.hpp) puts the digit of window w of scalar
// i into one set of 2^(c-1) buckets with the point 2^(c w) P_i, so that
//
//   sum_i k_i P_i = sum_w sum_i d_(w,i) 2^(c w) P_i = sum_j j B_j      (one set of buckets)
//
// is one bucket reduction, with no Horner's rule (c doublings a window, a chain that runs
// alone on the GPU) and with one window's reduction instead of W. The same mixed additions
// as without a table, but the buckets no longer multiply with the windows, so the table
// takes wider windows, hence fewer: msm_table_window_bits (docs/msm.md, "A table of window
// multiples", has the measurements).
//
//   auto table = curve::msm_table<curve::Bn254G1>(device, points);   // W n affine points
//   auto result = curve::msm<curve::Bn254G1>(device, table, scalars);
//
// The table holds W n points of 2 field elements (64 bytes each for BN254: 13 n at c = 20,
// 832 MiB for 2^20 points), in parts of whole windows that each fit one binding (the
// H100's 4 GiB holds three windows of 2^24 BN254 points); each batch of windows binds the
// part that holds them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/curve/batch_affine.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/point_steps.hpp"
#include "sprig/stdlib/curve/xyzz_point.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve {

struct MsmTableOptions {
  // Bits per window, c (2 to 24); 0: msm_table_window_bits.
  std::uint32_t window_bits = 0;
  // The field products of the doublings that make the table (the MSM's own are its options').
  field::ProductLimbs product_limbs = field::ProductLimbs::Auto;
  // Bytes a part may hold at most; 0: the device's largest binding.
  std::uint64_t part_bytes = 0;
};

template <ShortWeierstrass C>
struct MsmTable {
  // 2^(c w) P_i in part w / windows_per_part, at (w % windows_per_part) n + i.
  std::vector<DeviceBuffer<Affine<C>>> parts;
  std::uint64_t points = 0;              // n
  std::uint32_t window_bits = 0;         // c
  std::uint32_t windows = 0;             // W
  std::uint32_t windows_per_part = 0;

  std::uint64_t bytes() const {
    std::uint64_t sum = 0;
    for (const auto& part : parts) sum += part.bytes();
    return sum;
  }
};

// The c of 2..24 that minimises the work in mixed additions over a table, W n + 2.8 2^(c-1):
// as msm_window_bits counts it, but with one set of buckets for all windows.
template <ShortWeierstrass C>
std::uint32_t msm_table_window_bits(std::uint64_t n) {
  std::uint32_t best = 2;
  double best_cost = 1e300;
  for (std::uint32_t c = 2; c <= 24; ++c) {
    double cost = double(detail::window_count(detail::scalar_bits<C>(), c)) * double(n) +
                  2.8 * double(std::uint64_t(1) << (c - 1));
    if (cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

namespace detail {

// doubled[i] = 2^c table[first + i] for i < n, in XYZZ coordinates.
template <ShortWeierstrass C>
const auto& window_multiples_kernel() {
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_window_multiples",
        [](ReadBuffer<Affine<C>> table, WriteBuffer<Xyzz<C>> doubled, UInt first, UInt n, UInt c) {
          UInt i = msm_invocation();
          if_(i < n, [&] {
            Var<Xyzz<C>> point = XyzzPoint<C>(table[first + i]);
            for_(0u, c, [&](UInt) { point = double_point<C>(point.load()); });
            doubled[i] = point.load();
          });
        },
        workgroup(msm_workgroup_size).names("table", "doubled", "first", "n", "c"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_window_multiples"), trace);
}

}  // namespace detail

// The table of `points`. The points are any affine points, the point at infinity (0, 0)
// among them. Throws std::invalid_argument for no points, a window size outside 2..24, or
// one window of the points larger than a part may be, naming the sizes.
template <ShortWeierstrass C>
MsmTable<C> msm_table(Device& device, const DeviceBuffer<Affine<C>>& points, const MsmTableOptions& options = {}) {
  const std::string what = std::string(C::name) + " msm_table: ";
  const std::uint64_t n = points.size();
  if (n == 0) throw std::invalid_argument(what + "no points");
  MsmTable<C> table;
  table.points = n;
  table.window_bits = options.window_bits ? options.window_bits : msm_table_window_bits<C>(n);
  if (table.window_bits < 2 || table.window_bits > 24)
    throw std::invalid_argument(what + "window_bits must be 2 to 24, not " + std::to_string(table.window_bits));
  table.windows = detail::window_count(detail::scalar_bits<C>(), table.window_bits);
  // Whole windows to a part, as many as one binding holds; entries carry a sign in their
  // top bit, so an index into a part stays below it.
  const std::uint64_t window_bytes = n * sizeof(Affine<C>), binding = device.info().max_buffer_bytes;
  const std::uint64_t part_bytes = options.part_bytes ? std::min(options.part_bytes, binding) : binding;
  const std::uint64_t per_part =
      std::min<std::uint64_t>({part_bytes / window_bytes, (detail::msm_sign_bit - 1) / n, table.windows});
  if (per_part == 0)
    throw std::invalid_argument(what + std::to_string(n) + " points make windows of " + std::to_string(window_bytes) +
                                " bytes, above the " + std::to_string(part_bytes) + " bytes a part may hold (" +
                                device.info().name + " binds " + std::to_string(binding) + " at once)");
  table.windows_per_part = std::uint32_t(per_part);
  field::ProductLimbsScope scope(
      field::product_limbs_for(device.info(), field::FieldConstants<typename C::Base>::limbs, options.product_limbs));
  for (std::uint32_t first = 0; first < table.windows; first += table.windows_per_part)
    table.parts.push_back(
        device.alloc<Affine<C>>(std::min(table.windows_per_part, table.windows - first) * n, "msm table"));
  auto sequence = device.sequence();
  auto doubled = sequence.transient<Xyzz<C>>(n, "msm table doublings");
  auto affine = sequence.transient<Affine<C>>(n, "msm table window");
  auto part_of = [&](std::uint32_t w) -> DeviceBuffer<Affine<C>>& { return table.parts[w / table.windows_per_part]; };
  auto offset_of = [&](std::uint32_t w) { return std::uint64_t(w % table.windows_per_part) * n; };
  sequence.copy(points, 0, table.parts[0], 0, window_bytes);
  for (std::uint32_t w = 1; w < table.windows; ++w) {
    sequence.run(detail::window_multiples_kernel<C>(), detail::msm_grid(n), part_of(w - 1), doubled,
                 std::uint32_t(offset_of(w - 1)), std::uint32_t(n), table.window_bits);
    to_affine(device, sequence, doubled, affine);
    sequence.copy(affine, 0, part_of(w), offset_of(w) * sizeof(Affine<C>), window_bytes);
  }
  sequence.run_and_wait();
  return table;
}

}  // namespace sprig::curve

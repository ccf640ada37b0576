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
// 832 MiB for 2^20 points), in one binding.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/curve/batch_affine.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/point_steps.hpp"
#include "sprig/stdlib/curve/xyzz_point.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve {

template <ShortWeierstrass C>
struct MsmTable {
  DeviceBuffer<Affine<C>> multiples;  // 2^(c w) P_i at w n + i
  std::uint64_t points = 0;           // n
  std::uint32_t window_bits = 0;      // c
  std::uint32_t windows = 0;          // W
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

// The table of `points` for windows of `window_bits` bits (0: msm_table_window_bits). The
// points are any affine points, the point at infinity (0, 0) among them. Throws
// std::invalid_argument for no points, a window size outside 2..24, or a table larger than
// the device binds at once, naming the sizes.
template <ShortWeierstrass C>
MsmTable<C> msm_table(Device& device, const DeviceBuffer<Affine<C>>& points, std::uint32_t window_bits = 0,
                      field::ProductLimbs limbs = field::ProductLimbs::Auto) {
  const std::string what = std::string(C::name) + " msm_table: ";
  const std::uint64_t n = points.size();
  if (n == 0) throw std::invalid_argument(what + "no points");
  MsmTable<C> table;
  table.points = n;
  table.window_bits = window_bits ? window_bits : msm_table_window_bits<C>(n);
  if (table.window_bits < 2 || table.window_bits > 24)
    throw std::invalid_argument(what + "window_bits must be 2 to 24, not " + std::to_string(table.window_bits));
  table.windows = detail::window_count(detail::scalar_bits<C>(), table.window_bits);
  const std::uint64_t count = n * table.windows, bytes = count * sizeof(Affine<C>);
  // Entries carry a sign in their top bit, so a table index must stay below it.
  if (count >= detail::msm_sign_bit || bytes > device.info().max_buffer_bytes)
    throw std::invalid_argument(what + std::to_string(n) + " points in " + std::to_string(table.windows) +
                                " windows of " + std::to_string(table.window_bits) + " bits need a table of " +
                                std::to_string(count) + " points (" + std::to_string(bytes) + " bytes), above the " +
                                std::to_string(device.info().max_buffer_bytes) + " bytes that " + device.info().name +
                                " binds at once or the 2^31 points an entry can name; take wider windows or fewer points");
  field::ProductLimbsScope scope(
      field::product_limbs_for(device.info(), field::FieldConstants<typename C::Base>::limbs, limbs));
  table.multiples = device.alloc<Affine<C>>(count, "msm table");
  auto sequence = device.sequence();
  auto doubled = sequence.transient<Xyzz<C>>(n, "msm table doublings");
  auto affine = sequence.transient<Affine<C>>(n, "msm table window");
  sequence.copy(points, 0, table.multiples, 0, n * sizeof(Affine<C>));
  for (std::uint32_t w = 1; w < table.windows; ++w) {
    sequence.run(detail::window_multiples_kernel<C>(), detail::msm_grid(n), table.multiples, doubled,
                 std::uint32_t((w - 1) * n), std::uint32_t(n), table.window_bits);
    to_affine(device, sequence, doubled, affine);
    sequence.copy(affine, 0, table.multiples, w * n * sizeof(Affine<C>), n * sizeof(Affine<C>));
  }
  sequence.run_and_wait();
  return table;
}

}  // namespace sprig::curve

// Points for the curve benchmarks: points[i] = (i + 1) G, made on the device (32 doublings
// and additions each, cheap next to what the benchmarks then time).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/curve/curve.hpp>

namespace curve_bench {

template <class G1>
const auto& multiples_kernel() {
  using namespace sprig;
  auto trace = [] {
    return kernel("bench_multiples_of_g", [](Buffer<curve::Affine<G1>> points, UInt first, UInt count) {
      UInt i = first + global_id().x();
      if_(i < first + count, [&] {
        std::array<UInt, 1> k{i + 1u};
        points[i] = curve::scalar_multiply(curve::AffinePoint<G1>::generator(), k).to_affine();
      });
    }, workgroup(64));
  };
  return sprig::detail::cached_kernel<decltype(trace())>("bench/msm_multiples/" + std::string(G1::name), trace);
}

// (1 G, 2 G, ..., n G) on `device`, in launches of 2^20 points.
template <class G1>
sprig::DeviceBuffer<sprig::curve::Affine<G1>> multiples_of_generator(sprig::Device& device, std::size_t n) {
  auto points = device.alloc<sprig::curve::Affine<G1>>(n);
  for (std::size_t first = 0; first < n; first += std::size_t(1) << 20) {
    std::size_t count = std::min<std::size_t>(n - first, std::size_t(1) << 20);
    device.run(multiples_kernel<G1>(), sprig::grid(count), points, std::uint32_t(first), std::uint32_t(count));
  }
  return points;
}

}  // namespace curve_bench

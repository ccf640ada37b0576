// A multi-scalar multiplication, sum_i k_i P_i over BN254 G1, on the best Vulkan device and
// on the simulator: the two must give the same point (the exit code says whether they do).
// The points are (i + 1) G, computed on the device; the scalars come from a fixed seed.
#include <cstdio>
#include <random>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/curve/curve.hpp>
#include <sprig/stdlib/curve/msm.hpp>

using namespace sprig;
using G1 = curve::Bn254G1;

namespace {

// points[i] = (i + 1) G, by double-and-add over the 32 bits of i + 1.
auto multiples_kernel() {
  return kernel("multiples_of_g", [](Buffer<curve::Affine<G1>> points) {
    UInt i = global_id().x();
    if_(i < points.size(), [&] {
      std::array<UInt, 1> k{i + 1u};
      points[i] = curve::scalar_multiply(curve::AffinePoint<G1>::generator(), k).to_affine();
    });
  }, workgroup(64));
}

curve::Affine<G1> run_msm(Device& device, const std::vector<curve::MsmScalar<G1>>& scalars) {
  auto points = device.alloc<curve::Affine<G1>>(scalars.size());
  device.run(multiples_kernel(), grid(scalars.size()), points);
  curve::MsmResult<G1> result = curve::msm<G1>(device, points, device.upload(scalars));
  std::printf("%s: windows of %u bits, %u batch(es), %llu bytes of temporaries\n", device.name().c_str(),
              result.window_bits, result.batches, static_cast<unsigned long long>(result.peak_device_bytes));
  return result.point;
}

}  // namespace

int main() {
  const std::size_t n = 300;
  std::mt19937 random(2024);
  std::vector<curve::MsmScalar<G1>> scalars(n);
  for (auto& k : scalars) {
    for (auto& limb : k.limbs) limb = random();
    k.limbs[7] &= 0x0fffffffu;  // below 2^252 < r; larger values would be reduced modulo r
  }
  vk::Device gpu = vk::Device::best();
  sim::Device simulator;
  curve::Affine<G1> on_gpu = run_msm(gpu, scalars), on_simulator = run_msm(simulator, scalars);
  bool agree = on_gpu == on_simulator;
  std::printf("sum: x = %s\n     y = %s\n%s and the simulator %s\n", on_gpu.canonical_x().hex().c_str(),
              on_gpu.canonical_y().hex().c_str(), gpu.name().c_str(), agree ? "agree" : "DISAGREE");
  return agree && !on_gpu.is_infinity() ? 0 : 1;
}

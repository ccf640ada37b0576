// saxpy: y = a * x + y over a million floats, on the best Vulkan device.
#include <cstdio>
#include <vector>

#include <sprig/sprig.hpp>

using namespace sprig;

int main() {
  auto saxpy = kernel("saxpy", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  }, workgroup(256));

  const std::size_t n = 1 << 20;
  std::vector<float> host_x(n), host_y(n);
  for (std::size_t i = 0; i < n; ++i) {
    host_x[i] = float(i);
    host_y[i] = 1.0f;
  }

  vk::Device gpu = vk::Device::best();
  auto x = gpu.upload(host_x);
  auto y = gpu.upload(host_y);
  gpu.run(saxpy, grid(n), 2.0f, x, y);
  std::vector<float> result = gpu.download(y);

  std::printf("saxpy on %s: y[0] = %g, y[%zu] = %g\n", gpu.name().c_str(), result[0], n - 1, result[n - 1]);
  return result[n - 1] == 2.0f * float(n - 1) + 1.0f ? 0 : 1;
}

// Renders the Mandelbrot set on the best Vulkan device and writes mandelbrot.ppm.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "mandelbrot.hpp"

int main(int argc, char** argv) {
  using namespace sprig;
  std::string path = argc > 1 ? argv[1] : "mandelbrot.ppm";
  examples::View view{-2.2f, -1.2f, 2.4f / 600.0f, 800, 600, 256};

  vk::Device gpu = vk::Device::best();
  auto iterations = gpu.alloc<std::uint32_t>(std::size_t(view.width) * view.height);
  gpu.run(examples::mandelbrot_kernel(), grid(view.width, view.height), view, iterations);
  std::vector<std::uint32_t> n = gpu.download(iterations);

  std::ofstream out(path, std::ios::binary);
  out << "P6\n" << view.width << " " << view.height << "\n255\n";
  for (std::uint32_t k : n) {
    unsigned char shade = k >= view.max_iterations ? 0 : static_cast<unsigned char>(255 - (k * 255) / view.max_iterations);
    unsigned char rgb[3] = {shade, static_cast<unsigned char>(shade / 2), static_cast<unsigned char>(255 - shade)};
    out.write(reinterpret_cast<const char*>(rgb), 3);
  }
  if (!out) {
    std::fprintf(stderr, "could not write %s\n", path.c_str());
    return 1;
  }
  std::printf("wrote %s (%ux%u) on %s\n", path.c_str(), view.width, view.height, gpu.name().c_str());
  return 0;
}

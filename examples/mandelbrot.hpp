// The Mandelbrot kernel shared by the examples: an escape-time loop per pixel.
#pragma once

#include <sprig/sprig.hpp>

namespace examples {

struct View {
  float x0, y0, scale;
  std::uint32_t width, height, max_iterations;
};
SPRIG_STRUCT(View, x0, y0, scale, width, height, max_iterations)

inline auto mandelbrot_kernel() {
  using namespace sprig;
  return kernel("mandelbrot", [](Expr<View> view, WriteBuffer<std::uint32_t> iterations) {
    UInt px = global_id().x(), py = global_id().y();
    if_(px < view[&View::width] && py < view[&View::height], [&] {
      Float cx = view[&View::x0] + cast<float>(px) * view[&View::scale];
      Float cy = view[&View::y0] + cast<float>(py) * view[&View::scale];
      Var<Float> zx = 0.0f, zy = 0.0f;
      Var<UInt> n = 0u;
      while_([&] { return n < view[&View::max_iterations] && zx * zx + zy * zy <= 4.0f; }, [&] {
        Float t = zx * zx - zy * zy + cx;
        zy = 2.0f * zx * zy + cy;
        zx = t;
        n += 1u;
      });
      iterations[py * view[&View::width] + px] = n;
    });
  }, workgroup(16, 16));
}

}  // namespace examples

// Precise-float kernels on both backends: division and square root of operands read from
// memory equal the host's IEEE-754 results bit for bit (any NaN where the host has a NaN),
// over fixed-seed random bit patterns and the edge cases; math built from them and the
// Mandelbrot example match a host evaluation in the same order. This file is compiled
// with -ffp-contract=off, so the host references are not contracted either.
#include <bit>
#include <cmath>
#include <random>

#include "../../examples/mandelbrot.hpp"
#include "backends.hpp"

using namespace sprig;

namespace {

float from_bits(std::uint32_t bits) { return std::bit_cast<float>(bits); }
std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }

// Zeros, subnormals, normals at both ends, infinities, NaNs, and ordinary numbers.
std::vector<float> edge_values() {
  std::vector<std::uint32_t> magnitudes{
      0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x00000007, 0x00400000, 0x00400001, 0x007fffff, 0x00800000,
      0x00800001, 0x00ffffff, 0x01000000, 0x33800000, 0x34000000, 0x3f000000, 0x3f7fffff, 0x3f800000, 0x3f800001,
      0x3fc00000, 0x40000000, 0x40400000, 0x40490fdb, 0x3dcccccd, 0x4b7fffff, 0x4b800000, 0x7e800000, 0x7effffff,
      0x7f000000, 0x7f7ffffe, 0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fc00000, 0x7fffffff};
  std::vector<float> values;
  for (std::uint32_t m : magnitudes) {
    values.push_back(from_bits(m));
    values.push_back(from_bits(m | 0x80000000u));
  }
  return values;
}

// A device result matches the host's when the bits are equal, or both are NaNs.
bool same(float device, float host) { return std::isnan(host) ? std::isnan(device) : bits_of(device) == bits_of(host); }

std::size_t mismatches(const std::vector<float>& device, const std::vector<float>& host, std::string& first) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < host.size(); ++i) {
    if (same(device[i], host[i])) continue;
    if (count++ == 0) first = "element " + std::to_string(i);
    if (count == 1) first += ": device bits " + std::to_string(bits_of(device[i])) + ", host " + std::to_string(bits_of(host[i]));
  }
  return count;
}

struct Pairs {
  std::vector<float> a, b;
  void add(float x, float y) {
    a.push_back(x);
    b.push_back(y);
  }
};

Pairs division_operands() {
  Pairs p;
  std::vector<float> edges = edge_values();
  for (float x : edges)
    for (float y : edges) p.add(x, y);
  std::mt19937 random(20261125);
  std::uniform_int_distribution<std::uint32_t> any_bits;
  for (int i = 0; i < 60000; ++i) p.add(from_bits(any_bits(random)), from_bits(any_bits(random)));
  // Quotients near and beyond both ends of the range: overflow, underflow into subnormals
  // and to zero, with exponents chosen so that results land there.
  std::uniform_int_distribution<std::uint32_t> fraction(0, 0x7fffff), sign(0, 1);
  for (int i = 0; i < 20000; ++i) {
    std::uint32_t ea = std::uniform_int_distribution<std::uint32_t>(0, 254)(random);
    std::int32_t shift = std::uniform_int_distribution<std::int32_t>(100, 160)(random) * (i % 2 ? 1 : -1);
    std::uint32_t eb = std::uint32_t(std::clamp<std::int32_t>(std::int32_t(ea) - shift, 0, 254));
    p.add(from_bits(sign(random) << 31 | ea << 23 | fraction(random)), from_bits(sign(random) << 31 | eb << 23 | fraction(random)));
  }
  // Exact quotients, and subnormal results exactly halfway between two neighbours (ties
  // go to the even one): k * 2^-149 / 2 and / 4.
  for (std::uint32_t k = 1; k < 2000; ++k) {
    float y = float(k % 97 + 1);
    p.add(float(k) * y, y);
    p.add(from_bits(k), 2.0f);
    p.add(from_bits(k), 4.0f);
    p.add(from_bits(k * 4099u), -1024.0f);
    p.add(from_bits(0x00800000u + k), 2.0f);
  }
  return p;
}

std::vector<float> sqrt_operands() {
  std::vector<float> values = edge_values();
  std::mt19937 random(20261126);
  std::uniform_int_distribution<std::uint32_t> any_bits, positive(0, 0x7f800000);
  for (int i = 0; i < 50000; ++i) values.push_back(from_bits(any_bits(random)));
  for (int i = 0; i < 50000; ++i) values.push_back(from_bits(positive(random)));
  for (std::uint32_t k = 1; k < 4096; ++k) {
    values.push_back(float(k) * float(k));                // perfect squares
    values.push_back(from_bits(k));                       // subnormals
    values.push_back(from_bits(0x7f7fffffu - k * 997u));  // near the largest finite number
  }
  return values;
}

}  // namespace

TEST_CASE("precise division equals IEEE-754 binary32 bit for bit") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("precise_divide", [](ReadBuffer<float> a, ReadBuffer<float> b, WriteBuffer<float> q) {
    UInt i = global_id().x();
    if_(i < a.size(), [&] { q[i] = a[i] / b[i]; });
  }, workgroup(64).precise());
  Pairs p = division_operands();
  std::vector<float> host(p.a.size());
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = p.a[i] / p.b[i];
  std::vector<float> device = test::outputs<float>(dev, k, host.size(), grid(host.size()), dev.upload(p.a), dev.upload(p.b));
  std::string first;
  CHECK(mismatches(device, host, first) == 0);
  INFO(first);
  CHECK(first.empty());
}

TEST_CASE("precise square root equals IEEE-754 binary32 bit for bit") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("precise_sqrt", [](ReadBuffer<float> x, WriteBuffer<float> root) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { root[i] = sqrt(x[i]); });
  }, workgroup(64).precise());
  std::vector<float> x = sqrt_operands(), host(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) host[i] = std::sqrt(x[i]);
  std::vector<float> device = test::outputs<float>(dev, k, x.size(), grid(x.size()), dev.upload(x));
  std::string first;
  CHECK(mismatches(device, host, first) == 0);
  INFO(first);
  CHECK(first.empty());
}

TEST_CASE("precise vector division, inversesqrt, length, normalize, mix and dot follow the simulator's order") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("precise_vector_math",
                  [](ReadBuffer<vec4> a, ReadBuffer<vec4> b, WriteBuffer<vec4> out, WriteBuffer<float> scalars) {
    UInt i = global_id().x();
    if_(i < a.size(), [&] {
      Vec4 x = a[i], y = b[i];
      out[3u * i] = x / y;
      out[3u * i + 1u] = normalize(x);
      out[3u * i + 2u] = mix(x, y, y.w());
      scalars[4u * i] = dot(x, y);
      scalars[4u * i + 1u] = length(x);
      scalars[4u * i + 2u] = inversesqrt(y.x());
      scalars[4u * i + 3u] = distance(x, y);
    });
  }, workgroup(64).precise());
  std::mt19937 random(7);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  std::vector<vec4> a(4096), b(4096), host;
  std::vector<float> host_scalars;
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = vec4{value(random), value(random), value(random), value(random)};
    b[i] = vec4{value(random), value(random), value(random), std::abs(value(random)) / 100.0f};
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const vec4 &x = a[i], &y = b[i];
    float dot = x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
    float self = x.x * x.x + x.y * x.y + x.z * x.z + x.w * x.w, length = std::sqrt(self);
    vec4 d{x.x - y.x, x.y - y.y, x.z - y.z, x.w - y.w};
    float distance = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z + d.w * d.w);
    float t = y.w, u = 1.0f - t;
    host.push_back(vec4{x.x / y.x, x.y / y.y, x.z / y.z, x.w / y.w});
    host.push_back(vec4{x.x / length, x.y / length, x.z / length, x.w / length});
    host.push_back(vec4{x.x * u + y.x * t, x.y * u + y.y * t, x.z * u + y.z * t, x.w * u + y.w * t});
    host_scalars.insert(host_scalars.end(), {dot, length, 1.0f / std::sqrt(y.x), distance});
  }
  auto out = dev.upload(std::vector<vec4>(host.size()));
  auto scalars = dev.upload(std::vector<float>(host_scalars.size()));
  dev.run(k, grid(a.size()), dev.upload(a), dev.upload(b), out, scalars);
  std::vector<vec4> device = dev.download(out);
  std::vector<float> device_scalars = dev.download(scalars);
  std::size_t different = 0;
  for (std::size_t i = 0; i < host.size(); ++i) {
    const vec4 &d = device[i], &h = host[i];
    different += !same(d.x, h.x) || !same(d.y, h.y) || !same(d.z, h.z) || !same(d.w, h.w);
  }
  for (std::size_t i = 0; i < host_scalars.size(); ++i) different += !same(device_scalars[i], host_scalars[i]);
  CHECK(different == 0);
}

TEST_CASE("the Mandelbrot example in precise mode counts the host's iterations exactly") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  bool before = precise_floats_default();
  set_precise_floats(true);
  auto k = examples::mandelbrot_kernel();
  set_precise_floats(before);
  REQUIRE(k.ir()->precise_floats);
  examples::View view{-2.2f, -1.2f, 3.2f / 160.0f, 160, 120, 256};
  std::vector<std::uint32_t> host(view.width * view.height);
  for (std::uint32_t py = 0; py < view.height; ++py)
    for (std::uint32_t px = 0; px < view.width; ++px) {
      float cx = view.x0 + float(px) * view.scale, cy = view.y0 + float(py) * view.scale;
      float zx = 0, zy = 0;
      std::uint32_t n = 0;
      while (n < view.max_iterations && zx * zx + zy * zy <= 4.0f) {
        float t = zx * zx - zy * zy + cx;
        zy = 2.0f * zx * zy + cy;
        zx = t;
        ++n;
      }
      host[py * view.width + px] = n;
    }
  std::vector<std::uint32_t> device =
      test::outputs<std::uint32_t>(dev, k, host.size(), grid(view.width, view.height), view);
  std::size_t different = 0;
  for (std::size_t i = 0; i < host.size(); ++i) different += device[i] != host[i];
  CHECK(different == 0);
}

// Not a check: how far this device's plain (not precise) kernels are from IEEE-754, for
// the record (run with "[precise-report]").
TEST_CASE("plain float division, square root and products on this device, against IEEE-754", "[.][precise-report]") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  for (bool precise : {false, true}) {
    auto k = kernel("float_report", [](ReadBuffer<float> a, ReadBuffer<float> b, WriteBuffer<float> out) {
      UInt i = global_id().x();
      if_(i < a.size(), [&] {
        out[4u * i] = a[i] / b[i];
        out[4u * i + 1u] = sqrt(a[i]);
        out[4u * i + 2u] = a[i] * b[i];
        out[4u * i + 3u] = a[i] + b[i];
      });
    }, workgroup(64).precise(precise));
    Pairs p = division_operands();
    std::vector<float> host;
    std::vector<std::size_t> subnormal_operands(4), total(4);
    for (std::size_t i = 0; i < p.a.size(); ++i)
      host.insert(host.end(), {p.a[i] / p.b[i], std::sqrt(p.a[i]), p.a[i] * p.b[i], p.a[i] + p.b[i]});
    std::vector<float> device = test::outputs<float>(dev, k, host.size(), grid(p.a.size()), dev.upload(p.a), dev.upload(p.b));
    const char* names[] = {"/", "sqrt", "*", "+"};
    for (std::size_t i = 0; i < host.size(); ++i) {
      if (same(device[i], host[i])) continue;
      ++total[i % 4];
      std::size_t pair = i / 4;
      subnormal_operands[i % 4] += std::fpclassify(p.a[pair]) == FP_SUBNORMAL || std::fpclassify(p.b[pair]) == FP_SUBNORMAL ||
                                   std::fpclassify(host[i]) == FP_SUBNORMAL;
    }
    for (int op = 0; op < 4; ++op)
      WARN((precise ? "precise " : "plain ") << names[op] << ": " << total[op] << " of " << p.a.size()
                                             << " differ from IEEE-754 (" << subnormal_operands[op]
                                             << " with a subnormal operand or result)");
  }
}

namespace {

// A 32-bit mix (wrapping multiplies and xor-shifts) computed alike on the device and host.
template <class U>
U mix32(U x) {
  x = x * 0x9e3779b1u;
  x = x ^ (x >> 16u);
  x = x * 0x85ebca6bu;
  return x ^ (x >> 13u);
}

}  // namespace

// Long sweeps for a fast device (minutes on lavapipe): every f32 through sqrt, and 2^30
// division operand pairs from a hash, against the host. Run with "[precise-sweep]".
TEST_CASE("precise sqrt of every f32 and division of 2^30 hashed pairs equal IEEE-754", "[.][precise-sweep][vulkan]") {
  sprig::Device& dev = test::vulkan();
  constexpr std::uint32_t chunk = 1u << 23;  // 32768 workgroups: within every device's limit
  auto roots = kernel("sweep_sqrt", [](UInt base, WriteBuffer<float> out) {
    UInt i = global_id().x();
    out[i] = sqrt(bitcast<float>(base + i));
  }, workgroup(256).precise());
  auto quotients = kernel("sweep_divide", [](UInt base, WriteBuffer<float> out) {
    UInt i = base + global_id().x();
    out[global_id().x()] = bitcast<float>(mix32(i)) / bitcast<float>(mix32(i ^ 0x5bd1e995u));
  }, workgroup(256).precise());
  auto out = dev.alloc<float>(chunk);
  std::size_t sqrt_off = 0, divide_off = 0;
  for (std::uint64_t base = 0; base < (1ull << 32); base += chunk) {
    dev.run(roots, grid(chunk), std::uint32_t(base), out);
    std::vector<float> got = dev.download(out);
    for (std::uint32_t i = 0; i < chunk; ++i) sqrt_off += !same(got[i], std::sqrt(from_bits(std::uint32_t(base) + i)));
  }
  for (std::uint64_t base = 0; base < (1ull << 30); base += chunk) {
    dev.run(quotients, grid(chunk), std::uint32_t(base), out);
    std::vector<float> got = dev.download(out);
    for (std::uint32_t i = 0; i < chunk; ++i) {
      std::uint32_t n = std::uint32_t(base) + i;
      divide_off += !same(got[i], from_bits(mix32(n)) / from_bits(mix32(n ^ 0x5bd1e995u)));
    }
  }
  CHECK(sqrt_off == 0);
  CHECK(divide_off == 0);
}

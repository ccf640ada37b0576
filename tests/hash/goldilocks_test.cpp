// The Goldilocks field (p = 2^64 - 2^32 + 1) on the device, both paths (uint64 and 32-bit
// limbs), on both backends: edge values and random values against the plain C++ reference.
#include <random>

#include "backends.hpp"
#include "rescue_reference.hpp"
#include "sprig/stdlib/hash/goldilocks.hpp"
#include "sprig/stdlib/hash/goldilocks_u32.hpp"
#include "sprig/stdlib/hash/u64_words.hpp"

using namespace sprig;
using rescue_ref::u64;

namespace {

enum class FieldOp { Canonical, Add, Sub, Mul, Square, Pow7, PowInverseAlpha, PowZero };

// A kernel applying `op` to element pairs (a[i], b[i]), each two words (low, high).
template <class F>
auto field_kernel(FieldOp op) {
  return kernel("field_op", [op](ReadBuffer<std::uint32_t> a, ReadBuffer<std::uint32_t> b, Buffer<std::uint32_t> out) {
    Expr<std::uint32_t> i = global_id().x();
    if_(i < a.size() / 2u, [&] {
      typename F::Element x = F::from_words(a[2u * i], a[2u * i + 1u]);
      typename F::Element y = F::from_words(b[2u * i], b[2u * i + 1u]);
      typename F::Element r = x;
      switch (op) {
        case FieldOp::Canonical: r = x; break;
        case FieldOp::Add: r = F::add(x, y); break;
        case FieldOp::Sub: r = F::sub(x, y); break;
        case FieldOp::Mul: r = F::mul(x, y); break;
        case FieldOp::Square: r = F::square(x); break;
        case FieldOp::Pow7: r = hash::field_pow<F>(x, 7); break;
        case FieldOp::PowInverseAlpha: r = hash::field_pow<F>(x, 10540996611094048183ull); break;
        case FieldOp::PowZero: r = hash::field_pow<F>(x, 0); break;
      }
      auto w = F::to_words(r);
      out[2u * i] = w[0];
      out[2u * i + 1u] = w[1];
    });
  });
}

u64 reference(FieldOp op, u64 a, u64 b) {
  switch (op) {
    case FieldOp::Canonical: return rescue_ref::reduce(a);
    case FieldOp::Add: return rescue_ref::add(a, b);
    case FieldOp::Sub: return rescue_ref::sub(a, b);
    case FieldOp::Mul: return rescue_ref::mul(a, b);
    case FieldOp::Square: return rescue_ref::mul(a, a);
    case FieldOp::Pow7: return rescue_ref::pow(a, 7);
    case FieldOp::PowInverseAlpha: return rescue_ref::pow(a, 10540996611094048183ull);
    case FieldOp::PowZero: return 1;
  }
  return 0;
}

template <class F>
std::vector<u64> run_op(sprig::Device& dev, FieldOp op, const std::vector<u64>& a, const std::vector<u64>& b) {
  auto k = field_kernel<F>(op);
  auto out = dev.alloc<std::uint32_t>(a.size() * 2);
  dev.run(k, grid(a.size()), dev.upload(hash::pack_u64(a)), dev.upload(hash::pack_u64(b)), out);
  return hash::unpack_u64(dev.download(out));
}

constexpr u64 p = rescue_ref::p;

// Values where carries, borrows and reductions change: 0, 1, p - 1, non-canonical values
// p .. 2^64 - 1, 2^32 and its neighbours.
const std::vector<u64> edge_values{0,
                                   1,
                                   2,
                                   p - 1,
                                   p - 2,
                                   p,
                                   p + 1,
                                   0xffffffffffffffffull,
                                   0xfffffffffffffffeull,
                                   0x100000000ull,
                                   0xffffffffull,
                                   0x100000001ull,
                                   0x8000000000000000ull,
                                   0xfffffffe00000002ull,
                                   0x00000001ffffffffull,
                                   0xffffffff00000000ull};

// All pairs of edge values, then random values (half of them non-canonical).
std::pair<std::vector<u64>, std::vector<u64>> operands() {
  std::vector<u64> a, b;
  for (u64 x : edge_values)
    for (u64 y : edge_values) {
      a.push_back(x);
      b.push_back(y);
    }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 256; ++i) {
    u64 x = rng(), y = rng();
    if (i % 4 == 1) x = p + (x % (0xffffffffull));
    if (i % 4 == 2) y = x;
    a.push_back(x);
    b.push_back(y);
  }
  return {a, b};
}

template <class F>
void check_all_ops(sprig::Device& dev) {
  auto [a, b] = operands();
  for (FieldOp op : {FieldOp::Canonical, FieldOp::Add, FieldOp::Sub, FieldOp::Mul, FieldOp::Square, FieldOp::Pow7,
                     FieldOp::PowInverseAlpha, FieldOp::PowZero}) {
    INFO("op " << int(op));
    std::vector<u64> got = run_op<F>(dev, op, a, b);
    REQUIRE(got.size() == a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      INFO("a = " << a[i] << ", b = " << b[i]);
      REQUIRE(got[i] == reference(op, a[i], b[i]));
    }
  }
}

}  // namespace

TEST_CASE("goldilocks reference: 2^64 = 2^32 - 1 and p - 1 = -1") {
  REQUIRE(rescue_ref::reduce(0xffffffffffffffffull) == 0xfffffffeull);
  REQUIRE(rescue_ref::mul(p - 1, p - 1) == 1);
  REQUIRE(rescue_ref::add(p - 1, 1) == 0);
  REQUIRE(rescue_ref::sub(0, 1) == p - 1);
  REQUIRE(rescue_ref::mul(0x100000000ull, 0x100000000ull) == 0xffffffffull);  // 2^64 = 2^32 - 1
  REQUIRE(rescue_ref::mul(rescue_ref::pow(5, 7), rescue_ref::pow(rescue_ref::pow(5, 7), 10540996611094048183ull)) ==
          rescue_ref::pow(5, 8));  // x^(7 * inverse_alpha) = x
}

TEST_CASE("goldilocks uint64 path: every operation matches the reference on edge and random values") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  check_all_ops<hash::Goldilocks64>(dev);
}

TEST_CASE("goldilocks 32-bit-limb path: every operation matches the reference on edge and random values") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  check_all_ops<hash::Goldilocks32>(dev);
}

TEST_CASE("goldilocks 32-bit-limb path declares no Int64 capability, the uint64 path does") {
  auto limbs = field_kernel<hash::Goldilocks32>(FieldOp::Mul);
  auto wide = field_kernel<hash::Goldilocks64>(FieldOp::Mul);
  REQUIRE_FALSE(limbs.ir()->features.int64);
  REQUIRE(wide.ir()->features.int64);
}

TEST_CASE("goldilocks edge values: products of p - 1, 2^32 and 2^64 - 1 written out") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<u64> a{p - 1, 0x100000000ull, 0xffffffffffffffffull, p, 0x100000000ull};
  std::vector<u64> b{p - 1, 0x100000000ull, 0xffffffffffffffffull, 5, 0x1000000000000ull};
  // (-1)^2 = 1; 2^64 = 2^32 - 1; (2^32 - 2)^2; p = 0; 2^80 = 2^16 * (2^32 - 1).
  std::vector<u64> expected{1, 0xffffffffull, 0xfffffffc00000004ull, 0, 0xffffffff0000ull};
  REQUIRE(run_op<hash::Goldilocks64>(dev, FieldOp::Mul, a, b) == expected);
  REQUIRE(run_op<hash::Goldilocks32>(dev, FieldOp::Mul, a, b) == expected);
}

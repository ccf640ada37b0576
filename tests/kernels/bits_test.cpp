// Bit operations on both backends, 32- and 64-bit.
#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("rotates, popcount, leading and trailing zeros, bit reverse, byte swap on 32 bits") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("bits32", [](UInt x, UInt zero, WriteBuffer<std::uint32_t> out) {
    out[0] = rotate_left(x, 4u);
    out[1] = rotate_right(x, 36u);
    out[2] = popcount(x);
    out[3] = count_leading_zeros(x);
    out[4] = count_trailing_zeros(x);
    out[5] = bit_reverse(x);
    out[6] = byte_swap(x);
    out[7] = count_leading_zeros(zero);
    out[8] = count_trailing_zeros(zero);
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(dev, k, 9, grid(1), 0x00F0A100u, 0u) ==
        std::vector<std::uint32_t>{0x0F0A1000u, 0x000F0A10u, 7u, 8u, 8u, 0x00850F00u, 0x00A1F000u, 32u, 32u});
}

TEST_CASE("multiply-high and add-with-carry on 32 bits") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("mulhi32", [](UInt a, UInt b, Int c, WriteBuffer<std::uint32_t> out) {
    out[0] = mul_hi(a, b);
    out[1] = cast<std::uint32_t>(mul_hi(c, c));
    auto [sum, carry] = add_with_carry(a, b);
    out[2] = sum;
    out[3] = carry;
    ULong wide = mul_wide(a, b);
    out[4] = cast<std::uint32_t>(wide >> 32ull);
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(dev, k, 5, grid(1), 0xFFFFFFFFu, 0x10u, -3) ==
        std::vector<std::uint32_t>{0xFu, 0u, 0xFu, 1u, 0xFu});
}

TEST_CASE("64-bit rotates, multiply-high (64x64->128) and bit counts") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("bits64", [](ULong x, WriteBuffer<std::uint64_t> out) {
    out[0] = rotate_left(x, 8ull);
    out[1] = mul_hi(x, x);
    out[2] = popcount(x);
    out[3] = count_leading_zeros(x);
    out[4] = count_trailing_zeros(x);
    out[5] = bit_reverse(x);
    out[6] = byte_swap(x);
    out[7] = bitfield_extract(x, 48u, 12u);
  }, workgroup(1));
  std::uint64_t x = 0x00F0000000000100ull;
  CHECK(outputs<std::uint64_t>(dev, k, 8, grid(1), x) ==
        std::vector<std::uint64_t>{0xF000000000010000ull, 0x0000E10000000001ull, 5ull, 8ull, 8ull,
                                   0x0080000000000F00ull, 0x000100000000F000ull, 0xF0ull});
}

TEST_CASE("bitfield extract and insert, signed and unsigned") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("bitfields", [](UInt x, Int y, WriteBuffer<std::uint32_t> out) {
    out[0] = bitfield_extract(x, 16u, 8u);
    out[1] = cast<std::uint32_t>(bitfield_extract(y, 12u, 4u));
    out[2] = bitfield_insert(x, 0xFFu, 4u, 4u);
    out[3] = bitfield_extract(x, 28u, 8u);
    out[4] = bitfield_insert(0u, 0xFFu, 30u, 8u);
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(dev, k, 5, grid(1), 0xABCD1234u, 0x0000F000) ==
        std::vector<std::uint32_t>{0xCDu, 0xFFFFFFFFu, 0xABCD12F4u, 0xAu, 0xC0000000u});
}

TEST_CASE("bitcasts between floats and integers keep the bits") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("bitcasts", [](Float f, ULong wide, WriteBuffer<std::uint32_t> out) {
    out[0] = bitcast<std::uint32_t>(f);
    out[1] = bitcast<std::uint32_t>(bitcast<float>(0x3F800000u) * 2.0f);
    UVec2 halves = bitcast<uvec2>(wide);
    out[2] = halves.x();
    out[3] = halves.y();
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(dev, k, 4, grid(1), -1.0f, 0x1122334455667788ull) ==
        std::vector<std::uint32_t>{0xBF800000u, 0x40000000u, 0x55667788u, 0x11223344u});
}

// The driver bugs sprig works around (driver_quirks.hpp): each quirk's reproducer gives the
// semantics table's answer on both backends with the workaround in force, and, on the
// drivers the table lists, still shows the bug with the workaround switched off — so the
// table is neither missing an entry nor keeping one a fixed driver no longer needs.
#include <array>
#include <limits>
#include <spawn.h>
#include <sys/wait.h>

#include "backends.hpp"
#include "sprig/dsl/semantics.hpp"

using namespace sprig;

namespace {

// Operands with every sign combination, the edge cases of the table among them.
template <class T>
std::vector<T> remainder_operands() {
  std::vector<T> values{-1, -8, 2, -2, 7, -7, 13, -13, 100, -100, 1, 0, -1, 5, 6, -6};
  values.push_back(std::numeric_limits<T>::min());
  values.push_back(std::numeric_limits<T>::max());
  return values;
}

// out[4 i + 0..3] = a % 7, a % b, (3 * a) % 7, (-a) % b for a = values[i], b = values[i ^ 1];
// every operand is read from memory, which is what the NVIDIA driver gets wrong.
template <class T>
auto remainder_kernel() {
  return kernel("signed_remainder_from_memory", [](ReadBuffer<T> values, WriteBuffer<T> out) {
    auto i = global_id().x();
    if_(i < values.size(), [&] {
      Expr<T> a = values[i], b = values[i ^ 1u];
      out[4u * i] = a % T(7);
      out[4u * i + 1u] = a % b;
      out[4u * i + 2u] = (T(3) * a) % T(7);
      out[4u * i + 3u] = (-a) % b;
    });
  }, workgroup(64));
}

template <class T>
std::vector<T> expected_remainders(const std::vector<T>& values) {
  namespace s = semantics;
  std::vector<T> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    T a = values[i], b = values[i ^ 1];
    out.insert(out.end(), {s::rem(a, T(7)), s::rem(a, b), s::rem(s::mul(T(3), a), T(7)), s::rem(s::neg(a), b)});
  }
  return out;
}

template <class T>
std::vector<T> remainders_on(sprig::Device& dev) {
  std::vector<T> values = remainder_operands<T>();
  auto in = dev.upload(values);
  auto out = dev.upload(std::vector<T>(4 * values.size()));
  dev.run(remainder_kernel<T>(), grid(values.size()), in, out);
  return dev.download(out);
}

// Signed orderings of an int32 sign-extended to int64 against constants about the int32
// range, with the constant on either side: what lavapipe got wrong.
enum class Order { Less, LessEqual, Greater, GreaterEqual };
constexpr Order kOrders[] = {Order::Less, Order::LessEqual, Order::Greater, Order::GreaterEqual};

const std::vector<std::int64_t> kSignExtensionConstants{-0x80000001ll, -0x80000000ll, -2, -1, 0, 1, 7, 0x7fffffffll,
                                                        0x80000000ll};

std::vector<std::int32_t> sign_extension_operands() {
  return {0, 1, -1, 7, -7, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
}

// Works on host integers and on device expressions alike.
template <class A, class B>
auto ordered(Order order, const A& a, const B& b) {
  switch (order) {
    case Order::Less: return a < b;
    case Order::LessEqual: return a <= b;
    case Order::Greater: return a > b;
    case Order::GreaterEqual: break;
  }
  return a >= b;
}

// The comparisons of one operand: every constant, every order, the constant right then left.
constexpr std::uint32_t kComparisonsPerOperand = 9 * 4 * 2;

// Row i holds the comparisons of the pushed operand, then those of values[i]: the driver
// gets both wrong, the constant folded into the comparison either way.
auto sign_extension_kernel() {
  return kernel("sign_extended_compare", [](Int pushed, ReadBuffer<std::int32_t> values,
                                            WriteBuffer<std::uint32_t> out) {
    auto i = global_id().x();
    if_(i < values.size(), [&] {
      UInt slot = i * (2 * kComparisonsPerOperand);
      std::uint32_t column = 0;
      for (Int x : {pushed, Int(values[i])}) {
        Long wide = cast<std::int64_t>(x);
        for (std::int64_t c : kSignExtensionConstants) {
          for (Order order : kOrders) {
            out[slot + column++] = cast<std::uint32_t>(ordered(order, wide, Long(c)));
            out[slot + column++] = cast<std::uint32_t>(ordered(order, Long(c), wide));
          }
        }
      }
    });
  }, workgroup(64));
}

std::vector<std::uint32_t> expected_orderings(std::int32_t pushed, const std::vector<std::int32_t>& values) {
  std::vector<std::uint32_t> out;
  for (std::int32_t value : values) {
    for (std::int64_t x : {std::int64_t(pushed), std::int64_t(value)}) {
      for (std::int64_t c : kSignExtensionConstants) {
        for (Order order : kOrders) out.insert(out.end(), {ordered(order, x, c), ordered(order, c, x)});
      }
    }
  }
  return out;
}

std::vector<std::uint32_t> orderings_on(sprig::Device& dev, std::int32_t pushed) {
  std::vector<std::int32_t> values = sign_extension_operands();
  return test::outputs<std::uint32_t>(dev, sign_extension_kernel(), values.size() * 2 * kComparisonsPerOperand,
                                      grid(values.size()), pushed, dev.upload(values));
}

// Integers that float must round (more than 24 significant bits), both ways of each tie,
// the edges of each type and the fuzzer's example 0x2EE0E1C2 (rounds to 0x2EE0E1C0).
std::vector<std::uint64_t> round_trip_operands() {
  return {0x2EE0E1C2u, 0x01000001u, 0x01000003u, 0x7FFFFFFFu, 0x80000001u, 0xFFFFFFFFu, 0xFFFFFF7Fu, 0x12345678u,
          0xFFFFFFFFFFFFFFFFull, 0x8000000000000001ull, 0x7FFFFFFFFFFFFFFFull, 0x0123456789ABCDEFull,
          0xFEDCBA9876543210ull, 5u, 0u, 0xFFFFFFF6u};
}

// out[4 i + 0..3]: x -> float -> x for x read from memory as uint32, int32, uint64, int64
// (each 64-bit result folded to 32 bits by xor of its halves).
auto round_trip_kernel() {
  return kernel("int_float_int_round_trip", [](ReadBuffer<std::uint64_t> values, WriteBuffer<std::uint32_t> out) {
    auto i = global_id().x();
    if_(i < values.size(), [&] {
      Expr<std::uint64_t> wide = values[i];
      Expr<std::uint32_t> narrow = cast<std::uint32_t>(wide);
      auto fold = [](Expr<std::uint64_t> v) { return cast<std::uint32_t>(v) ^ cast<std::uint32_t>(v >> 32u); };
      out[4u * i + 0u] = cast<std::uint32_t>(cast<float>(narrow));
      out[4u * i + 1u] = bitcast<std::uint32_t>(cast<std::int32_t>(cast<float>(bitcast<std::int32_t>(narrow))));
      out[4u * i + 2u] = fold(cast<std::uint64_t>(cast<float>(wide)));
      out[4u * i + 3u] = fold(bitcast<std::uint64_t>(cast<std::int64_t>(cast<float>(bitcast<std::int64_t>(wide)))));
    });
  }, workgroup(64));
}

std::vector<std::uint32_t> expected_round_trips() {
  auto fold = [](std::uint64_t v) { return std::uint32_t(v) ^ std::uint32_t(v >> 32); };
  std::vector<std::uint32_t> out;
  for (std::uint64_t v : round_trip_operands()) {
    std::uint32_t narrow = std::uint32_t(v);
    out.push_back(semantics::float_to_int<std::uint32_t>(float(narrow)));
    out.push_back(std::uint32_t(semantics::float_to_int<std::int32_t>(float(std::int32_t(narrow)))));
    out.push_back(fold(semantics::float_to_int<std::uint64_t>(float(v))));
    out.push_back(fold(std::uint64_t(semantics::float_to_int<std::int64_t>(float(std::int64_t(v))))));
  }
  return out;
}

std::vector<std::uint32_t> round_trips_on(sprig::Device& dev) {
  std::vector<std::uint64_t> values = round_trip_operands();
  return test::outputs<std::uint32_t>(dev, round_trip_kernel(), values.size() * 4, grid(values.size()),
                                      dev.upload(values));
}

// The shape that crashed NVIDIA's shader compiler (fuzz seed 5390, reduced): a ballot bit
// count plus one, taken modulo a constant, beside a 64-bit division. Each invocation writes
// its lane, the subgroup size, (inclusive + 1) % 70, (exclusive + 1) % 70, (whole + 1) / 70
// + whole for a ballot of the odd lanes, and 64-bit quotients and remainders, signed and
// unsigned, by values and by constants (divisors above 2^63 among them).
auto ballot_count_kernel() {
  return kernel("ballot_count_beside_64_bit_division", [](ReadBuffer<std::uint64_t> in, WriteBuffer<std::uint32_t> counts,
                                                          WriteBuffer<std::uint64_t> remainders,
                                                          WriteBuffer<std::uint64_t> constants) {
    UInt i = global_id().x();
    UInt lane = subgroup_invocation_id();
    auto odd_lanes = subgroup_ballot(((lane ^ cast<std::uint32_t>(in[i].load())) & 1u) == 1u);
    counts[5u * i + 0u] = lane;
    counts[5u * i + 1u] = subgroup_size();
    counts[5u * i + 2u] = (ballot_inclusive_bit_count(odd_lanes) + 1u) % 70u;
    counts[5u * i + 3u] = (ballot_exclusive_bit_count(odd_lanes) + 1u) % 70u;
    UInt whole = ballot_bit_count(odd_lanes);
    counts[5u * i + 4u] = (whole + 1u) / 70u + whole;
    Expr<std::uint64_t> a = in[i].load() + 0x8000000000000000ull, b = in[i ^ 1u].load() | 3ull;
    remainders[4u * i + 0u] = a % b;
    remainders[4u * i + 1u] = a / b;
    remainders[4u * i + 2u] = bitcast<std::uint64_t>(bitcast<std::int64_t>(a) / bitcast<std::int64_t>(b));
    remainders[4u * i + 3u] = bitcast<std::uint64_t>(bitcast<std::int64_t>(a) % bitcast<std::int64_t>(in[i ^ 2u].load()));
    // Constant divisors (NVIDIA folded the bit-serial helper wrongly into these).
    Expr<std::int64_t> s = bitcast<std::int64_t>(a);
    constants[6u * i + 0u] = a / 7ull;
    constants[6u * i + 1u] = a % 0x8000000000000001ull;
    constants[6u * i + 2u] = a / 1ull;
    constants[6u * i + 3u] = bitcast<std::uint64_t>(s / Long(std::int64_t(-2)));
    constants[6u * i + 4u] = bitcast<std::uint64_t>(s % Long(std::int64_t(-16)));
    constants[6u * i + 5u] = bitcast<std::uint64_t>(s / Long(std::numeric_limits<std::int64_t>::min()));
  }, workgroup(64));
}

// Checks the counts against each invocation's lane and subgroup size (every lane of every
// subgroup is active), and the remainders against the host's.
void check_ballot_counts(sprig::Device& dev) {
  constexpr std::uint32_t n = 256;
  std::vector<std::uint64_t> in(n, 0);
  // Even values (so the odd lanes vote), both signs and magnitudes, and the edge cases.
  for (std::uint32_t i = 0; i < n; ++i) in[i] = std::uint64_t(i) * 0x9E3779B97F4A7C16ull;
  in[6] = 0;                       // the signed divisor of invocation 4: x % 0 == x
  in[8] = 0;                       // a = INT64_MIN for invocation 8
  in[10] = 0xFFFFFFFFFFFFFFFEull;  // the signed divisor of invocation 8: MIN % -2
  auto k = ballot_count_kernel();
  auto in_buffer = dev.upload(in);
  auto counts = dev.alloc<std::uint32_t>(5 * n);
  auto remainders = dev.alloc<std::uint64_t>(4 * n);
  auto constants = dev.alloc<std::uint64_t>(6 * n);
  dev.run(k, grid(n), in_buffer, counts, remainders, constants);
  std::vector<std::uint64_t> by_constants = dev.download(constants);
  std::vector<std::uint32_t> c = dev.download(counts);
  std::vector<std::uint64_t> r = dev.download(remainders);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t lane = c[5 * i], size = c[5 * i + 1], whole = size / 2;
    INFO("invocation " << i << ", lane " << lane << " of " << size);
    CHECK(c[5 * i + 2] == (lane + 1) / 2 + 1);
    CHECK(c[5 * i + 3] == lane / 2 + 1);
    CHECK(c[5 * i + 4] == (whole + 1) / 70 + whole);
    std::uint64_t a = in[i] + 0x8000000000000000ull, b = in[i ^ 1u] | 3u;
    CHECK(r[4 * i + 0] == a % b);
    CHECK(r[4 * i + 1] == a / b);
    CHECK(r[4 * i + 2] == std::uint64_t(semantics::div(std::int64_t(a), std::int64_t(b))));
    CHECK(r[4 * i + 3] == std::uint64_t(semantics::rem(std::int64_t(a), std::int64_t(in[i ^ 2u]))));
    std::int64_t s = std::int64_t(a);
    CHECK(by_constants[6 * i + 0] == a / 7);
    CHECK(by_constants[6 * i + 1] == a % 0x8000000000000001ull);
    CHECK(by_constants[6 * i + 2] == a);
    CHECK(by_constants[6 * i + 3] == std::uint64_t(semantics::div(s, std::int64_t(-2))));
    CHECK(by_constants[6 * i + 4] == std::uint64_t(semantics::rem(s, std::int64_t(-16))));
    CHECK(by_constants[6 * i + 5] == std::uint64_t(semantics::div(s, std::numeric_limits<std::int64_t>::min())));
  }
}

// Arithmetic right shifts of values whose sign bit the compiler can see is set (or clear),
// compared with the value, a constant and each other, in 32 and 64 bits, and 64-bit signed
// bitfield extracts compared with 0 (sprig writes those with shifts): NVIDIA 580 gets
// (x >> 2) >= x wrong when it knows x is negative (fuzz seed 1286, and 6836, 7871, 9189
// through bitfield_extract).
constexpr std::uint32_t kShiftComparisons = 10;

auto known_negative_shift_kernel() {
  return kernel("shift_of_known_negative", [](ReadBuffer<std::uint64_t> values, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < values.size(), [&] {
      Expr<std::uint64_t> v = values[i];
      Int x = bitcast<std::int32_t>(cast<std::uint32_t>(v) | 0x80000000u);
      Int p = bitcast<std::int32_t>(cast<std::uint32_t>(v) & 0x7FFFFFFFu);
      Long w = bitcast<std::int64_t>(v | 0x8000000000000000ull);
      Long s = bitcast<std::int64_t>(v);
      UInt o = i * kShiftComparisons;
      out[o + 0u] = cast<std::uint32_t>((x >> Int(2)) >= x);
      out[o + 1u] = cast<std::uint32_t>(x <= (x >> Int(1)));
      out[o + 2u] = cast<std::uint32_t>((x >> Int(3)) > Int(-100));
      out[o + 3u] = cast<std::uint32_t>((p >> Int(2)) >= p);
      out[o + 4u] = cast<std::uint32_t>((w >> Long(std::int64_t(2))) >= w);
      out[o + 5u] = cast<std::uint32_t>(w <= (w >> Long(std::int64_t(7))));
      out[o + 6u] = cast<std::uint32_t>(bitfield_extract(s, UInt(47u), UInt(11u)) > Long(std::int64_t(0)));
      out[o + 7u] = cast<std::uint32_t>(bitfield_extract(s, UInt(31u), UInt(29u)) <= Long(std::int64_t(0)));
      out[o + 8u] = cast<std::uint32_t>(bitfield_extract(s, UInt(0u), UInt(25u)) >= Long(std::int64_t(-7)));
      out[o + 9u] = bitcast<std::uint32_t>(x >> Int(5));
    });
  }, workgroup(64));
}

std::vector<std::uint64_t> shift_operands() {
  std::vector<std::uint64_t> values;
  for (std::uint64_t i = 0; i < 128; ++i) values.push_back(i * 0x9E3779B97F4A7C15ull ^ (i << 40));
  values.insert(values.end(), {0xDB605056ull, 0xA095BCC8A7BB1282ull, 0x8C83C12DCC4AC6C5ull, 0, ~0ull, 0x7FFFFFFFull});
  return values;
}

std::vector<std::uint32_t> expected_shift_comparisons() {
  using semantics::shr;
  auto extract = [](std::int64_t v, unsigned offset, unsigned count) { return semantics::bitfield_extract(v, offset, count); };
  std::vector<std::uint32_t> out;
  for (std::uint64_t v : shift_operands()) {
    std::int32_t x = std::int32_t(std::uint32_t(v) | 0x80000000u), p = std::int32_t(std::uint32_t(v) & 0x7FFFFFFFu);
    std::int64_t w = std::int64_t(v | 0x8000000000000000ull), s = std::int64_t(v);
    out.insert(out.end(), {shr(x, 2) >= x, x <= shr(x, 1), shr(x, 3) > -100, shr(p, 2) >= p, shr(w, 2) >= w,
                           w <= shr(w, 7), extract(s, 47, 11) > 0, extract(s, 31, 29) <= 0, extract(s, 0, 25) >= -7,
                           std::uint32_t(shr(x, 5))});
  }
  return out;
}

std::vector<std::uint32_t> shift_comparisons_on(sprig::Device& dev) {
  std::vector<std::uint64_t> values = shift_operands();
  return test::outputs<std::uint32_t>(dev, known_negative_shift_kernel(), values.size() * kShiftComparisons,
                                      grid(values.size()), dev.upload(values));
}

// Unsigned 64-bit constant divisors of every shape the multiply-and-shift division meets:
// 1, powers of two, their neighbours, small primes and divisors above 2^63. The kernel has a
// ballot, so where the ballot quirk applies these divide by multiplication.
constexpr std::array<std::uint64_t, 16> kConstantDivisors{
    1, 2, 3, 7, 10, 16, 641, 0xFFFF, 0x10001, 0x7FFFFFFF, 0x80000000ull, 0xFFFFFFFFull,
    0x123456789ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull};

auto constant_division_kernel() {
  return kernel("division_by_constants", [](ReadBuffer<std::uint64_t> in, WriteBuffer<std::uint64_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] {
      Expr<std::uint64_t> a = in[i];
      out[i * std::uint32_t(kConstantDivisors.size() + 1)] = cast<std::uint64_t>(ballot_bit_count(subgroup_ballot(a == 0ull)));
      for (std::size_t k = 0; k < kConstantDivisors.size(); ++k)
        out[i * std::uint32_t(kConstantDivisors.size() + 1) + std::uint32_t(k + 1)] = a / kConstantDivisors[k];
    });
  }, workgroup(64));
}

void check_constant_divisions(sprig::Device& dev) {
  std::vector<std::uint64_t> values{0, 1, 2, 6, 7, 0xFFFF, 0x10000, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull,
                                    0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFEull, 0x123456789ABCDEFull};
  for (std::uint64_t i = 0; i < 52; ++i) values.push_back((i + 1) * 0x9E3779B97F4A7C15ull);
  const std::size_t stride = kConstantDivisors.size() + 1;
  std::vector<std::uint64_t> got =
      test::outputs<std::uint64_t>(dev, constant_division_kernel(), values.size() * stride, grid(values.size()), dev.upload(values));
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t k = 0; k < kConstantDivisors.size(); ++k) {
      INFO(values[i] << " / " << kConstantDivisors[k]);
      CHECK(got[i * stride + k + 1] == values[i] / kConstantDivisors[k]);
    }
}

// A device on the same driver as the suite's, with the given workarounds switched off.
vk::Device device_without(QuirkSet workarounds) {
  vk::Options options;
  options.disabled_workarounds = workarounds;
  return vk::Device::best(options);
}

}  // namespace

TEST_CASE("signed remainder of operands read from memory follows the semantics table") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK(remainders_on<std::int32_t>(dev) == expected_remainders(remainder_operands<std::int32_t>()));
  CHECK(remainders_on<std::int64_t>(dev) == expected_remainders(remainder_operands<std::int64_t>()));
  // The issue's own examples: -1 % 7 == -1, -8 % 7 == -1, 2 % -2 == 0.
  std::vector<std::int32_t> r = remainders_on<std::int32_t>(dev);
  CHECK(r[0] == -1);
  CHECK(r[4] == -1);
  CHECK(r[4 * 2 + 1] == 0);
}

TEST_CASE("without its workaround the signed remainder is wrong exactly on the drivers the table lists", "[vulkan]") {
  vk::Device& suite_device = test::vulkan();
  bool listed = quirks_of(suite_device.info().driver).has(Quirk::SignedRemainderUnsigned);
  vk::Device plain = device_without(Quirk::SignedRemainderUnsigned);
  REQUIRE(plain.info().driver == suite_device.info().driver);
  CHECK_FALSE(plain.info().quirks.has(Quirk::SignedRemainderUnsigned));
  bool right = remainders_on<std::int32_t>(plain) == expected_remainders(remainder_operands<std::int32_t>()) &&
               remainders_on<std::int64_t>(plain) == expected_remainders(remainder_operands<std::int64_t>());
  INFO("driver: " << to_string(plain.info().driver) << " " << plain.info().driver_version);
  CHECK(right == !listed);
}

TEST_CASE("a sign-extended int32 orders against 64-bit constants as the semantics table says") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<std::int32_t> values = sign_extension_operands();
  CHECK(orderings_on(dev, 0) == expected_orderings(0, values));
  CHECK(orderings_on(dev, -5) == expected_orderings(-5, values));
  // The fuzzer's examples (seed 606), and a vector extended component-wise: sext(0) >= 1 is false.
  auto k = kernel("sign_extended_compare_examples", [](Int zero, WriteBuffer<std::uint32_t> out) {
    Long wide = cast<std::int64_t>(zero);
    out[0] = cast<std::uint32_t>(wide >= Long(std::int64_t(1)));
    out[1] = cast<std::uint32_t>(wide > Long(std::int64_t(0)));
    out[2] = cast<std::uint32_t>(wide < Long(std::int64_t(1)));
    out[3] = cast<std::uint32_t>(wide <= Long(std::int64_t(0)));
    out[4] = cast<std::uint32_t>(cast<std::int64_t>(Int(0)) >= Long(std::int64_t(1)));
    BVec2 below = cast<i64vec2>(IVec2(ivec2{0, -3}) + zero) < Expr<i64vec2>(i64vec2{1, -2});
    out[5] = cast<std::uint32_t>(below.x());
    out[6] = cast<std::uint32_t>(below.y());
  }, workgroup(1));
  CHECK(test::outputs<std::uint32_t>(dev, k, 7, grid(1), 0) == std::vector<std::uint32_t>{0, 0, 1, 1, 0, 1, 1});
}

TEST_CASE("without its workaround a sign-extended int32 is misordered against constants exactly on the drivers the "
          "table lists", "[vulkan]") {
  vk::Device& suite_device = test::vulkan();
  bool listed = quirks_of(suite_device.info().driver).has(Quirk::SignExtendedCompareWithConstant);
  vk::Device plain = device_without(Quirk::SignExtendedCompareWithConstant);
  REQUIRE(plain.info().driver == suite_device.info().driver);
  CHECK_FALSE(plain.info().quirks.has(Quirk::SignExtendedCompareWithConstant));
  bool right = orderings_on(plain, 0) == expected_orderings(0, sign_extension_operands());
  INFO("driver: " << to_string(plain.info().driver) << " " << plain.info().driver_version);
  CHECK(right == !listed);
}

TEST_CASE("an int -> float -> int round trip rounds through float as the semantics table says") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<std::uint32_t> trips = round_trips_on(dev);
  CHECK(trips == expected_round_trips());
  CHECK(trips[0] == 0x2EE0E1C0u);
  CHECK(trips[1] == 0x2EE0E1C0u);
}

TEST_CASE("without its workaround an int -> float -> int round trip skips the rounding exactly on the drivers the "
          "table lists", "[vulkan]") {
  vk::Device& suite_device = test::vulkan();
  bool listed = quirks_of(suite_device.info().driver).has(Quirk::IntFloatIntFolded);
  vk::Device plain = device_without(Quirk::IntFloatIntFolded);
  REQUIRE(plain.info().driver == suite_device.info().driver);
  CHECK_FALSE(plain.info().quirks.has(Quirk::IntFloatIntFolded));
  bool right = round_trips_on(plain) == expected_round_trips();
  INFO("driver: " << to_string(plain.info().driver) << " " << plain.info().driver_version);
  CHECK(right == !listed);
}

TEST_CASE("a ballot count divided by a constant beside a 64-bit division compiles and counts as the semantics "
          "table says") {
  check_ballot_counts(test::device(SPRIG_BACKEND));
  check_constant_divisions(test::device(SPRIG_BACKEND));
}

// Run by the case below in a child process, since on the listed drivers it kills the process.
TEST_CASE("child process: the crashing shape compiled without its workaround", "[.quirk-child]") {
  vk::Device plain = device_without(Quirk::BallotBeside64BitDivisionCrash);
  check_ballot_counts(plain);
}

TEST_CASE("without its workaround a ballot count divided beside a 64-bit division crashes the compiler exactly on "
          "the drivers the table lists", "[vulkan]") {
  bool listed = quirks_of(test::vulkan().info().driver).has(Quirk::BallotBeside64BitDivisionCrash);
  std::string self = "/proc/self/exe";
  std::string name = "child process: the crashing shape compiled without its workaround";
  std::vector<char*> argv{self.data(), name.data(), nullptr};
  pid_t child = 0;
  REQUIRE(posix_spawn(&child, self.c_str(), nullptr, nullptr, argv.data(), environ) == 0);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  INFO("driver: " << to_string(test::vulkan().info().driver) << " " << test::vulkan().info().driver_version
                  << "; child " << (WIFSIGNALED(status) ? "killed by signal " : "exited with ")
                  << (WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status)));
  if (listed) {
    CHECK(WIFSIGNALED(status));
  } else {
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
}

// The emitter's workarounds run on every device, not only where the table applies them: each
// reproducer gives the semantics table's results with all of them forced on.
TEST_CASE("every emitter workaround, forced on, keeps its reproducer right", "[vulkan]") {
  vk::Options options;
  options.forced_workarounds = Quirk::SignedRemainderUnsigned | Quirk::SignExtendedCompareWithConstant |
                               Quirk::IntFloatIntFolded | Quirk::BallotBeside64BitDivisionCrash |
                               Quirk::ShiftOfKnownNegativeMiscompared;
  vk::Device forced = vk::Device::best(options);
  CHECK(remainders_on<std::int32_t>(forced) == expected_remainders(remainder_operands<std::int32_t>()));
  CHECK(remainders_on<std::int64_t>(forced) == expected_remainders(remainder_operands<std::int64_t>()));
  CHECK(orderings_on(forced, -5) == expected_orderings(-5, sign_extension_operands()));
  CHECK(round_trips_on(forced) == expected_round_trips());
  check_ballot_counts(forced);
  check_constant_divisions(forced);
  CHECK(shift_comparisons_on(forced) == expected_shift_comparisons());
}

TEST_CASE("the shift of a known negative value orders as the semantics table says") {
  CHECK(shift_comparisons_on(test::device(SPRIG_BACKEND)) == expected_shift_comparisons());
}

TEST_CASE("without its workaround the shift of a known negative value is misordered exactly on the drivers the "
          "table lists", "[vulkan]") {
  vk::Device& suite_device = test::vulkan();
  bool listed = quirks_of(suite_device.info().driver).has(Quirk::ShiftOfKnownNegativeMiscompared);
  vk::Device plain = device_without(Quirk::ShiftOfKnownNegativeMiscompared);
  REQUIRE(plain.info().driver == suite_device.info().driver);
  bool right = shift_comparisons_on(plain) == expected_shift_comparisons();
  INFO("driver: " << to_string(plain.info().driver) << " " << plain.info().driver_version);
  CHECK(right == !listed);
}

TEST_CASE("a loop runs 70,000 iterations unless the driver caps loops at 65,535 back-edges") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("long_loop", [](UInt trips, WriteBuffer<std::uint32_t> out) {
    Var<std::uint32_t> count = 0u;
    for_(0u, trips, [&](UInt) { count += 1u; });
    out[0] = count;
  }, workgroup(1));
  std::uint32_t count = test::outputs<std::uint32_t>(dev, k, 1, grid(1), 70000u)[0];
  if (dev.info().quirks.has(Quirk::LoopBackEdgeCap)) {
    CHECK(count < 70000u);  // the reason the stdlib splits long loops over launches
  } else {
    CHECK(count == 70000u);
  }
}

TEST_CASE("every quirk in the table names its symptom, workaround and reproducer") {
  std::uint32_t seen = 0;
  for (const DriverQuirk& q : driver_quirks()) {
    CHECK_FALSE(q.name.empty());
    CHECK_FALSE(q.symptom.empty());
    CHECK_FALSE(q.workaround.empty());
    CHECK(q.reproducer.find("tests/") == 0);
    CHECK((seen & std::uint32_t(q.quirk)) == 0);  // one entry per quirk
    seen |= std::uint32_t(q.quirk);
    CHECK(&describe(q.quirk) == &q);
  }
  CHECK(quirks_of(DriverId::NvidiaProprietary) == (Quirk::SignedRemainderUnsigned | Quirk::BallotBeside64BitDivisionCrash |
                                                   Quirk::ShiftOfKnownNegativeMiscompared));
  CHECK(quirks_of(DriverId::MesaLlvmpipe) ==
        (Quirk::BarrierPassesSpinningSubgroup | Quirk::LoopBackEdgeCap | Quirk::RelaxedLookBackUnreliable |
         Quirk::SignExtendedCompareWithConstant | Quirk::IntFloatIntFolded));
  CHECK(quirks_of(DriverId::MesaRadv) == QuirkSet(Quirk::IntFloatIntFolded));
  CHECK(quirks_of(DriverId::Simulator).empty());
  CHECK(quirk_names(Quirk::SignedRemainderUnsigned | Quirk::LoopBackEdgeCap) ==
        "nvidia-signed-remainder, lavapipe-loop-cap");
}

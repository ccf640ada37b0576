// The driver bugs sprig works around (driver_quirks.hpp): each quirk's reproducer gives the
// semantics table's answer on both backends with the workaround in force, and, on the
// drivers the table lists, still shows the bug with the workaround switched off — so the
// table is neither missing an entry nor keeping one a fixed driver no longer needs.
#include <limits>

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
  CHECK(quirks_of(DriverId::NvidiaProprietary).has(Quirk::SignedRemainderUnsigned));
  CHECK(quirks_of(DriverId::MesaLlvmpipe) ==
        (Quirk::BarrierPassesSpinningSubgroup | Quirk::LoopBackEdgeCap | Quirk::RelaxedLookBackUnreliable));
  CHECK(quirks_of(DriverId::Simulator).empty());
  CHECK(quirk_names(Quirk::SignedRemainderUnsigned | Quirk::LoopBackEdgeCap) ==
        "nvidia-signed-remainder, lavapipe-loop-cap");
}

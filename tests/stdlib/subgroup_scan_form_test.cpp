// The shuffle-up form of the subgroup scan (subgroup_scan_form.hpp): which devices take it,
// its override, the instructions it emits, and the scans, reductions and compactions built
// on it against std:: references on every target (Vulkan, the simulator at subgroup sizes 8
// and 32), forced on with SPRIG_SUBGROUP_SCAN=shuffle-up.
#include <algorithm>
#include <numeric>

#include <catch2/catch.hpp>

#include "../runtime/vk_env_guard.hpp"
#include "sprig/compiler/compile.hpp"
#include "stdlib_targets.hpp"

using namespace sprig;
using stdlib_test::random_values;
using stdlib_test::sizes_for;

namespace subgroup_scan_form_test {

DeviceInfo device_of(DriverId driver, std::uint32_t max_subgroup_size) {
  DeviceInfo info;
  info.driver = driver;
  info.min_subgroup_size = std::min(32u, max_subgroup_size);
  info.max_subgroup_size = max_subgroup_size;
  return info;
}

// The last non-zero value so far: associative, not commutative, without a native
// subgroup instruction.
auto last_nonzero() {
  return make_operator<std::uint32_t>("last_nonzero", [](Expr<std::uint32_t> a, Expr<std::uint32_t> b) {
    return select(b != 0u, b, a);
  }, 0u);
}

}  // namespace subgroup_scan_form_test

using namespace subgroup_scan_form_test;

TEST_CASE("the NVIDIA driver scans subgroups with shuffle-ups, other drivers with the scan instructions") {
  test::EnvGuard unset("SPRIG_SUBGROUP_SCAN", nullptr);
  CHECK(detail::subgroup_scan_form(device_of(DriverId::NvidiaProprietary, 32)).shuffle_up_lanes == 32);
  CHECK(detail::subgroup_scan_form(device_of(DriverId::MesaLlvmpipe, 8)).shuffle_up_lanes == 0);
  CHECK(detail::subgroup_scan_form(device_of(DriverId::MesaRadv, 64)).shuffle_up_lanes == 0);
  CHECK(detail::subgroup_scan_form(device_of(DriverId::Simulator, 32)).shuffle_up_lanes == 0);
  CHECK(detail::SubgroupScanForm{}.key().empty());
  CHECK(detail::SubgroupScanForm{32}.key() != detail::SubgroupScanForm{64}.key());
}

TEST_CASE("SPRIG_SUBGROUP_SCAN overrides the form, unrolled for the largest subgroup; other values are errors") {
  {
    test::EnvGuard force("SPRIG_SUBGROUP_SCAN", "shuffle-up");
    CHECK(detail::subgroup_scan_form(device_of(DriverId::MesaLlvmpipe, 8)).shuffle_up_lanes == 8);
    CHECK(detail::subgroup_scan_form(device_of(DriverId::MesaRadv, 64)).shuffle_up_lanes == 64);
    CHECK(detail::subgroup_scan_form(device_of(DriverId::MesaAnv, 24)).shuffle_up_lanes == 32);
  }
  {
    test::EnvGuard force("SPRIG_SUBGROUP_SCAN", "instruction");
    CHECK(detail::subgroup_scan_form(device_of(DriverId::NvidiaProprietary, 32)).shuffle_up_lanes == 0);
  }
  test::EnvGuard bad("SPRIG_SUBGROUP_SCAN", "shuffle_up");
  CHECK_THROWS_WITH(detail::subgroup_scan_form(device_of(DriverId::NvidiaProprietary, 32)),
                    Catch::Matchers::Contains("SPRIG_SUBGROUP_SCAN=shuffle_up") &&
                        Catch::Matchers::Contains("\"shuffle-up\""));
}

TEST_CASE("the shuffle-up form emits log2(lanes) shuffle-ups and no scan instruction") {
  auto op = plus<std::uint32_t>();
  const detail::TileShape shape{256, 16};
  auto ir_of = [&](detail::SubgroupScanForm form) {
    return compiler::disassemble(
        *detail::prefixed_scan_kernel<std::uint32_t>(op, detail::ScanKind::Inclusive, form, shape).ir());
  };
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  std::string shuffles = ir_of(detail::SubgroupScanForm{32});
  std::string instructions = ir_of(detail::SubgroupScanForm{});
  CHECK(count(shuffles, "InclusiveScan") == 0);
  CHECK(count(shuffles, "ExclusiveScan") == 0);
  // A scan of each of the 16 runs of items and one of the subgroup totals (scan_tile.hpp):
  // five steps each for 32 lanes.
  CHECK(count(shuffles, "OpGroupNonUniformShuffleUp") == (shape.items + 1) * 5);
  CHECK(count(instructions, "OpGroupNonUniformShuffleUp") == 0);
  CHECK(count(instructions, "InclusiveScan") > 0);
}

TEST_CASE("with shuffle-ups, scans of sums and of an operator without an instruction equal std::") {
  test::EnvGuard force("SPRIG_SUBGROUP_SCAN", "shuffle-up");
  auto t = STDLIB_TARGET;
  ScanOptions options{GENERATE(ScanMode::DecoupledLookBack, ScanMode::ReduceThenScan)};
  for (std::size_t n : sizes_for(t, {1, 31, 257, 4099, 65537, std::size_t(1) << 20})) {
    INFO(t.name << " n=" << n << " mode " << int(options.mode));
    auto values = random_values<std::uint32_t>(n, std::uint32_t(n) + 3, 5);  // zeros for last_nonzero
    auto in = t.device->upload(values);
    auto out = t.device->alloc<std::uint32_t>(n);
    std::vector<std::uint32_t> expected(n);

    inclusive_scan(*t.device, in, out, plus<std::uint32_t>(), options);
    std::inclusive_scan(values.begin(), values.end(), expected.begin());
    REQUIRE(stdlib_test::first_difference(t.device->download(out), expected) == "");

    exclusive_scan(*t.device, in, out, plus<std::uint32_t>(), options);
    std::exclusive_scan(values.begin(), values.end(), expected.begin(), 0u);
    REQUIRE(stdlib_test::first_difference(t.device->download(out), expected) == "");

    auto last = [](std::uint32_t a, std::uint32_t b) { return b != 0 ? b : a; };
    inclusive_scan(*t.device, in, out, last_nonzero(), options);
    std::inclusive_scan(values.begin(), values.end(), expected.begin(), last);
    REQUIRE(stdlib_test::first_difference(t.device->download(out), expected) == "");
  }
}

TEST_CASE("with shuffle-ups, reductions and copy_if equal std::") {
  test::EnvGuard force("SPRIG_SUBGROUP_SCAN", "shuffle-up");
  auto t = STDLIB_TARGET;
  for (std::size_t n : sizes_for(t, {1, 257, 4099, 65537, std::size_t(1) << 20})) {
    INFO(t.name << " n=" << n);
    auto values = random_values<std::uint32_t>(n, std::uint32_t(n) + 7);
    auto in = t.device->upload(values);

    auto nonzero = std::find_if(values.rbegin(), values.rend(), [](std::uint32_t x) { return x != 0; });
    REQUIRE(reduce(*t.device, in, last_nonzero()) == (nonzero == values.rend() ? 0u : *nonzero));
    REQUIRE(reduce(*t.device, in) == std::accumulate(values.begin(), values.end(), 0u));

    auto out = t.device->alloc<std::uint32_t>(n);
    std::vector<std::uint32_t> kept;
    std::copy_if(values.begin(), values.end(), std::back_inserter(kept), [](std::uint32_t x) { return (x & 3) == 0; });
    REQUIRE(copy_if(*t.device, in, out, [](Expr<std::uint32_t> x) { return (x & 3u) == 0u; }) == kept.size());
    std::vector<std::uint32_t> got = t.device->download(out);
    got.resize(kept.size());
    REQUIRE(stdlib_test::first_difference(got, kept) == "");
  }
}

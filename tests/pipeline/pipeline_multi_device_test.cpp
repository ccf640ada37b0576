// Pipelines spread over several devices (multi_device.hpp): the results equal one device's
// bit for bit and in input order, whichever device took which chunk; failures name the
// device; chains that carry state across chunks are refused at compile time.
//
// The devices: lavapipe beside the simulator where Vulkan is tested (two devices of very
// different speed), else two simulators.
#include <array>
#include <iterator>
#include <memory>
#include <sstream>

#include "pipeline_support.hpp"

using namespace sprig;
using pipeline_test::Counter;
using pipeline_test::iota_values;

namespace multi_device_test {

struct Tagged {
  std::uint32_t key;
  float weight;
  bool operator==(const Tagged&) const = default;
};
SPRIG_STRUCT(Tagged, key, weight)

}  // namespace multi_device_test

using multi_device_test::Tagged;

namespace {

std::vector<Device*> two_devices() {
  if (test::backend_enabled(test::Backend::Vulkan)) return {&test::vulkan(), &test::simulator()};
  return {&test::simulator(), &test::simulator(16)};
}

auto scramble = [](UInt x) { return x * 2654435761u; };
// Keeps a share that changes from one 64-element block to the next (0 to 15 sixteenths),
// so chunks of 64 come back with different counts.
auto varying_share = [](UInt x) { return (x >> 6u) % 16u > ((x * 2654435761u) >> 28u); };
auto plus_one = [](UInt x) { return x + 1u; };
// Exact in float on any device: small integers only.
auto widen = [](UInt x) { return Vec4(vec4{0, 1, 2, 3}) + cast<float>(x % 1000u); };
auto wide_kept = [](Expr<vec4> v) { return v.x() >= 300.0f; };
auto tag = [](UInt x) {
  Var<Tagged> t;
  t[&Tagged::key] = x * 3u;
  t[&Tagged::weight] = cast<float>(x % 64u) * 0.5f;
  return t.load();
};
auto heavy = [](Expr<Tagged> t) { return t[&Tagged::weight] >= 8.0f; };
auto key_of = [](Expr<Tagged> t) { return t[&Tagged::key] + cast<std::uint32_t>(t[&Tagged::weight]); };

// Reverses each workgroup's 64 elements through shared memory: its results depend on where
// chunks begin, so equal results show that chunks are cut where one device cuts them.
struct ReverseIn64 {
  void operator()(ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out, UInt count) const {
    auto tile = shared_array<std::uint32_t>(64, "tile");
    UInt i = global_id().x();
    UInt lane = local_index();
    tile[lane] = select(i < count, Expr<std::uint32_t>(in[select(i < count, i, Expr<std::uint32_t>(0u))]),
                        Expr<std::uint32_t>(0u));
    barrier();
    if_(i < count, [&] { out[i] = Expr<std::uint32_t>(tile[63u - lane]); });
  }
};

// Runs `chain` over `values` on the first device alone and on all of them, through each
// terminal, and checks that they agree.
template <class Chain>
void check_same_as_one_device(const std::vector<Device*>& devices, const std::vector<std::uint32_t>& values,
                              const Chain& chain, gpu::Options options) {
  auto one = values | chain | gpu::collect(*devices[0], options);
  auto all = values | chain | gpu::collect(devices, options);
  CHECK(all.size() == one.size());
  CHECK(all == one);
  std::vector<typename decltype(one)::value_type> copied;
  values | chain | gpu::to(devices, std::back_inserter(copied), options);
  CHECK(copied == one);
  CHECK((values | chain | gpu::count(devices, options)) == one.size());
}

}  // namespace

TEST_CASE("several devices give one device's results in order: map, filter, kernel stage, type changes") {
  std::vector<Device*> devices = two_devices();
  INFO(devices[0]->name() << " + " << devices[1]->name());
  std::vector<std::uint32_t> values = iota_values(3000);
  gpu::Options small{.chunk_elements = 128};
  check_same_as_one_device(devices, values, gpu::map(scramble), small);
  check_same_as_one_device(devices, values, gpu::filter(varying_share), small);
  check_same_as_one_device(devices, values, gpu::map(scramble) | gpu::filter(varying_share) | gpu::map(plus_one), small);
  check_same_as_one_device(
      devices, values, gpu::map(plus_one) | gpu::kernel_stage<std::uint32_t>(64, ReverseIn64{}) | gpu::map(scramble),
      small);
  check_same_as_one_device(devices, values, gpu::map(widen) | gpu::filter(wide_kept), small);
  check_same_as_one_device(devices, values, gpu::map(tag) | gpu::filter(heavy) | gpu::map(key_of), small);
  check_same_as_one_device(devices, values, gpu::map(tag), small);
  // And against values written out: the filter kept a different share of each chunk.
  auto kept = values | gpu::filter(varying_share) | gpu::collect(devices, small);
  std::vector<std::uint32_t> expected;
  for (std::uint32_t x : values)
    if ((x >> 6) % 16 > ((x * 2654435761u) >> 28)) expected.push_back(x);
  CHECK(kept == expected);
}

TEST_CASE("many small chunks dealt to a fast and a slow device come back in input order") {
  std::vector<Device*> devices = two_devices();
  // 300 chunks of 16: the faster device takes most, the slower some, and results from
  // both interleave in the window.
  gpu::Options tiny{.chunk_elements = 16, .buffers = 2};
  auto chain = gpu::map(scramble) | gpu::filter(varying_share) | gpu::map(plus_one);
  std::vector<std::uint32_t> values = iota_values(4800);
  auto out = values | chain | gpu::collect(devices, tiny);
  std::vector<std::uint32_t> expected;
  for (std::uint32_t x : values) {
    std::uint32_t y = x * 2654435761u;
    if ((y >> 6) % 16 > ((y * 2654435761u) >> 28)) expected.push_back(y + 1);
  }
  CHECK(out == expected);
  // The same device twice (two threads on one device) is allowed too.
  std::array<Device*, 3> repeated{devices[0], devices[1], devices[0]};
  CHECK((values | chain | gpu::collect(repeated, tiny)) == expected);
}

TEST_CASE("single-pass sources of unknown length are dealt in order") {
  std::vector<Device*> devices = two_devices();
  gpu::Options small{.chunk_elements = 100};
  auto chain = gpu::map(scramble) | gpu::filter(varying_share);
  auto from_vector = iota_values(2500) | chain | gpu::collect(devices, small);
  // A generator: not sized, not random access.
  CHECK((Counter(2500) | chain | gpu::collect(devices, small)) == from_vector);
  CHECK((Counter(2500) | chain | gpu::count(devices, small)) == from_vector.size());
  // An istream, read element by element and never past the last element.
  std::ostringstream text;
  for (std::uint32_t i = 0; i < 1000; ++i) text << i << ' ';
  text << "end";
  std::istringstream in(text.str());
  auto read = std::ranges::istream_view<std::uint32_t>(in) | gpu::map(plus_one) | gpu::collect(devices, {.chunk_elements = 64});
  CHECK(read == iota_values(1000, 1));
  in.clear();
  std::string rest;
  in >> rest;
  CHECK(rest == "end");
}

TEST_CASE("an empty source gives no results on several devices") {
  std::vector<Device*> devices = two_devices();
  std::vector<std::uint32_t> none;
  CHECK((none | gpu::map(scramble) | gpu::collect(devices)).empty());
  CHECK((none | gpu::filter(varying_share) | gpu::count(devices)) == 0);
  CHECK((Counter(0) | gpu::map(scramble) | gpu::collect(devices, {.chunk_elements = 8})).empty());
  // No stages at all: the source is copied through the devices.
  CHECK((iota_values(300) | gpu::collect(devices, {.chunk_elements = 32})) == iota_values(300));
}

TEST_CASE("one device in the list is the one-device terminal, and an empty list or a null device is refused") {
  Device& dev = *two_devices()[0];
  std::vector<Device*> one{&dev};
  auto chain = gpu::map(scramble) | gpu::filter(varying_share);
  CHECK((iota_values(1000) | chain | gpu::collect(one)) == (iota_values(1000) | chain | gpu::collect(dev)));
  CHECK((iota_values(1000) | chain | gpu::count({&dev})) == (iota_values(1000) | chain | gpu::count(dev)));
  CHECK_THROWS_AS(gpu::collect(std::vector<Device*>{}), std::invalid_argument);
  CHECK_THROWS_WITH(gpu::count({&dev, nullptr}), Catch::Contains("device 1 of the list is null"));
  // Bad options are refused on the calling thread, as with one device.
  CHECK_THROWS_WITH(iota_values(10) | chain | gpu::collect(two_devices(), {.chunk_elements = 0}),
                    Catch::Contains("chunk_elements"));
}

TEST_CASE("a device that cannot build its buffers fails the run with its index and name, and no hang") {
  Device& good = *two_devices()[0];
  sim::Device starved;
  starved.set_memory_budget(256);
  std::vector<Device*> devices{&good, &starved};
  auto chain = gpu::map(scramble) | gpu::filter(varying_share);
  std::vector<std::uint32_t> values = iota_values(3000);
  auto expected = values | chain | gpu::collect(good, {.chunk_elements = 64});
  std::vector<std::uint32_t> partial;
  try {
    values | chain | gpu::to(devices, std::back_inserter(partial), {.chunk_elements = 64});
    FAIL("no exception");
  } catch (const gpu::DeviceFailure& e) {
    CHECK(e.device_index() == 1);
    CHECK(e.device_name() == starved.name());
    CHECK_THAT(std::string(e.what()), Catch::Contains("device 1 (" + starved.name() + ")") && Catch::Contains("budget"));
    CHECK_THROWS_AS(std::rethrow_exception(e.cause()), MemoryBudgetExceeded);
  }
  // What reached the output before the failure is the start of the right results.
  REQUIRE(partial.size() <= expected.size());
  CHECK(std::equal(partial.begin(), partial.end(), expected.begin()));
  // The devices are fine afterwards.
  CHECK((values | chain | gpu::collect(good, {.chunk_elements = 64})) == expected);
}

TEST_CASE("a Vulkan device lost in the middle of the stream fails the run with its name", "[vulkan]") {
  auto faults = std::make_shared<vk::FaultInjector>();
  vk::Options options;
  options.faults = faults;
  vk::Device failing = vk::Device::best(options);
  std::vector<Device*> devices{&test::simulator(), &failing};
  auto chain = gpu::map(scramble) | gpu::filter(varying_share);
  // Two setup submissions, then chunks: the third chunk's submission loses the device.
  faults->fail(vk::FaultSite::QueueSubmit, vk::Fault::DeviceLost, 5);
  std::vector<std::uint32_t> values = iota_values(4000);
  CHECK_THROWS_WITH(values | chain | gpu::count(devices, {.chunk_elements = 32}),
                    Catch::Contains("device 1 (" + failing.name() + ")"));
  CHECK(faults->injected(vk::FaultSite::QueueSubmit) == 1);
}

TEST_CASE("an output iterator that throws stops every device thread") {
  std::vector<Device*> devices = two_devices();
  struct Full {};
  std::size_t room = 500;
  auto out = [&](std::uint32_t) {
    if (room-- == 0) throw Full{};
  };
  struct Sink {
    using difference_type = std::ptrdiff_t;
    std::function<void(std::uint32_t)>* put;
    Sink& operator*() { return *this; }
    Sink& operator=(std::uint32_t v) {
      (*put)(v);
      return *this;
    }
    Sink& operator++() { return *this; }
    Sink operator++(int) { return *this; }
  };
  std::function<void(std::uint32_t)> put = out;
  CHECK_THROWS_AS(iota_values(5000) | gpu::map(scramble) | gpu::to(devices, Sink{&put}, {.chunk_elements = 64}), Full);
}

TEST_CASE("chains that carry state across chunks cannot be spread over several devices") {
  auto f = [](UInt x) { return x; };
  auto numbered = [](UInt i, UInt x) { return i + x; };
  STATIC_REQUIRE(gpu::SpreadableChain<decltype(gpu::map(f) | gpu::filter(varying_share))>);
  STATIC_REQUIRE(gpu::SpreadableChain<decltype(gpu::kernel_stage<std::uint32_t>(64, ReverseIn64{}))>);
  STATIC_REQUIRE_FALSE(gpu::SpreadableChain<decltype(gpu::map(f) | gpu::take(3))>);
  STATIC_REQUIRE_FALSE(gpu::SpreadableChain<decltype(gpu::drop(3) | gpu::map(f))>);
  STATIC_REQUIRE_FALSE(gpu::SpreadableChain<decltype(gpu::filter(varying_share) | gpu::enumerate(numbered))>);
  STATIC_REQUIRE_FALSE(gpu::SpreadableChain<decltype(gpu::scan<std::uint32_t>())>);
  // Device lists: any range of pointers to devices.
  STATIC_REQUIRE(gpu::DeviceList<std::array<sim::Device*, 2>>);
  STATIC_REQUIRE(gpu::DeviceList<std::span<Device* const>>);
  STATIC_REQUIRE_FALSE(gpu::DeviceList<std::vector<Device>>);
}

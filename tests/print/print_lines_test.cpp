// device_print's lines: every argument type's text, the order of lines (by workgroup, then
// local invocation, then program order, launch after launch), and both backends printing
// the same characters for the same kernel.
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <thread>

#include <catch2/catch.hpp>

#include "backends.hpp"
#include "print_capture.hpp"

using namespace sprig;
using sprig::test::PrintCapture;

namespace {

// Floats whose text is easy to get wrong: signed zero, a subnormal, the extremes, NaNs of
// either sign and another payload (all "nan"), and values whose shortest form is short.
const std::vector<std::uint32_t> float_bits{
    std::bit_cast<std::uint32_t>(0.1f),         std::bit_cast<std::uint32_t>(-0.0f),
    std::bit_cast<std::uint32_t>(1e-40f),        std::bit_cast<std::uint32_t>(3.4028235e38f),
    std::bit_cast<std::uint32_t>(std::numeric_limits<float>::infinity()),
    std::bit_cast<std::uint32_t>(-std::numeric_limits<float>::infinity()),
    0x7fc00000u, 0xffc00001u,
    std::bit_cast<std::uint32_t>(1.0f),          std::bit_cast<std::uint32_t>(16777216.0f),
    std::bit_cast<std::uint32_t>(-0.0025f),      std::bit_cast<std::uint32_t>(1.17549435e-38f)};
const std::vector<std::string> float_texts{"0.1", "-0",   "1e-40", "3.4028235e+38", "inf",   "-inf",
                                           "nan", "nan", "1",     "16777216",      "-0.0025", "1.1754944e-38"};

auto typed_kernel() {
  return kernel("print_types", [](ReadBuffer<float> floats, UInt n) {
    UInt i = global_id().x();
    if_(i < n, [&] {
      Float f = floats[i];
      device_print("i={} f={} bits={:x} neg={} wide={} long={} hex={:x} even={}", i, f, bitcast<std::uint32_t>(f),
                   -cast<std::int32_t>(i), cast<std::uint64_t>(i) << 40u, cast<std::int64_t>(i) - 3000000000ll,
                   cast<std::int32_t>(i) - 2, i % 2u == 0u);
      device_print("vectors {} {} {:x} {}", UVec2(i, i * 2u), Vec3(f, 1.5f, -2.0f),
                   IVec4(cast<std::int32_t>(i), -1, 255, 0), BVec2(i == 0u, true));
      device_print("host {} {} {:x} {} {} {} {} {{braces}}", 42, -7, 255u, 2.5, true, "text", uvec2{3, 4});
    });
  }, workgroup(4));
}

std::vector<std::string> expected_typed_lines() {
  std::vector<std::string> lines;
  for (std::uint32_t i = 0; i < float_texts.size(); ++i) {
    const std::string wg = "wg(" + std::to_string(i / 4) + ",0,0) local(" + std::to_string(i % 4) + ",0,0): ";
    char bits[16];
    std::snprintf(bits, sizeof bits, "%x", float_bits[i]);
    char hex[16];
    const int signed_i = int(i) - 2;
    std::snprintf(hex, sizeof hex, "%s%x", signed_i < 0 ? "-" : "", unsigned(std::abs(signed_i)));
    lines.push_back(wg + "i=" + std::to_string(i) + " f=" + float_texts[i] + " bits=" + bits + " neg=" +
                    std::to_string(-int(i)) + " wide=" + std::to_string(std::uint64_t(i) << 40) +
                    " long=" + std::to_string(std::int64_t(i) - 3000000000ll) + " hex=" + hex +
                    " even=" + (i % 2 == 0 ? "true" : "false"));
    lines.push_back(wg + "vectors (" + std::to_string(i) + ", " + std::to_string(2 * i) + ") (" + float_texts[i] +
                    ", 1.5, -2) (" + (i < 10 ? std::to_string(i) : std::string(1, char('a' + i - 10))) +
                    ", -1, ff, 0) (" + (i == 0 ? "true" : "false") + ", true)");
    lines.push_back(wg + "host 42 -7 ff 2.5 true text (3, 4) {braces}");
  }
  return lines;
}

auto ordering_kernel() {
  // Each invocation prints in a loop whose trip count depends on it, then once more; the
  // invocations of a workgroup print in reverse order of their ids' arrival.
  return kernel("print_order", [](UInt rounds) {
    UInt x = global_id().x(), y = global_id().y();
    for_(0u, (x + y) % rounds, [&](UInt r) { device_print("({}, {}) round {}", x, y, r); });
    device_print("({}, {}) done", x, y);
  }, workgroup(2, 2));
}

std::vector<std::string> expected_order_lines(std::uint32_t rounds) {
  std::vector<std::string> lines;
  for (std::uint32_t gy = 0; gy < 2; ++gy) {
    for (std::uint32_t gx = 0; gx < 3; ++gx) {
      for (std::uint32_t ly = 0; ly < 2; ++ly) {
        for (std::uint32_t lx = 0; lx < 2; ++lx) {
          const std::uint32_t x = gx * 2 + lx, y = gy * 2 + ly;
          const std::string prefix = "wg(" + std::to_string(gx) + "," + std::to_string(gy) + ",0) local(" +
                                     std::to_string(lx) + "," + std::to_string(ly) + ",0): (" + std::to_string(x) +
                                     ", " + std::to_string(y) + ") ";
          for (std::uint32_t r = 0; r < (x + y) % rounds; ++r) lines.push_back(prefix + "round " + std::to_string(r));
          lines.push_back(prefix + "done");
        }
      }
    }
  }
  return lines;
}

}  // namespace

TEST_CASE("device_print writes every argument type as the host formats its bits") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  PrintCapture capture(device);
  auto k = typed_kernel();
  std::vector<float> floats;
  for (std::uint32_t bits : float_bits) floats.push_back(std::bit_cast<float>(bits));
  device.run(k, grid(16), device.upload(floats), std::uint32_t(floats.size()));
  Printed printed = capture.take();
  CHECK(sprig::test::invocations_and_messages(printed.lines) == expected_typed_lines());
  CHECK(printed.dropped == 0);
  REQUIRE(!printed.lines.empty());
  const PrintedLine& first = printed.lines.front();
  CHECK(first.kernel == "print_types");
  CHECK(std::string(first.loc.file) == __FILE__);
  CHECK(first.text() == first.loc.str() + ": print_types wg(0,0,0) local(0,0,0): " + first.message);
  // The sink got each line's text, in the same order.
  REQUIRE(capture.texts().size() == printed.lines.size());
  for (std::size_t j = 0; j < printed.lines.size(); ++j) CHECK(capture.texts()[j] == printed.lines[j].text());
}

TEST_CASE("device_print lines come by workgroup, then local invocation, then program order") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  PrintCapture capture(device);
  auto k = ordering_kernel();
  device.run(k, grid(6, 4), 3u);
  CHECK(sprig::test::invocations_and_messages(capture.take().lines) == expected_order_lines(3));
}

TEST_CASE("device_print lines of a sequence come launch after launch") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  PrintCapture capture(device);
  auto first = kernel("print_first", [](UInt tag) { device_print("first {} from {}", tag, global_id().x()); },
                      workgroup(2));
  auto second = kernel("print_second", [](UInt tag) { device_print("second {} from {}", tag, global_id().x()); },
                       workgroup(2));
  auto s = device.sequence();
  s.run(second, grid(2), 1u).run(first, grid(2), 2u).run(second, grid(2), 3u);
  s.run_and_wait();
  std::vector<std::string> kernels_and_messages;
  for (const PrintedLine& line : capture.take().lines)
    kernels_and_messages.push_back(line.kernel + ": " + line.message);
  CHECK(kernels_and_messages == std::vector<std::string>{"print_second: second 1 from 0",
                                                         "print_second: second 1 from 1",
                                                         "print_first: first 2 from 0", "print_first: first 2 from 1",
                                                         "print_second: second 3 from 0",
                                                         "print_second: second 3 from 1"});
}

TEST_CASE("Vulkan and the simulator print the same text for the same kernel", "[vulkan]") {
  auto typed = typed_kernel();
  auto order = ordering_kernel();
  std::vector<float> floats;
  for (std::uint32_t bits : float_bits) floats.push_back(std::bit_cast<float>(bits));
  auto texts = [&](sprig::Device& device) {
    PrintCapture capture(device);
    device.run(typed, grid(16), device.upload(floats), std::uint32_t(floats.size()));
    device.run(order, grid(6, 4), 4u);
    return capture.texts();
  };
  std::vector<std::string> vulkan = texts(sprig::test::vulkan());
  std::vector<std::string> simulator = texts(sprig::test::simulator());
  CHECK(vulkan.size() == 3 * float_texts.size() + expected_order_lines(4).size());
  CHECK(vulkan == simulator);
}

TEST_CASE("the lines of a device nobody captures go to standard output by default") {
  // A device of its own, so that no other test's options apply.
  sim::Device device;
  CHECK(!device.print_options().sink);
  CHECK(!device.print_options().keep);
  CHECK(device.print_options().filter.kind == PrintFilter::Kind::All);
  auto k = kernel("print_to_stdout", [] { device_print("to standard output"); }, workgroup(1));
  device.run(k, grid(1));
  CHECK(device.take_printed().lines.empty());  // not kept unless asked
}

TEST_CASE("the simulator delivers what a failing launch printed before it failed") {
  sim::Options options;
  options.strict = true;
  sim::Device device(options);
  PrintCapture capture(device);
  auto k = kernel("print_then_overrun", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    device_print("reading element {}", i);
    out[0u] = in[i];  // out of bounds past the first invocation
  }, workgroup(2));
  auto in = device.upload(std::vector<std::uint32_t>{5});
  auto out = device.alloc<std::uint32_t>(1);
  CHECK_THROWS_AS(device.run(k, grid(2), in, out), sim::AnalysisFailure);
  CHECK(sprig::test::invocations_and_messages(capture.take().lines) ==
        std::vector<std::string>{"wg(0,0,0) local(0,0,0): reading element 0",
                                 "wg(0,0,0) local(1,0,0): reading element 1"});
}

TEST_CASE("sequences completing on several threads deliver their lines whole") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  PrintCapture capture(device);
  auto k = kernel("print_from_threads", [](UInt thread) {
    device_print("thread {} invocation {}", thread, global_id().x());
  }, workgroup(8));
  constexpr std::uint32_t threads = 4, runs = 5;
  std::atomic<int> failures{0};
  std::vector<std::thread> team;
  for (std::uint32_t t = 0; t < threads; ++t) {
    team.emplace_back([&, t] {
      try {
        for (std::uint32_t r = 0; r < runs; ++r) device.run(k, grid(8), t);
      } catch (...) {
        ++failures;
      }
    });
  }
  for (std::thread& member : team) member.join();
  CHECK(failures == 0);
  std::vector<PrintedLine> lines = capture.take().lines;
  REQUIRE(lines.size() == threads * runs * 8);
  // Each launch's 8 lines are together, in order.
  std::size_t whole = 0;
  for (std::size_t j = 0; j < lines.size(); j += 8) {
    const std::string thread = lines[j].message.substr(0, lines[j].message.find(" invocation"));
    bool together = true;
    for (std::size_t m = 0; m < 8; ++m)
      together = together && lines[j + m].message == thread + " invocation " + std::to_string(m);
    whole += together;
  }
  CHECK(whole == threads * runs);
}

// Which prints print: the device's filter (one invocation, one workgroup), the lanes that
// control flow leaves active, callables, and what a full Vulkan print buffer drops.
#include <catch2/catch.hpp>

#include "backends.hpp"
#include "print_capture.hpp"

using namespace sprig;
using sprig::test::PrintCapture;

namespace {

auto grid_kernel() {
  return kernel("print_grid", [] {
    device_print("at ({}, {})", global_id().x(), global_id().y());
  }, workgroup(4, 2));
}

std::vector<std::string> messages(const std::vector<PrintedLine>& lines) {
  std::vector<std::string> out;
  for (const PrintedLine& line : lines) out.push_back(line.message);
  return out;
}

}  // namespace

TEST_CASE("a print filter keeps one invocation's lines") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  auto k = grid_kernel();
  {
    PrintCapture capture(device, PrintFilter::invocation(5, 3));
    device.run(k, grid(8, 4));
    std::vector<PrintedLine> lines = capture.take().lines;
    REQUIRE(lines.size() == 1);
    CHECK(sprig::test::invocation_and_message(lines[0]) == "wg(1,1,0) local(1,1,0): at (5, 3)");
  }
  {
    PrintCapture capture(device, PrintFilter::invocation(100));  // outside the grid: nothing
    device.run(k, grid(8, 4));
    CHECK(capture.take().lines.empty());
  }
}

TEST_CASE("a print filter keeps one workgroup's lines") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  auto k = grid_kernel();
  PrintCapture capture(device, PrintFilter::workgroup(1, 0));
  device.run(k, grid(8, 4));
  CHECK(messages(capture.take().lines) == std::vector<std::string>{"at (4, 0)", "at (5, 0)", "at (6, 0)", "at (7, 0)",
                                                                   "at (4, 1)", "at (5, 1)", "at (6, 1)", "at (7, 1)"});
}

TEST_CASE("only the invocations that reach a print print") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  PrintCapture capture(device);
  auto k = kernel("print_branches", [](UInt n) {
    UInt i = global_id().x();
    if_(i >= n, [&] { return_(); });
    if_(i % 3u == 0u, [&] { device_print("{} is a multiple of 3", i); }).else_([&] {
      loop_([&] {
        Var<UInt> j = 0u;
        while_([&] { return j < i % 3u; }, [&] {
          device_print("{} iteration {}", i, j);
          j += 1u;
        });
        break_();
      });
    });
    for_(0u, 4u, [&](UInt r) {
      if_(r == i, [&] { break_(); });
      if_(r == 1u, [&] { continue_(); });
      device_print("{} for {}", i, r);
    });
  }, workgroup(4));
  device.run(k, grid(8), 5u);
  CHECK(messages(capture.take().lines) ==
        std::vector<std::string>{"0 is a multiple of 3",  // the for_ loop breaks at once for i = 0
                                 "1 iteration 0", "1 for 0",                   //
                                 "2 iteration 0", "2 iteration 1", "2 for 0",  //
                                 "3 is a multiple of 3", "3 for 0", "3 for 2",  //
                                 "4 iteration 0", "4 for 0", "4 for 2", "4 for 3"});
}

TEST_CASE("prints in callables print with the calling invocation") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  PrintCapture capture(device);
  auto twice = callable("twice", [](UInt x) -> UInt {
    device_print("twice({})", x);
    return x * 2u;
  });
  auto k = kernel("print_callable", [twice](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = twice(twice(i));
  }, workgroup(2));
  auto out = device.alloc<std::uint32_t>(2);
  device.run(k, grid(2), out);
  CHECK(sprig::test::invocations_and_messages(capture.take().lines) ==
        std::vector<std::string>{"wg(0,0,0) local(0,0,0): twice(0)", "wg(0,0,0) local(0,0,0): twice(0)",
                                 "wg(0,0,0) local(1,0,0): twice(1)", "wg(0,0,0) local(1,0,0): twice(2)"});
  CHECK(device.download(out) == std::vector<std::uint32_t>{0, 4});
}

TEST_CASE("a full Vulkan print buffer drops lines and says how many", "[vulkan]") {
  sprig::Device& device = sprig::test::vulkan();
  // 1024 bytes: 8 header words, then 248 words, room for 31 records of 8 words.
  PrintCapture capture(device, PrintFilter{}, 1024);
  auto k = kernel("print_many", [] { device_print("{}", global_id().x()); }, workgroup(64));
  device.run(k, grid(256));
  Printed printed = capture.take();
  CHECK(printed.lines.size() == 31);
  CHECK(printed.dropped == 256 - 31);
  for (const PrintedLine& line : printed.lines)
    CHECK(line.message == std::to_string(line.workgroup[0] * 64 + line.local[0]));
  REQUIRE(!capture.texts().empty());
  CHECK(capture.texts().back().find("kernel 'print_many'") != std::string::npos);
  CHECK(capture.texts().back().find("dropped 225 device_print line(s)") != std::string::npos);
  CHECK(capture.texts().back().find("print buffer of 1024 bytes was full (PrintOptions::buffer_bytes)") !=
        std::string::npos);

  // The next launch starts with an empty buffer of its own.
  device.run(k, grid(64));
  printed = capture.take();
  CHECK(printed.lines.size() == 31);
  CHECK(printed.dropped == 64 - 31);
}

TEST_CASE("the simulator keeps every line whatever the buffer size") {
  sprig::Device& device = sprig::test::simulator();
  PrintCapture capture(device, PrintFilter{}, 1024);
  auto k = kernel("print_many_on_the_simulator", [] { device_print("{}", global_id().x()); }, workgroup(64));
  device.run(k, grid(256));
  Printed printed = capture.take();
  CHECK(printed.lines.size() == 256);
  CHECK(printed.dropped == 0);
}

TEST_CASE("print options are checked") {
  sprig::Device& device = sprig::test::device(SPRIG_BACKEND);
  PrintOptions options;
  options.buffer_bytes = 1000;
  CHECK_THROWS_WITH(device.set_print_options(options),
                    "PrintOptions::buffer_bytes must be at least 1024 and a multiple of 4, not 1000");
  options.buffer_bytes = 1026;
  CHECK_THROWS(device.set_print_options(options));
}

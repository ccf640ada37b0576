// The planner on its own: where transients go for given sizes and live ranges.
#include <catch2/catch.hpp>

#include "sprig/runtime/memory_plan.hpp"

using namespace sprig;

namespace {

PlannedBuffer transient(const char* name, std::uint64_t bytes, std::size_t first, std::size_t last) {
  PlannedBuffer b;
  b.name = name;
  b.bytes = bytes;
  b.first_command = first;
  b.last_command = last;
  b.transient = true;
  return b;
}

}  // namespace

TEST_CASE("transients that are never alive together share offset 0") {
  std::vector<PlannedBuffer> buffers = {transient("a", 1000, 0, 1), transient("b", 4096, 2, 3),
                                        transient("c", 512, 4, 4)};
  CHECK(place_transients(buffers, TransientPlacement::Shared) == 4096);
  CHECK(buffers[0].offset == 0);
  CHECK(buffers[1].offset == 0);
  CHECK(buffers[2].offset == 0);
}

TEST_CASE("transients alive together get disjoint bytes, each at a multiple of 256") {
  // Command 2 is in all three ranges. The largest (b) goes first, at 0; a (1000 bytes,
  // rounded to 1024) after it; c after a.
  std::vector<PlannedBuffer> buffers = {transient("a", 1000, 0, 2), transient("b", 4096, 1, 3),
                                        transient("c", 512, 2, 2)};
  CHECK(place_transients(buffers, TransientPlacement::Shared) == 4096 + 1024 + 512);
  CHECK(buffers[1].offset == 0);
  CHECK(buffers[0].offset == 4096);
  CHECK(buffers[2].offset == 4096 + 1024);
}

TEST_CASE("a small transient fills a gap left between larger ones") {
  std::vector<PlannedBuffer> buffers = {transient("w", 2048, 0, 1), transient("y", 2048, 0, 5),
                                        transient("x", 1024, 2, 5), transient("z", 1024, 5, 6)};
  std::uint64_t scratch = place_transients(buffers, TransientPlacement::Shared);
  // w and y are alive together: w at 0 (first among equals by position), y at 2048.
  CHECK(buffers[0].offset == 0);
  CHECK(buffers[1].offset == 2048);
  // x is alive with y only: w's bytes are free for it.
  CHECK(buffers[2].offset == 0);
  // z is alive with x and y: [1024, 2048) is free.
  CHECK(buffers[3].offset == 1024);
  CHECK(scratch == 4096);
}

TEST_CASE("separate placement gives every transient bytes of its own") {
  std::vector<PlannedBuffer> buffers = {transient("a", 1000, 0, 1), transient("b", 4096, 2, 3)};
  CHECK(place_transients(buffers, TransientPlacement::Separate) == 4096 + 1024);
  CHECK(buffers[1].offset == 0);
  CHECK(buffers[0].offset == 4096);
}

TEST_CASE("unused transients take no bytes") {
  std::vector<PlannedBuffer> buffers = {transient("a", 1000, 0, 1), transient("unused", 1 << 20, 0, 0)};
  buffers[1].used = false;
  CHECK(place_transients(buffers, TransientPlacement::Shared) == 1024);
}

TEST_CASE("the live peak counts the bytes alive during the busiest command") {
  std::vector<PlannedBuffer> buffers = {transient("a", 100, 0, 2), transient("b", 300, 1, 1), transient("c", 50, 2, 3),
                                        transient("d", 1000, 4, 4)};
  CHECK(live_transient_peak(buffers) == 1000);
  buffers[3].used = false;
  CHECK(live_transient_peak(buffers) == 400);
}

TEST_CASE("a plan prints as a table and as JSON with every buffer") {
  MemoryPlan plan;
  plan.commands = 3;
  PlannedBuffer persistent;
  persistent.bytes = 4096;
  persistent.last_command = 2;
  plan.buffers = {persistent, transient("keys scratch", 1000, 0, 1)};
  plan.persistent_bytes = 4096;
  plan.scratch_bytes = 1024;
  plan.live_transient_peak = 1000;
  CHECK(plan.peak_bytes() == 5120);
  std::string text = plan.text();
  CHECK(text.find("peak 5.00 KiB (5120 bytes)") != std::string::npos);
  CHECK(text.find("keys scratch") != std::string::npos);
  std::string json = plan.json();
  CHECK(json.find("\"peak_bytes\": 5120") != std::string::npos);
  CHECK(json.find("\"name\": \"keys scratch\"") != std::string::npos);
  CHECK(json.find("\"offset\": 0") != std::string::npos);
}

TEST_CASE("no transient straddles two blocks of scratch, and one larger than a block is refused by name") {
  // 3000 bytes take 3072 aligned: two alive at once cannot share a 4096-byte block.
  std::vector<PlannedBuffer> buffers = {transient("a", 3000, 0, 2), transient("b", 3000, 0, 2),
                                        transient("c", 1000, 0, 2)};
  CHECK(place_transients(buffers, TransientPlacement::Shared, 4096) == 4096 + 3072);
  for (const PlannedBuffer& b : buffers) CHECK(b.offset / 4096 == (b.offset + b.bytes - 1) / 4096);
  CHECK(place_transients(buffers, TransientPlacement::Separate, 4096) == 2 * 4096);
  for (const PlannedBuffer& b : buffers) CHECK(b.offset / 4096 == (b.offset + b.bytes - 1) / 4096);
  std::vector<PlannedBuffer> too_large = {transient("whole table", 5000, 0, 0)};
  REQUIRE_THROWS_WITH(place_transients(too_large, TransientPlacement::Shared, 4096),
                      Catch::Contains("transient 'whole table'") && Catch::Contains("in one allocation"));
}

namespace {

PlannedBuffer touched(const char* name, std::uint64_t bytes, std::size_t first, std::size_t last, std::size_t touches) {
  PlannedBuffer b = transient(name, bytes, first, last);
  b.touches = touches;
  return b;
}

// A table written at command 0 and read at 4, two short-lived scratch buffers beside it at
// command 2 (the peak, 12 KiB), and a buffer alone at command 5.
std::vector<PlannedBuffer> table_and_scratch() {
  return {touched("table", 4096, 0, 4, 2), touched("a", 4096, 1, 2, 2), touched("b", 4096, 2, 3, 3),
          touched("late", 8192, 5, 5, 1)};
}

}  // namespace

TEST_CASE("over its device limit the planner spills the least-touched transient alive at the peak") {
  std::vector<PlannedBuffer> buffers = table_and_scratch();
  const ScratchBytes scratch = place_transients_within(buffers, TransientPlacement::Shared, ~0ull, 8192);
  // table and a are touched twice each; the tie goes to the first recorded. late is touched
  // once but is not alive at the peak, so spilling it would not help.
  CHECK(buffers[0].host);
  CHECK_FALSE(buffers[1].host);
  CHECK_FALSE(buffers[2].host);
  CHECK_FALSE(buffers[3].host);
  CHECK(scratch.device == 8192);
  CHECK(scratch.host == 4096);
  CHECK(buffers[1].offset != buffers[2].offset);  // a and b are alive together on the device
}

TEST_CASE("a device limit of zero spills every transient, and the host scratch is shared by lifetime too") {
  std::vector<PlannedBuffer> buffers = table_and_scratch();
  const ScratchBytes scratch = place_transients_within(buffers, TransientPlacement::Shared, ~0ull, 0);
  for (const PlannedBuffer& b : buffers) CHECK(b.host);
  CHECK(scratch.device == 0);
  CHECK(scratch.host == 3 * 4096);  // late shares the bytes of the three alive at command 2
}

TEST_CASE("a plan within its device limit spills nothing") {
  std::vector<PlannedBuffer> buffers = table_and_scratch();
  const ScratchBytes scratch = place_transients_within(buffers, TransientPlacement::Shared, ~0ull, 3 * 4096);
  for (const PlannedBuffer& b : buffers) CHECK_FALSE(b.host);
  CHECK(scratch.device == 3 * 4096);
  CHECK(scratch.host == 0);
}

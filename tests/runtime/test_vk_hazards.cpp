// Where barriers go between the commands of a sequence (the pure tracker, no device).
#include <array>

#include <catch2/catch.hpp>

#include "vk_hazards.hpp"

using sprig::vk::BufferAccess;
using sprig::vk::ComputeStage;
using sprig::vk::Dependency;
using sprig::vk::HazardTracker;
using sprig::vk::TransferStage;

namespace {

int buffers[8];  // distinct addresses standing in for buffers
const void* A = &buffers[0];
const void* B = &buffers[1];
const void* C = &buffers[2];
const void* D = &buffers[3];

BufferAccess reads(const void* b) { return {b, true, false}; }
BufferAccess writes(const void* b) { return {b, false, true}; }

std::optional<Dependency> kernel(HazardTracker& t, std::initializer_list<BufferAccess> accesses) {
  return t.add_command(ComputeStage, std::span(accesses.begin(), accesses.size()));
}

}  // namespace

TEST_CASE("launches that read the same buffer and write different ones need no barrier") {
  HazardTracker t;
  CHECK_FALSE(kernel(t, {reads(A), writes(B)}));
  CHECK_FALSE(kernel(t, {reads(A), writes(C)}));
  CHECK(t.barriers() == 0);
}

TEST_CASE("reading what an earlier launch wrote needs a barrier") {
  HazardTracker t;
  kernel(t, {reads(A), writes(B)});
  auto barrier = kernel(t, {reads(B), writes(C)});
  REQUIRE(barrier);
  CHECK(*barrier == Dependency{ComputeStage, ComputeStage});
}

TEST_CASE("writing what an earlier launch read needs a barrier that waits but flushes nothing") {
  HazardTracker t;
  kernel(t, {reads(A)});
  auto barrier = kernel(t, {writes(A)});
  REQUIRE(barrier);
  CHECK(*barrier == Dependency{ComputeStage, 0});
}

TEST_CASE("writing what an earlier launch wrote needs a barrier") {
  HazardTracker t;
  kernel(t, {writes(A)});
  CHECK(kernel(t, {writes(A)}));
}

TEST_CASE("parameters a kernel never touches cause no barrier") {
  HazardTracker t;
  kernel(t, {writes(A)});
  CHECK_FALSE(kernel(t, {BufferAccess{A, false, false}, writes(B)}));
}

TEST_CASE("one barrier covers every command before it") {
  // Two independent chains interleaved: A->B, C->D, B->A, D->C, ... The barrier before
  // B->A also covers C->D, so D->C needs none: 5 barriers for 11 launches.
  HazardTracker t;
  const void* pairs[2][2] = {{A, B}, {C, D}};
  std::vector<int> barrier_before;
  for (int i = 0; i < 11; ++i) {
    const void* const* pair = pairs[i % 2];
    bool backwards = (i / 2) % 2 == 1;
    if (kernel(t, {reads(pair[backwards ? 1 : 0]), writes(pair[backwards ? 0 : 1])})) barrier_before.push_back(i);
  }
  CHECK(barrier_before == std::vector<int>{2, 4, 6, 8, 10});
  CHECK(t.barriers() == 5);
}

TEST_CASE("a barrier after a copy waits for the transfer and flushes its writes") {
  HazardTracker t;
  BufferAccess copy[] = {reads(A), writes(B)};
  t.add_command(TransferStage, copy);
  kernel(t, {reads(C), writes(D)});
  auto barrier = kernel(t, {reads(B)});
  REQUIRE(barrier);
  CHECK(*barrier == Dependency{TransferStage | ComputeStage, TransferStage | ComputeStage});
}

TEST_CASE("the whole sequence lists every stage and every kind of write") {
  HazardTracker t;
  BufferAccess fill[] = {writes(A)};
  t.add_command(TransferStage, fill);
  kernel(t, {reads(A)});
  CHECK(t.whole_sequence() == Dependency{TransferStage | ComputeStage, TransferStage});
}

TEST_CASE("ranges of one memory conflict only where they overlap") {
  // Buffers sub-allocated from one block, and transients placed in one scratch memory,
  // are ranges of the same memory.
  HazardTracker t;
  t.add_command(ComputeStage, std::array{BufferAccess{A, false, true, 0, 256}});
  CHECK_FALSE(t.add_command(ComputeStage, std::array{BufferAccess{A, true, true, 256, 256}}));
  CHECK(t.add_command(ComputeStage, std::array{BufferAccess{A, false, true, 128, 256}}));
}

TEST_CASE("a transient written where another was read waits for that read") {
  HazardTracker t;
  t.add_command(ComputeStage, std::array{BufferAccess{A, true, false, 0, 1024}, writes(B)});
  auto barrier = t.add_command(ComputeStage, std::array{BufferAccess{A, false, true, 512, 512}});
  REQUIRE(barrier);
  CHECK(*barrier == Dependency{ComputeStage, ComputeStage});
}

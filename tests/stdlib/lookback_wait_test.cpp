// A decoupled look-back whose predecessor takes long to publish: every tile must still get
// its exact prefix. Tile 0 works through `rounds` dependent divisions before it publishes;
// every other tile adds 1, so tile t's exclusive prefix is t.
//
// Why: lavapipe stops every loop of an invocation after 65,535 back-edges in all
// (Quirk::LoopBackEdgeCap), so a look-back that polls without pause gives up after a few
// milliseconds of waiting and takes a pending predecessor for a finished one.
#include "sprig/stdlib/decoupled_lookback.hpp"

#include "stdlib_targets.hpp"

using namespace sprig;

namespace {

std::vector<std::uint32_t> prefixes_after_slow_first_tile(sprig::Device& dev, std::uint32_t tiles,
                                                          std::uint32_t rounds) {
  detail::LookBackTraits traits = detail::lookback_traits(dev.info());
  const std::uint32_t invocations = 64;
  auto k = kernel("lookback_after_slow_tile", [=](CoherentBuffer<std::uint64_t> status, ReadBuffer<std::uint32_t> work,
                                                  WriteBuffer<std::uint32_t> out) {
    detail::SubgroupScan<std::uint32_t, decltype(plus<std::uint32_t>())> lanes(plus<std::uint32_t>(), invocations);
    detail::DecoupledLookBack<std::uint32_t, decltype(plus<std::uint32_t>())> lookback(lanes, traits, status);
    detail::SpinSafeBarrier after_lookback(traits.counted_barrier, traits.pause);
    after_lookback.reset();
    auto prefix = shared<std::uint32_t>("prefix");
    UInt tile = detail::acquire_tile(status);
    Var<std::uint32_t> aggregate = 1u;
    if_(tile == 0u, [&] {
      // Dependent divisions by a value the compiler cannot see: slow on every device.
      Var<std::uint32_t> x = 0xffffffffu;
      UInt divisor = work[0];
      for_(0u, rounds, [&](UInt) {
        for (int i = 0; i < 32; ++i) x = x / divisor + 0xfff00000u;
      });
      aggregate = select(x.load() == 0u, 2u, 1u);  // x is never 0: keeps the loop alive
    });
    if_(subgroup_id() == 0u, [&] {
      UInt p = lookback.exclusive_prefix(tile, aggregate.load());
      if_(subgroup_invocation_id() == 0u, [&] { prefix = p; });
    });
    after_lookback.arrive_and_wait();
    if_(local_index() == 0u, [&] { out[tile] = prefix.load(); });
  }, workgroup(invocations));
  auto status = dev.upload(std::vector<std::uint64_t>(detail::tile_status_words(tiles), 0));
  auto work = dev.upload(std::vector<std::uint32_t>{3});
  auto out = dev.upload(std::vector<std::uint32_t>(tiles, 0xdeadbeef));
  dev.run(k, grid(tiles * invocations), status, work, out);
  return dev.download(out);
}

}  // namespace

TEST_CASE("a look-back waits out a predecessor that publishes late") {
  auto t = STDLIB_TARGET;
  const std::uint32_t tiles = 64;
  // About 0.1 s of divisions on lavapipe: 65,535 polls at once take a few milliseconds,
  // paused ones about half a second.
  const std::uint32_t rounds = t.name == "vulkan" ? 24000 : 2000;
  INFO(t.name);
  std::vector<std::uint32_t> expected(tiles);
  for (std::uint32_t i = 0; i < tiles; ++i) expected[i] = i;
  CHECK(prefixes_after_slow_first_tile(*t.device, tiles, rounds) == expected);
}

// Look-backs whose predecessor takes long to publish, the scan's and compaction's
// (DecoupledLookBack) and the radix sort's per digit (look_back_digit): every tile must
// still get its exact prefix. Tile 0 works through `rounds` dependent divisions before it
// publishes; every other tile adds 1, so tile t's exclusive prefix is t.
//
// Why: lavapipe stops every loop of an invocation after 65,535 back-edges in all
// (Quirk::LoopBackEdgeCap), so a look-back that polls without pause gives up after a few
// milliseconds of waiting and takes a pending predecessor for a finished one.
#include "sprig/stdlib/decoupled_lookback.hpp"
#include "sprig/stdlib/sort/onesweep.hpp"

#include "stdlib_targets.hpp"

using namespace sprig;

namespace {

constexpr std::uint32_t tiles = 64, invocations = 64;

// About 0.1 s of divisions on lavapipe, where 65,535 polls at once take a few milliseconds
// and paused ones about half a second; fewer on the simulator, which interprets every lane.
std::uint32_t slow_rounds(const stdlib_test::Target& t) { return t.name == "vulkan" ? 24000 : 2000; }

// Tile t's exclusive prefix when every tile adds 1.
std::vector<std::uint32_t> tile_numbers() {
  std::vector<std::uint32_t> numbers(tiles);
  for (std::uint32_t i = 0; i < tiles; ++i) numbers[i] = i;
  return numbers;
}

// Runs `k` over the tiles with zeroed status words and a divisor of 3; each tile's prefix.
template <class Word, class K>
std::vector<std::uint32_t> run_tiles(sprig::Device& dev, const K& k, std::size_t status_words) {
  auto status = dev.upload(std::vector<Word>(status_words, 0));
  auto work = dev.upload(std::vector<std::uint32_t>{3});
  auto out = dev.upload(std::vector<std::uint32_t>(tiles, 0xdeadbeef));
  dev.run(k, grid(tiles * invocations), status, work, out);
  return dev.download(out);
}

// Tile 0's slow start: dependent divisions by a value the compiler cannot see.
UInt slow_start(const ReadBuffer<std::uint32_t>& work, std::uint32_t rounds) {
  Var<std::uint32_t> x = 0xffffffffu;
  UInt divisor = work[0];
  for_(0u, rounds, [&](UInt) {
    for (int i = 0; i < 32; ++i) x = x / divisor + 0xfff00000u;
  });
  return select(x.load() == 0u, 2u, 1u);  // x is never 0: keeps the loop alive
}

std::vector<std::uint32_t> prefixes_after_slow_first_tile(sprig::Device& dev, std::uint32_t rounds) {
  detail::LookBackTraits traits = detail::lookback_traits(dev.info());
  auto k = kernel("lookback_after_slow_tile", [=](CoherentBuffer<std::uint64_t> status, ReadBuffer<std::uint32_t> work,
                                                  WriteBuffer<std::uint32_t> out) {
    detail::SubgroupScan<std::uint32_t, decltype(plus<std::uint32_t>())> lanes(plus<std::uint32_t>(), invocations);
    detail::DecoupledLookBack<std::uint32_t, decltype(plus<std::uint32_t>())> lookback(lanes, traits, status);
    detail::SpinSafeBarrier after_lookback(traits.counted_barrier, traits.pause);
    after_lookback.reset();
    auto prefix = shared<std::uint32_t>("prefix");
    UInt tile = detail::acquire_tile(status);
    Var<std::uint32_t> aggregate = 1u;
    if_(tile == 0u, [&] { aggregate = slow_start(work, rounds); });
    if_(subgroup_id() == 0u, [&] {
      UInt p = lookback.exclusive_prefix(tile, aggregate.load());
      if_(subgroup_invocation_id() == 0u, [&] { prefix = p; });
    });
    after_lookback.arrive_and_wait();
    if_(local_index() == 0u, [&] { out[tile] = prefix.load(); });
  }, workgroup(invocations));
  return run_tiles<std::uint64_t>(dev, k, detail::tile_status_words(tiles));
}

// The same through the radix sort's look-back of one digit: tile t's count word is status
// word 1 + t * 256 (the digit pass's layout, digit 0), word 0 the tile counter.
std::vector<std::uint32_t> digit_prefixes_after_slow_first_tile(sprig::Device& dev, std::uint32_t rounds) {
  detail::LookBackTraits traits = detail::lookback_traits(dev.info());
  using detail::sort_aggregate_ready, detail::sort_prefix_ready;
  auto k = kernel("digit_lookback_after_slow_tile", [=](CoherentBuffer<std::uint32_t> status,
                                                        ReadBuffer<std::uint32_t> work, WriteBuffer<std::uint32_t> out) {
    detail::SpinSafeBarrier after_lookback(traits.counted_barrier, traits.pause);
    after_lookback.reset();
    auto tile_index = shared<std::uint32_t>("tile_index");
    auto prefix = shared<std::uint32_t>("prefix");
    if_(local_index() == 0u, [&] { tile_index = atomic_add(status[0u], 1u); });
    barrier();
    UInt tile = tile_index.load();
    Var<std::uint32_t> count = 1u;
    if_(tile == 0u, [&] { count = slow_start(work, rounds); });
    MemoryOrder publish = traits.ordered_words ? MemoryOrder::Release : MemoryOrder::Relaxed;
    MemoryOrder read = traits.ordered_words ? MemoryOrder::Acquire : MemoryOrder::Relaxed;
    if_(local_index() == 0u, [&] {
      UInt my_word = 1u + tile * detail::radix;
      Var<std::uint32_t> earlier = 0u;
      if_(tile == 0u, [&] { atomic_store(status[my_word], sort_prefix_ready | count.load(), publish); })
          .else_([&] {
            atomic_store(status[my_word], sort_aggregate_ready | count.load(), publish);
            detail::look_back_digit(status, UInt(1u), tile, read, traits.pause, earlier);
            atomic_store(status[my_word], sort_prefix_ready | (earlier.load() + count.load()), publish);
          });
      prefix = earlier.load();
    });
    after_lookback.arrive_and_wait();
    if_(local_index() == 0u, [&] { out[tile] = prefix.load(); });
  }, workgroup(invocations));
  return run_tiles<std::uint32_t>(dev, k, 1 + tiles * detail::radix);
}

}  // namespace

TEST_CASE("a look-back waits out a predecessor that publishes late") {
  auto t = STDLIB_TARGET;
  INFO(t.name);
  CHECK(prefixes_after_slow_first_tile(*t.device, slow_rounds(t)) == tile_numbers());
}

TEST_CASE("the radix sort's look-back of a digit waits out a predecessor that publishes late") {
  auto t = STDLIB_TARGET;
  INFO(t.name);
  CHECK(digit_prefixes_after_slow_first_tile(*t.device, slow_rounds(t)) == tile_numbers());
}

// Radix sort under a memory budget (SortOptions::memory_budget): below the sort's own
// temporaries it sorts chunks and merges them. The result must be the plain sort's (stable:
// the payloads show it), the sequence's transients must fit the budget, and a budget too
// small for any chunk is refused. On Vulkan and the simulator at subgroup sizes 8 and 32.
#include <algorithm>
#include <numeric>

#include "stdlib_targets.hpp"

using namespace sprig;
using stdlib_test::random_values;

namespace {

struct BudgetedRun {
  std::uint64_t scratch_bytes;  // the sequence's transients
  std::size_t merges;           // launches of the chunks' merge
};

// Sorts (keys, their indices) under `options` in one sequence; checks the result against
// std::stable_sort on the key's bits [begin, end).
template <class K>
BudgetedRun check_budgeted_pairs(sprig::Device& dev, const std::vector<K>& keys, SortOptions options) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  auto k = dev.upload(keys);
  auto v = dev.upload(index);
  auto sequence = dev.sequence();
  radix_sort(dev, sequence, k, v, options);
  const std::uint64_t scratch = sequence.memory_plan().scratch_bytes;
  sequence.run_and_wait();
  const std::uint32_t end = std::min<std::uint32_t>(options.end_bit, sizeof(K) * 8);
  auto bits = [&](K key) {
    K shifted = key >> options.begin_bit;
    std::uint32_t width = end - options.begin_bit;
    return width >= sizeof(K) * 8 ? shifted : K(shifted & ((K(1) << width) - 1));
  };
  std::vector<std::uint32_t> expected = index;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return bits(keys[a]) < bits(keys[b]); });
  std::vector<K> got_keys = dev.download(k);
  std::vector<std::uint32_t> got_values = dev.download(v);
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(got_values[i] == expected[i]);
    REQUIRE(got_keys[i] == keys[expected[i]]);
  }
  std::size_t merges = 0;
  for (const LaunchTiming& launch : sequence.timings()) merges += launch.kernel.find("merge_runs") != std::string::npos;
  return {scratch, merges};
}

// Merges runs keys[0, left) and keys[left, n), each sorted by bits [shift, shift + width),
// with their indices as values, into an output whose first `offset` entries it must not
// touch; checks keys and values against std::merge, which takes the left run first on
// equal keys.
template <class K>
void check_merge(sprig::Device& dev, std::vector<K> keys, std::size_t left, std::uint32_t shift, std::uint32_t width) {
  const K mask = width >= sizeof(K) * 8 ? ~K(0) : K((K(1) << width) - 1);
  auto bits = [&](K key) { return K((key >> shift) & mask); };
  auto by_bits = [&](K a, K b) { return bits(a) < bits(b); };
  std::sort(keys.begin(), keys.begin() + left, by_bits);
  std::sort(keys.begin() + left, keys.end(), by_bits);
  const std::size_t n = keys.size(), offset = 5;
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  std::vector<std::uint32_t> expected(n);
  std::merge(index.begin(), index.begin() + left, index.begin() + left, index.end(), expected.begin(),
             [&](std::uint32_t a, std::uint32_t b) { return by_bits(keys[a], keys[b]); });

  auto from = dev.upload(keys);
  auto values_from = dev.upload(index);
  auto to = dev.upload(std::vector<K>(offset + n, K(7)));
  auto values_to = dev.upload(std::vector<std::uint32_t>(offset + n, 7u));
  dev.run(detail::merge_runs_kernel<K>(), detail::merge_runs_grid(n), from, to, values_from, values_to,
          std::uint32_t(left), std::uint32_t(n - left), std::uint32_t(offset), shift, mask, 1u);
  std::vector<K> got = dev.download(to);
  std::vector<std::uint32_t> got_values = dev.download(values_to);
  for (std::size_t i = 0; i < offset; ++i) REQUIRE((got[i] == K(7) && got_values[i] == 7u));
  for (std::size_t i = 0; i < n; ++i) {
    INFO("output " << i);
    REQUIRE(got_values[offset + i] == expected[i]);
    REQUIRE(got[offset + i] == keys[expected[i]]);
  }
}

}  // namespace

TEST_CASE("the merge of two sorted runs is stable across its tiles, whichever run runs out first") {
  stdlib_test::Target t = STDLIB_TARGET;
  sprig::Device& dev = *t.device;
  INFO(t.name);
  const std::uint32_t tile = detail::merge_shape.elements();
  // Few distinct keys: equal keys cross every tile boundary.
  std::vector<std::uint32_t> few = random_values<std::uint32_t>(3 * tile + 17, 21);
  for (auto& key : few) key %= 7;
  SECTION("interleaved runs of unequal lengths") { check_merge(dev, few, tile + 3, 0, 32); }
  SECTION("a left run of one key, and of all but one") {
    check_merge(dev, few, 1, 0, 32);
    check_merge(dev, few, few.size() - 1, 0, 32);
  }
  SECTION("every left key after every right key, and before") {
    std::vector<std::uint32_t> keys(2 * tile + 1);
    const std::size_t left = tile + tile / 2;
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i < left ? 1000u + std::uint32_t(i) : std::uint32_t(i);
    check_merge(dev, keys, left, 0, 32);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i < left ? std::uint32_t(i) : 1000000u + std::uint32_t(i);
    check_merge(dev, keys, left, 0, 32);
  }
  SECTION("uint64 keys compared by bits [8, 40) only") {
    std::vector<std::uint64_t> keys = random_values<std::uint64_t>(2 * tile + 333, 22);
    for (auto& key : keys) key = (key & ~(std::uint64_t(0xffffffff) << 8)) | ((key % 9) << 8);
    check_merge(dev, keys, tile - 1, 8, 32);
  }
}

TEST_CASE("radix sort under a budget of a half, a quarter and an eighth of its temporaries sorts pairs stably within it") {
  stdlib_test::Target t = STDLIB_TARGET;
  sprig::Device& dev = *t.device;
  INFO(t.name);
  const std::uint32_t range_end = GENERATE(32u, 24u);  // whole keys, and bits [0, 24)
  INFO("bits [0, " << range_end << ")");
  // Few distinct keys: long runs of equal keys, which only a stable merge keeps in order. An
  // odd count leaves the last chunk shorter.
  std::vector<std::uint32_t> keys = random_values<std::uint32_t>(20001, 5);
  for (auto& key : keys) key = (key % 5) * 0x01010101u;
  SortOptions options{.end_bit = range_end};
  const std::uint64_t unconstrained = radix_sort_scratch_bytes<std::uint32_t>(dev.info(), keys.size(), true, options);
  // Without a budget, and with one it does not need, the plain sort's temporaries: as counted.
  for (std::uint64_t budget : {std::uint64_t(0), unconstrained}) {
    options.memory_budget = budget;
    BudgetedRun run = check_budgeted_pairs(dev, keys, options);
    CHECK(run.merges == 0);
    CHECK(run.scratch_bytes >= unconstrained);
    CHECK(run.scratch_bytes <= unconstrained + 8 * 256);  // each transient rounded up to 256 bytes at most
  }
  // Two chunks (one merge), then more: odd-even transposition merges m chunks m (m - 1) / 2
  // times.
  std::size_t merges_before = 0;
  for (std::uint64_t divisor : {2, 4, 8}) {
    INFO("a budget of 1/" << divisor);
    options.memory_budget = unconstrained / divisor;
    BudgetedRun run = check_budgeted_pairs(dev, keys, options);
    CHECK(run.scratch_bytes <= options.memory_budget);
    CHECK(run.merges > merges_before);
    merges_before = run.merges;
  }
}

TEST_CASE("radix sort of uint32 keys, pairs counted and scattered, and uint64 pairs under a quarter budget equals the plain sort") {
  stdlib_test::Target t = STDLIB_TARGET;
  sprig::Device& dev = *t.device;
  INFO(t.name);
  {
    std::vector<std::uint32_t> keys = random_values<std::uint32_t>(30000, 9);
    const std::uint64_t budget = radix_sort_scratch_bytes<std::uint32_t>(dev.info(), keys.size(), false) / 4;
    auto k = dev.upload(keys);
    auto sequence = dev.sequence();
    radix_sort(dev, sequence, k, SortOptions{.memory_budget = budget});
    CHECK(sequence.memory_plan().scratch_bytes <= budget);
    sequence.run_and_wait();
    std::sort(keys.begin(), keys.end());
    CHECK(dev.download(k) == keys);
  }
  {
    // CountScanScatter's tile counts are scanned: the scan's transients count too.
    std::vector<std::uint32_t> keys = random_values<std::uint32_t>(30000, 11);
    const SortOptions plain{.mode = SortMode::CountScanScatter};
    const std::uint64_t unconstrained = radix_sort_scratch_bytes<std::uint32_t>(dev.info(), keys.size(), true, plain);
    BudgetedRun whole = check_budgeted_pairs(dev, keys, plain);
    CHECK(whole.scratch_bytes >= unconstrained);
    CHECK(whole.scratch_bytes <= unconstrained + 8 * 256);
    SortOptions quarter = plain;
    quarter.memory_budget = unconstrained / 4;
    CHECK(check_budgeted_pairs(dev, keys, quarter).scratch_bytes <= quarter.memory_budget);
  }
  {
    std::vector<std::uint64_t> keys = random_values<std::uint64_t>(12001, 10);
    for (std::size_t i = 0; i < keys.size(); i += 3) keys[i] = keys[i / 2];  // repeated keys
    const std::uint64_t budget = radix_sort_scratch_bytes<std::uint64_t>(dev.info(), keys.size(), true) / 4;
    BudgetedRun run = check_budgeted_pairs(dev, keys, SortOptions{.memory_budget = budget});
    CHECK(run.scratch_bytes <= budget);
    CHECK(run.merges > 0);
  }
}

TEST_CASE("radix sort refuses a budget too small to sort two keys at a time, naming the sizes") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto keys = dev.upload(random_values<std::uint32_t>(1000, 3));
  auto sequence = dev.sequence();
  CHECK_THROWS_AS(radix_sort(dev, sequence, keys, SortOptions{.memory_budget = 1000}), MemoryBudgetExceeded);
  CHECK_THROWS_WITH(radix_sort(dev, sequence, keys, SortOptions{.memory_budget = 1000}),
                    Catch::Contains("a memory budget of 1000 bytes cannot hold"));
}

#include "sprig/stdlib/compaction_tile.hpp"

namespace sprig::detail {

CompactionTile::CompactionTile(const TileShape& shape, const LookBackTraits& traits,
                               CoherentBuffer<std::uint64_t> status, SubgroupScanForm form)
    : status_(status),
      lanes_(plus<std::uint32_t>(), shape.invocations, form),
      totals_(lanes_, shape.invocations),
      lookback_(lanes_, traits, status),
      tile_prefix_(shared<std::uint32_t>("tile_prefix")),
      after_lookback_(traits.counted_barrier, traits.pause) {
  after_lookback_.reset();
}

CompactionTile::~CompactionTile() = default;

UInt CompactionTile::acquire() const { return acquire_tile(status_); }

std::vector<UInt> CompactionTile::destinations(const std::vector<Bool>& keep, const UInt& tile,
                                               FunctionRef<void(const UInt&)> with_kept_through_tile) {
  std::vector<UInt> rank_in_run, before;  // before: kept in this subgroup's earlier runs
  UInt running = 0u;
  for (const Bool& k : keep) {
    UVec4 ballot = subgroup_ballot(k);
    rank_in_run.push_back(ballot_exclusive_bit_count(ballot));
    before.push_back(running);
    running = running + ballot_bit_count(ballot);
  }
  totals_.scan(running, [&](const UInt& aggregate) {
    UInt prefix = lookback_.exclusive_prefix(tile, aggregate);
    if_(lanes_.lane() == 0u, [&] {
      tile_prefix_ = prefix;
      with_kept_through_tile(prefix + aggregate);
    });
  }, &after_lookback_);
  UInt base = tile_prefix_.load() + totals_.exclusive_prefix();
  std::vector<UInt> destination;
  for (std::size_t j = 0; j < keep.size(); ++j) destination.push_back(base + before[j] + rank_in_run[j]);
  return destination;
}

}  // namespace sprig::detail

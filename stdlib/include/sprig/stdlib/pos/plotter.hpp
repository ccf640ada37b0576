// Plotting a record on a device: the whole chain — keystream, F1, bucketing, matching and
// compute_fn for tables 2..7, proof targets, proof expansion and the record's PosProofs —
// recorded into one sequence with no host round trip (Abundance's rules). The buffers are
// allocated once per Plotter and reused for every record.
//
//   pos::Plotter plotter(device, 20);
//   pos::PlotResult proofs = plotter.plot(seed);
//   std::vector<std::uint8_t> encoded = plotter.encode(chunks);   // after plot()
#pragma once

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/blake3_fixed.hpp"
#include "sprig/stdlib/pos/buckets.hpp"
#include "sprig/stdlib/pos/f1.hpp"
#include "sprig/stdlib/pos/find_matches.hpp"
#include "sprig/stdlib/pos/plot_result.hpp"
#include "sprig/stdlib/pos/proofs.hpp"
#include "sprig/stdlib/pos/subspace.hpp"
#include "sprig/stdlib/pos/record_encoding.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::pos {

class Plotter {
 public:
  Plotter(Device& device, int k, Mode mode = Mode::Abundance);

  Mode mode() const { return mode_; }

  int k() const { return k_; }

  // Device memory this plotter holds (its sorts' scratch as far as grown), not counting the
  // host-cached copy of one record's proofs that result() reads.
  std::size_t device_bytes() const;

  // The steps that plot `seed` (tables, targets and proofs), in order. They refer to this
  // plotter's buffers; a later plot reuses them.
  std::vector<RecordStep> steps(const Seed& seed);

  // Records the plot of `seed` into `sequence`.
  void record(Sequence& sequence, const Seed& seed);

  // Plots `seed` and returns its proofs.
  PlotResult plot(const Seed& seed);

  // Subspace's find_proof for each challenge index of the last plot: the packed proof (8K
  // bytes) of the first table-7 entry, in (y, left, right) order, whose first K bits of y
  // are the byte-swapped index's; nullopt where there is none.
  std::vector<std::optional<std::vector<std::uint8_t>>> find_proofs(const std::vector<std::uint32_t>& challenges);

  // The proofs of the last plot recorded and run, from host-cached copies its own sequence
  // made (no transfer waits behind other work on the device's queue).
  PlotResult result();

  // Records, after record(), the encoding of `chunks` (the erasure-coded record: 2^16 chunks
  // of 32 bytes as 2^19 words) with this plot's proofs (record_encoding.hpp); encoded()
  // holds it once the sequence has run. The output buffers are allocated on first use.
  void record_encoding(Sequence& sequence, const DeviceBuffer<std::uint32_t>& chunks);

  // Encodes `chunks` (2^16 x 32 bytes) with the proofs of the last plot: result().count()
  // chunks of 32 bytes, the i-th for s-bucket result().s_buckets[i].
  std::vector<std::uint8_t> encode(const std::vector<std::uint8_t>& chunks);

  // The encoded chunks of the last record_encoding() (2^15 x 8 words, zero past the count).
  const DeviceBuffer<std::uint32_t>& encoded() const;
  // The kept proofs (2^15 slots of 2K words) and their s-buckets after a plot.
  const DeviceBuffer<std::uint32_t>& kept_proofs() const { return kept_proofs_; }
  const DeviceBuffer<std::uint32_t>& kept_s_buckets() const { return kept_s_buckets_; }

  // Intermediate results of the last plot, for tests that compare them stage by stage.
  const Buckets& buckets() const { return buckets_; }  // table 6's buckets after a plot
  const DeviceBuffer<std::uint32_t>& parents(int table) const { return parents_[std::size_t(table - 2)]; }
  const DeviceBuffer<std::uint32_t>& s_bucket_targets() const { return targets_; }
  const DeviceBuffer<std::uint32_t>& pair_sizes() const { return pair_sizes_; }  // table 7's after a plot

 private:
  Device& device_;
  int k_;
  Mode mode_;
  // Subspace: table 1's x by position, the (y, left, right) keys of the proof targets, the
  // sparse tables as matching writes them, the renumbering's scratch.
  DeviceBuffer<std::uint32_t> xs_, table1_ys_, challenges_, sparse_ys_, sparse_parents_, sparse_metadata_;
  DeviceBuffer<std::uint64_t> subspace_targets_;
  std::optional<SubspaceScratch> renumber_scratch_;
  DeviceBuffer<std::uint32_t> keystream_, ys_, pair_sizes_, targets_, found_, index_, all_proofs_, kept_proofs_,
      kept_s_buckets_, bitmap_;
  // Host-cached copies of bitmap_, kept_s_buckets_ and kept_proofs_, written at the end of
  // each record: result() reads them without a transfer of its own.
  DeviceBuffer<std::uint32_t> readback_proofs_, readback_s_buckets_, readback_bitmap_;
  std::array<DeviceBuffer<std::uint32_t>, 2> metadata_;
  std::array<DeviceBuffer<std::uint32_t>, 6> parents_;  // tables 2..7
  Buckets buckets_;
  std::optional<BucketScratch> table1_scratch_, child_scratch_;
  std::optional<DeviceBuffer<std::uint32_t>> masks_, encoded_;  // record encoding, on first use
};

// Records in flight that plot fastest on a kind of device, as measured at K = 20
// (docs/benchmarks.md, "Proof-of-space plotting"): interleaving two records pays on a CPU
// device; on a GPU its gain is not worth twice the memory.
std::size_t default_records_in_flight(const DeviceInfo& device);

// Records one plot per plotter (plotters[i] plots seeds[i]) into `sequence`, their steps
// interleaved: the runtime puts barriers only where a launch needs an earlier one's results,
// so independent records' launches run side by side and fill each other's idle tails.
void record_interleaved(Sequence& sequence, const std::vector<Plotter*>& plotters, const std::vector<Seed>& seeds);

}  // namespace sprig::pos

// Plotting a record on a device: the whole chain — keystream, F1, bucketing, matching and
// compute_fn for tables 2..7, proof targets, proof expansion and the record's PosProofs —
// recorded into one sequence with no host round trip (Abundance's rules). What outlives a
// record (its proofs, and the tables where they are kept) is allocated once per Plotter;
// the rest are transients of the record's sequence, planned to share memory by lifetime
// (docs/memory.md) in the plotter's workspace, sized when the plotter is made.
//
//   pos::Plotter plotter(device, 20);
//   pos::PlotResult proofs = plotter.plot(seed);
//   std::vector<std::uint8_t> encoded = plotter.encode(chunks);   // after plot()
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/runtime/workspace.hpp"
#include "sprig/stdlib/hash/blake3_fixed.hpp"
#include "sprig/stdlib/pos/buckets.hpp"
#include "sprig/stdlib/pos/f1.hpp"
#include "sprig/stdlib/pos/find_matches.hpp"
#include "sprig/stdlib/pos/links.hpp"
#include "sprig/stdlib/pos/plot_result.hpp"
#include "sprig/stdlib/pos/proofs.hpp"
#include "sprig/stdlib/pos/subspace.hpp"
#include "sprig/stdlib/pos/record_encoding.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::pos {

struct PlotterOptions {
  // How the tables hold their parents (links.hpp): Auto takes Abundance's links where they
  // fit a word (K <= 21) and its ranks above; Links there and Ranks anywhere may be asked
  // for (tests do). Subspace's are positions.
  ParentLayout parents = ParentLayout::Auto;
  // Where records place their temporaries. Plotters of one device that share a workspace
  // hold one record's scratch between them rather than one each: sequences on a device's
  // queue run one after another, so records recorded into separate sequences never need
  // their scratch at the same time (records interleaved in one sequence get room for all).
  Workspace workspace;
  // Subspace: the entries each of tables 2..6 has room for at first, as a multiple of 2^K;
  // 0 takes a room by the tables' measured spread (subspace.hpp). A record whose table
  // outgrows its room is plotted again with more (tests start small to see it happen).
  double subspace_room = 0;
  // Device memory the plotter may hold (bytes; 0: no budget): what it keeps (kept_bytes())
  // and its record's transients' device scratch. The transients that do not fit are spilled
  // to host memory, which kernels reach over the bus: slower, the same proofs
  // (docs/memory.md); so are Subspace's kept tables where the budget has no room for them.
  // A budget below what the plotter must keep in device memory is refused when it is made.
  std::uint64_t memory_budget = 0;
  // Abundance: keep every table's metadata in two buffers, as K = 28's tables 3 and 4 must
  // (packed_split_pairs), at any K: what lets tests plot through the split where the
  // reference can check the proofs.
  bool metadata_in_two_buffers = false;
};

class Plotter {
 public:
  Plotter(Device& device, int k, Mode mode = Mode::Abundance, PlotterOptions options = {});

  Mode mode() const { return mode_; }

  int k() const { return k_; }
  std::uint64_t memory_budget() const { return memory_budget_; }  // PlotterOptions::memory_budget

  // Device memory a record of this plotter needs: the buffers it keeps and one record's
  // transients (planned when the plotter was made), not counting the host-cached copy of one
  // record's proofs that result() reads.
  std::size_t device_bytes() const;
  // One record's transients alone (the workspace holds at least this much).
  std::size_t record_scratch_bytes() const { return record_scratch_bytes_; }
  // What the plotter holds in device memory besides that scratch, as the device's ledger
  // counts it: its buffers, their host-cached readback copies and room for the encoded
  // chunks of record_encoding(). A memory budget must hold at least this much.
  std::uint64_t kept_bytes() const;
  // The device scratch a record may take under the budget (nullopt: no budget).
  std::optional<std::uint64_t> scratch_budget() const;
  // One record's plan (memory_plan.hpp): which transients share memory, and under a budget
  // which ones it spilled to host memory (host_scratch_bytes).
  const MemoryPlan& record_plan() const { return record_plan_; }
  const Workspace& workspace() const { return workspace_; }

  // The steps that plot `seed` (tables, targets and proofs), in order. They refer to this
  // plotter's buffers, which a later plot reuses, and make the record's transients in the
  // sequence they record into.
  std::vector<RecordStep> steps(const Seed& seed);

  // Subspace: the entries table `table` (2..6) has room for now. A record whose table held
  // more is plotted again, with more room, by the first reader of the record after it ran
  // (result(), find_proofs(), encoded() and the buffers' accessors below; so a chunks buffer
  // given to record_encoding must live until then), and the room stays for later records.
  std::uint32_t room(int table) const;
  // Records this plotter has plotted again for want of room, since it was made.
  std::uint64_t records_plotted_again() const { return records_plotted_again_; }

  // Records the plot of `seed` into `sequence`, whose transients go to this plotter's
  // workspace.
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
  const DeviceBuffer<std::uint32_t>& encoded();
  // The kept proofs (2^15 slots of 2K words) and their s-buckets after a plot.
  const DeviceBuffer<std::uint32_t>& kept_proofs() {
    settle();
    return kept_proofs_;
  }
  const DeviceBuffer<std::uint32_t>& kept_s_buckets() {
    settle();
    return kept_s_buckets_;
  }

  // Intermediate results of the last plot, for tests that compare them stage by stage.
  // parents(t): Subspace's tables' parent positions, which find_proofs reads and the plotter
  // keeps; Abundance's tables are transients of the record (links.hpp).
  const DeviceBuffer<std::uint32_t>& parents(int table);
  const DeviceBuffer<std::uint32_t>& s_bucket_targets() {
    settle();
    return targets_;
  }
  const DeviceBuffer<std::uint32_t>& pair_sizes() {  // table 7's after a plot
    settle();
    return pair_sizes_;
  }

 private:
  struct RecordBuffers;  // one record's transients
  std::vector<RecordStep> record_steps(const Seed& seed);
  // Sizes the kept parents by the tables' room and plans a record's transients for it.
  void make_room();
  // Subspace: table 1's xs and the proof targets, in kept_tables_memory_ (the kept parents
  // are make_room's).
  void allocate_kept_tables();
  // Under a budget without room for Subspace's kept tables: moves them to host memory and
  // makes room again.
  void keep_tables_in_host_memory();
  // Subspace: plots the last record again, with more room, while one of its tables
  // outgrew its room.
  void settle();
  std::vector<RecordStep> table1_steps(const std::shared_ptr<RecordBuffers>& record);
  std::vector<RecordStep> table_steps(const std::shared_ptr<RecordBuffers>& record, int table);
  std::vector<RecordStep> proof_steps(const std::shared_ptr<RecordBuffers>& record);

  Device& device_;
  int k_;
  Mode mode_;
  ParentLayout parents_;  // resolved: Links or Ranks (Abundance), Positions (Subspace)
  Workspace workspace_;
  std::uint64_t memory_budget_ = 0;
  // Subspace's kept tables: device memory, or host memory where the budget has no room.
  MemoryKind kept_tables_memory_ = MemoryKind::DeviceLocal;
  std::size_t record_scratch_bytes_ = 0;
  MemoryPlan record_plan_;
  // Subspace: table 1's x by position and the (y, left, right) keys of the proof targets,
  // which find_proofs reads after the record. Abundance binds one-word stand-ins.
  DeviceBuffer<std::uint32_t> xs_;
  DeviceBuffer<std::uint64_t> subspace_targets_;
  DeviceBuffer<std::uint32_t> no_challenges_;  // Abundance's stand-in for Subspace's challenge list
  DeviceBuffer<std::uint32_t> pair_sizes_, targets_, found_, index_, kept_proofs_, kept_s_buckets_, bitmap_;
  // Host-cached copies of bitmap_, kept_s_buckets_ and kept_proofs_, written at the end of
  // each record: result() reads them without a transfer of its own.
  DeviceBuffer<std::uint32_t> readback_proofs_, readback_s_buckets_, readback_bitmap_;
  std::vector<std::uint32_t> proof_words_;  // result()'s host copy of readback_proofs_
  // Subspace: tables 2..6's room, parents and entry counts (and their host-cached copy, read
  // by settle()); the last record's seed and chunks, to plot it again.
  std::array<std::uint32_t, 8> room_{};
  // Abundance: pairs in the lower of table t's two metadata buffers, 0 where it keeps one.
  std::array<std::uint32_t, 8> metadata_split_{};
  std::array<DeviceBuffer<std::uint32_t>, 5> kept_parents_;
  DeviceBuffer<std::uint32_t> table_entries_, readback_table_entries_, no_parents_;
  Seed last_seed_{};
  bool settled_ = true;
  std::uint64_t records_plotted_again_ = 0;
  const DeviceBuffer<std::uint32_t>* encoding_chunks_ = nullptr;
  std::optional<DeviceBuffer<std::uint32_t>> encoded_;  // record encoding, on first use
};

// Records in flight that plot fastest on a kind of device, as measured at K = 20
// (docs/benchmarks.md, "Proof-of-space plotting"): interleaving two records pays on a CPU
// device; on a GPU its gain is not worth twice the memory.
std::size_t default_records_in_flight(const DeviceInfo& device);

// Records one plot per plotter (plotters[i] plots seeds[i]) into `sequence`, their steps
// interleaved: the runtime puts barriers only where a launch needs an earlier one's results,
// so independent records' launches run side by side and fill each other's idle tails. The
// records' transients go to the first plotter's workspace, which grows to hold them all.
// Where every plotter has a memory budget, the records' device scratch keeps to what their
// budgets leave, together, and spills the rest to host memory.
void record_interleaved(Sequence& sequence, const std::vector<Plotter*>& plotters, const std::vector<Seed>& seeds);

}  // namespace sprig::pos

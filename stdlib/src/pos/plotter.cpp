#include "sprig/stdlib/pos/plotter.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sprig/stdlib/hash/chacha_keystream.hpp"
#include "sprig/stdlib/pos/links.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::pos {

namespace {

void append_steps(std::vector<RecordStep>& out, std::vector<RecordStep> more) {
  for (auto& step : more) out.push_back(std::move(step));
}

std::size_t child_slots(int k, Mode mode) { return std::size_t(num_pairs(k)) * matches_per_pair(mode); }

// The largest buffer a record binds: a table's metadata at its widest, a table's parents (the
// size of Subspace's 64-bit sort keys), the buckets (or the staging of positions, their
// size), or the proofs of every s-bucket.
std::uint64_t largest_binding(int k, Mode mode, const std::array<std::uint32_t, 8>& metadata_split) {
  const std::uint64_t slots = child_slots(k, mode);
  std::uint64_t metadata = 0;
  for (int table = 2; table <= 6; ++table) {
    const auto bits = unsigned(metadata_bits(k, table));
    const std::uint32_t split = metadata_split[std::size_t(table)];
    metadata = std::max<std::uint64_t>(
        metadata, 4 * (mode == Mode::Subspace ? slots * metadata_words(k, table)
                                              : std::max(packed_lower_words(k, bits, split),
                                                         packed_upper_words(k, bits, split))));
  }
  return std::max({metadata, slots * 2 * 4, std::uint64_t(num_buckets(k)) * bucket_words(mode) * 4,
                   std::uint64_t(num_s_buckets) * proof_words(k) * 4});
}

}  // namespace

// A record's transients, made by its first step; by table number where they belong to one.
struct Plotter::RecordBuffers {
  DeviceBuffer<std::uint32_t> keystream, all_proofs, challenges;
  std::array<DeviceBuffer<std::uint32_t>, 8> ys, metadata, parents;  // tables 1..7 (ys[1]: table 1's)
  // Abundance's metadata above one binding (packed_split_pairs): its upper pairs; else a stand-in.
  std::array<DeviceBuffer<std::uint32_t>, 8> metadata_upper;
  std::array<Buckets, 7> buckets;                                     // of tables 1..6
  // Abundance: parents[t] holds table t's links or ranks by position; under links,
  // slot_links[t] holds its links by bucket slot.
  std::array<DeviceBuffer<std::uint32_t>, 7> slot_links;
  // Subspace: the sparse child tables as matching writes them, before their renumbering.
  std::array<DeviceBuffer<std::uint32_t>, 8> sparse_ys, sparse_parents;
  DeviceBuffer<std::uint32_t> no_sparse_metadata;  // what matching binds and leaves unwritten
};

Plotter::Plotter(Device& device, int k, Mode mode, PlotterOptions options)
    : device_(device),
      k_((check_k(k, mode), k)),
      mode_(mode),
      parents_(parent_layout(k, mode, options.parents)),
      workspace_(std::move(options.workspace)),
      memory_budget_(options.memory_budget) {
  if (mode == Mode::Abundance)
    for (int table = 2; table <= 6; ++table)
      metadata_split_[std::size_t(table)] = options.metadata_in_two_buffers
                                                ? (num_pairs(k) + 1) / 2
                                                : packed_split_pairs(k, unsigned(metadata_bits(k, table)));
  else if (options.metadata_in_two_buffers)
    throw std::invalid_argument("pos::Plotter: metadata_in_two_buffers is for Abundance's rules, not Subspace's");
  const std::uint64_t largest = largest_binding(k, mode, metadata_split_);
  if (largest > device.info().max_buffer_bytes)
    throw std::invalid_argument("pos::Plotter: device too small: K = " + std::to_string(k) + " (" + mode_name(mode) +
                                ") needs buffers of " + std::to_string((largest + (1u << 20) - 1) >> 20) + " MiB, and " +
                                device.info().name + " allows " + std::to_string(device.info().max_buffer_bytes >> 20) +
                                " MiB per buffer");
  detail::check_match_shared_memory(device.info(), k, mode);
  if (mode != Mode::Subspace && options.subspace_room != 0)
    throw std::invalid_argument("pos::Plotter: subspace_room is for Subspace's rules, not Abundance's");
  if (options.subspace_room < 0 || options.subspace_room > 4)
    throw std::invalid_argument("pos::Plotter: subspace_room is a multiple of 2^K from 0 (the default room) to 4, not " +
                                std::to_string(options.subspace_room));
  pair_sizes_ = device.alloc<std::uint32_t>(num_pairs(k), "plotter pair sizes");
  targets_ = device.alloc<std::uint32_t>(num_s_buckets, "plotter s-bucket targets");
  found_ = device.alloc<std::uint32_t>(num_s_buckets, "plotter proofs found");
  index_ = device.alloc<std::uint32_t>(num_s_buckets, "plotter proof index");
  kept_proofs_ = device.alloc<std::uint32_t>(std::size_t(proofs_per_record) * proof_words(k), "plotter kept proofs");
  kept_s_buckets_ = device.alloc<std::uint32_t>(proofs_per_record, "plotter kept s-buckets");
  bitmap_ = device.alloc<std::uint32_t>(num_s_buckets / 32, "plotter proof bitmap");
  // result() reads these host copies, filled by the record's own sequence, so that reading a
  // record back waits for nothing else on the device's queue.
  readback_proofs_ = device.alloc<std::uint32_t>(kept_proofs_.size(), "readback proofs", MemoryKind::HostCached);
  readback_s_buckets_ =
      device.alloc<std::uint32_t>(kept_s_buckets_.size(), "readback s-buckets", MemoryKind::HostCached);
  readback_bitmap_ = device.alloc<std::uint32_t>(bitmap_.size(), "readback bitmap", MemoryKind::HostCached);
  if (mode == Mode::Subspace) {
    for (int t = 2; t <= 6; ++t)
      room_[std::size_t(t)] =
          options.subspace_room > 0
              ? std::uint32_t(std::min<double>(std::ceil(std::ldexp(options.subspace_room, k)), double(child_slots(k, mode))))
              : subspace_table_room(k, t);
    try {
      allocate_kept_tables();
    } catch (const MemoryBudgetExceeded&) {  // the device's own budget (Device::set_memory_budget)
      if (memory_budget_ == 0) throw;
      kept_tables_memory_ = MemoryKind::Host;
      allocate_kept_tables();
    }
    table_entries_ = device.alloc<std::uint32_t>(8, "plotter table entries");
    readback_table_entries_ = device.alloc<std::uint32_t>(8, "readback table entries", MemoryKind::HostCached);
    no_parents_ = device.alloc<std::uint32_t>(1, "plotter table 7 parents stand-in");
  } else {  // unused by Abundance's kernels, which still bind them
    xs_ = device.alloc<std::uint32_t>(1);
    subspace_targets_ = device.alloc<std::uint64_t>(1);
    no_challenges_ = device.alloc<std::uint32_t>(1);
  }
  make_room();
}

void Plotter::allocate_kept_tables() {
  xs_ = device_.alloc<std::uint32_t>(std::size_t(1) << k_, "plotter table 1 xs", kept_tables_memory_);
  subspace_targets_ = device_.alloc<std::uint64_t>(std::size_t(1) << k_, "plotter Subspace targets", kept_tables_memory_);
  for (auto& kept : kept_parents_) kept = {};  // make_room sizes them
}

void Plotter::keep_tables_in_host_memory() {
  kept_tables_memory_ = MemoryKind::Host;
  allocate_kept_tables();
  make_room();
}

void Plotter::make_room() {
  if (mode_ == Mode::Subspace) {
    try {
      for (int t = 2; t <= 6; ++t) {
        DeviceBuffer<std::uint32_t>& kept = kept_parents_[std::size_t(t - 2)];
        if (kept.size() != 2 * std::size_t(room_[std::size_t(t)]))
          kept = device_.alloc<std::uint32_t>(2 * std::size_t(room_[std::size_t(t)]), "plotter kept parents",
                                              kept_tables_memory_);
      }
    } catch (const MemoryBudgetExceeded&) {
      if (memory_budget_ == 0 || kept_tables_memory_ == MemoryKind::Host) throw;
      return keep_tables_in_host_memory();
    }
  }
  if (memory_budget_ > 0 && kept_bytes() > memory_budget_) {
    if (mode_ == Mode::Subspace && kept_tables_memory_ != MemoryKind::Host) {
      // Subspace keeps its tables' parents, table 1's xs and the proof targets after the
      // record for find_proofs: half a record's memory, touched by a few commands each.
      // Where the budget has no room for them, they go to host memory too.
      return keep_tables_in_host_memory();
    }
    throw MemoryBudgetExceeded("pos::Plotter: K = " + std::to_string(k_) + " (" + mode_name(mode_) + ") keeps " +
                                   byte_size_text(kept_bytes()) + " of device memory, more than its memory budget of " +
                                   byte_size_text(memory_budget_) +
                                   " (a record's temporaries could all go to host memory; these buffers cannot)",
                               kept_bytes(), memory_budget_);
  }
  // One record recorded and not run plans its transients: the workspace takes that much now,
  // so that what the plotter will need shows in the device's memory before its first record.
  Sequence planning = device_.sequence();
  planning.set_scratch_budget(scratch_budget());
  for (const RecordStep& step : record_steps(Seed{})) step(planning);
  record_plan_ = planning.memory_plan();
  record_scratch_bytes_ = record_plan_.scratch_bytes;
  workspace_.reserve(device_.backend(), record_scratch_bytes_);
  workspace_.reserve(device_.backend(), record_plan_.host_scratch_bytes, MemoryKind::Host);
}

std::uint64_t Plotter::kept_bytes() const {
  const std::uint64_t readback = readback_proofs_.bytes() + readback_s_buckets_.bytes() + readback_bitmap_.bytes() +
                                 readback_table_entries_.bytes();
  const std::uint64_t encoding = encoded_ ? 0 : std::uint64_t(proofs_per_record) * chunk_words * 4;
  return device_bytes() - record_scratch_bytes_ + readback + encoding;
}

std::optional<std::uint64_t> Plotter::scratch_budget() const {
  if (memory_budget_ == 0) return std::nullopt;
  return memory_budget_ - std::min(memory_budget_, kept_bytes());
}

std::size_t Plotter::device_bytes() const {
  const std::size_t kept_tables = kept_tables_memory_ == MemoryKind::Host ? 0 : xs_.bytes() + subspace_targets_.bytes();
  std::size_t bytes = kept_tables + no_challenges_.bytes() + pair_sizes_.bytes() + targets_.bytes() + found_.bytes() +
                      index_.bytes() + kept_proofs_.bytes() + kept_s_buckets_.bytes() + bitmap_.bytes() +
                      record_scratch_bytes_;
  if (kept_tables_memory_ != MemoryKind::Host)
    for (const auto& p : kept_parents_) bytes += p.bytes();
  bytes += table_entries_.bytes() + no_parents_.bytes();
  if (encoded_) bytes += encoded_->bytes();
  return bytes;
}

const DeviceBuffer<std::uint32_t>& Plotter::parents(int table) {
  if (mode_ != Mode::Subspace)
    throw std::logic_error("pos Plotter: parents() are Subspace's; Abundance's tables are transients of the record");
  if (table < 2 || table > 6)
    throw std::out_of_range("pos Plotter: parents() of table " + std::to_string(table) +
                            " (tables 2..6 keep theirs; table 7's are in its proof targets' keys)");
  settle();
  return kept_parents_[std::size_t(table - 2)];
}

std::uint32_t Plotter::room(int table) const {
  if (mode_ != Mode::Subspace || table < 2 || table > 6)
    throw std::out_of_range("pos Plotter: room() is that of Subspace's tables 2..6, not of table " +
                            std::to_string(table));
  return room_[std::size_t(table)];
}

void Plotter::settle() {
  if (mode_ != Mode::Subspace || settled_) return;
  // A table outgrew its room: the record lost entries, so it is plotted again (with its
  // encoding, if one was recorded) with room for what it held and an eighth more, which
  // later records keep. Each round grows a table; none grows past the sparse slots.
  for (;;) {
    const std::vector<std::uint32_t> entries = device_.download(readback_table_entries_);
    bool grew = false;
    for (int t = 2; t <= 6; ++t) {
      const std::uint32_t held = entries[std::size_t(t)];
      if (held > child_slots(k_, mode_))  // no record wrote the counts
        throw std::logic_error("pos Plotter: a record was read before its sequence ran");
      if (held <= room_[std::size_t(t)]) continue;
      const std::uint64_t wanted = (std::uint64_t(held) + held / 8 + 63) / 64 * 64;
      room_[std::size_t(t)] = std::uint32_t(std::min<std::uint64_t>(wanted, child_slots(k_, mode_)));
      grew = true;
    }
    if (!grew) break;
    ++records_plotted_again_;
    make_room();
    const DeviceBuffer<std::uint32_t>* chunks = encoding_chunks_;
    Sequence again = device_.sequence();
    record(again, last_seed_);
    if (chunks) record_encoding(again, *chunks);
    again.run_and_wait();
  }
  settled_ = true;
}

std::vector<RecordStep> Plotter::steps(const Seed& seed) {
  last_seed_ = seed;
  settled_ = false;
  encoding_chunks_ = nullptr;
  return record_steps(seed);
}

std::vector<RecordStep> Plotter::record_steps(const Seed& seed) {
  auto record = std::make_shared<RecordBuffers>();
  std::vector<RecordStep> out;
  out.push_back([this, record, seed](Sequence& s) {
    const int k = k_;
    const std::size_t slots = child_slots(k, mode_);
    RecordBuffers& r = *record;
    const bool sparse = mode_ == Mode::Subspace, links = parents_ == ParentLayout::Links;
    // Under ranks every table keeps its bucket positions, apart from the slots.
    const SlotPositions where = parents_ == ParentLayout::Ranks ? SlotPositions::Apart : SlotPositions::InSlots;
    r.keystream = s.transient<std::uint32_t>((f1_keystream_words(k) + 15) / 16 * 16, "F1 keystream");
    r.ys[1] = s.transient<std::uint32_t>((std::size_t(1) << k) * y_words(k), "table 1 ys");
    r.buckets[1] = transient_buckets(s, k, mode_, "table 1", where);
    // Table 1's metadata is x (its position, or Subspace's xs_): table 2's matching binds a
    // one-word stand-in that it never reads.
    r.metadata[1] = s.transient<std::uint32_t>(1, "table 1 metadata stand-in");
    r.metadata_upper[1] = s.transient<std::uint32_t>(1, "table 1 upper metadata stand-in");
    for (int t = 2; t <= 7; ++t) {
      const std::string name = "table " + std::to_string(t);
      // Subspace's dense tables hold their room's entries; its sparse ones, and Abundance's,
      // their slots.
      const std::size_t entries = sparse && t < 7 ? room_[t] : slots;
      const auto bits = unsigned(metadata_bits(k, t));
      const std::uint32_t split_pairs = metadata_split_[std::size_t(t)];
      const std::size_t metadata =
          sparse ? std::size_t(metadata_words(k, t)) * entries : packed_lower_words(k, bits, split_pairs);
      const bool split = split_pairs != 0;
      // Table 7 keeps no ys or metadata: one-word stand-ins for matching to bind.
      r.ys[t] = s.transient<std::uint32_t>(t < 7 ? entries * y_words(k) : 1, name + " ys");
      r.metadata[t] = s.transient<std::uint32_t>(std::max<std::size_t>(metadata, 1),
                                                  name + (split ? " metadata (lower pairs)" : " metadata"));
      r.metadata_upper[t] = s.transient<std::uint32_t>(packed_upper_words(k, bits, split_pairs),
                                                        name + (split ? " metadata (upper pairs)" : " upper metadata stand-in"));
      if (sparse) {
        // Subspace's table 7 keeps its parents in its proof targets' keys.
        r.parents[t] = t < 7 ? kept_parents_[std::size_t(t - 2)] : no_parents_;
      } else if (links) {
        r.parents[t] = s.transient<std::uint32_t>(slots, name + " links");
        if (t < 7)
          r.slot_links[std::size_t(t)] = s.transient<std::uint32_t>(
              std::size_t(num_buckets(k)) * bucket_capacity(mode_), name + " links by bucket slot");
      } else {
        r.parents[t] = s.transient<std::uint32_t>(packed_words(k, parent_rank_bits), name + " parent ranks");
      }
      if (t < 7) r.buckets[t] = transient_buckets(s, k, mode_, name, where);
      if (sparse) {
        r.sparse_ys[t] = s.transient<std::uint32_t>(t < 7 ? slots : 1, name + " sparse ys");
        r.sparse_parents[t] = s.transient<std::uint32_t>(t < 7 ? slots * 2 : 1, name + " sparse parents");
      }
    }
    if (links)
      r.slot_links[1] = s.transient<std::uint32_t>(std::size_t(num_buckets(k)) * bucket_capacity(mode_),
                                                   "table 1 x by bucket slot");
    r.all_proofs = s.transient<std::uint32_t>(std::size_t(num_s_buckets) * proof_words(k), "proofs of every s-bucket");
    if (sparse) r.no_sparse_metadata = s.transient<std::uint32_t>(1, "sparse metadata stand-in");
    r.challenges = sparse ? s.transient<std::uint32_t>(num_s_buckets, "challenges") : no_challenges_;
    hash::chacha_keystream(s, f1_stream(seed), 0, r.keystream.size() * 4, r.keystream);
  });
  append_steps(out, table1_steps(record));
  out.push_back([this](Sequence& s) {
    s.fill(targets_, no_target);
    s.fill(subspace_targets_, ~0u);
  });
  for (int table = 2; table <= 7; ++table) append_steps(out, table_steps(record, table));
  append_steps(out, proof_steps(record));
  return out;
}

std::vector<RecordStep> Plotter::table1_steps(const std::shared_ptr<RecordBuffers>& record) {
  const int k = k_;
  RecordBuffers& r = *record;
  std::vector<RecordStep> out{[this, record, k](Sequence& s) {
    s.run(detail::f1_kernel(k, elementwise_invocations(device_.info())), grid(std::size_t(1) << k), record->keystream,
          record->ys[1]);
  }};
  // Subspace's table 1 is in (y, x) order: its ys sorted, xs_ the x at each position.
  if (mode_ == Mode::Subspace) append_steps(out, subspace_table1_steps(device_, k, r.ys[1], xs_));
  // Table 1's slots' x (their positions), for the links of table 2 to lead to.
  const SlotLinkOutput x_by_slot = parents_ == ParentLayout::Links
                                       ? SlotLinkOutput{SlotLinks::Positions, nullptr, &r.slot_links[1]}
                                       : SlotLinkOutput{};
  append_steps(out, bucketing_steps(device_, k, mode_, r.ys[1], pair_sizes_, 0, 1u << k, r.buckets[1], x_by_slot));
  return out;
}

std::vector<RecordStep> Plotter::table_steps(const std::shared_ptr<RecordBuffers>& record, int table) {
  const int k = k_;
  const Mode mode = mode_;
  const auto slots = std::uint32_t(child_slots(k, mode));
  RecordBuffers& r = *record;
  // Abundance's tables are written where they stay; Subspace's sparse tables are
  // renumbered into dense ones.
  const bool sparse = mode == Mode::Subspace;
  std::vector<RecordStep> out{[this, record, k, table, mode, sparse](Sequence& s) {
    RecordBuffers& r = *record;
    const std::uint32_t pairs = num_pairs(k), match_workgroup = match_invocations(device_.info());
    const Grid pair_grid = sprig::detail::tile_grid(pairs, sprig::detail::TileShape{match_workgroup, 1});
    const auto t = std::size_t(table);
    const Buckets& below = r.buckets[t - 1];
    const detail::MetadataSplit split{metadata_split_[t - 1], metadata_split_[t]};
    s.run(detail::find_matches_kernel(k, table, mode, match_workgroup, parents_, split), pair_grid, below.slots,
          below.where == SlotPositions::Apart ? below.positions : below.slots, below.sizes, r.metadata[t - 1],
          r.metadata_upper[t - 1], xs_, sparse ? r.sparse_ys[t] : r.ys[t],
          sparse ? r.no_sparse_metadata : r.metadata[t], r.metadata_upper[t], sparse ? r.sparse_parents[t] : r.parents[t],
          pair_sizes_,
          targets_, subspace_targets_, pairs);
  }};
  if (table == 7) return out;
  const auto t = std::size_t(table);
  if (sparse) {
    append_steps(out, subspace_renumber_steps(device_, k, table,
                                   SparseTable{r.sparse_ys[t], r.sparse_parents[t], pair_sizes_},
                                   ParentTable{r.ys[t - 1], r.metadata[t - 1], xs_},
                                   DenseTable{r.ys[t], r.parents[t], r.metadata[t]}, table_entries_));
    append_steps(out, bucketing_steps(device_, k, mode, r.ys[t], pair_sizes_, 0, room_[t], r.buckets[t]));
  } else {
    // Each bucket slot's link, in bucket-slot order: what the next table's links name.
    const SlotLinkOutput links_by_slot =
        parents_ == ParentLayout::Links ? SlotLinkOutput{SlotLinks::FromLinks, &r.parents[t], &r.slot_links[t]}
                                        : SlotLinkOutput{};
    append_steps(out, bucketing_steps(device_, k, mode, r.ys[t], pair_sizes_, matches_per_pair(mode), slots,
                                      r.buckets[t], links_by_slot));
  }
  return out;
}

std::vector<RecordStep> Plotter::proof_steps(const std::shared_ptr<RecordBuffers>& record) {
  const int k = k_;
  const Mode mode = mode_;
  return {
      [this, record, k, mode](Sequence& s) {
        RecordBuffers& r = *record;
        if (mode == Mode::Subspace)  // challenge = s
          s.run(detail::iota_kernel(elementwise_invocations(device_.info())), grid(num_s_buckets), r.challenges);
        if (parents_ == ParentLayout::Ranks) {  // each table's ranks, through the buckets' positions below
          s.run(detail::expand_ranked_proofs_kernel(k), grid(num_s_buckets), targets_, r.parents[7], r.parents[6],
                r.parents[5], r.parents[4], r.parents[3], r.parents[2], r.buckets[6].positions,
                r.buckets[5].positions, r.buckets[4].positions, r.buckets[3].positions, r.buckets[2].positions,
                r.buckets[1].positions, found_, r.all_proofs, num_s_buckets);
          return;
        }
        // Links are walked from table 7's by position through the others' by bucket slot.
        const bool linked = parents_ == ParentLayout::Links;
        auto below = [&](int t) -> const DeviceBuffer<std::uint32_t>& {
          return linked ? r.slot_links[std::size_t(t)] : r.parents[std::size_t(t)];
        };
        s.run(detail::expand_proofs_kernel(k, mode, linked), grid(num_s_buckets), targets_, r.parents[7], below(6), below(5),
              below(4), below(3), below(2), subspace_targets_, linked ? r.slot_links[1] : xs_, r.challenges, found_,
              r.all_proofs, num_s_buckets);
      },
      [this](Sequence& s) { exclusive_scan(device_, s, found_, index_, plus<std::uint32_t>()); },
      [this, record, k](Sequence& s) {
        s.fill(bitmap_, 0);
        s.run(detail::place_proofs_kernel(k), grid(num_s_buckets), found_, index_, record->all_proofs, kept_proofs_,
              kept_s_buckets_, bitmap_);
        s.copy(bitmap_, readback_bitmap_);
        s.copy(kept_s_buckets_, readback_s_buckets_);
        s.copy(kept_proofs_, readback_proofs_);
        if (mode_ == Mode::Subspace) s.copy(table_entries_, readback_table_entries_);
      },
  };
}

void Plotter::record(Sequence& sequence, const Seed& seed) {
  sequence.use_workspace(workspace_);
  if (memory_budget_ > 0) sequence.set_scratch_budget(scratch_budget());
  for (const RecordStep& step : steps(seed)) step(sequence);
}

PlotResult Plotter::plot(const Seed& seed) {
  auto sequence = device_.sequence();
  record(sequence, seed);
  sequence.run_and_wait();
  return result();
}

std::vector<std::optional<std::vector<std::uint8_t>>> Plotter::find_proofs(
    const std::vector<std::uint32_t>& challenges) {
  if (mode_ != Mode::Subspace) throw std::logic_error("pos Plotter: find_proofs is Subspace's (Mode::Subspace)");
  settle();
  std::vector<std::optional<std::vector<std::uint8_t>>> out;
  if (challenges.empty()) return out;
  auto list = device_.upload(challenges);
  auto found = device_.alloc<std::uint32_t>(challenges.size());
  auto proofs = device_.alloc<std::uint32_t>(challenges.size() * proof_words(k_));
  auto sequence = device_.sequence();
  sequence.run(detail::expand_proofs_kernel(k_, mode_, false), grid(challenges.size()), targets_, no_parents_,
               kept_parents_[4], kept_parents_[3], kept_parents_[2], kept_parents_[1], kept_parents_[0],
               subspace_targets_, xs_, list, found, proofs, std::uint32_t(challenges.size()));
  sequence.run_and_wait();
  std::vector<std::uint32_t> has = device_.download(found), words = device_.download(proofs);
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    if (!has[i])
      out.emplace_back();
    else
      out.emplace_back(
          hash::unpack_bytes(std::span<const std::uint32_t>(words).subspan(i * proof_words(k_)), proof_bytes(k_)));
  }
  return out;
}

PlotResult Plotter::result() {
  settle();
  PlotResult r;
  r.k = k_;
  std::vector<std::uint32_t> bitmap = device_.download(readback_bitmap_);
  r.found_proofs = hash::unpack_bytes(bitmap, num_s_buckets / 8);
  std::size_t count = 0;
  for (std::uint32_t w : bitmap) count += std::size_t(std::popcount(w));
  std::vector<std::uint32_t> s_buckets = device_.download(readback_s_buckets_);
  r.s_buckets.assign(s_buckets.begin(), s_buckets.begin() + std::ptrdiff_t(count));
  // Into words kept from record to record: a fresh 5 MiB vector for each (K = 20) cost as
  // much again in page faults as the copy itself (3.6 ms on the H100's host).
  proof_words_.resize(readback_proofs_.size());
  device_.read(readback_proofs_, std::span<std::uint32_t>(proof_words_));
  r.proofs = hash::unpack_bytes(proof_words_, count * proof_bytes(k_));
  return r;
}

void Plotter::record_encoding(Sequence& sequence, const DeviceBuffer<std::uint32_t>& chunks) {
  const std::size_t words = std::size_t(proofs_per_record) * chunk_words;
  encoding_chunks_ = &chunks;  // settle() encodes them again if the record is plotted again
  if (!encoded_) encoded_.emplace(device_.alloc<std::uint32_t>(words));
  // The proofs' hashes live only while they mask the chunks: a transient, in the memory the
  // record's tables had.
  pos::record_encoding(device_, sequence, k_, chunks, kept_proofs_, kept_s_buckets_, found_, index_,
                       sequence.transient<std::uint32_t>(words, "record encoding masks"), *encoded_);
}

std::vector<std::uint8_t> Plotter::encode(const std::vector<std::uint8_t>& chunks) {
  if (chunks.size() != std::size_t(record_chunks) * chunk_bytes)
    throw std::invalid_argument("pos encode: the erasure-coded record has " + std::to_string(chunks.size()) +
                                " bytes, not 2^16 chunks of 32 bytes (2097152 bytes)");
  settle();
  auto input = device_.upload(hash::pack_bytes(chunks));
  auto sequence = device_.sequence();
  record_encoding(sequence, input);
  sequence.run_and_wait();
  encoding_chunks_ = nullptr;
  std::size_t count = 0;
  for (std::uint32_t w : device_.download(bitmap_)) count += std::size_t(std::popcount(w));
  return hash::unpack_bytes(device_.download(*encoded_), count * chunk_bytes);
}

const DeviceBuffer<std::uint32_t>& Plotter::encoded() {
  if (!encoded_) throw std::logic_error("pos Plotter: encoded() before record_encoding()");
  settle();
  return *encoded_;
}

std::size_t default_records_in_flight(const DeviceInfo& device) { return device.kind == DeviceKind::Cpu ? 2 : 1; }

void record_interleaved(Sequence& sequence, const std::vector<Plotter*>& plotters, const std::vector<Seed>& seeds) {
  if (plotters.size() != seeds.size())
    throw std::invalid_argument("pos::record_interleaved: one seed per plotter is needed");
  std::vector<std::vector<RecordStep>> all;
  std::size_t longest = 0;
  if (!plotters.empty()) sequence.use_workspace(plotters[0]->workspace());
  // Records alive together share the scratch their plotters' budgets leave, where every
  // one has a budget.
  std::optional<std::uint64_t> scratch = 0;
  for (const Plotter* p : plotters) {
    const std::optional<std::uint64_t> own = p->scratch_budget();
    scratch = scratch && own ? std::optional(*scratch + *own) : std::nullopt;
  }
  if (!plotters.empty() && scratch) sequence.set_scratch_budget(scratch);
  for (std::size_t i = 0; i < plotters.size(); ++i) {
    all.push_back(plotters[i]->steps(seeds[i]));
    longest = std::max(longest, all.back().size());
  }
  // Plotters of different K or rules have different numbers of steps: each runs all of its own.
  for (std::size_t step = 0; step < longest; ++step)
    for (auto& steps : all)
      if (step < steps.size()) steps[step](sequence);
}

}  // namespace sprig::pos

#include "sprig/stdlib/pos/plotter.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "sprig/stdlib/hash/chacha_keystream.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::pos {

Plotter::Plotter(Device& device, int k, Mode mode) : device_(device), k_((check_k(k), k)), mode_(mode) {
  const std::size_t child_slots = std::size_t(num_pairs(k)) * matches_per_pair(mode);
  // The largest buffer: a table's metadata (or Subspace's 64-bit sort keys, the same size).
  const std::uint64_t largest = std::uint64_t(child_slots) * metadata_words * 4;
  if (largest > device.info().max_buffer_bytes)
    throw std::invalid_argument("pos::Plotter: device too small: K = " + std::to_string(k) + " (" + mode_name(mode) +
                                ") needs buffers of " + std::to_string(largest >> 20) + " MiB, and " +
                                device.info().name + " allows " + std::to_string(device.info().max_buffer_bytes >> 20) +
                                " MiB per buffer");
  detail::check_match_shared_memory(device.info(), k, mode);
  keystream_ = device.alloc<std::uint32_t>((f1_keystream_words(k) + 15) / 16 * 16);
  ys_ = device.alloc<std::uint32_t>(std::max(std::size_t(1) << k, child_slots));
  for (auto& m : metadata_) m = device.alloc<std::uint32_t>(child_slots * metadata_words);
  for (auto& p : parents_) p = device.alloc<std::uint32_t>(child_slots * 2);
  pair_sizes_ = device.alloc<std::uint32_t>(num_pairs(k));
  targets_ = device.alloc<std::uint32_t>(num_s_buckets);
  found_ = device.alloc<std::uint32_t>(num_s_buckets);
  index_ = device.alloc<std::uint32_t>(num_s_buckets);
  all_proofs_ = device.alloc<std::uint32_t>(std::size_t(num_s_buckets) * proof_words(k));
  kept_proofs_ = device.alloc<std::uint32_t>(std::size_t(proofs_per_record) * proof_words(k));
  kept_s_buckets_ = device.alloc<std::uint32_t>(proofs_per_record);
  bitmap_ = device.alloc<std::uint32_t>(num_s_buckets / 32);
  // result() reads these host copies, filled by the record's own sequence, so that reading a
  // record back waits for nothing else on the device's queue.
  readback_proofs_ = device.alloc<std::uint32_t>(kept_proofs_.size(), "readback proofs", MemoryKind::HostCached);
  readback_s_buckets_ =
      device.alloc<std::uint32_t>(kept_s_buckets_.size(), "readback s-buckets", MemoryKind::HostCached);
  readback_bitmap_ = device.alloc<std::uint32_t>(bitmap_.size(), "readback bitmap", MemoryKind::HostCached);
  buckets_ = alloc_buckets(device, k, mode);
  table1_scratch_.emplace(device, k, std::size_t(1) << k);
  child_scratch_.emplace(device, k, child_slots);
  if (mode == Mode::Subspace) {
    xs_ = device.alloc<std::uint32_t>(std::size_t(1) << k);
    table1_ys_ = device.alloc<std::uint32_t>(std::size_t(1) << k);
    subspace_targets_ = device.alloc<std::uint64_t>(std::size_t(1) << k);
    challenges_ = device.alloc<std::uint32_t>(num_s_buckets);
    sparse_ys_ = device.alloc<std::uint32_t>(child_slots);
    sparse_parents_ = device.alloc<std::uint32_t>(child_slots * 2);
    sparse_metadata_ = device.alloc<std::uint32_t>(child_slots * metadata_words);
    renumber_scratch_.emplace(device, child_slots);
  } else {  // unused by Abundance's kernels, which still bind them
    xs_ = device.alloc<std::uint32_t>(1);
    subspace_targets_ = device.alloc<std::uint64_t>(1);
    challenges_ = device.alloc<std::uint32_t>(1);
  }
}

std::size_t Plotter::device_bytes() const {
  std::size_t bytes = keystream_.bytes() + ys_.bytes() + pair_sizes_.bytes() + targets_.bytes() + found_.bytes() +
                      index_.bytes() + all_proofs_.bytes() + kept_proofs_.bytes() + kept_s_buckets_.bytes() +
                      bitmap_.bytes() + buckets_.slots.bytes() + buckets_.sizes.bytes();
  for (const auto& m : metadata_) bytes += m.bytes();
  for (const auto& p : parents_) bytes += p.bytes();
  if (encoded_) bytes += masks_->bytes() + encoded_->bytes();
  for (const auto* s : {&*table1_scratch_, &*child_scratch_})
    bytes += s->keys.bytes() + s->values.bytes() + s->starts.bytes() + s->ends.bytes() + s->sort.device_bytes();
  bytes += xs_.bytes() + subspace_targets_.bytes() + challenges_.bytes();
  if (mode_ == Mode::Subspace) {
    bytes += table1_ys_.bytes() + sparse_ys_.bytes() + sparse_parents_.bytes() + sparse_metadata_.bytes();
    const SubspaceScratch& r = *renumber_scratch_;
    bytes += r.right_keys.bytes() + r.slots_by_right.bytes() + r.slots_in_order.bytes() + r.y_left_keys.bytes() +
             r.sort.device_bytes() + r.sort64.device_bytes();
  }
  return bytes;
}

std::vector<RecordStep> Plotter::steps(const Seed& seed) {
  const int k = k_;
  const std::uint32_t entries = 1u << k, pairs = num_pairs(k);
  std::vector<RecordStep> out;
  auto append = [&out](std::vector<RecordStep> more) {
    for (auto& step : more) out.push_back(std::move(step));
  };
  out.push_back(
      [this, seed](Sequence& s) { hash::chacha_keystream(s, f1_stream(seed), 0, keystream_.size() * 4, keystream_); });
  const Mode mode = mode_;
  // Subspace sorts table 1's ys, and the sort takes whole buffers: one of 2^K.
  const DeviceBuffer<std::uint32_t>& table1_ys = mode == Mode::Subspace ? table1_ys_ : ys_;
  out.push_back([this, k, entries, &table1_ys](Sequence& s) {
    s.run(detail::f1_kernel(k, elementwise_invocations(device_.info())), grid(entries), keystream_, table1_ys);
  });
  if (mode == Mode::Subspace) append(subspace_table1_steps(device_, k, table1_ys_, xs_, table1_scratch_->sort));
  append(bucketing_steps(device_, k, mode, table1_ys, pair_sizes_, 0, *table1_scratch_, buckets_));
  out.push_back([this](Sequence& s) {
    s.fill(targets_, no_target);
    s.fill(subspace_targets_, ~0u);
  });
  for (int table = 2; table <= 7; ++table) {
    // Abundance's tables are written where they stay; Subspace's sparse tables are
    // renumbered into the same buffers.
    const bool sparse = mode == Mode::Subspace;
    out.push_back([this, k, table, pairs, mode, sparse](Sequence& s) {
      const std::uint32_t match_workgroup = match_invocations(device_.info());
      const Grid pair_grid = sprig::detail::tile_grid(pairs, sprig::detail::TileShape{match_workgroup, 1});
      const auto& metadata_in = metadata_[std::size_t(table % 2)];
      const auto& metadata_out = sparse ? sparse_metadata_ : metadata_[std::size_t((table + 1) % 2)];
      s.run(detail::find_matches_kernel(k, table, mode, match_workgroup), pair_grid, buckets_.slots, buckets_.sizes,
            metadata_in, xs_, sparse ? sparse_ys_ : ys_, metadata_out,
            sparse ? sparse_parents_ : parents_[std::size_t(table - 2)], pair_sizes_, targets_, subspace_targets_,
            pairs);
    });
    if (table == 7) break;
    if (sparse) {
      append(subspace_renumber_steps(
          device_, k, table, SparseTable{sparse_ys_, sparse_parents_, sparse_metadata_, pair_sizes_},
          DenseTable{ys_, parents_[std::size_t(table - 2)], metadata_[std::size_t((table + 1) % 2)]},
          *renumber_scratch_));
      append(bucketing_steps(device_, k, mode, ys_, pair_sizes_, 0, *child_scratch_, buckets_));
    } else {
      append(bucketing_steps(device_, k, mode, ys_, pair_sizes_, matches_per_pair(mode), *child_scratch_, buckets_));
    }
  }
  out.push_back([this, k, mode](Sequence& s) {
    if (mode == Mode::Subspace)  // challenge = s
      s.run(detail::iota_kernel(elementwise_invocations(device_.info())), grid(num_s_buckets), challenges_);
    s.run(detail::expand_proofs_kernel(k, mode), grid(num_s_buckets), targets_, parents_[5], parents_[4], parents_[3],
          parents_[2], parents_[1], parents_[0], subspace_targets_, xs_, challenges_, found_, all_proofs_,
          num_s_buckets);
  });
  out.push_back([this](Sequence& s) { exclusive_scan(device_, s, found_, index_, plus<std::uint32_t>()); });
  out.push_back([this, k](Sequence& s) {
    s.fill(bitmap_, 0);
    s.run(detail::place_proofs_kernel(k), grid(num_s_buckets), found_, index_, all_proofs_, kept_proofs_,
          kept_s_buckets_, bitmap_);
    s.copy(bitmap_, readback_bitmap_);
    s.copy(kept_s_buckets_, readback_s_buckets_);
    s.copy(kept_proofs_, readback_proofs_);
  });
  return out;
}

void Plotter::record(Sequence& sequence, const Seed& seed) {
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
  std::vector<std::optional<std::vector<std::uint8_t>>> out;
  if (challenges.empty()) return out;
  auto list = device_.upload(challenges);
  auto found = device_.alloc<std::uint32_t>(challenges.size());
  auto proofs = device_.alloc<std::uint32_t>(challenges.size() * proof_words(k_));
  auto sequence = device_.sequence();
  sequence.run(detail::expand_proofs_kernel(k_, mode_), grid(challenges.size()), targets_, parents_[5], parents_[4],
               parents_[3], parents_[2], parents_[1], parents_[0], subspace_targets_, xs_, list, found, proofs,
               std::uint32_t(challenges.size()));
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
  PlotResult r;
  r.k = k_;
  std::vector<std::uint32_t> bitmap = device_.download(readback_bitmap_);
  r.found_proofs = hash::unpack_bytes(bitmap, num_s_buckets / 8);
  std::size_t count = 0;
  for (std::uint32_t w : bitmap) count += std::size_t(std::popcount(w));
  std::vector<std::uint32_t> s_buckets = device_.download(readback_s_buckets_);
  r.s_buckets.assign(s_buckets.begin(), s_buckets.begin() + std::ptrdiff_t(count));
  std::vector<std::uint32_t> proofs = device_.download(readback_proofs_);
  r.proofs = hash::unpack_bytes(proofs, count * proof_bytes(k_));
  return r;
}

void Plotter::record_encoding(Sequence& sequence, const DeviceBuffer<std::uint32_t>& chunks) {
  if (!encoded_) {
    masks_.emplace(device_.alloc<std::uint32_t>(std::size_t(proofs_per_record) * chunk_words));
    encoded_.emplace(device_.alloc<std::uint32_t>(std::size_t(proofs_per_record) * chunk_words));
  }
  pos::record_encoding(device_, sequence, k_, chunks, kept_proofs_, kept_s_buckets_, found_, index_, *masks_,
                       *encoded_);
}

std::vector<std::uint8_t> Plotter::encode(const std::vector<std::uint8_t>& chunks) {
  if (chunks.size() != std::size_t(record_chunks) * chunk_bytes)
    throw std::invalid_argument("pos encode: the erasure-coded record has " + std::to_string(chunks.size()) +
                                " bytes, not 2^16 chunks of 32 bytes (2097152 bytes)");
  auto input = device_.upload(hash::pack_bytes(chunks));
  auto sequence = device_.sequence();
  record_encoding(sequence, input);
  sequence.run_and_wait();
  std::size_t count = 0;
  for (std::uint32_t w : device_.download(bitmap_)) count += std::size_t(std::popcount(w));
  return hash::unpack_bytes(device_.download(*encoded_), count * chunk_bytes);
}

const DeviceBuffer<std::uint32_t>& Plotter::encoded() const {
  if (!encoded_) throw std::logic_error("pos Plotter: encoded() before record_encoding()");
  return *encoded_;
}

std::size_t default_records_in_flight(const DeviceInfo& device) { return device.kind == DeviceKind::Cpu ? 2 : 1; }

void record_interleaved(Sequence& sequence, const std::vector<Plotter*>& plotters, const std::vector<Seed>& seeds) {
  if (plotters.size() != seeds.size())
    throw std::invalid_argument("pos::record_interleaved: one seed per plotter is needed");
  std::vector<std::vector<RecordStep>> all;
  std::size_t longest = 0;
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

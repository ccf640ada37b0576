#include "sprig/stdlib/hash/scrypt_search.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace sprig::hash {

namespace detail {

const ScryptSearchExpandKernel& scrypt_search_expand_kernel(ScryptLayout layout) {
  std::string name = std::string("scrypt_search_expand_") + scrypt_layout_name(layout);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> header, WriteBuffer<std::uint32_t> v, UInt r, UInt n, UInt p, UInt lanes,
            UInt first_nonce) {
          UInt lane = global_id().x();
          if_(lane < lanes, [&] {
            auto source = header_with_nonce(header, first_nonce + lane / p);
            HmacSha256Key key = hmac_sha256_key(source, UInt(header_bytes));
            ScryptScratchIndex v_at{layout, r * 32u, n, lanes};
            scrypt_expand_lane(v, v_at, lane, key, source, UInt(header_bytes), r, lane % p);
          });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<ScryptSearchExpandKernel>(name, trace);
}

const ScryptSearchFinishKernel& scrypt_search_finish_kernel(ScryptLayout layout) {
  std::string name = std::string("scrypt_search_finish_") + scrypt_layout_name(layout);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> header, ReadBuffer<std::uint32_t> x, ReadBuffer<std::uint32_t> target,
            Buffer<std::uint32_t> counter, WriteBuffer<std::uint32_t> winners, UInt r, UInt p, UInt hashes,
            UInt first_nonce) {
          UInt hash = global_id().x();
          if_(hash < hashes, [&] {
            UInt nonce = first_nonce + hash;
            HmacSha256Key key = hmac_sha256_key(header_with_nonce(header, nonce), UInt(header_bytes));
            ScryptScratchIndex x_at{layout, r * 32u, UInt(2u), hashes * p};
            Sha256State words = scrypt_finish_block(x, x_at, key, hash, r, p, UInt(0u));
            if_(at_most(words, target), [&] {
              UInt slot = atomic_add(counter[0u], 1u);
              if_(slot < winners.size(), [&] { winners[slot] = nonce; });
            });
          });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<ScryptSearchFinishKernel>(name, trace);
}

}  // namespace detail

namespace {

constexpr const char* what = "scrypt_search";

void check_one_call(std::span<const std::uint8_t> header, std::uint32_t first_nonce, std::uint64_t count,
                    const ScryptParams& params, std::uint32_t capacity) {
  detail::check_scrypt_params(what, params);
  if (header.size() != detail::header_bytes)
    throw std::invalid_argument("scrypt_search: the header must be 80 bytes, not " + std::to_string(header.size()));
  if (count >= (std::uint64_t(1) << 32)) throw std::invalid_argument("scrypt_search: count must be below 2^32");
  if (std::uint64_t(first_nonce) + count > (std::uint64_t(1) << 32))
    throw std::invalid_argument("scrypt_search: the nonce range passes 2^32 - 1");
  if (capacity == 0) throw std::invalid_argument("scrypt_search: the capacity must be positive");
}

void check_device(const DeviceInfo& info, const ScryptParams& params, const ScryptOptions& options) {
  if (options.cooperative) detail::check_scrypt_cooperative(what, info);
  detail::check_scrypt_pbkdf2_loops(what, info, params);
}

detail::ScryptRounds rounds_for(const DeviceInfo& info, const ScryptParams& params, std::uint64_t count,
                                const ScryptOptions& options) {
  return detail::scrypt_rounds(what, info, params, std::size_t(count), options.cooperative ? 4 : 1,
                               options.scratch_bytes);
}

// One device's search over the chunks of a call: its scratch, sized for the largest range it
// is given, and its header, target and counter stay between chunks, so a chunk costs its
// hashing and a read-back, not a multi-GiB allocation.
class DeviceSearch {
 public:
  DeviceSearch(Device& device, std::span<const std::uint8_t> header, const std::array<std::uint32_t, 8>& target,
               const ScryptParams& params, const ScryptOptions& options)
      : device_(device),
        params_(params),
        options_(options),
        header_words_(device.upload(pack_bytes(header))),
        target_words_(device.upload(std::vector<std::uint32_t>(target.begin(), target.end()))),
        counter_(device.alloc<std::uint32_t>(1)) {}

  // Nonces [first_nonce, first_nonce + count), in waves of rounds as scrypt_plan says, and
  // at most `capacity` winners read back.
  MiningSearchResult search(std::uint64_t first_nonce, std::uint64_t count, std::uint32_t capacity) {
    const DeviceInfo& info = device_.info();
    if (count > planned_) {  // a longer range than the scratch was made for: plan it anew
      sets_.clear();
      rounds_ = rounds_for(info, params_, count, options_);
      sets_ = detail::scrypt_scratch(device_, params_, rounds_);
      planned_ = count;
    }
    if (!winners_ || winners_->size() != capacity) winners_.emplace(device_.alloc<std::uint32_t>(capacity));
    auto sequence = device_.sequence();
    sequence.fill(counter_, 0);
    const std::uint64_t wave = rounds_.per_set * rounds_.sets;
    for (std::uint64_t done = 0; done < count; done += wave) {
      auto hashes_of = [&](std::size_t k) {
        std::uint64_t start = std::min<std::uint64_t>(count, done + k * rounds_.per_set);
        return std::uint32_t(std::min<std::uint64_t>(rounds_.per_set, count - start));
      };
      auto first_of = [&](std::size_t k) { return std::uint32_t(first_nonce + done + k * rounds_.per_set); };
      for (std::size_t k = 0; k < sets_.size(); ++k) {
        sets_[k].lanes = hashes_of(k) * params_.p;
        if (sets_[k].lanes == 0) continue;
        sequence.run(detail::scrypt_search_expand_kernel(options_.layout), grid(sets_[k].lanes), header_words_,
                     detail::scrypt_expand_target(params_, sets_[k]), params_.r, detail::scrypt_expand_blocks(params_),
                     params_.p, sets_[k].lanes, first_of(k));
      }
      detail::scrypt_romix(sequence, info, params_, options_, sets_);
      for (std::size_t k = 0; k < sets_.size(); ++k) {
        std::uint32_t hashes = hashes_of(k);
        if (hashes == 0) continue;
        sequence.run(detail::scrypt_search_finish_kernel(options_.layout), grid(hashes), header_words_, sets_[k].x,
                     target_words_, counter_, *winners_, params_.r, params_.p, hashes, first_of(k));
      }
    }
    sequence.run_and_wait();
    return detail::read_winners(device_, counter_, *winners_);
  }

 private:
  Device& device_;
  const ScryptParams& params_;
  const ScryptOptions& options_;
  DeviceBuffer<std::uint32_t> header_words_, target_words_, counter_;
  std::optional<DeviceBuffer<std::uint32_t>> winners_;
  detail::ScryptRounds rounds_{};
  std::vector<detail::ScryptScratch> sets_;
  std::uint64_t planned_ = 0;  // the longest range the scratch is planned for
};

}  // namespace

ScryptSearchResult scrypt_search(Device& device, std::span<const std::uint8_t> header, std::uint32_t first_nonce,
                                 std::uint64_t count, const std::array<std::uint32_t, 8>& target,
                                 const ScryptParams& params, std::uint32_t capacity, const ScryptOptions& options) {
  check_one_call(header, first_nonce, count, params, capacity);
  check_device(device.info(), params, options);
  if (count == 0) return {};
  DeviceSearch search(device, header, target, params, options);
  return detail::search_on_device(first_nonce, count, capacity,
                                  [&](std::size_t, std::uint64_t first, std::uint64_t n, std::uint32_t room) {
                                    return search.search(first, n, room);
                                  });
}

ScryptSearchResult scrypt_search(std::span<Device* const> devices, std::span<const std::uint8_t> header,
                                 std::uint32_t first_nonce, std::uint64_t count,
                                 const std::array<std::uint32_t, 8>& target, const ScryptParams& params,
                                 std::uint32_t capacity, const ScryptOptions& options, const MiningSplit& split) {
  check_one_call(header, first_nonce, count, params, capacity);
  // Each device's chunk is whole waves of its own: more memory, longer chunks. Asking for
  // the wave also refuses, before any search, parameters a device cannot take.
  auto chunk_of = [&](std::size_t i) {
    const DeviceInfo& info = devices[i]->info();
    check_device(info, params, options);
    detail::ScryptRounds wave = rounds_for(info, params, std::uint64_t(1) << 32, options);
    return detail::mining_chunk(split, wave.per_set * wave.sets, detail::scrypt_waves_per_chunk);
  };
  // Each device's state is made by its own thread, on its first chunk, and used by it alone
  // (and after the threads end, by the re-search of an overflowing chunk).
  std::vector<std::optional<DeviceSearch>> searches(devices.size());
  return detail::search_on_devices(what, devices, first_nonce, count, capacity, split, chunk_of,
                                   [&](std::size_t i, std::uint64_t first, std::uint64_t n, std::uint32_t room) {
                                     if (!searches[i]) searches[i].emplace(*devices[i], header, target, params, options);
                                     return searches[i]->search(first, n, room);
                                   });
}

}  // namespace sprig::hash

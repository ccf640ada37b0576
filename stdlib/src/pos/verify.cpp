#include "sprig/stdlib/pos/verify.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace sprig::pos {

namespace detail {

const VerifyF1Kernel& verify_f1_kernel(int k) {
  std::string name = "pos_verify_f1";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> proofs, ReadBuffer<std::uint32_t> seeds, WriteBuffer<std::uint32_t> ys,
            WriteBuffer<std::uint32_t> metadata, UInt count) {
          UInt g = global_id().x();
          if_(g < count * 64u, [&] {
            UInt i = g / 64u, j = g % 64u;
            const std::uint32_t words = proof_words(k);
            UInt start = j * std::uint32_t(k), offset = start & 31u;
            UInt q = i * words + (start >> 5u);
            UInt high = hash::big_endian(proofs[q].load()) << offset;
            // The next word only exists within the batch; the shift by 32 is not a zero (select).
            UInt next = min(q + 1u, count * words - 1u);
            UInt low = select(offset == 0u, UInt(0u), hash::big_endian(proofs[next].load()) >> (32u - offset));
            UInt x = (high | low) >> std::uint32_t(32 - k);

            const UInt seed_base = i * 8u;
            const hash::ChachaKey key{seeds[seed_base].load(),      seeds[seed_base + 1u].load(),
                                      seeds[seed_base + 2u].load(), seeds[seed_base + 3u].load(),
                                      seeds[seed_base + 4u].load(), seeds[seed_base + 5u].load(),
                                      seeds[seed_base + 6u].load(), seeds[seed_base + 7u].load()};
            const std::array<UInt, 3> nonce{UInt(0u), UInt(0u), UInt(0u)};
            UInt kq = f1_bit_start(x, k).q;
            UInt block = kq >> 4u, w = kq & 15u;
            hash::ChachaWords words0 =
                hash::chacha_block(hash::chacha_input(hash::ChachaLayout::Ietf, key, block, UInt(0u), nonce), 8);
            Var<std::uint32_t> second = block_word(words0, (w + 1u) & 15u);
            if_(w == 15u, [&] {  // word q + 1 starts the next block
              second = hash::chacha_block(
                  hash::chacha_input(hash::ChachaLayout::Ietf, key, block + 1u, UInt(0u), nonce), 8)[0];
            });
            store_y(ys, g, k, f1_y(KeystreamPair{kq, block_word(words0, w), second}, x, k));
            metadata[g * verify_entry_words] = x;
            for (std::uint32_t m = 1; m < verify_entry_words; ++m) metadata[g * verify_entry_words + m] = 0u;
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<VerifyF1Kernel>(name + "/k" + std::to_string(k), trace);
}

const VerifyTableKernel& verify_table_kernel(int k, int table) {
  std::string name = "pos_verify_t" + std::to_string(table);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys_in, ReadBuffer<std::uint32_t> metadata_in, WriteBuffer<std::uint32_t> ys_out,
            WriteBuffer<std::uint32_t> metadata_out, UInt count) {
          const std::uint32_t pairs = 64u >> (table - 1);
          UInt g = global_id().x();
          if_(g < count * pairs, [&] {
            UInt left = 2u * g, right = left + 1u;  // entries of one proof are contiguous
            YValue y_left = load_y(ys_in, left, k), y_right = load_y(ys_in, right, k);
            Wide meta_left = wide(UInt(0u)), meta_right = wide(UInt(0u));
            for (std::uint32_t m = 0; m < verify_metadata_words; ++m) {
              meta_left[m] = metadata_in[left * verify_entry_words + m];
              meta_right[m] = metadata_in[right * verify_entry_words + m];
            }
            UInt marked = metadata_in[left * verify_entry_words + verify_metadata_words] |
                          metadata_in[right * verify_entry_words + verify_metadata_words];
            Bool ok = marked == 0u && pair_matches(y_left, y_right);
            FnResult f = compute_fn(k, table, y_left, meta_left, meta_right);
            store_y(ys_out, g, k, f.y);
            for (std::uint32_t m = 0; m < verify_metadata_words; ++m)
              metadata_out[g * verify_entry_words + m] = f.metadata[m];
            metadata_out[g * verify_entry_words + verify_metadata_words] = select(ok, UInt(0u), UInt(1u));
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<VerifyTableKernel>(name + "/k" + std::to_string(k), trace);
}

const VerifyResultKernel& verify_result_kernel(int k) {
  std::string name = "pos_verify_result";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> y7, ReadBuffer<std::uint32_t> entries7, ReadBuffer<std::uint32_t> challenges,
            WriteBuffer<std::uint32_t> valid, UInt count) {
          UInt i = global_id().x();
          if_(i < count, [&] {
            UInt first_bits = y_shifted(load_y(y7, i, k), param_ext);
            Bool unmarked = entries7[i * verify_entry_words + verify_metadata_words] == 0u;
            valid[i] = select(unmarked && first_bits == challenges[i], UInt(1u), UInt(0u));
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<VerifyResultKernel>(name + "/k" + std::to_string(k), trace);
}

}  // namespace detail

Verifier::Verifier(Device& device, int k) : device_(device), k_((check_k(k), k)) {}

void Verifier::record(Sequence& sequence, const DeviceBuffer<std::uint32_t>& seeds,
                      const DeviceBuffer<std::uint32_t>& challenges, const DeviceBuffer<std::uint32_t>& proofs,
                      std::size_t count, const DeviceBuffer<std::uint32_t>& valid) {
  if (count == 0) return;
  if (count > (std::size_t(1) << 24)) throw std::invalid_argument("pos verify: more than 2^24 proofs in one batch");
  if (proofs.size() < count * proof_words(k_) || seeds.size() < count * 8 || challenges.size() < count ||
      valid.size() < count)
    throw std::invalid_argument("pos verify: a buffer holds fewer than " + std::to_string(count) + " entries");
  const auto n = std::uint32_t(count);
  DeviceBuffer<std::uint32_t> ys = device_.alloc<std::uint32_t>(count * 64 * y_words(k_));
  DeviceBuffer<std::uint32_t> metadata = device_.alloc<std::uint32_t>(count * 64 * verify_entry_words);
  DeviceBuffer<std::uint32_t> ys_next = device_.alloc<std::uint32_t>(count * 32 * y_words(k_));
  DeviceBuffer<std::uint32_t> metadata_next = device_.alloc<std::uint32_t>(count * 32 * verify_entry_words);
  sequence.run(detail::verify_f1_kernel(k_), grid(count * 64), proofs, seeds, ys, metadata, n);
  for (int table = 2; table <= 7; ++table) {
    sequence.run(detail::verify_table_kernel(k_, table), grid(count * (64u >> (table - 1))), ys, metadata, ys_next,
                 metadata_next, n);
    std::swap(ys, ys_next);
    std::swap(metadata, metadata_next);
  }
  sequence.run(detail::verify_result_kernel(k_), grid(count), ys, metadata, challenges, valid, n);
}

std::vector<std::uint8_t> Verifier::verify(std::span<const Seed> seeds, std::span<const std::uint32_t> challenges,
                                           std::span<const std::uint8_t> proofs) {
  const std::size_t count = challenges.size();
  if (proofs.size() != count * proof_bytes(k_))
    throw std::invalid_argument("pos verify: " + std::to_string(proofs.size()) + " proof bytes for " +
                                std::to_string(count) + " challenges; a K = " + std::to_string(k_) + " proof is " +
                                std::to_string(proof_bytes(k_)) + " bytes");
  if (seeds.size() != count)
    throw std::invalid_argument("pos verify: " + std::to_string(seeds.size()) + " seeds for " + std::to_string(count) +
                                " proofs");
  if (count == 0) return {};
  std::vector<std::uint32_t> seed_words;
  for (const Seed& s : seeds) {
    auto w = hash::pack_bytes(s);
    seed_words.insert(seed_words.end(), w.begin(), w.end());
  }
  auto valid = device_.alloc<std::uint32_t>(count);
  auto sequence = device_.sequence();
  record(sequence, device_.upload(seed_words),
         device_.upload(std::vector<std::uint32_t>(challenges.begin(), challenges.end())),
         device_.upload(hash::pack_bytes(proofs)), count, valid);
  sequence.run_and_wait();
  std::vector<std::uint32_t> result = device_.download(valid);
  return std::vector<std::uint8_t>(result.begin(), result.end());
}

std::vector<std::uint8_t> Verifier::verify(const Seed& seed, std::span<const std::uint32_t> challenges,
                                           std::span<const std::uint8_t> proofs) {
  return verify(std::vector<Seed>(challenges.size(), seed), challenges, proofs);
}

}  // namespace sprig::pos

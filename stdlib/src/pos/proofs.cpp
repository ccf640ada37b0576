#include "sprig/stdlib/pos/proofs.hpp"

#include "sprig/stdlib/pos/links.hpp"
#include "sprig/stdlib/pos/packed_entries.hpp"

#include <utility>
#include <vector>

namespace sprig::pos::detail {

const ExpandProofsKernel& expand_proofs_kernel(int k, Mode mode, bool links) {
  std::string name =
      std::string("pos_expand_proofs") + (mode == Mode::Subspace ? "_subspace" : "") + (mode == Mode::Abundance && !links ? "_positions" : "");
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> targets, ReadBuffer<std::uint32_t> parents7, ReadBuffer<std::uint32_t> parents6,
            ReadBuffer<std::uint32_t> parents5, ReadBuffer<std::uint32_t> parents4, ReadBuffer<std::uint32_t> parents3,
            ReadBuffer<std::uint32_t> parents2, ReadBuffer<std::uint64_t> subspace_targets,
            ReadBuffer<std::uint32_t> xs, ReadBuffer<std::uint32_t> challenges, WriteBuffer<std::uint32_t> found,
            WriteBuffer<std::uint32_t> proofs, UInt count) {
          UInt s = global_id().x();
          if_(s < count, [&] {
            // Abundance: s-bucket s's table-7 position. Subspace: challenge index
            // challenges[s] selects the first K bits of y, u32_be(index.to_le_bytes()) >> (32 - K),
            // whose target is a packed (y, left, right) key with the parents in table 6 below.
            UInt target = mode == Mode::Abundance ? targets[s].load() : UInt(0u);
            std::optional<ULong> key;
            if (mode == Mode::Subspace)
              key = subspace_targets[byte_swap(challenges[s].load()) >> std::uint32_t(32 - k)].load();
            Bool has = mode == Mode::Abundance ? target != no_target : *key != ~std::uint64_t(0);
            found[s] = select(has, UInt(1u), UInt(0u));
            if_(has, [&] {
              // Table 6's entries of the proof, then table 5's, ... down to table 1's: bucket
              // slots under links, positions otherwise.
              std::vector<UInt> entries;
              if (links) {
                LinkedSlots top = load_link(parents7, k, target);
                entries = {top.left, top.right};
              } else if (mode == Mode::Abundance) {
                ParentPositions top = parent_positions(k, load_packed(parents7, parent_pair_bits(k), target));
                entries = {top.left, top.right};
              } else {
                entries = {cast<std::uint32_t>((*key >> 26u) & ((1u << 26) - 1u)),
                           cast<std::uint32_t>(*key & ((1u << 26) - 1u))};
              }
              for (const ReadBuffer<std::uint32_t>* table : {&parents6, &parents5, &parents4, &parents3, &parents2}) {
                std::vector<UInt> below;
                for (const UInt& e : entries) {
                  if (links) {
                    LinkedSlots link = load_link(*table, k, e);
                    below.push_back(link.left);
                    below.push_back(link.right);
                  } else if (mode == Mode::Abundance) {
                    ParentPositions pair = parent_positions(k, load_packed(*table, parent_pair_bits(k), e));
                    below.push_back(pair.left);
                    below.push_back(pair.right);
                  } else {
                    below.push_back((*table)[e * 2u].load());
                    below.push_back((*table)[e * 2u + 1u].load());
                  }
                }
                entries = std::move(below);
              }
              std::vector<UInt> positions;  // table 1's x: by bucket slot, by (y, x) position, or the position
              for (const UInt& e : entries) positions.push_back(links || mode == Mode::Subspace ? xs[e].load() : e);
              BitString proof;
              for (const UInt& x : positions) proof.append(x, unsigned(k));
              for (std::uint32_t w = 0; w < proof_words(k); ++w)
                proofs[s * proof_words(k) + w] = hash::big_endian(proof.words()[w]);
            });
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<ExpandProofsKernel>(name + "/k" + std::to_string(k), trace);
}

const PlaceProofsKernel& place_proofs_kernel(int k) {
  std::string name = "pos_place_proofs";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> found, ReadBuffer<std::uint32_t> index, ReadBuffer<std::uint32_t> proofs,
            WriteBuffer<std::uint32_t> kept_proofs, WriteBuffer<std::uint32_t> kept_s_buckets,
            Buffer<std::uint32_t> bitmap) {
          UInt s = global_id().x();
          if_(s < num_s_buckets, [&] {
            UInt i = index[s];
            if_(found[s] != 0u && i < proofs_per_record, [&] {
              for (std::uint32_t w = 0; w < proof_words(k); ++w)
                kept_proofs[i * proof_words(k) + w] = proofs[s * proof_words(k) + w].load();
              kept_s_buckets[i] = s;
              atomic_or(bitmap[s / 32u], UInt(1u) << (s % 32u));
            });
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<PlaceProofsKernel>(name + "/k" + std::to_string(k), trace);
}

}  // namespace sprig::pos::detail

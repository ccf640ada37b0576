#include "sprig/stdlib/pos/proofs.hpp"

#include "sprig/stdlib/pos/links.hpp"
#include "sprig/stdlib/pos/packed_entries.hpp"

#include <utility>
#include <vector>

namespace sprig::pos::detail {

namespace {

// Table 1's x values of a proof, packed MSB-first into its proof_words(k) words.
void store_proof(const WriteBuffer<std::uint32_t>& proofs, int k, const UInt& s, const std::vector<UInt>& xs) {
  BitString proof;
  for (const UInt& x : xs) proof.append(x, unsigned(k));
  for (std::uint32_t w = 0; w < proof_words(k); ++w)
    proofs[s * proof_words(k) + w] = hash::big_endian(proof.words()[w]);
}

}  // namespace

const ExpandProofsKernel& expand_proofs_kernel(int k, Mode mode, bool links) {
  if (mode == Mode::Abundance && !links)
    throw std::logic_error("pos expand_proofs: Abundance's ranks have a kernel of their own");
  std::string name = std::string("pos_expand_proofs") + (mode == Mode::Subspace ? "_subspace" : "");
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
                  } else {
                    below.push_back((*table)[e * 2u].load());
                    below.push_back((*table)[e * 2u + 1u].load());
                  }
                }
                entries = std::move(below);
              }
              std::vector<UInt> x;  // table 1's: by bucket slot, or by (y, x) position
              for (const UInt& e : entries) x.push_back(xs[e].load());
              store_proof(proofs, k, s, x);
            });
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<ExpandProofsKernel>(name + "/k" + std::to_string(k), trace);
}

const ExpandRankedProofsKernel& expand_ranked_proofs_kernel(int k) {
  std::string name = "pos_expand_ranked_proofs";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> targets, ReadBuffer<std::uint32_t> ranks7, ReadBuffer<std::uint32_t> ranks6,
            ReadBuffer<std::uint32_t> ranks5, ReadBuffer<std::uint32_t> ranks4, ReadBuffer<std::uint32_t> ranks3,
            ReadBuffer<std::uint32_t> ranks2, ReadBuffer<std::uint32_t> positions6,
            ReadBuffer<std::uint32_t> positions5, ReadBuffer<std::uint32_t> positions4,
            ReadBuffer<std::uint32_t> positions3, ReadBuffer<std::uint32_t> positions2,
            ReadBuffer<std::uint32_t> positions1, WriteBuffer<std::uint32_t> found, WriteBuffer<std::uint32_t> proofs,
            UInt count) {
          UInt s = global_id().x();
          if_(s < count, [&] {
            UInt target = targets[s];
            Bool has = target != no_target;
            found[s] = select(has, UInt(1u), UInt(0u));
            if_(has, [&] {
              // Positions of the proof's entries in table 7, then 6, ... down to table 1 (x):
              // a table's ranks name slots of the buckets below, whose positions they keep.
              std::vector<UInt> entries{target};
              const std::array<const ReadBuffer<std::uint32_t>*, 6> ranks{&ranks7, &ranks6, &ranks5,
                                                                          &ranks4, &ranks3, &ranks2};
              const std::array<const ReadBuffer<std::uint32_t>*, 6> positions{&positions6, &positions5, &positions4,
                                                                              &positions3, &positions2, &positions1};
              for (std::size_t level = 0; level < ranks.size(); ++level) {
                std::vector<UInt> below;
                for (const UInt& e : entries) {
                  LinkedSlots slots = load_ranks(*ranks[level], e);
                  for (const UInt& slot : {slots.left, slots.right})
                    below.push_back(load_packed(*positions[level], bucket_position_layout(k), slot)[0]);
                }
                entries = std::move(below);
              }
              store_proof(proofs, k, s, entries);
            });
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<ExpandRankedProofsKernel>(name + "/k" + std::to_string(k), trace);
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

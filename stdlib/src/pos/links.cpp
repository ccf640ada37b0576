#include "sprig/stdlib/pos/links.hpp"

#include <string>

namespace sprig::pos::detail {

namespace {

constexpr std::uint32_t capacity = bucket_capacity(Mode::Abundance);

}  // namespace

void store_link(const WriteBuffer<std::uint32_t>& links, int k, const UInt& position, const UInt& pair,
                const UInt& left_rank, const UInt& right_rank) {
  UInt ranks = (left_rank << link_rank_bits) | right_rank;
  if (link_words(k) == 1) {
    links[position] = (pair << (2 * link_rank_bits)) | ranks;
  } else {
    links[position * 2u] = pair;
    links[position * 2u + 1u] = ranks;
  }
}

LinkedSlots load_link(const ReadBuffer<std::uint32_t>& links, int k, const UInt& index) {
  constexpr std::uint32_t rank_mask = (1u << link_rank_bits) - 1u;
  UInt pair = 0u, ranks = 0u;
  if (link_words(k) == 1) {
    UInt link = links[index];
    pair = link >> (2 * link_rank_bits);
    ranks = link;
  } else {
    pair = links[index * 2u];
    ranks = links[index * 2u + 1u];
  }
  return {pair * capacity + ((ranks >> link_rank_bits) & rank_mask), (pair + 1u) * capacity + (ranks & rank_mask)};
}

const SlotLinksKernel& slot_links_kernel(int k, int table, std::uint32_t invocations) {
  std::string name = "pos_slot_links_t" + std::to_string(table);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> slots, ReadBuffer<std::uint32_t> sizes, ReadBuffer<std::uint32_t> links,
            WriteBuffer<std::uint32_t> by_slot, UInt count) {
          UInt q = global_id().x();
          if_(q >= count, [] { return_(); });
          // Slots past a bucket's size are never named by a link: left unwritten.
          if_(q % capacity < sizes[q / capacity], [&] {
            UInt position = slots[q * slot_words];
            const std::uint32_t words = slot_link_words(k, table);
            if (table == 1) {
              by_slot[q] = position;
            } else {
              for (std::uint32_t w = 0; w < words; ++w) by_slot[q * words + w] = links[position * words + w].load();
            }
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<SlotLinksKernel>(
      name + "/k" + std::to_string(k) + "/" + std::to_string(invocations), trace);
}

}  // namespace sprig::pos::detail

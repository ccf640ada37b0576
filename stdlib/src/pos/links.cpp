#include "sprig/stdlib/pos/links.hpp"

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

}  // namespace sprig::pos::detail

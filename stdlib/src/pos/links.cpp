#include "sprig/stdlib/pos/links.hpp"

#include <stdexcept>
#include <string>

namespace sprig::pos::detail {

namespace {

constexpr std::uint32_t capacity = bucket_capacity(Mode::Abundance);

}  // namespace

void store_link(const Buffer<std::uint32_t>& links, int k, const UInt& position, const UInt& pair,
                const UInt& left_rank, const UInt& right_rank) {
  if (!links_fit(k)) throw std::logic_error("pos links: a link does not fit a word at K = " + std::to_string(k));
  links[position] = (pair << (2 * link_rank_bits)) | (left_rank << link_rank_bits) | right_rank;
}

LinkedSlots load_link(const ReadBuffer<std::uint32_t>& links, int k, const UInt& index) {
  if (!links_fit(k)) throw std::logic_error("pos links: a link does not fit a word at K = " + std::to_string(k));
  constexpr std::uint32_t rank_mask = (1u << link_rank_bits) - 1u;
  UInt link = links[index];
  UInt pair = link >> (2 * link_rank_bits);
  return {pair * capacity + ((link >> link_rank_bits) & rank_mask), (pair + 1u) * capacity + (link & rank_mask)};
}

}  // namespace sprig::pos::detail

#include "sprig/stdlib/pos/links.hpp"

#include <stdexcept>
#include <string>

namespace sprig::pos {

namespace {

constexpr std::uint32_t capacity = bucket_capacity(Mode::Abundance);
constexpr std::uint32_t rank_mask = (1u << link_rank_bits) - 1u;

}  // namespace

ParentLayout parent_layout(int k, Mode mode, ParentLayout asked) {
  if (mode == Mode::Subspace) {
    if (asked == ParentLayout::Links || asked == ParentLayout::Ranks)
      throw std::invalid_argument("pos::Plotter: parents as links or ranks are Abundance's; Subspace keeps positions");
    return ParentLayout::Positions;
  }
  switch (asked) {
    case ParentLayout::Auto:
      return links_fit(k) ? ParentLayout::Links : ParentLayout::Ranks;
    case ParentLayout::Links:
      if (!links_fit(k))
        throw std::invalid_argument("pos::Plotter: parents as links are Abundance's, up to K = 21 (K = " +
                                    std::to_string(k) + ")");
      return asked;
    case ParentLayout::Ranks:
      return asked;
    case ParentLayout::Positions:
      break;
  }
  throw std::invalid_argument("pos::Plotter: Abundance keeps its parents as links or ranks, not positions");
}

namespace detail {

void store_link(const Buffer<std::uint32_t>& links, int k, const UInt& position, const UInt& pair,
                const UInt& left_rank, const UInt& right_rank) {
  if (!links_fit(k)) throw std::logic_error("pos links: a link does not fit a word at K = " + std::to_string(k));
  links[position] = (pair << (2 * link_rank_bits)) | (left_rank << link_rank_bits) | right_rank;
}

LinkedSlots load_link(const ReadBuffer<std::uint32_t>& links, int k, const UInt& index) {
  if (!links_fit(k)) throw std::logic_error("pos links: a link does not fit a word at K = " + std::to_string(k));
  UInt link = links[index];
  UInt pair = link >> (2 * link_rank_bits);
  return {pair * capacity + ((link >> link_rank_bits) & rank_mask), (pair + 1u) * capacity + (link & rank_mask)};
}

void store_ranks(const Buffer<std::uint32_t>& ranks, const UInt& position, const UInt& left_rank,
                 const UInt& right_rank) {
  store_packed(ranks, parent_rank_bits, position, wide(left_rank | (right_rank << link_rank_bits)));
}

LinkedSlots load_ranks(const ReadBuffer<std::uint32_t>& ranks, const UInt& position) {
  UInt both = load_packed(ranks, parent_rank_bits, position)[0];
  UInt pair = position / matches_per_pair(Mode::Abundance);
  return {pair * capacity + (both & rank_mask), (pair + 1u) * capacity + (both >> link_rank_bits)};
}

}  // namespace detail
}  // namespace sprig::pos

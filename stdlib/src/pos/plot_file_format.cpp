#include "sprig/stdlib/pos/plot_file_format.hpp"

#include <bit>

#include "plot_file_layout.hpp"

namespace sprig::pos {

namespace plot_file_layout {

std::string field_problem(std::uint32_t k, std::uint32_t rules, std::uint32_t records) {
  if (k < std::uint32_t(min_k) || k > std::uint32_t(max_k))
    return "K = " + std::to_string(k) + " is out of range " + std::to_string(min_k) + ".." + std::to_string(max_k);
  if (rules > 1) return "plotting rules " + std::to_string(rules) + " are unknown (0 Abundance, 1 Subspace)";
  if (rules == 1 && k > std::uint32_t(max_subspace_k))
    return "K = " + std::to_string(k) + " is out of range for Subspace's rules " + std::to_string(min_k) + ".." +
           std::to_string(max_subspace_k);
  if (records > plot_file_max_records) {
    return "a record count of " + std::to_string(records) + " is more than a plot file holds (" +
           std::to_string(plot_file_max_records) + ")";
  }
  return "";
}

HeaderBytes encode_header(const PlotFileHeader& header) {
  HeaderBytes bytes{};  // the reserved bytes stay zero
  std::copy(magic.begin(), magic.end(), bytes.begin());
  store_u32(&bytes[version_offset], plot_file_version);
  store_u32(&bytes[k_offset], std::uint32_t(header.k));
  store_u32(&bytes[records_offset], header.records);
  store_u32(&bytes[rules_offset], rules_code(header.mode));
  return bytes;
}

}  // namespace plot_file_layout

std::string plot_file_header_problem(const PlotFileHeader& header) {
  if (header.mode != Mode::Abundance && header.mode != Mode::Subspace)
    return "plotting rules " + std::to_string(int(header.mode)) + " are not a pos::Mode";
  if (header.k < 0) return "K = " + std::to_string(header.k) + " is out of range";
  return plot_file_layout::field_problem(std::uint32_t(header.k), plot_file_layout::rules_code(header.mode),
                                         header.records);
}

std::string plot_file_record_inconsistency(const std::vector<std::uint8_t>& found_proofs,
                                           const std::vector<std::uint32_t>& s_buckets) {
  std::size_t set = 0;
  for (std::uint8_t byte : found_proofs) set += std::size_t(std::popcount(byte));
  if (set != s_buckets.size()) {
    return "the found-proofs bitmap has " + std::to_string(set) + " bits set for " + std::to_string(s_buckets.size()) +
           " s-buckets";
  }
  for (std::size_t i = 0; i < s_buckets.size(); ++i) {
    const std::uint32_t s = s_buckets[i];
    if (s >= num_s_buckets) return "s-bucket " + std::to_string(s) + " is out of range";
    if (i > 0 && s <= s_buckets[i - 1]) return "the s-buckets are not ascending at entry " + std::to_string(i);
    if (((found_proofs[s / 8] >> (s % 8)) & 1) == 0)
      return "s-bucket " + std::to_string(s) + " is not set in the bitmap";
  }
  return "";
}

}  // namespace sprig::pos

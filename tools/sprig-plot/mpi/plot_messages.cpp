#include "plot_messages.hpp"

#include <algorithm>
#include <stdexcept>

#include "mpi_world.hpp"

namespace sprig_plot {

std::vector<std::uint8_t> encode_deal(std::uint32_t record, const sprig::pos::Seed& seed) {
  std::vector<std::uint8_t> bytes;
  put_u32(bytes, record);
  put_bytes(bytes, seed.data(), seed.size());
  return bytes;
}

std::pair<std::uint32_t, sprig::pos::Seed> decode_deal(const std::vector<std::uint8_t>& bytes) {
  MessageReader in(bytes);
  std::pair<std::uint32_t, sprig::pos::Seed> deal;
  deal.first = in.u32();
  const std::uint8_t* seed = in.bytes(deal.second.size());
  std::copy(seed, seed + deal.second.size(), deal.second.begin());
  return deal;
}

// Index, K, the counts of the three arrays, then the arrays.
std::vector<std::uint8_t> encode_delivery(std::uint32_t record, const sprig::pos::PlotResult& result) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(20 + result.found_proofs.size() + 4 * result.s_buckets.size() + result.proofs.size());
  put_u32(bytes, record);
  put_u32(bytes, std::uint32_t(result.k));
  put_u32(bytes, std::uint32_t(result.found_proofs.size()));
  put_u32(bytes, std::uint32_t(result.s_buckets.size()));
  put_u32(bytes, std::uint32_t(result.proofs.size()));
  put_bytes(bytes, result.found_proofs.data(), result.found_proofs.size());
  for (std::uint32_t s : result.s_buckets) put_u32(bytes, s);
  put_bytes(bytes, result.proofs.data(), result.proofs.size());
  return bytes;
}

std::pair<std::uint32_t, sprig::pos::PlotResult> decode_delivery(const std::vector<std::uint8_t>& bytes) {
  MessageReader in(bytes);
  std::pair<std::uint32_t, sprig::pos::PlotResult> delivery;
  delivery.first = in.u32();
  sprig::pos::PlotResult& result = delivery.second;
  result.k = int(in.u32());
  const std::uint32_t bitmap = in.u32(), buckets = in.u32(), proofs = in.u32();
  if (std::uint64_t(bitmap) + 4ull * buckets + proofs != in.left())
    throw std::runtime_error("a record from another rank has the wrong size");
  const std::uint8_t* p = in.bytes(bitmap);
  result.found_proofs.assign(p, p + bitmap);
  result.s_buckets.resize(buckets);
  for (auto& s : result.s_buckets) s = in.u32();
  p = in.bytes(proofs);
  result.proofs.assign(p, p + proofs);
  return delivery;
}

}  // namespace sprig_plot

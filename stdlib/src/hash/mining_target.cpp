#include "sprig/stdlib/hash/mining_target.hpp"

#include <algorithm>
#include <stdexcept>

namespace sprig::hash {

std::array<std::uint32_t, 8> target_from_bits(std::uint32_t bits) {
  std::uint32_t exponent = bits >> 24, mantissa = bits & 0x007fffffu;
  if (bits & 0x00800000u)
    throw std::invalid_argument("target_from_bits: the sign bit encodes a negative target");
  std::array<std::uint8_t, 32> bytes{};
  for (std::uint32_t k = 0; k < 3; ++k) {
    std::uint8_t byte = std::uint8_t(mantissa >> (8 * k));
    std::int64_t position = std::int64_t(exponent) - 3 + k;
    if (position >= 32 && byte != 0)
      throw std::invalid_argument("target_from_bits: the target does not fit in 256 bits");
    if (position >= 0 && position < 32) bytes[position] = byte;
  }
  std::array<std::uint32_t, 8> words{};
  for (std::size_t i = 0; i < 32; ++i) words[i / 4] |= std::uint32_t(bytes[i]) << (8 * (i % 4));
  return words;
}

MiningSearchResult detail::read_winners(Device& device, const DeviceBuffer<std::uint32_t>& counter,
                                        const DeviceBuffer<std::uint32_t>& winners) {
  MiningSearchResult result;
  result.found = device.download(counter)[0];
  result.overflow = result.found > winners.size();
  std::vector<std::uint32_t> kept = device.download(winners);
  kept.resize(std::min<std::uint64_t>(result.found, winners.size()));
  std::sort(kept.begin(), kept.end());
  result.nonces = std::move(kept);
  return result;
}

}  // namespace sprig::hash

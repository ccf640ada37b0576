#include "sector_seeds.hpp"

#include <algorithm>

#include <sprig/stdlib/hash/blake3_fixed.hpp>
#include <sprig/stdlib/hash/byte_words.hpp>

namespace sprig_plot {

std::vector<sprig::pos::Seed> sector_seeds(sprig::Device& device, const sprig::pos::Seed& sector_id,
                                           std::uint32_t first, std::uint32_t count) {
  std::vector<std::uint8_t> messages;
  for (std::uint32_t r = 0; r < count; ++r) {
    messages.insert(messages.end(), sector_id.begin(), sector_id.end());
    messages.push_back(std::uint8_t((first + r) & 0xff));
    messages.push_back(std::uint8_t((first + r) >> 8));
  }
  auto data = device.upload(sprig::hash::pack_bytes(messages));
  auto out = device.alloc<std::uint32_t>(std::size_t(count) * 8);
  sprig::hash::blake3_fixed(device, data, 34, count, out, 32);
  std::vector<std::uint8_t> bytes = sprig::hash::unpack_bytes(device.download(out), std::size_t(count) * 32);
  std::vector<sprig::pos::Seed> seeds(count);
  for (std::uint32_t r = 0; r < count; ++r) std::copy_n(bytes.begin() + std::ptrdiff_t(r) * 32, 32, seeds[r].begin());
  return seeds;
}

}  // namespace sprig_plot

// The digests host-level hash calls return: N bytes in a std::array (compare them, index
// them, pass them on as a ByteView) with hex() for printing.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sprig/stdlib/hash/hex.hpp"

namespace sprig::hash {

template <std::size_t N>
struct Digest : std::array<std::uint8_t, N> {
  // Two lowercase hexadecimal digits per byte, as digests are usually printed.
  std::string hex() const { return to_hex(*this); }
};

using Sha256Digest = Digest<32>;
using Blake3Digest = Digest<32>;

}  // namespace sprig::hash

// Bytes as hexadecimal text and back, the way digests and published test vectors are
// written: to_hex gives two lowercase digits per byte; from_hex reads either case and
// ignores whitespace, so vectors copied with spaces or line breaks ("f7 ce 0b 65") read too.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sprig/stdlib/hash/byte_view.hpp"

namespace sprig::hash {

// Two lowercase hexadecimal digits per byte.
std::string to_hex(ByteView bytes);

// The bytes of `text`; throws std::invalid_argument naming the first character that is not
// a hexadecimal digit, or an odd digit count.
std::vector<std::uint8_t> from_hex(std::string_view text);

}  // namespace sprig::hash

#include "sprig/stdlib/hash/hex.hpp"

#include <stdexcept>

namespace sprig::hash {

std::string to_hex(ByteView bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(2 * bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    text += digits[bytes.data()[i] >> 4];
    text += digits[bytes.data()[i] & 15];
  }
  return text;
}

std::vector<std::uint8_t> from_hex(std::string_view text) {
  auto value = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> bytes;
  bytes.reserve(text.size() / 2);
  int high = -1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    int digit = value(c);
    if (digit < 0)
      throw std::invalid_argument("from_hex: '" + std::string(1, c) + "' at position " + std::to_string(i) +
                                  " is not a hexadecimal digit");
    if (high < 0) {
      high = digit;
    } else {
      bytes.push_back(std::uint8_t(high << 4 | digit));
      high = -1;
    }
  }
  if (high >= 0)
    throw std::invalid_argument("from_hex: an odd number of hexadecimal digits (" +
                                std::to_string(2 * bytes.size() + 1) + "); each byte takes two");
  return bytes;
}

}  // namespace sprig::hash

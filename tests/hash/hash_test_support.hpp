// Shared helpers of the hash tests: random bytes, batches of messages packed into one
// uint32 buffer at deliberately unaligned byte offsets, and digests read back as bytes.
#pragma once

#include <openssl/sha.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "backends.hpp"
#include "sprig/stdlib/stdlib.hpp"

namespace hash_test {

using Bytes = std::vector<std::uint8_t>;

// Hex text and back: the library's own helpers (hex.hpp).
using sprig::hash::from_hex;
using sprig::hash::to_hex;

// The CPU oracle for SHA-256.
inline Bytes openssl_sha256(const Bytes& m) {
  Bytes d(32);
  SHA256(m.data(), m.size(), d.data());
  return d;
}

inline Bytes bytes_of(std::string_view text) { return Bytes(text.begin(), text.end()); }

inline Bytes random_bytes(std::size_t n, std::mt19937& rng) {
  Bytes b(n);
  for (auto& x : b) x = std::uint8_t(rng());
  return b;
}

// Messages packed into one byte string with 0..3 bytes of junk before each, so that they
// start at every alignment; spans name them.
struct PackedMessages {
  std::vector<std::uint32_t> words;
  std::vector<sprig::hash::ByteSpan> spans;
};

inline PackedMessages pack_messages(const std::vector<Bytes>& messages, std::uint32_t seed = 1) {
  std::mt19937 rng(seed);
  Bytes all;
  PackedMessages packed;
  for (const auto& m : messages) {
    std::size_t junk = rng() % 4;
    for (std::size_t i = 0; i < junk; ++i) all.push_back(std::uint8_t(rng()));
    packed.spans.push_back({std::uint32_t(all.size()), std::uint32_t(m.size())});
    all.insert(all.end(), m.begin(), m.end());
  }
  for (int i = 0; i < 5; ++i) all.push_back(0xa5);  // junk after the last message too
  packed.words = sprig::hash::pack_bytes(all);
  return packed;
}

// Sets SPRIG_HASH_ADDS (hash_adds.hpp) for its scope, so that the kernels traced in it add
// in that form whatever the device runs best; restores the variable after.
class ScopedHashAdds {
 public:
  explicit ScopedHashAdds(const char* form) {
    if (const char* old = std::getenv("SPRIG_HASH_ADDS")) old_ = old;
    setenv("SPRIG_HASH_ADDS", form, 1);
  }
  ~ScopedHashAdds() {
    if (old_) setenv("SPRIG_HASH_ADDS", old_->c_str(), 1);
    else unsetenv("SPRIG_HASH_ADDS");
  }
  ScopedHashAdds(const ScopedHashAdds&) = delete;
  ScopedHashAdds& operator=(const ScopedHashAdds&) = delete;

 private:
  std::optional<std::string> old_;
};

// Output i of `bytes_each` bytes from a buffer with `stride_words` words per output.
inline Bytes output_bytes(const std::vector<std::uint32_t>& words, std::size_t i, std::size_t stride_words,
                          std::size_t bytes_each) {
  return sprig::hash::unpack_bytes(std::span<const std::uint32_t>(words).subspan(i * stride_words), bytes_each);
}

}  // namespace hash_test

#include "sprig/stdlib/hash/chacha_keystream.hpp"

#include <stdexcept>
#include <string>

namespace sprig::hash {

namespace detail {

const ChachaKeystreamKernel& chacha_keystream_kernel(ChachaLayout layout, unsigned rounds, bool block_aligned) {
  std::string name = std::string("chacha") + std::to_string(rounds) +
                     (layout == ChachaLayout::Ietf ? "_ietf" : "_original") +
                     (block_aligned ? "_keystream" : "_keystream_shifted");
  auto trace = [=] {
    return kernel(
        name,
        [=](WriteBuffer<std::uint32_t> out, Expr<ChachaLaunch> p) {
          // Each invocation computes 16 consecutive output words; the workgroup stages them
          // in shared memory (rows padded to 17 words: no bank conflicts) and stores them
          // word-interleaved, so that neighbouring lanes write neighbouring words. Stores
          // straight from registers, 64 bytes apart per lane, reach a fraction of the write
          // bound (docs/benchmarks.md, "Hashing").
          auto staged = shared_array<std::uint32_t>(keystream_workgroup * 17, "chacha_staged");
          UInt g = global_id().x();
          UInt lane = local_index();
          UInt words = p[&ChachaLaunch::words];
          ChachaWords block = chacha_launch_block(p, layout, rounds, g);
          if (block_aligned) {
            for (std::uint32_t k = 0; k < 16; ++k) staged[lane * 17u + k] = block[k];
          } else {
            // Output word k is stream bytes shift + 4k.. of the 128-byte window of blocks
            // first + g and first + g + 1: a funnel shift of two window words.
            ChachaWords next = chacha_launch_block(p, layout, rounds, g + 1u);
            Var<std::array<std::uint32_t, 32>> window;
            for (std::uint32_t k = 0; k < 16; ++k) {
              window[k] = block[k];
              window[16 + k] = next[k];
            }
            UInt shift = p[&ChachaLaunch::byte_shift];
            UInt q = shift / 4u, r = (shift % 4u) * 8u;
            for (std::uint32_t k = 0; k < 16; ++k) {
              UInt lo = window[q + k], hi = window[q + k + 1u];
              staged[lane * 17u + k] = (lo >> r) | ((hi << 1u) << (31u - r));  // no shift by 32 when r == 0
            }
          }
          barrier();
          UInt first = (g - lane) * 16u;
          for (std::uint32_t k = 0; k < 16; ++k) {
            UInt i = lane + k * keystream_workgroup;  // word i of the workgroup's output
            UInt w = first + i;
            if_(w < words, [&] { out[w] = staged[(i / 16u) * 17u + i % 16u].load(); });
          }
        },
        workgroup(keystream_workgroup));
  };
  return sprig::detail::cached_kernel<ChachaKeystreamKernel>(name, trace);
}

}  // namespace detail

void chacha_keystream(Sequence& sequence, const ChachaStream& stream, std::uint64_t byte_offset, std::uint64_t length,
                      const DeviceBuffer<std::uint32_t>& out) {
  if (stream.rounds == 0 || stream.rounds % 2 != 0)
    throw std::invalid_argument("chacha_keystream: the round count must be even and positive");
  std::uint64_t words = (length + 3) / 4;
  if (out.size() < words) throw std::invalid_argument("chacha_keystream: the output buffer is too small");
  if (words >= (std::uint64_t(1) << 32) - 32)
    throw std::invalid_argument("chacha_keystream: more than 2^32 words in one call");
  if (length == 0) return;
  std::uint64_t first_block = byte_offset / 64;
  std::uint64_t last_block = (byte_offset + words * 4 - 1) / 64 + 1;
  if (stream.layout == ChachaLayout::Ietf && last_block >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("chacha_keystream: beyond the IETF layout's 2^32 blocks");
  detail::ChachaLaunch p{stream.key,
                         {stream.nonce[0], stream.nonce[1], stream.nonce[2], 0},
                         std::uint32_t(first_block),
                         std::uint32_t(first_block >> 32),
                         std::uint32_t(byte_offset % 64),
                         std::uint32_t(words)};
  bool aligned = byte_offset % 64 == 0;
  sequence.run(detail::chacha_keystream_kernel(stream.layout, stream.rounds, aligned), grid((words + 15) / 16), out, p);
}

void chacha_keystream(Device& device, const ChachaStream& stream, std::uint64_t byte_offset, std::uint64_t length,
                      const DeviceBuffer<std::uint32_t>& out) {
  auto sequence = device.sequence();
  chacha_keystream(sequence, stream, byte_offset, length, out);
  sequence.run_and_wait();
}

}  // namespace sprig::hash

#include "sprig/stdlib/hash/blake3_fixed.hpp"

#include <stdexcept>
#include <utility>

namespace sprig::hash {

namespace detail {

const Blake3FixedSmallKernel& blake3_fixed_small_kernel(bool aligned) {
  std::string name = std::string("blake3_fixed_small") + (aligned ? "" : "_unaligned");
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> out,
            UInt message_bytes, UInt count, UInt mode_flags, UInt out_words) {
          UInt i = global_id().x();
          if_(i < count, [&] {
            Blake3Root root = blake3_message(buffer_bytes(data, i * message_bytes, aligned), message_bytes,
                                             blake3_key_of(key), mode_flags);
            blake3_store_output(out, i, out_words, root);
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<Blake3FixedSmallKernel>(name, trace);
}

const Blake3ChunkCvKernel& blake3_chunk_cv_kernel(bool aligned) {
  std::string name = std::string("blake3_chunk_cvs") + (aligned ? "" : "_unaligned");
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> cvs,
            UInt message_bytes, UInt chunks, UInt total_chunks, UInt mode_flags) {
          using namespace blake3_flags;
          UInt g = global_id().x();
          if_(g < total_chunks, [&] {
            UInt i = g / chunks, c = g % chunks;
            UInt begin = c * blake3_chunk_bytes;
            UInt length = min(message_bytes - begin, UInt(blake3_chunk_bytes));
            UInt blocks = (length + 63u) / 64u;
            auto source = buffer_bytes(data, i * message_bytes + begin, aligned);
            WordVars<8> cv(blake3_key_of(key));
            for_(0u, blocks, [&](UInt b) {
              UInt block_len = min(length - b * 64u, 64u);
              Blake3Block m = zero_words<16>();
              for (std::uint32_t j = 0; j < 16; ++j) {
                UInt p = b * 64u + j * 4u;
                m[j] = keep_low_bytes(source(p), bytes_before(length, p));
              }
              UInt flags = mode_flags | select(b == 0u, UInt(chunk_start), UInt(0u)) |
                           select(b + 1u == blocks, UInt(chunk_end), UInt(0u));
              cv.store(blake3_chaining_value(blake3_compress(cv.load(), m, c, 0u, block_len, flags)));
            });
            for (std::uint32_t k = 0; k < 8; ++k) cvs[g * 8u + k] = cv[k];
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<Blake3ChunkCvKernel>(name, trace);
}

const Blake3TreeLevelKernel& blake3_tree_level_kernel() {
  std::string name = "blake3_tree_level";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> below, ReadBuffer<std::uint32_t> key, WriteBuffer<std::uint32_t> above,
            WriteBuffer<std::uint32_t> out, UInt nodes, UInt count, UInt mode_flags, UInt out_words) {
          UInt parents = (nodes + 1u) / 2u;
          UInt g = global_id().x();
          if_(g < count * parents, [&] {
            UInt i = g / parents, j = g % parents;
            UInt left = (i * nodes + 2u * j) * 8u;
            if_(2u * j + 1u == nodes, [&] {
              for (std::uint32_t k = 0; k < 8; ++k) above[g * 8u + k] = below[left + k].load();
            }).else_([&] {
              Blake3Block m = zero_words<16>();
              for (std::uint32_t k = 0; k < 16; ++k) m[k] = below[left + k];
              Blake3Root node{blake3_key_of(key), m, UInt(blake3_block_bytes), mode_flags | blake3_flags::parent};
              if_(nodes == 2u, [&] { blake3_store_output(out, i, out_words, node); }).else_([&] {
                Blake3Words cv =
                    blake3_chaining_value(blake3_compress(node.cv, node.block, 0u, 0u, node.block_len, node.flags));
                for (std::uint32_t k = 0; k < 8; ++k) above[g * 8u + k] = cv[k];
              });
            });
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<Blake3TreeLevelKernel>(name, trace);
}

}  // namespace detail

namespace {

void blake3_fixed_launch(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                         std::uint32_t message_bytes, std::size_t count, const DeviceBuffer<std::uint32_t>& key,
                         const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes, std::uint32_t mode_flags) {
  if (out_bytes == 0) throw std::invalid_argument("blake3_fixed: the output length must be positive");
  const std::uint32_t out_words = (out_bytes + 3) / 4;
  if (std::uint64_t(message_bytes) * count > std::uint64_t(data.size()) * 4)
    throw std::invalid_argument("blake3_fixed: the data buffer holds fewer than count * message_bytes bytes");
  if (std::uint64_t(message_bytes) * count >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("blake3_fixed: messages beyond 4 GiB of bytes");
  if (out.size() < std::size_t(out_words) * count)
    throw std::invalid_argument("blake3_fixed: the output buffer is too small");
  if (count == 0) return;
  const bool aligned = message_bytes % 4 == 0;
  const auto n = std::uint32_t(count);
  if (message_bytes <= blake3_chunk_bytes) {
    sequence.run(detail::blake3_fixed_small_kernel(aligned), grid(count), data, key, out, message_bytes, n, mode_flags,
                 out_words);
    return;
  }
  const std::uint32_t chunks = (message_bytes + blake3_chunk_bytes - 1) / blake3_chunk_bytes;
  const std::uint64_t total_chunks = std::uint64_t(chunks) * count;
  if (total_chunks * 8 >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("blake3_fixed: more than 2^29 chunks in one call");
  // The tree's levels alternate between two transients: their memory is the sequence's
  // again once the roots are written.
  auto below = sequence.transient<std::uint32_t>(total_chunks * 8, "blake3 tree level");
  auto above = sequence.transient<std::uint32_t>(std::size_t((chunks + 1) / 2) * count * 8, "blake3 tree level above");
  sequence.run(detail::blake3_chunk_cv_kernel(aligned), grid(total_chunks), data, key, below, message_bytes, chunks,
               std::uint32_t(total_chunks), mode_flags);
  for (std::uint32_t nodes = chunks; nodes >= 2; nodes = (nodes + 1) / 2) {
    const std::size_t parents = std::size_t((nodes + 1) / 2) * count;
    sequence.run(detail::blake3_tree_level_kernel(), grid(parents), below, key, above, out, nodes, n, mode_flags,
                 out_words);
    if (nodes == 2) break;
    std::swap(below, above);
  }
}

}  // namespace

void blake3_fixed(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                  std::uint32_t message_bytes, std::size_t count, const DeviceBuffer<std::uint32_t>& out,
                  std::uint32_t out_bytes) {
  blake3_fixed_launch(sequence, data, message_bytes, count, device.upload(detail::blake3_iv_words()), out,
                      out_bytes, 0);
}

void blake3_keyed_fixed(Device& device, Sequence& sequence, const std::array<std::uint32_t, 8>& key,
                        const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes, std::size_t count,
                        const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  auto key_buffer = device.upload(std::vector<std::uint32_t>(key.begin(), key.end()));
  blake3_fixed_launch(sequence, data, message_bytes, count, key_buffer, out, out_bytes,
                      blake3_flags::keyed_hash);
}

void blake3_derive_key_fixed(Device& device, Sequence& sequence, std::string_view context,
                             const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes, std::size_t count,
                             const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  blake3_fixed_launch(sequence, data, message_bytes, count, detail::blake3_context_key(device, sequence, context),
                      out, out_bytes, blake3_flags::derive_key_material);
}

void blake3_fixed(Device& device, const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  auto sequence = device.sequence();
  blake3_fixed(device, sequence, data, message_bytes, count, out, out_bytes);
  sequence.run_and_wait();
}

}  // namespace sprig::hash

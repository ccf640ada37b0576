#include "sprig/stdlib/hash/blake3_batch.hpp"

#include <stdexcept>

namespace sprig::hash {

namespace detail {

const Blake3SpansKernel& blake3_kernel(HashAddForm adds) {
  std::string name = "blake3_spans";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> spans, ReadBuffer<std::uint32_t> key,
           WriteBuffer<std::uint32_t> out, UInt mode_flags, UInt out_words) {
          UInt i = global_id().x();
          HashAdder add(adds);
          if_(i < spans.size(), [&] {
            Expr<ByteSpan> span = spans[i];
            Blake3Root root = blake3_message(buffer_bytes(data, span[&ByteSpan::offset]), span[&ByteSpan::length],
                                             blake3_key_of(key), mode_flags, add);
            blake3_store_output(out, i, out_words, root, add);
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<Blake3SpansKernel>(name + adds.key(), trace);
}

void blake3_launch(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                   const DeviceBuffer<std::uint32_t>& key, const DeviceBuffer<std::uint32_t>& out,
                   std::uint32_t out_bytes, std::uint32_t mode_flags) {
  if (out_bytes == 0) throw std::invalid_argument("blake3: the output length must be positive");
  std::uint32_t out_words = (out_bytes + 3) / 4;
  if (out.size() < std::size_t(out_words) * spans.size())
    throw std::invalid_argument("blake3: the output buffer is too small");
  if (spans.size() == 0) return;
  sequence.run(blake3_kernel(hash_add_form(sequence.info())), grid(spans.size()), data, spans, key, out, mode_flags, out_words);
}

std::vector<std::uint32_t> blake3_iv_words() { return {sha256_initial_words.begin(), sha256_initial_words.end()}; }

}  // namespace detail

void blake3(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
            const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  detail::blake3_launch(sequence, data, spans, device.upload(detail::blake3_iv_words()), out, out_bytes, 0);
}

void blake3_keyed(Device& device, Sequence& sequence, const std::array<std::uint32_t, 8>& key,
                  const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                  const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  auto key_buffer = device.upload(std::vector<std::uint32_t>(key.begin(), key.end()));
  detail::blake3_launch(sequence, data, spans, key_buffer, out, out_bytes, blake3_flags::keyed_hash);
}

void blake3_derive_key(Device& device, Sequence& sequence, std::string_view context,
                       const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                       const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  detail::blake3_launch(sequence, data, spans, detail::blake3_context_key(device, sequence, context), out, out_bytes,
                        blake3_flags::derive_key_material);
}

namespace detail {

DeviceBuffer<std::uint32_t> blake3_context_key(Device& device, Sequence& sequence, std::string_view context) {
  auto context_data = device.upload(pack_bytes(context));
  auto context_span = device.upload(std::vector<ByteSpan>{{0, std::uint32_t(context.size())}});
  auto context_key = device.alloc<std::uint32_t>(8);
  blake3_launch(sequence, context_data, context_span, device.upload(blake3_iv_words()), context_key, 32,
                blake3_flags::derive_key_context);
  return context_key;
}

}  // namespace detail

void blake3(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
            const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes) {
  auto sequence = device.sequence();
  blake3(device, sequence, data, spans, out, out_bytes);
  sequence.run_and_wait();
}
void blake3_keyed(Device& device, const std::array<std::uint32_t, 8>& key, const DeviceBuffer<std::uint32_t>& data,
                  const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out,
                  std::uint32_t out_bytes) {
  auto sequence = device.sequence();
  blake3_keyed(device, sequence, key, data, spans, out, out_bytes);
  sequence.run_and_wait();
}
void blake3_derive_key(Device& device, std::string_view context, const DeviceBuffer<std::uint32_t>& data,
                       const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out,
                       std::uint32_t out_bytes) {
  auto sequence = device.sequence();
  blake3_derive_key(device, sequence, context, data, spans, out, out_bytes);
  sequence.run_and_wait();
}

}  // namespace sprig::hash

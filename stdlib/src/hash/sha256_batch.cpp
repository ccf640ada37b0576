#include "sprig/stdlib/hash/sha256_batch.hpp"

#include <stdexcept>
#include <string>

namespace sprig::hash {

namespace detail {

const Sha256FixedKernel& sha256_fixed_kernel(std::uint32_t message_bytes, bool twice, HashAddForm adds) {
  std::string name = std::string(twice ? "double_sha256" : "sha256") + "_fixed<" + std::to_string(message_bytes) + ">";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> messages, WriteBuffer<std::uint32_t> digests, UInt count) {
          UInt i = global_id().x();
          HashAdder add(adds);
          if_(i < count, [&] {
            auto source = buffer_bytes(messages, i * message_bytes, message_bytes % 4 == 0);
            Sha256State state = sha256_message(source, message_bytes, 0, sha256_initial_state(), add);
            if (twice) state = sha256_of_digest(state, 0, sha256_initial_state(), add);
            store_words(digests, i * 8u, sha256_digest_words(state));
          });
        },
        workgroup(hash_workgroup));
  };
  return sprig::detail::cached_kernel<Sha256FixedKernel>(name + adds.key(), trace);
}

const Sha256SpansKernel& sha256_spans_kernel(bool twice) {
  std::string name = twice ? "double_sha256_spans" : "sha256_spans";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> spans, WriteBuffer<std::uint32_t> digests) {
          UInt i = global_id().x();
          if_(i < spans.size(), [&] {
            Expr<ByteSpan> span = spans[i];
            Sha256State state = sha256_message(buffer_bytes(data, span[&ByteSpan::offset]), span[&ByteSpan::length]);
            if (twice) state = sha256_of_digest(state);
            store_words(digests, i * 8u, sha256_digest_words(state));
          });
        },
        workgroup(hash_workgroup));
  };
  return sprig::detail::cached_kernel<Sha256SpansKernel>(name, trace);
}

}  // namespace detail

namespace {

void check_fixed_batch(const char* what, std::size_t buffer_words, std::uint32_t message_bytes, std::size_t count,
                       std::size_t out_words, std::size_t out_per_message) {
  if (std::uint64_t(message_bytes) * count > std::uint64_t(buffer_words) * 4)
    throw std::invalid_argument(std::string(what) +
                                ": the message buffer holds fewer than count * message_bytes bytes");
  if (std::uint64_t(message_bytes) * count >= (std::uint64_t(1) << 32))
    throw std::invalid_argument(std::string(what) + ": messages beyond 4 GiB of bytes");
  if (out_words < count * out_per_message)
    throw std::invalid_argument(std::string(what) + ": the output buffer is too small");
}

void record_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& digests, bool twice) {
  check_fixed_batch("sha256_fixed", messages.size(), message_bytes, count, digests.size(), 8);
  if (count == 0) return;
  sequence.run(detail::sha256_fixed_kernel(message_bytes, twice, hash_add_form(sequence.info())), grid(count), messages,
               digests, std::uint32_t(count));
}

void record_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                  const DeviceBuffer<std::uint32_t>& digests, bool twice) {
  if (digests.size() < spans.size() * 8) throw std::invalid_argument("sha256_spans: the digest buffer is too small");
  if (spans.size() == 0) return;
  sequence.run(detail::sha256_spans_kernel(twice), grid(spans.size()), data, spans, digests);
}

}  // namespace

void sha256_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& digests) {
  record_fixed(sequence, messages, message_bytes, count, digests, false);
}
void double_sha256_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                         std::size_t count, const DeviceBuffer<std::uint32_t>& digests) {
  record_fixed(sequence, messages, message_bytes, count, digests, true);
}

void sha256_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                  const DeviceBuffer<std::uint32_t>& digests) {
  record_spans(sequence, data, spans, digests, false);
}
void double_sha256_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                         const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& digests) {
  record_spans(sequence, data, spans, digests, true);
}

void sha256_fixed(Device& device, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  sha256_fixed(sequence, messages, message_bytes, count, digests);
  sequence.run_and_wait();
}
void double_sha256_fixed(Device& device, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                         std::size_t count, const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  double_sha256_fixed(sequence, messages, message_bytes, count, digests);
  sequence.run_and_wait();
}
void sha256_spans(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                  const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  sha256_spans(sequence, data, spans, digests);
  sequence.run_and_wait();
}
void double_sha256_spans(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                         const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  double_sha256_spans(sequence, data, spans, digests);
  sequence.run_and_wait();
}

}  // namespace sprig::hash

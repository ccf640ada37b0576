#include "sprig/stdlib/hash/hmac_pbkdf2_batch.hpp"

#include <algorithm>
#include <stdexcept>

namespace sprig::hash {

namespace detail {

const HmacSha256Kernel& hmac_sha256_kernel() {
  std::string name = "hmac_sha256_spans";
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> keys, ReadBuffer<ByteSpan> messages,
           WriteBuffer<std::uint32_t> macs) {
          UInt i = global_id().x();
          if_(i < messages.size(), [&] {
            Expr<ByteSpan> key = keys[i], message = messages[i];
            HmacSha256Key states = hmac_sha256_key(buffer_bytes(data, key[&ByteSpan::offset]), key[&ByteSpan::length]);
            Sha256State mac =
                hmac_sha256(states, buffer_bytes(data, message[&ByteSpan::offset]), message[&ByteSpan::length]);
            store_words(macs, i * 8u, sha256_digest_words(mac));
          });
        },
        workgroup(hash_workgroup));
  };
  return sprig::detail::cached_kernel<HmacSha256Kernel>(name, trace);
}

const Pbkdf2HmacSha256Kernel& pbkdf2_hmac_sha256_kernel() {
  std::string name = "pbkdf2_hmac_sha256_spans";
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> passwords, ReadBuffer<ByteSpan> salts,
           Buffer<std::uint32_t> running, WriteBuffer<std::uint32_t> out, UInt count, UInt first, UInt last,
           UInt out_words, UInt blocks) {
          UInt g = global_id().x();
          UInt i = g / blocks, block = g % blocks;
          if_(i < passwords.size(), [&] {
            Expr<ByteSpan> password = passwords[i];
            HmacSha256Key key =
                hmac_sha256_key(buffer_bytes(data, password[&ByteSpan::offset]), password[&ByteSpan::length]);
            WordVars<8> u(zero_words<8>()), t(zero_words<8>());
            Var<std::uint32_t> remaining = count;
            if_(first != 0u, [&] {
              Expr<ByteSpan> salt = salts[i];
              Sha256State u1 = pbkdf2_hmac_sha256_first(key, buffer_bytes(data, salt[&ByteSpan::offset]),
                                                        salt[&ByteSpan::length], block + 1u);
              u.store(u1);
              t.store(u1);
              remaining = count - 1u;
            }).else_([&] {
              for (std::uint32_t j = 0; j < 8; ++j) {
                u[j] = running[g * 16u + j];
                t[j] = running[g * 16u + 8u + j];
              }
            });
            pbkdf2_hmac_sha256_iterate(key, u, t, remaining);
            if_(last != 0u, [&] {
              Sha256State words = sha256_digest_words(t.load());
              for (std::uint32_t j = 0; j < 8; ++j) {
                UInt word = block * 8u + j;
                if_(word < out_words, [&] { out[i * out_words + word] = words[j]; });
              }
            }).else_([&] {
              for (std::uint32_t j = 0; j < 8; ++j) {
                running[g * 16u + j] = u[j];
                running[g * 16u + 8u + j] = t[j];
              }
            });
          });
        },
        workgroup(hash_workgroup));
  };
  return sprig::detail::cached_kernel<Pbkdf2HmacSha256Kernel>(name, trace);
}

}  // namespace detail

void hmac_sha256(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& key_spans,
                 const DeviceBuffer<ByteSpan>& message_spans, const DeviceBuffer<std::uint32_t>& macs) {
  if (key_spans.size() != message_spans.size())
    throw std::invalid_argument("hmac_sha256: one key span per message span");
  if (macs.size() < 8 * message_spans.size()) throw std::invalid_argument("hmac_sha256: the MAC buffer is too small");
  if (message_spans.size() == 0) return;
  sequence.run(detail::hmac_sha256_kernel(), grid(message_spans.size()), data, key_spans, message_spans, macs);
}

void pbkdf2_hmac_sha256(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                        const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
                        std::uint32_t iterations, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out) {
  if (password_spans.size() != salt_spans.size())
    throw std::invalid_argument("pbkdf2_hmac_sha256: one salt span per password span");
  if (iterations == 0 || dk_bytes == 0)
    throw std::invalid_argument("pbkdf2_hmac_sha256: iterations and the output length must be positive");
  std::uint32_t out_words = (dk_bytes + 3) / 4, blocks = (dk_bytes + 31) / 32;
  if (out.size() < std::size_t(out_words) * password_spans.size())
    throw std::invalid_argument("pbkdf2_hmac_sha256: the output buffer is too small");
  if (password_spans.size() == 0) return;
  std::size_t invocations = password_spans.size() * blocks;
  auto running = device.alloc<std::uint32_t>(16 * invocations);
  for (std::uint32_t done = 0; done < iterations;) {
    std::uint32_t count = std::min(iterations - done, detail::pbkdf2_iterations_per_launch);
    std::uint32_t first = done == 0, last = done + count == iterations;
    sequence.run(detail::pbkdf2_hmac_sha256_kernel(), grid(invocations), data, password_spans, salt_spans, running, out,
                 count, first, last, out_words, blocks);
    done += count;
  }
}

void hmac_sha256(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& key_spans,
                 const DeviceBuffer<ByteSpan>& message_spans, const DeviceBuffer<std::uint32_t>& macs) {
  auto sequence = device.sequence();
  hmac_sha256(sequence, data, key_spans, message_spans, macs);
  sequence.run_and_wait();
}
void pbkdf2_hmac_sha256(Device& device, const DeviceBuffer<std::uint32_t>& data,
                        const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
                        std::uint32_t iterations, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out) {
  auto sequence = device.sequence();
  pbkdf2_hmac_sha256(device, sequence, data, password_spans, salt_spans, iterations, dk_bytes, out);
  sequence.run_and_wait();
}

}  // namespace sprig::hash

#include "sprig/stdlib/hash/scrypt_batch.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace sprig::hash {

namespace detail {

const ScryptExpandKernel& scrypt_expand_kernel(ScryptLayout layout) {
  std::string name = std::string("scrypt_expand_") + scrypt_layout_name(layout);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> passwords, ReadBuffer<ByteSpan> salts,
            WriteBuffer<std::uint32_t> v, UInt r, UInt n, UInt p, UInt lanes, UInt first_hash) {
          UInt lane = global_id().x();
          if_(lane < lanes, [&] {
            UInt hash = first_hash + lane / p;
            Expr<ByteSpan> password = passwords[hash], salt = salts[hash];
            HmacSha256Key key =
                hmac_sha256_key(buffer_bytes(data, password[&ByteSpan::offset]), password[&ByteSpan::length]);
            ScryptScratchIndex v_at{layout, r * 32u, n, lanes};
            scrypt_expand_lane(v, v_at, lane, key, buffer_bytes(data, salt[&ByteSpan::offset]), salt[&ByteSpan::length],
                               r, lane % p);
          });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<ScryptExpandKernel>(name, trace);
}

const ScryptFinishKernel& scrypt_finish_kernel(ScryptLayout layout) {
  std::string name = std::string("scrypt_finish_") + scrypt_layout_name(layout);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> passwords, ReadBuffer<std::uint32_t> x,
            WriteBuffer<std::uint32_t> out, UInt r, UInt p, UInt hashes, UInt first_hash, UInt out_words, UInt blocks) {
          UInt g = global_id().x();
          UInt hash = g / blocks, block = g % blocks;
          if_(hash < hashes, [&] {
            Expr<ByteSpan> password = passwords[first_hash + hash];
            HmacSha256Key key =
                hmac_sha256_key(buffer_bytes(data, password[&ByteSpan::offset]), password[&ByteSpan::length]);
            ScryptScratchIndex x_at{layout, r * 32u, UInt(2u), hashes * p};
            Sha256State words = scrypt_finish_block(x, x_at, key, hash, r, p, block);
            for (std::uint32_t j = 0; j < 8; ++j) {
              UInt word = block * 8u + j;
              if_(word < out_words, [&] { out[(first_hash + hash) * out_words + word] = words[j]; });
            }
          });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<ScryptFinishKernel>(name, trace);
}

void check_scrypt_pbkdf2_loops(const char* what, const DeviceInfo& info, const ScryptParams& params) {
  if (scrypt_loops_capped(info) && 2ull * params.r * params.p + 2 > scrypt_loop_budget)
    throw std::invalid_argument(std::string(what) + ": r * p = " + std::to_string(std::uint64_t(params.r) * params.p) +
                                " is too large for " + info.name + ", which cuts loops of an invocation short");
}

}  // namespace detail

void scrypt(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
            const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
            const ScryptParams& params, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out,
            const ScryptOptions& options) {
  const char* what = "scrypt";
  detail::check_scrypt_params(what, params);
  if (password_spans.size() != salt_spans.size())
    throw std::invalid_argument("scrypt: one salt span per password span");
  if (dk_bytes == 0) throw std::invalid_argument("scrypt: the output length must be positive");
  std::uint32_t out_words = (dk_bytes + 3) / 4, blocks = (dk_bytes + 31) / 32;
  if (out.size() < std::size_t(out_words) * password_spans.size())
    throw std::invalid_argument("scrypt: the output buffer is too small");
  const DeviceInfo& info = device.info();
  if (options.cooperative) detail::check_scrypt_cooperative(what, info);
  detail::check_scrypt_pbkdf2_loops(what, info, params);
  std::size_t count = password_spans.size();
  if (count == 0) return;
  detail::ScryptRounds rounds =
      detail::scrypt_rounds(what, info, params, count, options.cooperative ? 4 : 1, options.scratch_bytes);
  std::vector<detail::ScryptScratch> sets = detail::scrypt_scratch(device, params, rounds);
  for (std::size_t first = 0; first < count; first += rounds.per_set * rounds.sets) {
    // Each set's round packs its lanes (the scratch index uses the round's lane count).
    auto hashes_of = [&](std::size_t k) {
      std::size_t start = std::min(count, first + k * rounds.per_set);
      return std::uint32_t(std::min(rounds.per_set, count - start));
    };
    for (std::size_t k = 0; k < sets.size(); ++k) {
      sets[k].lanes = hashes_of(k) * params.p;
      if (sets[k].lanes == 0) continue;
      sequence.run(detail::scrypt_expand_kernel(options.layout), grid(sets[k].lanes), data, password_spans, salt_spans,
                   detail::scrypt_expand_target(params, sets[k]), params.r, detail::scrypt_expand_blocks(params),
                   params.p, sets[k].lanes, std::uint32_t(first + k * rounds.per_set));
    }
    detail::scrypt_romix(sequence, info, params, options, sets);
    for (std::size_t k = 0; k < sets.size(); ++k) {
      std::uint32_t hashes = hashes_of(k);
      if (hashes == 0) continue;
      sequence.run(detail::scrypt_finish_kernel(options.layout), grid(std::uint64_t(hashes) * blocks), data,
                   password_spans, sets[k].x, out, params.r, params.p, hashes,
                   std::uint32_t(first + k * rounds.per_set), out_words, blocks);
    }
  }
}

void scrypt(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& password_spans,
            const DeviceBuffer<ByteSpan>& salt_spans, const ScryptParams& params, std::uint32_t dk_bytes,
            const DeviceBuffer<std::uint32_t>& out, const ScryptOptions& options) {
  auto sequence = device.sequence();
  scrypt(device, sequence, data, password_spans, salt_spans, params, dk_bytes, out, options);
  sequence.run_and_wait();
}

}  // namespace sprig::hash

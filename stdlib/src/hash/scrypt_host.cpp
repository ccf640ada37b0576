#include "sprig/stdlib/hash/scrypt_host.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "host_pieces.hpp"
#include "sprig/stdlib/hash/scrypt_plan.hpp"

namespace sprig::hash {

namespace {

// Loop back-edges of the expansion and finish kernels for one pair, on devices that count
// them (each loop's exit counts one too): HMAC's key (hashed first when longer than a
// block), then 4r PBKDF2 blocks over the salt, and PBKDF2 over the 128 r p mixed bytes.
void check_scrypt_lengths(const char* what, const DeviceInfo& info, const ScryptParams& params, std::size_t index,
                          std::uint64_t password_bytes, std::uint64_t salt_bytes) {
  std::uint64_t budget = detail::loop_budget(info);
  std::uint64_t key = password_bytes > 64 ? (password_bytes + 8) / 64 + 2 : 0;
  std::uint64_t salt_blocks = (salt_bytes + 4 + 8) / 64 + 1;
  std::uint64_t expand = key + 4ull * params.r * (salt_blocks + 2) + 1;
  std::uint64_t finish = key + (128ull * params.r * params.p + 12) / 64 + 2;
  if (expand > budget || finish > budget)
    throw std::invalid_argument(std::string(what) + ": pair " + std::to_string(index) + " (a password of " +
                                std::to_string(password_bytes) + " bytes, a salt of " + std::to_string(salt_bytes) +
                                " bytes, r = " + std::to_string(params.r) + ", p = " + std::to_string(params.p) +
                                ") takes more loop iterations than one invocation of " + info.name +
                                " runs: the driver cuts long loops short");
}

// The checks of a call that need no device.
void check_scrypt_call(const char* what, std::size_t passwords, std::size_t salts, const ScryptParams& params,
                       std::uint32_t dk_bytes) {
  detail::check_scrypt_params(what, params);
  if (passwords != salts)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(passwords) + " passwords but " +
                                std::to_string(salts) + " salts; each password needs its salt");
  if (dk_bytes == 0) throw std::invalid_argument(std::string(what) + ": the output length must be positive");
}

void check_scrypt_pair(const char* what, const DeviceInfo& info, const ScryptParams& params, std::size_t index,
                       std::uint64_t password_bytes, std::uint64_t salt_bytes) {
  check_scrypt_lengths(what, info, params, index, password_bytes, salt_bytes);
  detail::check_piece_fits(what, info, password_bytes + salt_bytes);
}

std::vector<std::vector<std::uint8_t>> scrypt_views(const char* what, Device& device,
                                                    std::span<const ByteView> passwords,
                                                    std::span<const ByteView> salts, const ScryptParams& params,
                                                    std::uint32_t dk_bytes, const ScryptOptions& options) {
  const DeviceInfo& info = device.info();
  check_scrypt_call(what, passwords.size(), salts.size(), params, dk_bytes);
  const std::size_t count = passwords.size();
  // Passwords and salts go in one data buffer, interleaved: password i, then salt i.
  std::vector<ByteView> both;
  both.reserve(2 * count);
  for (std::size_t i = 0; i < count; ++i) {
    check_scrypt_pair(what, info, params, i, passwords[i].size(), salts[i].size());
    both.push_back(passwords[i]);
    both.push_back(salts[i]);
  }
  const std::uint32_t out_words = (dk_bytes + 3) / 4;
  // Each pair takes two spans (16 bytes) and out_words words of output.
  std::uint64_t max_pairs = detail::piece_bytes(info) / std::max<std::uint64_t>(16, 4ull * out_words);
  std::vector<std::vector<std::uint8_t>> keys(count);
  std::size_t first = 0;
  while (first < count) {
    // Whole pairs only: a piece ends where the bytes of the next pair would not fit.
    std::size_t n = 0;
    std::uint64_t bytes = 0;
    while (first + n < count && n < max_pairs) {
      std::uint64_t pair = std::uint64_t(passwords[first + n].size()) + salts[first + n].size();
      if (n > 0 && bytes + pair > detail::piece_bytes(info)) break;
      bytes += pair;
      ++n;
    }
    detail::PackedViews packed = detail::pack_views(std::span(both).subspan(2 * first, 2 * n));
    std::vector<ByteSpan> password_spans(n), salt_spans(n);
    for (std::size_t k = 0; k < n; ++k) {
      password_spans[k] = packed.spans[2 * k];
      salt_spans[k] = packed.spans[2 * k + 1];
    }
    auto out = device.alloc<std::uint32_t>(std::size_t(out_words) * n);
    scrypt(device, device.upload(packed.words), device.upload(password_spans), device.upload(salt_spans), params,
           dk_bytes, out, options);
    std::vector<std::uint32_t> words = device.download(out);
    for (std::size_t k = 0; k < n; ++k) {
      keys[first + k].resize(dk_bytes);
      detail::host_bytes(std::span(words).subspan(k * out_words), keys[first + k].data(), dk_bytes);
    }
    first += n;
  }
  return keys;
}

}  // namespace

std::vector<std::vector<std::uint8_t>> scrypt_batch(Device& device, const ByteViews& passwords, const ByteViews& salts,
                                                    const ScryptParams& params, std::uint32_t dk_bytes,
                                                    const ScryptOptions& options) {
  return scrypt_views("scrypt_batch", device, passwords.views(), salts.views(), params, dk_bytes, options);
}

std::vector<std::vector<std::uint8_t>> scrypt_batch(std::span<Device* const> devices, const ByteViews& passwords,
                                                    const ByteViews& salts, const ScryptParams& params,
                                                    std::uint32_t dk_bytes, const ScryptOptions& options,
                                                    const BatchSplit& split) {
  const char* what = "scrypt_batch";
  detail::check_device_list(what, devices);
  if (devices.size() == 1) return scrypt_batch(*devices[0], passwords, salts, params, dk_bytes, options);
  check_scrypt_call(what, passwords.size(), salts.size(), params, dk_bytes);
  const std::size_t count = passwords.size();
  if (count == 0) return {};
  // Every device must take every pair, and the parameters (scrypt_plan refuses what a call
  // would); its plan gives the device's wave.
  std::vector<std::size_t> items(devices.size(), split.items);
  const std::size_t share = (count + 2 * devices.size() - 1) / (2 * devices.size());
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const DeviceInfo& info = devices[d]->info();
    for (std::size_t i = 0; i < count; ++i)
      check_scrypt_pair(what, info, params, i, passwords[i].size(), salts[i].size());
    detail::check_scrypt_pbkdf2_loops(what, info, params);
    ScryptPlan plan = scrypt_plan(info, params, count, options);
    if (split.items == 0) items[d] = std::min(share, detail::scrypt_waves_per_batch * plan.per_set * plan.sets);
  }
  std::span<const ByteView> password_views = passwords.views(), salt_views = salts.views();
  return detail::batches_on_devices<std::vector<std::uint8_t>>(
      what, devices, count, detail::batches_of_items(std::move(items)),
      [&](Device& device, std::size_t first, std::size_t end) {
        return scrypt_views(what, device, password_views.subspan(first, end - first),
                            salt_views.subspan(first, end - first), params, dk_bytes, options);
      });
}

std::vector<std::uint8_t> scrypt(Device& device, ByteView password, ByteView salt, const ScryptParams& params,
                                 std::uint32_t dk_bytes, const ScryptOptions& options) {
  return scrypt_views("scrypt", device, std::span(&password, 1), std::span(&salt, 1), params, dk_bytes, options)
      .front();
}

}  // namespace sprig::hash

#include "sprig/stdlib/hash/scrypt_params.hpp"

namespace sprig::hash {

const char* scrypt_layout_name(ScryptLayout layout) {
  return layout == ScryptLayout::Contiguous ? "contiguous" : "interleaved";
}

namespace detail {

bool scrypt_loops_capped(const DeviceInfo& info) { return info.quirks.has(Quirk::LoopBackEdgeCap); }

void check_scrypt_params(const char* what, const ScryptParams& params) {
  std::string name(what);
  if (params.N < 2 || (params.N & (params.N - 1)) != 0)
    throw std::invalid_argument(name + ": N must be a power of two greater than 1, not " + std::to_string(params.N));
  if (params.r == 0) throw std::invalid_argument(name + ": r must be at least 1");
  if (params.p == 0) throw std::invalid_argument(name + ": p must be at least 1");
  if (16ull * params.r < 64 && std::uint64_t(params.N) >= (std::uint64_t(1) << (16 * params.r)))
    throw std::invalid_argument(name + ": N must be below 2^(16 r) (RFC 7914), and N = " + std::to_string(params.N) +
                                " is not for r = " + std::to_string(params.r));
  if (std::uint64_t(params.r) * params.p >= (std::uint64_t(1) << 30))
    throw std::invalid_argument(name + ": r * p must be below 2^30 (RFC 7914)");
}

std::uint64_t scrypt_v_bytes_per_hash(const ScryptParams& params) { return 128ull * params.r * params.N * params.p; }

std::uint64_t scrypt_scratch_limit(const DeviceInfo& info) {
  return std::min<std::uint64_t>(info.max_buffer_bytes, std::uint64_t(3) << 30);
}

std::size_t scrypt_hashes_per_round(const char* what, const DeviceInfo& info, const ScryptParams& params,
                                    std::size_t wanted, std::uint32_t invocations_per_lane) {
  std::uint64_t need = scrypt_v_bytes_per_hash(params), limit = scrypt_scratch_limit(info);
  if (need > limit)
    throw std::invalid_argument(std::string(what) + ": one hash with N = " + std::to_string(params.N) +
                                ", r = " + std::to_string(params.r) + ", p = " + std::to_string(params.p) + " needs " +
                                std::to_string(need) + " bytes of scratch memory (128 r N p), more than the " +
                                std::to_string(limit) + " bytes one buffer of " + info.name + " may hold");
  std::uint64_t by_memory = limit / need;
  std::uint64_t by_grid =
      std::uint64_t(info.max_workgroup_count[0]) * scrypt_workgroup / invocations_per_lane / params.p;
  return std::size_t(std::max<std::uint64_t>(1, std::min<std::uint64_t>({by_memory, by_grid, wanted})));
}

ScryptRounds scrypt_rounds(const char* what, const DeviceInfo& info, const ScryptParams& params, std::size_t count,
                           std::uint32_t invocations_per_lane, std::uint64_t scratch_bytes) {
  std::size_t round = scrypt_hashes_per_round(what, info, params, count, invocations_per_lane);
  std::uint64_t per_hash = scrypt_v_bytes_per_hash(params) + 256ull * params.r * params.p;  // V and X
  std::size_t sets = 1;
  if (scratch_bytes != 0) {  // the fewest sets of at most `round` hashes that hold scratch_bytes
    std::uint64_t total = std::max<std::uint64_t>(1, scratch_bytes / per_hash);
    std::uint64_t wanted = (total + round - 1) / round;
    round = std::size_t((total + wanted - 1) / wanted);
    sets = std::size_t(std::min<std::uint64_t>(wanted, (count + round - 1) / round));
  }
  std::size_t waves = (count + round * sets - 1) / (round * sets);
  std::size_t per_wave = (count + waves - 1) / waves;
  return {(per_wave + sets - 1) / sets, sets};
}

std::uint32_t scrypt_steps_per_launch(const char* what, const DeviceInfo& info, const ScryptParams& params) {
  std::uint64_t per_step = 2ull * params.r + 1;
  if (per_step > scrypt_loop_budget && scrypt_loops_capped(info))
    throw std::invalid_argument(std::string(what) + ": r = " + std::to_string(params.r) +
                                " takes more loop iterations per BlockMix than " + info.name +
                                " runs in one invocation");
  return std::uint32_t(std::max<std::uint64_t>(1, scrypt_loop_budget / per_step));
}

}  // namespace detail

}  // namespace sprig::hash

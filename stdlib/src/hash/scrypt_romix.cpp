#include "sprig/stdlib/hash/scrypt_romix.hpp"

#include <algorithm>
#include <stdexcept>

namespace sprig::hash::detail {

const ScryptRomixRegisterKernel& scrypt_romix_register_kernel(ScryptLayout layout, bool cooperative, std::uint32_t r) {
  std::string name = std::string("scrypt_romix_") + scrypt_layout_name(layout) + (cooperative ? "_cooperative" : "") +
                     "_r" + std::to_string(r);
  auto trace = [=] {
    return kernel(
        name,
        [=](Buffer<uvec4> v, Buffer<std::uint32_t> x, UInt n, UInt lanes, UInt begin, UInt end) {
          UInt lane = 0u;
          ScryptMixer mixer = scrypt_mixer(cooperative, lane);
          if_(lane < lanes, [&] { scrypt_romix_register_steps(mixer, layout, r, v, x, lane, n, lanes, begin, end); });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<ScryptRomixRegisterKernel>(name, trace);
}

const ScryptRomixKernel& scrypt_romix_kernel(ScryptLayout layout, bool cooperative) {
  std::string name = std::string("scrypt_romix_") + scrypt_layout_name(layout) + (cooperative ? "_cooperative" : "");
  auto trace = [=] {
    return kernel(
        name,
        [=](Buffer<std::uint32_t> v, Buffer<std::uint32_t> x, UInt r, UInt n, UInt lanes, UInt begin, UInt end) {
          UInt lane = 0u;
          ScryptMixer mixer = scrypt_mixer(cooperative, lane);
          if_(lane < lanes, [&] { scrypt_romix_steps(mixer, layout, v, x, lane, r, n, lanes, begin, end); });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<ScryptRomixKernel>(name, trace);
}

void check_scrypt_cooperative(const char* what, const DeviceInfo& info) {
  std::uint32_t s = info.subgroup_size;
  if (s < 4 || s > scrypt_workgroup || (s & (s - 1)) != 0)
    throw std::invalid_argument(std::string(what) +
                                ": cooperative scrypt needs a subgroup size that is a power of two from 4 to " +
                                std::to_string(scrypt_workgroup) + "; " + info.name + " has " + std::to_string(s));
}

bool scrypt_in_registers(const ScryptParams& params) { return params.r <= scrypt_register_r_max; }

std::vector<ScryptScratch> scrypt_scratch(Device& device, const ScryptParams& params, const ScryptRounds& rounds) {
  std::size_t capacity = rounds.per_set * params.p, v_words = capacity * params.N * 32 * params.r;
  bool in_registers = scrypt_in_registers(params);
  std::vector<ScryptScratch> sets;
  for (std::size_t k = 0; k < rounds.sets; ++k)
    sets.push_back({device.alloc<std::uint32_t>(in_registers ? 1 : v_words),
                    device.alloc<std::uint32_t>(capacity * 2 * 32 * params.r),
                    device.alloc<uvec4>(in_registers ? v_words / 4 : 1), 0});
  return sets;
}

const DeviceBuffer<std::uint32_t>& scrypt_expand_target(const ScryptParams& params, const ScryptScratch& set) {
  return scrypt_in_registers(params) ? set.x : set.v;
}

std::uint32_t scrypt_expand_blocks(const ScryptParams& params) { return scrypt_in_registers(params) ? 2u : params.N; }

void scrypt_romix(Sequence& sequence, const DeviceInfo& info, const ScryptParams& params, const ScryptOptions& options,
                  const std::vector<ScryptScratch>& sets) {
  std::uint64_t steps = 2ull * params.N;
  std::uint64_t per_launch = scrypt_steps_per_launch("scrypt", info, params);
  bool in_registers = scrypt_in_registers(params);
  for (std::uint64_t begin = 0; begin < steps; begin += per_launch) {
    std::uint64_t end = std::min(steps, begin + per_launch);
    for (const ScryptScratch& set : sets) {
      if (set.lanes == 0) continue;
      std::uint64_t invocations = std::uint64_t(set.lanes) * (options.cooperative ? 4 : 1);
      if (in_registers)
        sequence.run(scrypt_romix_register_kernel(options.layout, options.cooperative, params.r), grid(invocations),
                     set.v4, set.x, params.N, set.lanes, std::uint32_t(begin), std::uint32_t(end));
      else
        sequence.run(scrypt_romix_kernel(options.layout, options.cooperative), grid(invocations), set.v, set.x,
                     params.r, params.N, set.lanes, std::uint32_t(begin), std::uint32_t(end));
    }
  }
}

}  // namespace sprig::hash::detail

#include "sprig/stdlib/hash/scrypt_romix.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace sprig::hash::detail {

const ScryptRomixRegisterKernel& scrypt_romix_register_kernel(ScryptLayout layout, bool cooperative, std::uint32_t r,
                                                              std::uint32_t sets) {
  std::string name = std::string("scrypt_romix_") + scrypt_layout_name(layout) + (cooperative ? "_cooperative" : "") +
                     "_r" + std::to_string(r) + (sets > 1 ? "_sets" + std::to_string(sets) : "");
  auto trace = [=] {
    return kernel(
        name,
        [=](Buffer<uvec4> v0, Buffer<uvec4> v1, Buffer<uvec4> v2, Buffer<uvec4> v3, Buffer<std::uint32_t> x0,
            Buffer<std::uint32_t> x1, Buffer<std::uint32_t> x2, Buffer<std::uint32_t> x3, UInt set_lanes, UInt lanes,
            UInt n, UInt begin, UInt end) {
          const std::array<Buffer<uvec4>, 4> v{v0, v1, v2, v3};
          const std::array<Buffer<std::uint32_t>, 4> x{x0, x1, x2, x3};
          UInt lane = 0u;
          ScryptMixer mixer = scrypt_mixer(cooperative, lane);
          if_(lane < lanes, [&] {
            if (sets == 1) {
              scrypt_romix_register_steps(mixer, layout, r, v[0], x[0], lane, n, lanes, begin, end);
              return;
            }
            UInt set = lane / set_lanes;  // one branch a subgroup, but where a set ends
            for (std::uint32_t k = 0; k < sets; ++k)
              if_(set == k, [&] {
                UInt first = set_lanes * k, set_count = min(set_lanes, lanes - first);
                scrypt_romix_register_steps(mixer, layout, r, v[k], x[k], lane - first, n, set_count, begin, end);
              });
          });
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

std::vector<std::size_t> scrypt_launch_groups(const DeviceInfo& info, std::uint32_t invocations_per_lane,
                                              const std::vector<std::uint32_t>& set_lanes) {
  std::uint64_t grid_lanes = std::uint64_t(info.max_workgroup_count[0]) * scrypt_workgroup / invocations_per_lane;
  std::vector<std::size_t> groups;
  for (std::size_t g = 0; g < set_lanes.size(); g += groups.back()) {
    std::uint64_t fit = std::max<std::uint64_t>(1, grid_lanes / std::max(1u, set_lanes[g]));
    groups.push_back(std::size_t(std::min<std::uint64_t>({scrypt_sets_per_launch, fit, set_lanes.size() - g})));
  }
  return groups;
}

void scrypt_romix(Sequence& sequence, const DeviceInfo& info, const ScryptParams& params, const ScryptOptions& options,
                  const std::vector<ScryptScratch>& sets) {
  std::uint64_t steps = 2ull * params.N;
  std::uint64_t per_launch = scrypt_steps_per_launch("scrypt", info, params);
  std::uint32_t per_lane = options.cooperative ? 4 : 1;
  std::vector<const ScryptScratch*> used;  // a prefix of the sets: all full but the last
  std::vector<std::uint32_t> used_lanes;
  for (const ScryptScratch& set : sets)
    if (set.lanes != 0) {
      used.push_back(&set);
      used_lanes.push_back(set.lanes);
    }
  const std::vector<std::size_t> groups = scrypt_launch_groups(info, per_lane, used_lanes);
  for (std::uint64_t begin = 0; begin < steps; begin += per_launch) {
    std::uint32_t first = std::uint32_t(begin), end = std::uint32_t(std::min(steps, begin + per_launch));
    if (!scrypt_in_registers(params)) {
      for (const ScryptScratch* set : used)
        sequence.run(scrypt_romix_kernel(options.layout, options.cooperative),
                     grid(std::uint64_t(set->lanes) * per_lane), set->v, set->x, params.r, params.N, set->lanes, first,
                     end);
      continue;
    }
    std::size_t g = 0;
    for (std::size_t count : groups) {
      auto at = [&](std::size_t k) { return used[g + (k < count ? k : 0)]; };
      std::uint32_t lanes = 0;
      for (std::size_t k = 0; k < count; ++k) lanes += at(k)->lanes;
      sequence.run(scrypt_romix_register_kernel(options.layout, options.cooperative, params.r, std::uint32_t(count)),
                   grid(std::uint64_t(lanes) * per_lane), at(0)->v4, at(1)->v4, at(2)->v4, at(3)->v4, at(0)->x,
                   at(1)->x, at(2)->x, at(3)->x, at(0)->lanes, lanes, params.N, first, end);
      g += count;
    }
  }
}

}  // namespace sprig::hash::detail

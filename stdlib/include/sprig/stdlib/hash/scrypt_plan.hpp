// How a batch of scrypt hashes is spread over a device's memory: in waves of `sets` rounds
// side by side, each round of at most `per_set` hashes in a scratch set of its own (V and X,
// within one buffer). Waves are filled evenly, so a batch just past a multiple of the wave
// does not end nearly empty. hash::scrypt and hash::scrypt_search follow this plan; calling
// it tells how many hashes a device keeps in flight, or why a call would be refused.
//
//   auto plan = hash::scrypt_plan(device.info(), {16384, 8, 1}, 100000);
//   // plan.per_set * plan.sets hashes per wave
#pragma once

#include <cstddef>

#include "sprig/stdlib/hash/scrypt_params.hpp"
#include "sprig/stdlib/hash/scrypt_romix.hpp"

namespace sprig::hash {

struct ScryptPlan {
  std::size_t per_set = 1;  // hashes per round of one scratch set
  std::size_t sets = 1;     // scratch sets whose rounds run side by side
};

// The plan for `count` hashes of `params` with `options` on a device described by `info`
// (no hashes: per_set = sets = 0).
// Throws std::invalid_argument, naming the problem, for parameters out of range or a hash
// whose scratch memory exceeds one buffer of the device.
ScryptPlan scrypt_plan(const DeviceInfo& info, const ScryptParams& params, std::size_t count,
                       const ScryptOptions& options = {});

}  // namespace sprig::hash

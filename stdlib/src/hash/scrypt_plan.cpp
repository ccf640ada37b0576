#include "sprig/stdlib/hash/scrypt_plan.hpp"

namespace sprig::hash {

ScryptPlan scrypt_plan(const DeviceInfo& info, const ScryptParams& params, std::size_t count,
                       const ScryptOptions& options) {
  detail::check_scrypt_params("scrypt", params);
  if (options.cooperative) detail::check_scrypt_cooperative("scrypt", info);
  if (count == 0) return {0, 0};
  detail::ScryptRounds rounds =
      detail::scrypt_rounds("scrypt", info, params, count, options.cooperative ? 4 : 1, options.scratch_bytes);
  return {rounds.per_set, rounds.sets};
}

}  // namespace sprig::hash
